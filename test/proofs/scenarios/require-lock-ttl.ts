// require-lock-ttl: a holder that took the lock without an expiry and crashed holds it forever; with
// the expiry option the fix adds, the lock frees itself after its TTL.

import { setNxWithoutTtlText } from '../fixed-code.js';
import type { Scenario } from '../harness.js';
import { crashHoldersAndWait } from './crashed-holder.js';

export const requireLockTtl: Scenario = {
  id: 'require-lock-ttl',
  rule: 'require-lock-ttl',
  brokenShows: 'holder killed: lock held forever',
  fixedShows: 'expires',
  fixSource: '`renderTtlOption` added to the acquisition, run in child processes (one per client library) SIGKILLed while holding',
  async run(context) {
    await crashHoldersAndWait(
      context,
      (dialect) => {
        const texts = setNxWithoutTtlText(dialect);
        return [context.variant === 'broken' ? texts.broken : texts.fixed];
      },
      0,
    );
  },
};
