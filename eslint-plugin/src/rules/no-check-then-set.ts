// no-check-then-set: a GET/EXISTS whose result decides a plain SET of the same key (attempt 1).

import { atomicSetFix } from '../fixes/atomic-set.js';
import { DEFAULT_TTL_MS } from '../fixes/scripts.js';
import { checkThenSetRead, getLockModel, isLockKeyWrite, isPlainWrite } from '../model/index.js';
import { createRule } from '../rule-support/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'checkThenSet' | 'useAtomicSet';
export type Options = [{ defaultTtlMs?: number }];

export default createRule<Options, MessageId>({
  name: 'no-check-then-set',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow taking a lock by reading its key and then writing it with a plain `SET`',
      recommended: 'error',
    },
    hasSuggestions: true,
    defaultOptions: [{ defaultTtlMs: DEFAULT_TTL_MS }],
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          defaultTtlMs: {
            type: 'integer',
            minimum: 1,
            description: 'TTL in milliseconds that the suggestion writes when the replaced write had none.',
          },
        },
      },
    ],
    messages: {
      checkThenSet:
        'There is a gap between the `{{read}}` that found the lock free and this `{{write}}`: every worker that read "free" in the meantime writes the key too, and all of them believe they hold the lock.',
      useAtomicSet: 'Acquire with one atomic `SET key token NX PX {{ttl}}` and let its reply decide',
    },
  },
  create(context, [{ defaultTtlMs = DEFAULT_TTL_MS }]) {
    return {
      'Program:exit'() {
        const { redis: model, settings } = getLockModel(context);
        for (const write of model.commands) {
          if (!isPlainWrite(write) || !write.key || write.keySignature === undefined) continue;
          if (!isLockKeyWrite(model, settings.lockKeyPattern, write)) continue;
          const found = checkThenSetRead(context.sourceCode, model, write);
          if (!found) continue;
          const fix = atomicSetFix(context.sourceCode, write, found, String(defaultTtlMs));
          context.report({
            node: write.call,
            messageId: 'checkThenSet',
            data: {
              read: found.read.name,
              write: write.name,
              ...relatedData({ message: `The \`${found.read.name}\` that found the lock free`, node: found.read.call, role: 'read' }),
            },
            // A suggestion, not an autofix: the acquisition becomes a different command.
            suggest: fix ? [{ messageId: 'useAtomicSet', data: { ttl: fix.ttlText }, fix: fix.apply }] : [],
          });
        }
      },
    };
  },
});
