// require-lock-ttl: a holder that took the lock without an expiry and crashed holds it forever; with
// the expiry option the fix adds, the lock frees itself after its TTL.

import { randomUUID } from 'node:crypto';
import { crashHolderAfterStep } from '../crash.js';
import { dialectFor, setNxWithoutTtlText } from '../fixed-code.js';
import type { Scenario } from '../harness.js';
import { checkLockFreesAfterCrash } from './crashed-holder.js';

export const requireLockTtl: Scenario = {
  id: 'require-lock-ttl',
  rule: 'require-lock-ttl',
  brokenShows: 'holder killed: lock held forever',
  fixedShows: 'expires',
  fixSource: '`renderTtlOption` added to the acquisition, run in a child process that is SIGKILLed while holding',
  async run(context) {
    const key = context.key('lock');
    // Offset from no-split-acquire's choice so each run exercises another dialect here.
    const dialect = dialectFor(context.run + 1);
    const texts = setNxWithoutTtlText(dialect);
    const acquisition = context.variant === 'broken' ? texts.broken : texts.fixed;
    const reports = await crashHolderAfterStep(context, { dialect, key, token: randomUUID(), ttlMs: context.options.shortTtlMs, steps: [acquisition] }, 0);
    context.tally.note(`holder (${dialect}) killed while holding after \`${acquisition}\` replied ${JSON.stringify(reports[0]?.reply)}`);
    await checkLockFreesAfterCrash(context, key, reports[0]?.reply);
  },
};
