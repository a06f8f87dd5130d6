// Questions several rules ask of the lock model, answered once here.

import type { TSESTree } from '@typescript-eslint/utils';
import { contains, isFunctionLike } from '../util/ast.js';
import type { Acquisition, Expiry, RedisModel, Release } from './redis-model.js';

/** True when `earlier` runs before `later` in the same function or in a function nested in it. */
export function precedesInScope(earlier: { node: TSESTree.CallExpression; owner: TSESTree.Node }, later: { node: TSESTree.CallExpression; owner: TSESTree.Node }): boolean {
  return contains(earlier.owner, later.node) && runsBefore(earlier.node, later.node);
}

/**
 * Source order, adjusted for the two ways a later command can be written around an earlier one:
 * a chain link (`multi().setnx(k).expire(k)`) and a node_redis v3 callback (`setnx(k, v, () => expire(k))`).
 */
export function runsBefore(earlier: TSESTree.CallExpression, later: TSESTree.CallExpression): boolean {
  if (earlier.range[1] <= later.range[0]) return true;
  if (contains(later.callee, earlier)) return true;
  return contains(earlier, later) && earlier.arguments.some((argument) => isFunctionLike(argument) && contains(argument, later));
}

/**
 * The acquisition without a TTL that this plain `EXPIRE` completes — the split acquire of
 * `SETNX` then `EXPIRE`. Undefined when the expiry renews a lock taken elsewhere.
 */
export function splitAcquisitionOf(model: RedisModel, expiry: Expiry): Acquisition | undefined {
  if (expiry.kind !== 'expire' || expiry.keySignature === undefined) return undefined;
  let match: Acquisition | undefined;
  for (const acquisition of model.acquisitions) {
    if (acquisition.hasTtl || acquisition.library !== 'redis' || acquisition.keySignature !== expiry.keySignature) continue;
    if (precedesInScope(acquisition, expiry)) match = acquisition;
  }
  return match;
}

/** The acquisition of the same key that a release answers (the latest one before it, or in its class). */
export function acquisitionForRelease(model: RedisModel, release: Release | Expiry): Acquisition | undefined {
  if (release.keySignature === undefined) return undefined;
  let sameScope: Acquisition | undefined;
  let elsewhere: Acquisition | undefined;
  for (const acquisition of model.acquisitions) {
    if (acquisition.keySignature !== release.keySignature) continue;
    if (precedesInScope(acquisition, release)) sameScope = acquisition;
    else elsewhere ??= acquisition;
  }
  return sameScope ?? elsewhere;
}
