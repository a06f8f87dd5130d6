// Which Redis renewals can extend another holder's lock: a plain EXPIRE of a lock key, a SET XX
// that overwrites the key, a compare-and-set that drops the TTL, a script that renews without
// comparing the owner.

import type { TSESLint } from '@typescript-eslint/utils';
import { staticString } from '../../util/ast.js';
import { splitAcquisitionOf } from '../pairing/split-acquisitions.js';
import type { Expiry, RedisModel } from '../nouns/redis-events.js';
import { isRawCommand } from '../tables/redis-clients.js';

/**
 * A Redis renewal that does not compare the owner: a plain expiry that is not the second half of a
 * split acquire (no-split-acquire owns those), or a script whose expiry is not owner-checked.
 */
export function isUnsafeRenewal(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, expiry: Expiry): boolean {
  if (expiry.safe || !isRawCommand(expiry) || !expiry.command || !expiry.key) return false;
  if (expiry.kind === 'compare') return expiry.dropsTtl === true;
  if (expiry.kind === 'overwrite') return true;
  if (expiry.kind === 'expire') return splitAcquisitionOf(model, expiry) === undefined && !onlyWhenNoExpiry(sourceCode, expiry);
  if (expiry.kind !== 'script') return false;
  const summary = expiry.command.script?.script?.summary;
  // A script that also writes or counts the key sets it (an acquire, a rate limiter), it does not renew it.
  return summary !== undefined && summary.sets.length === 0 && summary.increments.length === 0;
}

/**
 * `EXPIRE key 30 NX` (Redis 7) sets a TTL only on a key that has none: a safety net for a lock
 * that lost its expiry, which cannot extend another holder's (always expiring) lock.
 */
function onlyWhenNoExpiry(sourceCode: Readonly<TSESLint.SourceCode>, expiry: Expiry): boolean {
  return expiry.command!.args.slice(2).some((argument) => staticString(sourceCode, argument)?.toUpperCase() === 'NX');
}
