// no-split-acquire: a holder killed between SETNX and EXPIRE leaves a lock that never expires; the
// fix's single SET NX PX, killed at the same point, expires after its TTL.

import { randomUUID } from 'node:crypto';
import { crashHolderAfterStep } from '../crash.js';
import { atomicSetText, dialectFor, splitAcquireTexts } from '../fixed-code.js';
import type { Scenario } from '../harness.js';
import { checkLockFreesAfterCrash } from './crashed-holder.js';

export const noSplitAcquire: Scenario = {
  id: 'no-split-acquire',
  rule: 'no-split-acquire',
  brokenShows: 'holder killed between `SETNX` and `EXPIRE`: the lock never expires',
  fixedShows: 'the lock expires after its TTL',
  fixSource: '`renderAtomicSet`, run in a child process that is SIGKILLed after the acquisition',
  async run(context) {
    const key = context.key('lock');
    const dialect = dialectFor(context.run);
    const steps = context.variant === 'broken' ? splitAcquireTexts(dialect) : [atomicSetText(dialect)];
    // Killed right after the acquisition: for the broken code, before its EXPIRE ran.
    const reports = await crashHolderAfterStep(context, { dialect, key, token: randomUUID(), ttlMs: context.options.shortTtlMs, steps }, 0);
    context.tally.note(`holder (${dialect}) killed after \`${steps[0]}\` replied ${JSON.stringify(reports[0]?.reply)}`);
    await checkLockFreesAfterCrash(context, key, reports[0]?.reply);
  },
};
