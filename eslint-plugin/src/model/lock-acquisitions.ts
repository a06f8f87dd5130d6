// Whether a Redis acquisition takes a lock or only a write-once marker, for rules whose finding
// only makes sense for a lock (a missing TTL, a shared value).

import type { TSESLint } from '@typescript-eslint/utils';
import { looksLikeLockKey } from './keys.js';
import type { Acquisition, RedisModel } from './redis-model.js';

/**
 * `SET NX`/`SETNX` also writes markers meant to stay (`SETNX processed:42 1` for idempotency), and a
 * marker needs neither a TTL nor a unique value. An acquisition is a lock when its key looks like a
 * lock key (`lockKeyPattern`) or when this module releases the same key again.
 */
export function isLockAcquisition(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
  lockKeyPattern: RegExp,
  acquisition: Acquisition,
): boolean {
  if (acquisition.key && looksLikeLockKey(sourceCode, acquisition.key, lockKeyPattern)) return true;
  return acquisition.keySignature !== undefined
    && model.releases.some((release) => release.keySignature === acquisition.keySignature);
}
