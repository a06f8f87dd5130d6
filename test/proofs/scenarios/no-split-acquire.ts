// no-split-acquire: a holder killed between SETNX and EXPIRE leaves a lock that never expires; the
// fix's single SET NX PX, killed at the same point, expires after its TTL.

import { atomicSetText, splitAcquireTexts } from '../fixed-code.js';
import type { Scenario } from '../harness.js';
import { crashHoldersAndWait } from './crashed-holder.js';

export const noSplitAcquire: Scenario = {
  id: 'no-split-acquire',
  rule: 'no-split-acquire',
  brokenShows: 'holder killed between `SETNX` and `EXPIRE`: the lock never expires',
  fixedShows: 'the lock expires after its TTL',
  fixSource: '`renderAtomicSet`, run in child processes (one per client library) SIGKILLed right after the acquisition',
  async run(context) {
    // Killed right after the acquisition: for the broken code, before its EXPIRE ran.
    await crashHoldersAndWait(
      context,
      (dialect) => (context.variant === 'broken' ? splitAcquireTexts(dialect) : [atomicSetText(dialect)]),
      0,
    );
  },
};
