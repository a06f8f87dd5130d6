// require-lock-loss-handling: work under an auto-extending lock that never asks whether the lock was lost.

import { getLockModel, hasAutoExtendingLocks, locksIgnoringLoss, type LockLossIgnored } from '../model/index.js';
import { createRule } from '../rule-support/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'redlockSignalIgnored' | 'semaphoreLossIgnored';
export type Options = [];

/** The message for each way a library tells the work its lock was lost (LockLossIgnored's lossSignal). */
const LOSS_MESSAGES: Readonly<Record<LockLossIgnored['lossSignal'], MessageId>> = {
  routine: 'redlockSignalIgnored',
  timer: 'semaphoreLossIgnored',
};

export default createRule<Options, MessageId>({
  name: 'require-lock-loss-handling',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require work under an auto-extending lock to handle the lock being lost',
      recommended: false,
    },
    schema: [],
    messages: {
      redlockSignalIgnored:
        'The routine never consults the abort signal Redlock passes it before it writes: when an automatic extension fails the lock is gone, another holder can take it, and this routine writes on as if it still held it. Check `signal.aborted` (or `signal.throwIfAborted()`) before writing, or pass `signal` on.',
      semaphoreLossIgnored:
        'This lock refreshes itself, but nothing handles its loss: with no `onLockLost` option the lost-lock error is thrown from the refresh timer, where no `try` of the work can catch it, and the work never checks `isAcquired` before it writes. Pass `onLockLost` (abort the work there) or check `isAcquired` before writing.',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const redis = getLockModel(context).redis;
        if (!hasAutoExtendingLocks(context.sourceCode, redis)) return;
        for (const ignored of locksIgnoringLoss(context.sourceCode, redis, getLockModel(context).sql)) {
          context.report({
            node: ignored.acquisition.node,
            messageId: LOSS_MESSAGES[ignored.lossSignal],
            data: relatedData({ message: 'The first write made without asking whether the lock is still held', node: ignored.write }),
          });
        }
      },
    };
  },
});
