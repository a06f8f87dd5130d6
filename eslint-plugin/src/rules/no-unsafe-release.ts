// no-unsafe-release: freeing a lock without atomically checking that this holder still owns it.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isExpressionAvailableAt } from '../fixes/edits.js';
import { compareAndDeleteFix as primitiveCompareAndDeleteFix } from '../fixes/primitive-call.js';
import { ownerComparisonFix } from '../fixes/sql-owner-compare.js';
import { scriptCallFix, tokenTextAt } from '../fixes/script-call.js';
import { tokenByName } from '../fixes/token-by-name.js';
import {
  acquiredAt,
  compareAndDeleteCommand,
  getLockModel,
  isHousekeeping,
  isLockKey,
  isUnownedRelease,
  type LockTableAcquisition,
  type LockTableRelease,
  ownerCheckAround,
  type RedisModel,
  type Release,
  watchGuardOf,
  isRawCommand,
} from '../model/index.js';
import { luaCompareFirstEdit } from '../fixes/lua-compare-first.js';
import { createRule, type LocksmithRuleContext } from '../rule-support/create-rule.js';
import { luaLoc, luaModelOf } from '../rule-support/lua-report.js';
import { relatedData } from '../util/related.js';

export type MessageId =
  | 'plainDelete'
  | 'checkThenDelete'
  | 'watchOnSharedClient'
  | 'watchUnchecked'
  | 'uncheckedScript'
  | 'useCompareAndDelete'
  | 'useServerCompareAndDelete'
  | 'unownedRowRelease'
  | 'compareOwner'
  | 'compareInScript';
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
      plainDelete:
        "`{{command}}` releases the lock even when another holder owns it now: if this holder's lock expired, it frees the next holder's lock and lets a third one in.",
      checkThenDelete:
        "The owner check and the `{{command}}` are two commands: the lock can expire and pass to another holder between them, and this `{{command}}` then frees that holder's lock.",
      watchOnSharedClient:
        "`WATCH` on a shared client guards nothing: the client carries other callers' commands on the same connection, and any of them between this `WATCH` and `EXEC` (another `EXEC`, a `MULTI`, an `UNWATCH`) ends the watch, so the lock can pass to another holder after the check and this `{{command}}` frees that holder's lock.",
      watchUnchecked:
        "This `WATCH` guards the `{{command}}` only inside `MULTI`/`EXEC` with EXEC's reply read: a `null` reply means the key changed and nothing was deleted. Here the `{{command}}` runs outside a transaction or its reply is dropped, so the check and the delete are two steps.",
      uncheckedScript:
        "This script deletes the lock without first comparing its value with the caller's token, so it frees whoever holds the lock now.",
      useCompareAndDelete: 'Release with the compare-and-delete script',
      useServerCompareAndDelete: "Release with the server's `{{primitive}}`, which deletes only while the lock holds this token",
      unownedRowRelease:
        "This `{{statement}}` frees the lock row whoever owns it now: if this holder's lock expired and another holder took it, it frees that holder's lock and lets a third one in. An owner check in JavaScript before it does not help: the row can change hands in between.",
      compareOwner: "Release only this holder's row: add `AND {{column}} = {{value}}` to the `WHERE`",
      compareInScript:
        "Delete only while the lock holds the caller's token: compare it with `{{token}}` first (callers pass their token there)",
    },
  },
  // In a `.lua` file: each DEL/UNLINK of a `KEYS[n]` key that no owner comparison guards.
  lua(context) {
    return {
      'Chunk:exit'() {
        const model = luaModelOf(context);
        for (const release of model?.unguardedReleases ?? []) {
          const edit = luaCompareFirstEdit(context.sourceCode.text, context.sourceCode.ast, release);
          context.report({
            loc: luaLoc(context, release.range),
            messageId: 'plainDelete',
            data: { command: release.command },
            // A suggestion, not an autofix: the script's callers must start passing their token.
            suggest: edit
              ? [
                  {
                    messageId: 'compareInScript',
                    data: { token: edit.tokenArgument },
                    fix: (fixer) => fixer.replaceTextRange(edit.range, edit.text),
                  },
                ]
              : [],
          });
        }
      },
    };
  },
  create(context) {
    return {
      'Program:exit'() {
        const lockModel = getLockModel(context);
        const { redis: model, settings, locks } = lockModel;
        const primitive = compareAndDeleteCommand(settings.redis);
        for (const release of model.releases) {
          if (release.safe || !isRawCommand(release) || !release.command || !release.key) continue;
          // A test's setup or teardown, or the deletion of a value its own function just wrote.
          if (isHousekeeping(model, release)) continue;
          const checkedBy = release.kind === 'del' ? ownerCheckAround(context.sourceCode, model, release) : undefined;
          // Comparing the stored value with a token before deleting is itself the mark of a lock.
          if (!checkedBy && !isLockKey(model, release.key)) continue;
          // WATCH … MULTI/DEL/EXEC on a connection of its own, with EXEC's null reply read, is atomic.
          const watched = watchGuardOf(context.sourceCode, release);
          if (watched?.verdict === 'held') continue;
          const messageId: MessageId =
            release.kind === 'script'
              ? 'uncheckedScript'
              : watched?.verdict === 'shared'
                ? 'watchOnSharedClient'
                : watched?.verdict === 'unchecked'
                  ? 'watchUnchecked'
                  : checkedBy
                    ? 'checkThenDelete'
                    : 'plainDelete';
          const fix = compareAndDeleteFix(context, model, release, checkedBy);
          // The server's own compare-and-delete first, when the configured server has one.
          const primitiveFix = fix && primitive ? serverCompareAndDeleteFix(context, model, release, checkedBy, primitive) : undefined;
          const suggest: TSESLint.SuggestionReportDescriptor<MessageId>[] = [];
          if (primitiveFix)
            suggest.push({
              messageId: 'useServerCompareAndDelete',
              data: { primitive: primitive === 'DELEX' ? 'DELEX … IFEQ' : 'DELIFEQ' },
              fix: primitiveFix,
            });
          if (fix) suggest.push({ messageId: 'useCompareAndDelete', fix });
          context.report({
            node: release.node,
            messageId,
            data: {
              command: release.command.name,
              ...relatedData(
                acquiredAt(locks, release),
                checkedBy && { message: 'The owner check, a separate command', node: checkedBy, role: 'read' },
                watched && { message: 'The WATCH', node: watched.watch },
              ),
            },
            // A suggestion, not an autofix: the release starts sending a script instead of DEL.
            suggest,
          });
        }
        const sql = lockModel.sql;
        for (const release of sql.lockTableReleases) {
          if (!isUnownedRelease(sql, release)) continue;
          const acquisition = locks.lockReleasedBy(release)?.lockTable;
          const suggestion = ownerComparisonSuggestion(context, release, acquisition);
          context.report({
            node: release.node,
            messageId: 'unownedRowRelease',
            data: {
              statement: release.kind === 'delete' ? 'DELETE' : 'UPDATE',
              ...relatedData(acquisition && { message: 'The lock row is taken here', node: acquisition.node, role: 'acquisition' }),
            },
            // A suggestion, not an autofix: the statement stops freeing rows that another holder owns.
            suggest: suggestion ? [suggestion] : [],
          });
        }
      },
    };
  },
});

/** `AND owner = <the acquisition's owner>` as the release's suggestion. */
function ownerComparisonSuggestion(
  context: LocksmithRuleContext<MessageId, Options>,
  release: LockTableRelease,
  acquisition: LockTableAcquisition | undefined,
): TSESLint.SuggestionReportDescriptor<MessageId> | undefined {
  const comparison = ownerComparisonFix(context.sourceCode, release, acquisition);
  return (
    comparison && { messageId: 'compareOwner', data: { column: comparison.column, value: comparison.placeholder }, fix: comparison.fix }
  );
}

/** The token the release must compare, as text visible at the release. */
function releaseTokenText(
  context: LocksmithRuleContext<MessageId, Options>,
  model: RedisModel,
  release: Release,
  checkedBy: TSESTree.Node | undefined,
): string | undefined {
  const sourceCode = context.sourceCode;
  const command = release.command!;
  const acquisition = getLockModel(context).locks.lockReleasedBy(release)?.redis;
  const available = (expression: TSESTree.Node, at: TSESTree.Node) => isExpressionAvailableAt(sourceCode, expression, at);
  // A split lock's acquisition builds its token in another function: its text means nothing here.
  const acquiredToken = acquisition?.keySignature === release.keySignature ? acquisition?.value : undefined;
  return (
    tokenTextAt(sourceCode, [checkedBy, acquiredToken, command.script?.args[0]], release.node, available) ??
    tokenByName(sourceCode, release.node)
  );
}

function serverCompareAndDeleteFix(
  context: LocksmithRuleContext<MessageId, Options>,
  model: RedisModel,
  release: Release,
  checkedBy: TSESTree.Node | undefined,
  primitive: 'DELEX' | 'DELIFEQ',
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const command = release.command;
  if (!command || !release.key) return undefined;
  const tokenText = releaseTokenText(context, model, release, checkedBy);
  if (tokenText === undefined) return undefined;
  return primitiveCompareAndDeleteFix(context.sourceCode, primitive, {
    command,
    keyText: context.sourceCode.getText(release.key),
    tokenText,
  });
}

function compareAndDeleteFix(
  context: LocksmithRuleContext<MessageId, Options>,
  model: RedisModel,
  release: Release,
  checkedBy: TSESTree.Node | undefined,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const sourceCode = context.sourceCode;
  const command = release.command;
  if (!command || !release.key) return undefined;
  const tokenText = releaseTokenText(context, model, release, checkedBy);
  if (tokenText === undefined) return undefined;
  return scriptCallFix(sourceCode, model, { kind: 'release', command, keyText: sourceCode.getText(release.key), argTexts: [tokenText] });
}
