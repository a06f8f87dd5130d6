// Every runtime proof, in the order of the table (one scenario per row).

import type { Scenario } from '../harness.js';
import { fenceMintedAfterAcquisition } from './fence-minted-after-acquisition.js';
import { noCheckThenSet } from './no-check-then-set.js';
import { noLockKeyWrite } from './no-lock-key-write.js';
import { noLockTakeover } from './no-lock-takeover.js';
import { noLuaReplyPitfalls } from './no-lua-reply-pitfalls.js';
import { noPooledAdvisoryLock } from './no-pooled-advisory-lock.js';
import { noSplitAcquire } from './no-split-acquire.js';
import { noUnsafeExtend } from './no-unsafe-extend.js';
import { noUnsafeExtendXx } from './no-unsafe-extend-xx.js';
import { noUnsafeRelease } from './no-unsafe-release.js';
import { noXactLockOutsideTransaction } from './no-xact-lock-outside-transaction.js';
import { requireFencingToken } from './require-fencing-token.js';
import { requireLockLossHandling } from './require-lock-loss-handling.js';
import { requireLockTtl } from './require-lock-ttl.js';
import { requireReleaseCheck } from './require-release-check.js';
import { requireReleaseInFinally } from './require-release-in-finally.js';
import { requireUniqueToken } from './require-unique-token.js';

export const SCENARIOS: readonly Scenario[] = [
  noCheckThenSet,
  noSplitAcquire,
  requireLockTtl,
  requireUniqueToken,
  noUnsafeRelease,
  noUnsafeExtend,
  noUnsafeExtendXx,
  requireFencingToken,
  fenceMintedAfterAcquisition,
  noPooledAdvisoryLock,
  noXactLockOutsideTransaction,
  noLockTakeover,
  requireReleaseInFinally,
  noLockKeyWrite,
  requireReleaseCheck,
  requireLockLossHandling,
  noLuaReplyPitfalls,
];
