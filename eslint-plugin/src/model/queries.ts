// Questions several rules ask of the lock model, answered once here.

import type { TSESTree } from '@typescript-eslint/utils';
import { contains } from '../util/ast.js';
import type { Acquisition, Expiry, RedisModel, Release } from './redis-model.js';

/** True when `earlier` runs before `later` in the same function or in a function nested in it. */
export function precedesInScope(earlier: { node: TSESTree.Node; owner: TSESTree.Node }, later: { node: TSESTree.Node; owner: TSESTree.Node }): boolean {
  return earlier.node.range[1] <= later.node.range[0] && contains(earlier.owner, later.node);
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
