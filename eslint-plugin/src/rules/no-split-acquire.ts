// no-split-acquire: SETNX (or SET NX without expiry) followed by a separate EXPIRE of the same key.

import type { TSESLint } from '@typescript-eslint/utils';
import { expiryRemoval, isExpressionAvailableAt, removeStatement } from '../fixes/edits.js';
import { type Acquisition, type Expiry, getLockModel, isUsedOnlyAsCondition, splitAcquisitionOf } from '../model/index.js';
import { renderAtomicSet } from '../fixes/templates.js';
import { ttlInMilliseconds } from '../fixes/ttl.js';
import { createRule, type LocksmithRuleContext } from '../rule-support/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'splitAcquire' | 'splitAcquireInTransaction' | 'useAtomicSet';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'no-split-acquire',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow taking a Redis lock with `SETNX` and giving it an expiry in a separate command',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      splitAcquire:
        'This `{{expiry}}` runs as a second command after `{{acquire}}`: a holder that crashes between the two leaves a lock that never expires.',
      splitAcquireInTransaction:
        'This `{{expiry}}` is queued after `{{acquire}}` in the same transaction and runs even when `{{acquire}}` failed, extending a lock someone else holds.',
      useAtomicSet: 'Acquire with one atomic `SET key token NX PX {{ttl}}` and drop the separate `{{expiry}}`',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context).redis;
        for (const expiry of model.expiries) {
          const acquisition = splitAcquisitionOf(model, expiry);
          if (!acquisition?.command || !expiry.command) continue;
          const inTransaction =
            expiry.command.client.chain !== undefined && expiry.command.client.chain === acquisition.command.client.chain;
          const data = { expiry: expiry.command.name, acquire: acquisition.command.name };
          const fix = atomicSetFix(context, acquisition, expiry);
          context.report({
            node: expiry.node,
            messageId: inTransaction ? 'splitAcquireInTransaction' : 'splitAcquire',
            data: {
              ...data,
              ...relatedData({
                message: `\`${acquisition.command.name}\` takes the lock here, with no expiry`,
                node: acquisition.node,
                role: 'acquisition',
              }),
            },
            // A suggestion, not an autofix: it changes which commands reach Redis.
            suggest: fix ? [{ messageId: 'useAtomicSet', data: { ttl: fix.ttlText, expiry: expiry.command.name }, fix: fix.apply }] : [],
          });
        }
      },
    };
  },
});

interface AtomicSetFix {
  readonly ttlText: string;
  readonly apply: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];
}

function atomicSetFix(
  context: LocksmithRuleContext<MessageId, Options>,
  acquisition: Acquisition,
  expiry: Expiry,
): AtomicSetFix | undefined {
  const sourceCode = context.sourceCode;
  const acquire = acquisition.command!;
  const expire = expiry.command!;
  if (!acquire.key || !acquire.value) return undefined;
  const ttlMs = ttlInMilliseconds(sourceCode, expire);
  if (ttlMs === undefined) return undefined;
  const ttlNode = expire.args[1];
  if (ttlNode && !isExpressionAvailableAt(sourceCode, ttlNode, acquire.call)) return undefined;

  const removal = expiryRemoval(expire);
  if (!removal) return undefined;

  // SETNX replies 1/0; SET NX replies 'OK'/null. Keep the reply's meaning for code that compares
  // it. Queued (MULTI) and callback replies are only ever tested for truthiness in practice.
  const keepsNumericReply =
    acquire.name === 'SETNX' && !acquire.client.chain && !acquire.callback && !isUsedOnlyAsCondition(sourceCode, acquire.call);

  const rendered = renderAtomicSet(acquire.dialect, {
    client: sourceCode.getText(acquire.receiver),
    key: sourceCode.getText(acquire.key),
    value: sourceCode.getText(acquire.value),
    ttlMs,
  });
  // With a callback, rewrite only the text before it: the callback may hold the EXPIRE being removed.
  const replaced: [number, number] = acquire.callback ? [acquire.call.range[0], acquire.callback.range[0]] : acquire.call.range;
  const replacement = acquire.callback
    ? `${rendered.slice(0, -1)}, `
    : keepsNumericReply
      ? `${rendered}.then((reply) => (reply === 'OK' ? 1 : 0))`
      : rendered;

  return {
    ttlText: ttlMs,
    apply: (fixer) => {
      const fixes = [fixer.replaceTextRange(replaced, replacement)];
      if (removal.kind === 'statement') fixes.push(removeStatement(fixer, sourceCode, removal.node));
      else fixes.push(fixer.removeRange([removal.from, removal.to]));
      return fixes;
    },
  };
}
