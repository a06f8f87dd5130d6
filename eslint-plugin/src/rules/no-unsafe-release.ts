// no-unsafe-release: freeing a lock without atomically checking that this holder still owns it.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isExpressionAvailableAt } from '../fixes/edits.js';
import { scriptCallFix, tokenTextAt } from '../fixes/script-call.js';
import { tokenByName } from '../fixes/token-by-name.js';
import { getLockModel } from '../model/index.js';
import { acquiredAt, acquisitionForRelease, ownerCheckAround } from '../model/queries.js';
import type { RedisModel, Release } from '../model/redis-model.js';
import { createRule } from '../util/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'plainDelete' | 'checkThenDelete' | 'uncheckedScript' | 'useCompareAndDelete';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'no-unsafe-release',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow releasing a lock without atomically comparing its token',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      plainDelete: '`{{command}}` releases the lock even when another holder owns it now: if this holder\'s lock expired, it frees the next holder\'s lock and lets a third one in.',
      checkThenDelete: 'The owner check and the `{{command}}` are two commands: the lock can expire and pass to another holder between them, and this `{{command}}` then frees that holder\'s lock.',
      uncheckedScript: 'This script deletes the lock without first comparing its value with the caller\'s token, so it frees whoever holds the lock now.',
      useCompareAndDelete: 'Release with the compare-and-delete script',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context).redis;
        for (const release of model.releases) {
          if (release.safe || release.library !== 'redis' || !release.command || !release.key) continue;
          const checkedBy = release.kind === 'del' ? ownerCheckAround(model, release) : undefined;
          // Comparing the stored value with a token before deleting is itself the mark of a lock.
          if (!checkedBy && !model.isLockKey(release.key)) continue;
          const messageId: MessageId = release.kind === 'script' ? 'uncheckedScript' : checkedBy ? 'checkThenDelete' : 'plainDelete';
          const fix = compareAndDeleteFix(context, model, release, checkedBy);
          context.report({
            node: release.node,
            messageId,
            data: {
              command: release.command.name,
              ...relatedData(
                acquiredAt(model, release),
                checkedBy && { message: 'The owner check, a separate command', node: checkedBy },
              ),
            },
            // A suggestion, not an autofix: the release starts sending a script instead of DEL.
            suggest: fix ? [{ messageId: 'useCompareAndDelete', fix }] : [],
          });
        }
      },
    };
  },
});

function compareAndDeleteFix(
  context: Readonly<TSESLint.RuleContext<MessageId, Options>>,
  model: RedisModel,
  release: Release,
  checkedBy: TSESTree.Node | undefined,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const sourceCode = context.sourceCode;
  const command = release.command;
  if (!command || !release.key) return undefined;
  const acquisition = acquisitionForRelease(model, release);
  const available = (expression: TSESTree.Node, at: TSESTree.Node) => isExpressionAvailableAt(sourceCode, expression, at);
  const tokenText = tokenTextAt(sourceCode, [checkedBy, acquisition?.value, command.script?.args[0]], release.node, available)
    ?? tokenByName(sourceCode, release.node);
  if (tokenText === undefined) return undefined;
  return scriptCallFix(sourceCode, model, { kind: 'release', command, keyText: sourceCode.getText(release.key), argTexts: [tokenText] });
}
