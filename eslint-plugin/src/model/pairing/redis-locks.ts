// The Redis half of the pairing: each Redis, Redlock, redis-semaphore or helper acquisition as a
// `RedisLock` with the releases and renewals of its key or handle, its TTL and its critical section.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, findVariable, methodCallParts, skipTypeWrappers, valueCarrier } from '../../util/ast.js';
import { inEnclosingFunctions, redisIndex, splitAcquisitionsOf } from './indexes.js';
import { eventNode, sectionEndOf, within, precedesInScope, runsBefore } from '../facts/source-order.js';
import { splitAcquisitionOf } from './split-acquisitions.js';
import type { Acquisition, Expiry, RedisModel, Release } from '../nouns/redis-events.js';
import type { AdvisoryLockItem, LockTableAcquisition } from '../nouns/sql-items.js';
import type { LockTtl, RedisLock, LockHalf } from '../nouns/lock-types.js';
import { LOCK_LIBRARIES, isLockLibrary, lockHeldBy, isRawCommand } from '../tables/redis-clients.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

const redisHalves = new WeakMap<RedisModel, LockHalf<RedisLock, Release | Expiry>>();

export function redisLocksOf(sourceCode: SourceCode, model: RedisModel): LockHalf<RedisLock, Release | Expiry> {
  const cached = redisHalves.get(model);
  if (cached) return cached;
  const locks = model.acquisitions.map((acquisition) => redisLock(sourceCode, model, acquisition));
  const byAcquisition = new Map<Acquisition | LockTableAcquisition | AdvisoryLockItem, RedisLock>(locks.map((lock) => [lock.redis, lock]));
  let byHandle: Map<Release | Expiry, RedisLock> | undefined;
  const half: LockHalf<RedisLock, Release | Expiry> = {
    locks,
    byAcquisition,
    releasedBy(event) {
      const acquisition = acquisitionReleasedBy(model, event);
      if (acquisition) return byAcquisition.get(acquisition);
      if (event.keySignature !== undefined) return undefined;
      // Called on a handle the acquisition returned: paired from the lock's side, once for the file
      // (each lock's handle calls lie in its own function, so the map is built in linear time).
      if (!byHandle) {
        byHandle = new Map();
        for (const lock of locks) {
          const { releases, renewals } = pairingOf(lock);
          for (const paired of [...releases.onHandle, ...renewals.onHandle]) if (!byHandle.has(paired)) byHandle.set(paired, lock);
        }
      }
      return byHandle.get(event);
    },
  };
  redisHalves.set(model, half);
  return half;
}

function redisLock(sourceCode: SourceCode, model: RedisModel, acquisition: Acquisition): RedisLock {
  let releases: Release[] | undefined;
  let renewals: Expiry[] | undefined;
  let section: { release: TSESTree.Node | undefined } | undefined;
  const lock: RedisLock = {
    kind: acquisition.helper?.family ?? acquisition.library,
    library: acquisition.library,
    redis: acquisition,
    node: acquisition.node,
    owner: acquisition.owner,
    key: acquisition.key,
    keySignature: acquisition.keySignature,
    keyText: acquisition.key ? keyText(sourceCode, acquisition.key) : undefined,
    token: acquisition.value,
    get ttl() {
      return redisTtl(model, acquisition);
    },
    mintsFence: acquisition.mintsFence,
    get releases() {
      releases ??= everyPaired(acquisition, pairingOf(lock).releases, releaseLookups(sourceCode, model, 'releases').order);
      return releases;
    },
    get renewals() {
      renewals ??= everyPaired(acquisition, pairingOf(lock).renewals, releaseLookups(sourceCode, model, 'expiries').order);
      return renewals;
    },
    from: acquisition.node.range[0],
    get to() {
      // A with-lock helper holds the lock for the call alone (its callback's run).
      return this.release?.range[0] ?? (acquisition.helper?.role === 'with-lock' ? acquisition.node.range[1] : acquisition.owner.range[1]);
    },
    get release() {
      section ??= { release: redisSectionEnd(lock) ?? unpairedLibraryRelease(model, acquisition) };
      return section.release;
    },
  };
  let pairing: RedisPairing | undefined;
  pairings.set(lock, () => {
    pairing ??= {
      releases: pairedEvents(sourceCode, model, acquisition, releaseLookups(sourceCode, model, 'releases')),
      renewals: pairedEvents(sourceCode, model, acquisition, releaseLookups(sourceCode, model, 'expiries'), completingExpiries(model)),
      releaseOrder: releaseLookups(sourceCode, model, 'releases').order,
    };
    return pairing;
  });
  return lock;
}

/**
 * How a Redis lock's releases (or renewals) are found. The per-key and per-split-key buckets are the
 * index's own lists, shared by every lock of the key and never copied per lock: a file taking one
 * key in thousands of functions pairs in linear time, each question reading only the part of a
 * bucket inside the lock's function (a binary search).
 */
interface Paired<E> {
  /** Every event of the lock's key, anywhere in the module (shared). */
  readonly byKey: readonly E[];
  /** Every event of the lock's split key (shared); only those in another function are the lock's. */
  readonly bySplitKey: readonly E[];
  /** The events called on the acquisition's handle or a semaphore's receiver, after it in its function, not of its key. */
  readonly onHandle: readonly E[];
  /** Events of the key that are not the lock's (the `EXPIRE` completing a `SETNX` is its acquisition). */
  readonly excluded: ReadonlySet<E> | undefined;
}

interface RedisPairing {
  readonly releases: Paired<Release>;
  readonly renewals: Paired<Expiry>;
  readonly releaseOrder: ReadonlyMap<Release, number>;
}

const pairings = new WeakMap<RedisLock, () => RedisPairing>();

export function pairingOf(lock: RedisLock): RedisPairing {
  return pairings.get(lock)!();
}

/** The whole list, in the model's order: what the lock map shows (its size is the answer's). */
function everyPaired<E extends Release | Expiry>(acquisition: Acquisition, paired: Paired<E>, order: ReadonlyMap<E, number>): E[] {
  const keep = (event: E) => paired.excluded?.has(event) !== true;
  // Of the split key's events, those in other functions and not already of the lock's own key.
  const others = paired.bySplitKey.filter(
    (event) =>
      event.owner !== acquisition.owner &&
      !contains(acquisition.owner, event.node) &&
      (acquisition.keySignature === undefined || event.keySignature !== acquisition.keySignature),
  );
  return [...paired.byKey, ...paired.onHandle, ...others].filter(keep).sort((left, right) => order.get(left)! - order.get(right)!);
}

/** The lock's releases in its own function (nested ones included) that run after it, in the model's order. */
export function redisReleasesAfter(lock: RedisLock): Release[] {
  const paired = pairingOf(lock).releases;
  const acquisition = lock.redis;
  const order = pairingOf(lock).releaseOrder;
  return [...within(paired.byKey, acquisition.owner.range, eventNode), ...paired.onHandle]
    .filter((release) => runsBefore(acquisition.node, release.node))
    .sort((left, right) => order.get(left)! - order.get(right)!);
}

/** The first of the lock's releases after it in its own function (not in a nested callback). */
function redisSectionEnd(lock: RedisLock): TSESTree.Node | undefined {
  const paired = pairingOf(lock).releases;
  const acquisition = lock.redis;
  const after = [acquisition.node.range[1], acquisition.owner.range[1]] as const;
  const candidates = [...within(paired.byKey, after, eventNode), ...paired.onHandle].filter(
    (release) => release.owner === acquisition.owner && release.node.range[0] > acquisition.node.range[1],
  );
  return sectionEndOf(candidates, eventNode, acquisition.owner)?.node;
}

const completingByModel = new WeakMap<RedisModel, ReadonlySet<Expiry>>();

/** The `EXPIRE`s that complete a `SETNX` (the split acquire): part of an acquisition, renewing nothing. Found once per file. */
function completingExpiries(model: RedisModel): ReadonlySet<Expiry> {
  let completing = completingByModel.get(model);
  if (!completing) {
    completing = new Set(model.expiries.filter((expiry) => expiry.kind === 'expire' && splitAcquisitionOf(model, expiry) !== undefined));
    completingByModel.set(model, completing);
  }
  return completing;
}

/**
 * A library or helper lock whose handle the pairing cannot follow (`let lock; lock = await
 * redlock.acquire(…)`, `this.lock = …`) still ends its section at the first release of the same
 * library later in its function: otherwise the work after `finally` would count as held.
 */
function unpairedLibraryRelease(model: RedisModel, acquisition: Acquisition): TSESTree.Node | undefined {
  if (isRawCommand(acquisition)) return undefined;
  return within(model.releases, [acquisition.node.range[1], acquisition.owner.range[1]], eventNode).find(
    (candidate) =>
      candidate.owner === acquisition.owner &&
      candidate.node.range[0] > acquisition.node.range[1] &&
      candidate.keySignature === undefined &&
      candidate.library === acquisition.library,
  )?.node;
}

function redisTtl(model: RedisModel, acquisition: Acquisition): LockTtl | undefined {
  const expiry = acquisition.command?.set?.expiry;
  if (expiry?.value)
    return { node: expiry.value, unit: expiry.unit === 'EX' || expiry.unit === 'EXAT' ? 's' : 'ms', completion: undefined };
  // Redlock's `acquire(resources, duration)`; redis-semaphore's `lockTimeout` option is not read.
  const durationArgument = isLockLibrary(acquisition.library) ? LOCK_LIBRARIES[acquisition.library].durationArgument : undefined;
  const duration = durationArgument === undefined ? undefined : acquisition.node.arguments[durationArgument];
  if (duration) return { node: duration, unit: 'ms', completion: undefined };
  if (acquisition.kind === 'setnx' && acquisition.keySignature !== undefined) {
    const completion = (redisIndex(model).expiriesByKey.get(acquisition.keySignature) ?? []).find(
      (candidate) => splitAcquisitionOf(model, candidate) === acquisition,
    );
    const seconds = completion?.command?.args[1];
    if (seconds) return { node: seconds, unit: 's', completion };
  }
  return undefined;
}

/** The acquisition a release or renewal answers, by key (see `Locks.lockReleasedBy`). */
function acquisitionReleasedBy(model: RedisModel, release: Release | Expiry): Acquisition | undefined {
  // A lock split over functions: the release in `release(name)`, the acquisition in `acquire(name)`.
  if (release.keySignature === undefined) return splitAcquisitionsOf(model, release)[0];
  const index = redisIndex(model);
  // One that precedes it in scope runs in its function or in one around it; failing that, the
  // first of the key (none of them precedes it then).
  let sameScope: Acquisition | undefined;
  for (const acquisition of inEnclosingFunctions(
    index.acquisitionsByOwnerAndKey,
    index.acquisitionOrder,
    release.owner,
    release.keySignature,
  )) {
    if (precedesInScope(acquisition, release)) sameScope = acquisition;
  }
  return sameScope ?? index.acquisitionsByKey.get(release.keySignature)?.[0] ?? splitAcquisitionsOf(model, release)[0];
}

interface EventLookups<E> {
  readonly order: ReadonlyMap<E, number>;
  readonly byKey: ReadonlyMap<string, readonly E[]>;
  readonly bySplitKey: ReadonlyMap<string, readonly E[]>;
  /** redis-semaphore events by their receiver's text. */
  readonly semaphoreByReceiver: ReadonlyMap<string, readonly E[]>;
  /** Events by the identifier they are called on or passed (`lock.release()`, `releaseLock(lock)`). */
  readonly byTargetName: ReadonlyMap<string, readonly E[]>;
}

const lookupsByModel = new WeakMap<RedisModel, { releases?: EventLookups<Release>; expiries?: EventLookups<Expiry> }>();

/** The file's releases (or renewals) by each way a lock pairs with them, indexed once per file. */
function releaseLookups(sourceCode: SourceCode, model: RedisModel, which: 'releases'): EventLookups<Release>;
function releaseLookups(sourceCode: SourceCode, model: RedisModel, which: 'expiries'): EventLookups<Expiry>;
function releaseLookups(sourceCode: SourceCode, model: RedisModel, which: 'releases' | 'expiries'): EventLookups<Release | Expiry> {
  let entry = lookupsByModel.get(model);
  if (!entry) {
    entry = {};
    lookupsByModel.set(model, entry);
  }
  const cached = entry[which];
  if (cached) return cached;
  const events: readonly (Release | Expiry)[] = model[which];
  const semaphoreByReceiver = new Map<string, (Release | Expiry)[]>();
  const byTargetName = new Map<string, (Release | Expiry)[]>();
  const bySplitKey = new Map<string, (Release | Expiry)[]>();
  for (const event of events) {
    const receiver = methodCallParts(event.node)?.receiver;
    if (lockHeldBy(event.library) === 'maker' && receiver) push(semaphoreByReceiver, sourceCode.getText(receiver), event);
    const target = receiver ?? event.node.arguments[0];
    const root = target ? skipTypeWrappers(target) : undefined;
    if (root?.type === AST_NODE_TYPES.Identifier) push(byTargetName, root.name, event);
    if (event.splitKey !== undefined) push(bySplitKey, event.splitKey, event);
  }
  const index = redisIndex(model);
  const lookups: EventLookups<Release | Expiry> = {
    order: new Map(events.map((event, position) => [event, position])),
    byKey: which === 'releases' ? index.releasesByKey : index.expiriesByKey,
    bySplitKey,
    semaphoreByReceiver,
    byTargetName,
  };
  (entry as Record<string, EventLookups<Release | Expiry>>)[which] = lookups;
  return lookups;
}

function push<E>(map: Map<string, E[]>, name: string, event: E): void {
  const list = map.get(name);
  if (list) list.push(event);
  else map.set(name, [event]);
}

/**
 * The releases (or renewals) of one acquisition, from the per-key and per-name buckets only: the
 * same key anywhere; a semaphore's own receiver or the returned handle in its function; the same
 * split key in another function.
 */
function pairedEvents<E extends Release | Expiry>(
  sourceCode: SourceCode,
  model: RedisModel,
  acquisition: Acquisition,
  lookups: EventLookups<E>,
  excluded?: ReadonlySet<E>,
): Paired<E> {
  const byKey = acquisition.keySignature === undefined ? [] : (lookups.byKey.get(acquisition.keySignature) ?? []);
  const bySplitKey = acquisition.splitKey === undefined ? [] : (lookups.bySplitKey.get(acquisition.splitKey) ?? []);
  const onHandle = new Set<E>();
  const local = (list: readonly E[] | undefined) =>
    within(list, acquisition.owner.range, eventNode).filter(
      (event) =>
        (acquisition.keySignature === undefined || event.keySignature !== acquisition.keySignature) &&
        runsBefore(acquisition.node, event.node),
    );
  if (lockHeldBy(acquisition.library) === 'maker') {
    const acquired = methodCallParts(acquisition.node)?.receiver;
    for (const event of acquired ? local(lookups.semaphoreByReceiver.get(sourceCode.getText(acquired))) : []) {
      if (event.library === acquisition.library) onHandle.add(event);
    }
  }
  const handle = handleDeclarator(sourceCode, acquisition);
  if (handle?.id.type === AST_NODE_TYPES.Identifier) {
    for (const event of local(lookups.byTargetName.get(handle.id.name))) {
      const target = methodCallParts(event.node)?.receiver ?? event.node.arguments[0];
      const root = target ? skipTypeWrappers(target) : undefined;
      if (root?.type === AST_NODE_TYPES.Identifier && findVariable(sourceCode, root)?.defs[0]?.node === handle) onHandle.add(event);
    }
  }
  return { byKey, bySplitKey, onHandle: [...onHandle].filter((event) => excluded?.has(event) !== true), excluded };
}

/**
 * `const lock = await redlock.acquire(...)`, or `let lock: Lock;` assigned once by
 * `lock = await redlock.acquire(...)` (inside a `try`, so the `finally` can release it): the
 * declarator of the variable holding what the acquisition returned.
 */
function handleDeclarator(sourceCode: SourceCode, acquisition: Acquisition): TSESTree.VariableDeclarator | undefined {
  const carrier = valueCarrier(acquisition.node);
  const parent = carrier.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === carrier && parent.id.type === AST_NODE_TYPES.Identifier)
    return parent;
  if (parent?.type !== AST_NODE_TYPES.AssignmentExpression || parent.right !== carrier || parent.left.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  const variable = findVariable(sourceCode, parent.left);
  const declarator = variable?.defs.length === 1 ? variable.defs[0]!.node : undefined;
  const writes = variable?.references.filter((reference) => reference.isWrite() && reference.init !== true).length ?? 0;
  return declarator?.type === AST_NODE_TYPES.VariableDeclarator && !declarator.init && writes === 1 ? declarator : undefined;
}

function keyText(sourceCode: SourceCode, key: TSESTree.Node): string {
  const text = sourceCode.getText(key);
  return /^(['"`])(?:(?!\1|\$\{).)*\1$/su.test(text) ? text.slice(1, -1) : text;
}
