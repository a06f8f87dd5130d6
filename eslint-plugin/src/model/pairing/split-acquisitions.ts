// A split acquisition's pairing: the acquisition without a TTL that a plain `EXPIRE` completes
// (`SETNX` then `EXPIRE`), as opposed to an `EXPIRE` that renews a lock.

import { contains, isFunctionLike } from '../../util/ast.js';
import { eventNode, runsBefore, within } from '../facts/source-order.js';
import type { Acquisition, Expiry, RedisModel } from '../nouns/redis-events.js';
import { inEnclosingFunctions, redisIndex } from './indexes.js';
import { isRawCommand } from '../tables/redis-clients.js';

/**
 * The acquisition without a TTL that this plain `EXPIRE` completes — the split acquire of
 * `SETNX` then `EXPIRE`: the first expiry of the same key after it, in the same function or in a
 * callback of the acquisition itself. A later expiry, or one in a timer, renews instead.
 */
export function splitAcquisitionOf(model: RedisModel, expiry: Expiry): Acquisition | undefined {
  if (expiry.kind !== 'expire' || expiry.keySignature === undefined) return undefined;
  const index = redisIndex(model);
  let match: Acquisition | undefined;
  // An acquisition it completes runs in its function or holds it in a callback: in a function around it.
  for (const acquisition of inEnclosingFunctions(
    index.acquisitionsByOwnerAndKey,
    index.acquisitionOrder,
    expiry.owner,
    expiry.keySignature,
  )) {
    if (acquisition.hasTtl || !isRawCommand(acquisition)) continue;
    if (completesAcquisition(acquisition, expiry)) match = acquisition;
  }
  if (!match) return undefined;
  const acquisition = match;
  // Those it completes run in the acquisition's function (nested callbacks included).
  const firstExpiry = within(index.expiriesByKey.get(expiry.keySignature), acquisition.owner.range, eventNode).find(
    (candidate) => candidate.kind === 'expire' && completesAcquisition(acquisition, candidate),
  );
  return firstExpiry === expiry ? acquisition : undefined;
}

export function completesAcquisition(acquisition: Acquisition, expiry: Expiry): boolean {
  if (!runsBefore(acquisition.node, expiry.node)) return false;
  if (expiry.owner === acquisition.owner) return true;
  // node_redis v3: the expiry inside the acquisition's own callback.
  return acquisition.node.arguments.some((argument) => isFunctionLike(argument) && contains(argument, expiry.node));
}
