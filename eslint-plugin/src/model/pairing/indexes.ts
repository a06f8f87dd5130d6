// Lookups the rules' pairings make again and again (the acquisitions of a key, the command a call
// is, the releases inside a function), indexed once per model and built only when first asked for.
// Without them each pairing scans every lock event of the file, and rule time grows with the square
// of the lock sites.

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionLike, type ScopeOwner } from '../../util/ast.js';
import type { HashWrite, Acquisition, Expiry, RedisCommand, RedisModel, Release } from '../nouns/redis-events.js';
import { eventNode, sortedBySource } from '../facts/source-order.js';
import { lockHeldBy, lockLibraryMethod, isRawCommand } from '../tables/redis-clients.js';

export interface RedisIndex {
  readonly acquisitionsByKey: ReadonlyMap<string, readonly Acquisition[]>;
  readonly releasesByKey: ReadonlyMap<string, readonly Release[]>;
  readonly expiriesByKey: ReadonlyMap<string, readonly Expiry[]>;
  readonly commandsByKey: ReadonlyMap<string, readonly RedisCommand[]>;
  readonly hashWritesByKey: ReadonlyMap<string, readonly HashWrite[]>;
  readonly commandByCall: ReadonlyMap<TSESTree.Node, RedisCommand>;
  /** Commands by the function they run in, then by key signature (`undefined` for a key without one). */
  readonly commandsByOwnerAndKey: ByOwnerAndKey<RedisCommand>;
  readonly acquisitionsByOwnerAndKey: ByOwnerAndKey<Acquisition>;
  readonly releasesByOwnerAndKey: ByOwnerAndKey<Release>;
  readonly expiriesByOwnerAndKey: ByOwnerAndKey<Expiry>;
  readonly hasUnsignedRelease: boolean;
  /** A lock split over functions: events by their key with the parameter part abstracted (module-helpers.ts `splitKeyOf`). */
  readonly acquisitionsBySplitKey: ReadonlyMap<string, readonly Acquisition[]>;
  readonly releasesBySplitKey: ReadonlyMap<string, readonly Release[]>;
  readonly commandOrder: ReadonlyMap<RedisCommand, number>;
  readonly acquisitionOrder: ReadonlyMap<Acquisition, number>;
}

/** Items by the function they run in, then by key signature (`undefined` for a key without one). */
export type ByOwnerAndKey<T> = ReadonlyMap<ScopeOwner, ReadonlyMap<string | undefined, readonly T[]>>;

const redisIndexes = new WeakMap<RedisModel, RedisIndex>();

export function redisIndex(model: RedisModel): RedisIndex {
  const existing = redisIndexes.get(model);
  if (existing) return existing;
  const index: RedisIndex = {
    acquisitionsByKey: groupByKey(model.acquisitions),
    releasesByKey: groupByKey(model.releases),
    expiriesByKey: groupByKey(model.expiries),
    commandsByKey: groupByKey(model.commands),
    hashWritesByKey: groupByKey(model.hashWrites),
    commandByCall: new Map(model.commands.map((command) => [command.call, command])),
    commandsByOwnerAndKey: groupByOwnerAndKey(model.commands),
    acquisitionsByOwnerAndKey: groupByOwnerAndKey(model.acquisitions),
    releasesByOwnerAndKey: groupByOwnerAndKey(model.releases),
    expiriesByOwnerAndKey: groupByOwnerAndKey(model.expiries),
    // A helper's call without a key signature is paired through its handle, not by any key.
    hasUnsignedRelease: model.releases.some((release) => release.keySignature === undefined && release.library !== 'helper'),
    acquisitionsBySplitKey: groupBySplitKey(model.acquisitions),
    releasesBySplitKey: groupBySplitKey(model.releases),
    commandOrder: new Map(model.commands.map((command, order) => [command, order])),
    acquisitionOrder: new Map(model.acquisitions.map((acquisition, order) => [acquisition, order])),
  };
  redisIndexes.set(model, index);
  return index;
}

/** Events grouped by key signature, each group in the model's order; events without one are left out. */
function groupByKey<T extends { readonly keySignature: string | undefined }>(events: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const event of events) {
    if (event.keySignature === undefined) continue;
    let group = groups.get(event.keySignature);
    if (!group) {
      group = [];
      groups.set(event.keySignature, group);
    }
    group.push(event);
  }
  return groups;
}

function groupBySplitKey<T extends { readonly splitKey?: string }>(events: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const event of events) {
    if (event.splitKey === undefined) continue;
    const group = groups.get(event.splitKey);
    if (group) group.push(event);
    else groups.set(event.splitKey, [event]);
  }
  return groups;
}

/**
 * Whether the module releases the lock an acquisition takes: a release of the same key, or, for a
 * lock split over functions, of the same key built from another function's parameter.
 */
export function isReleasedInModule(model: RedisModel, acquisition: Acquisition): boolean {
  const index = redisIndex(model);
  return (
    (acquisition.keySignature !== undefined && index.releasesByKey.has(acquisition.keySignature)) ||
    (acquisition.splitKey !== undefined && index.releasesBySplitKey.has(acquisition.splitKey))
  );
}

/**
 * The acquisitions of another function that a release or renewal pairs with because both build the
 * key the same way from their own parameters (`acquire(name)` and `release(name)` of a class),
 * in the model's order. Empty when the event's key reads no parameter.
 */
export function splitAcquisitionsOf(model: RedisModel, event: Release | Expiry): readonly Acquisition[] {
  if (event.splitKey === undefined) return [];
  return (redisIndex(model).acquisitionsBySplitKey.get(event.splitKey) ?? []).filter((acquisition) => acquisition.owner !== event.owner);
}

/**
 * The items of key `keySignature` that run in `owner` or in a function around it (the only ones
 * whose function contains `owner`), in the model's order given by `order`.
 */
export function inEnclosingFunctions<T>(
  groups: ByOwnerAndKey<T>,
  order: ReadonlyMap<T, number>,
  owner: ScopeOwner,
  keySignature: string | undefined,
): T[] {
  const found: T[] = [];
  for (let current: TSESTree.Node | undefined = owner; current; current = current.parent) {
    if (current !== owner && !isFunctionLike(current) && current.type !== AST_NODE_TYPES.Program) continue;
    const group = groups.get(current)?.get(keySignature);
    if (group) found.push(...group);
  }
  return found.length > 1 && found.length !== (groups.get(owner)?.get(keySignature)?.length ?? 0)
    ? found.sort((left, right) => order.get(left)! - order.get(right)!)
    : found;
}

function groupByOwnerAndKey<T extends { readonly owner: ScopeOwner; readonly keySignature: string | undefined }>(
  commands: readonly T[],
): Map<ScopeOwner, Map<string | undefined, T[]>> {
  const groups = new Map<ScopeOwner, Map<string | undefined, T[]>>();
  for (const command of commands) {
    let byKey = groups.get(command.owner);
    if (!byKey) {
      byKey = new Map<string | undefined, T[]>();
      groups.set(command.owner, byKey);
    }
    const list = byKey.get(command.keySignature);
    if (list) list.push(command);
    else byKey.set(command.keySignature, [command]);
  }
  return groups;
}

/**
 * A lock's critical section in one function: from its first acquisition there to the last release
 * or renewal of its key in that same function (Redlock's handle release for a Redlock lock, the
 * routine for `using`). A lock the function never releases has no section here: nothing this
 * function does can make its own release fail.
 */
export interface RedisCriticalSection {
  readonly keySignature: string;
  readonly owner: ScopeOwner;
  /** The acquisitions of the key in the function, in source order. */
  readonly acquisitions: readonly Acquisition[];
  /** Source offsets: the end of the first acquisition, the start of the last release or renewal. */
  readonly from: number;
  readonly to: number;
}

const criticalSections = new WeakMap<RedisModel, readonly RedisCriticalSection[]>();

/** Every Redis and Redlock lock's critical section, one per function and key, memoised per model. */
export function redisCriticalSections(model: RedisModel): readonly RedisCriticalSection[] {
  const cached = criticalSections.get(model);
  if (cached) return cached;
  const index = redisIndex(model);
  const sections: RedisCriticalSection[] = [];
  for (const [owner, byKey] of index.acquisitionsByOwnerAndKey) {
    for (const [keySignature, group] of byKey) {
      if (keySignature === undefined) continue;
      // redis-semaphore prefixes its keys (`mutex:<name>`), and helpers and wrappers may build their own:
      // only where the code names the very key the lock lives under.
      const acquisitions = sortedBySource(
        group.filter((acquisition) => isRawCommand(acquisition) || lockHeldBy(acquisition.library) === 'handle'),
        eventNode,
      );
      const first = acquisitions[0];
      if (!first) continue;
      const routine = lockLibraryMethod(first.library, methodOf(first.node))?.runsRoutine ? first.node.arguments.at(-1) : undefined;
      if (routine && isFunctionLike(routine)) {
        sections.push({ keySignature, owner, acquisitions: [first], from: routine.range[0], to: routine.range[1] });
        continue;
      }
      // Redlock's `lock.release()` names its handle, not the key.
      const endKey = lockHeldBy(first.library) === 'handle' ? undefined : keySignature;
      const ends = [
        ...(index.releasesByOwnerAndKey.get(owner)?.get(endKey) ?? []),
        ...(index.expiriesByOwnerAndKey.get(owner)?.get(endKey) ?? []),
      ].filter((event) => event.library === first.library);
      let to = -1;
      for (const event of ends) if (event.node.range[0] > first.node.range[1] && event.node.range[0] > to) to = event.node.range[0];
      if (to >= 0) sections.push({ keySignature, owner, acquisitions, from: first.node.range[1], to });
    }
  }
  criticalSections.set(model, sections);
  return sections;
}

function methodOf(call: TSESTree.CallExpression): string | undefined {
  const callee = call.callee;
  return callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier
    ? callee.property.name
    : undefined;
}
