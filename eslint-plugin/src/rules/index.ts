// Every Locksmith rule, sorted by id. Rule ids are public API: never rename one.

import type { TSESLint } from '@typescript-eslint/utils';
import noCheckThenSet from './no-check-then-set.js';
import noLockKeyWrite from './no-lock-key-write.js';
import noLockTakeover from './no-lock-takeover.js';
import noLuaReplyPitfalls from './no-lua-reply-pitfalls.js';
import noPooledAdvisoryLock from './no-pooled-advisory-lock.js';
import noSplitAcquire from './no-split-acquire.js';
import noUnneededLock from './no-unneeded-lock.js';
import noUnsafeExtend from './no-unsafe-extend.js';
import noUnsafeRelease from './no-unsafe-release.js';
import noXactLockOutsideTransaction from './no-xact-lock-outside-transaction.js';
import requireAcquireCheck from './require-acquire-check.js';
import requireFencingToken from './require-fencing-token.js';
import requireLockLossHandling from './require-lock-loss-handling.js';
import requireLockTtl from './require-lock-ttl.js';
import requireReleaseCheck from './require-release-check.js';
import requireReleaseInFinally from './require-release-in-finally.js';
import requireUniqueToken from './require-unique-token.js';

export const rules = {
  'no-check-then-set': noCheckThenSet,
  'no-lock-key-write': noLockKeyWrite,
  'no-lock-takeover': noLockTakeover,
  'no-lua-reply-pitfalls': noLuaReplyPitfalls,
  'no-pooled-advisory-lock': noPooledAdvisoryLock,
  'no-split-acquire': noSplitAcquire,
  'no-unneeded-lock': noUnneededLock,
  'no-unsafe-extend': noUnsafeExtend,
  'no-unsafe-release': noUnsafeRelease,
  'no-xact-lock-outside-transaction': noXactLockOutsideTransaction,
  'require-acquire-check': requireAcquireCheck,
  'require-fencing-token': requireFencingToken,
  'require-lock-loss-handling': requireLockLossHandling,
  'require-lock-ttl': requireLockTtl,
  'require-release-check': requireReleaseCheck,
  'require-release-in-finally': requireReleaseInFinally,
  'require-unique-token': requireUniqueToken,
} satisfies Record<string, TSESLint.RuleModule<string, readonly unknown[]>>;

export type RuleId = keyof typeof rules;
