// The one place a lock is paired with its releases and renewals: every lock a file takes (a Redis
// key, Redlock, redis-semaphore, a project helper, an advisory lock, a lock-table row) as one `Lock`,
// and the lookups from an acquisition or a release to it. Rules ask here, never pair on their own.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, findVariable, methodCallParts, skipTypeWrappers, valueCarrier } from '../../util/ast.js';
import { inEnclosingFunctions, redisIndex, splitAcquisitionsOf } from './indexes.js';
import { eventNode, within } from '../facts/source-order.js';
import { precedesInScope, runsBefore } from '../facts/source-order.js';
import { splitAcquisitionOf } from './split-acquisitions.js';
import type { Acquisition, Expiry, RedisModel, Release } from '../nouns/redis-events.js';
import type { AdvisoryLockItem, LockTableAcquisition, LockTableRelease, SqlModel, SqlWrite } from '../nouns/sql-items.js';
import { lockTables, type LockTable } from './lock-tables.js';
import type { LockTtl, RedisLock, LockTableLock, AdvisoryLock, Lock, Locks } from '../nouns/lock-types.js';

type LockRelease = Release | Expiry | LockTableRelease | AdvisoryLockItem;

/** The two halves of the lock model; each is read only when a question needs it (lazy getters on the gateway). */
export interface LockSources {
  readonly redis: RedisModel;
  readonly sql: SqlModel;
}

type SourceCode = Readonly<TSESLint.SourceCode>;

const locksBySources = new WeakMap<LockSources, Locks>();

/**
 * The file's locks. Each half is built once per model (so once per Program) and only when a
 * question reaches it: a Redis question in a file without SQL never builds the SQL half's locks.
 */
export function locksOf(sourceCode: SourceCode, sources: LockSources): Locks {
  const cached = locksBySources.get(sources);
  if (cached) return cached;
  const redisHalf = () => redisLocksOf(sourceCode, sources.redis);
  const sqlHalf = () => sqlLocksOf(sourceCode, sources.sql);
  let all: Lock[] | undefined;
  const locks = {
    get all() {
      all ??= [...redisHalf().locks, ...sqlHalf().locks];
      return all;
    },
    get redis() {
      return redisHalf().locks;
    },
    get sql() {
      return sqlHalf().locks;
    },
    lockOfAcquisition(acquisition: Acquisition | LockTableAcquisition | AdvisoryLockItem) {
      return isRedisEvent(acquisition) ? redisHalf().byAcquisition.get(acquisition) : sqlHalf().byAcquisition.get(acquisition);
    },
    lockReleasedBy(event: LockRelease) {
      return isRedisEvent(event) ? redisHalf().releasedBy(event) : sqlHalf().releasedBy(event);
    },
  } as Locks;
  locksBySources.set(sources, locks);
  return locks;
}

function isRedisEvent(event: Acquisition | Release | Expiry | LockTableAcquisition | LockTableRelease | AdvisoryLockItem): event is Acquisition | Release | Expiry {
  // The SQL items name a table or a query, never a Redis key signature.
  return 'keySignature' in event;
}

/** The related location "the lock is acquired here" for a Redis release or renewal, when the module shows it. */
export function acquiredAt(locks: Locks, event: Release | Expiry): { message: string; node: TSESTree.Node; role: 'acquisition' } | undefined {
  const lock = locks.lockReleasedBy(event);
  return lock && { message: 'The lock is acquired here', node: lock.node, role: 'acquisition' };
}

/** The releases and renewals that name the lock's own key (not its handle), in the model's order: releases first. */
export function keyedReleasesAndRenewals(lock: RedisLock): (Release | Expiry)[] {
  if (lock.keySignature === undefined) return [];
  // The key's shared buckets, not the lock's whole list: its handle and split-key pairings are left out.
  const { releases, renewals } = pairingOf(lock);
  return [...releases.byKey, ...renewals.byKey.filter((expiry) => renewals.excluded?.has(expiry) !== true)];
}

/** Writes that run inside the lock's critical section. */
export function writesUnder(lock: Lock, writes: readonly SqlWrite[]): SqlWrite[] {
  return within(writes, [lock.from, lock.to], itemNode)
    .filter((write) => write.range[0] > lock.from && write.range[1] <= lock.to && contains(lock.owner, write.node) && write.node !== lock.node);
}

/**
 * The releases of `lock` that run after its acquisition in its own function or in a function nested
 * there: the ones an error between the two can skip (require-release-in-finally), in the order of `releases`.
 */
export function releasesAfterAcquisition<L extends Lock>(lock: L): L['releases'] {
  // A Redis lock reads only the part of its key's (shared) bucket inside its function.
  if (lock.redis) return redisReleasesAfter(lock);
  return (lock.releases as readonly (LockTableRelease | AdvisoryLockItem)[])
    .filter((release) => contains(lock.owner, release.node) && release.range[0] > lock.node.range[1]) as L['releases'];
}

/** A SQL lock's section ends at its first release in its own function (not in a nested callback). */
function sqlSectionEnd(lock: SqlLock): TSESTree.Node | undefined {
  let first: TSESTree.Node | undefined;
  for (const release of lock.releases as readonly (LockTableRelease | AdvisoryLockItem)[]) {
    if (release.function !== lock.owner || release.range[0] <= lock.node.range[1]) continue;
    if (!first || release.range[0] < first.range[0]) first = release.node;
  }
  return first;
}

// ---------------------------------------------------------------------------------------------
// The Redis half

interface Half<L extends Lock, E> {
  readonly locks: readonly L[];
  /** By the model's own acquisition item (two advisory locks of one query share its node). */
  readonly byAcquisition: ReadonlyMap<Acquisition | LockTableAcquisition | AdvisoryLockItem, L>;
  releasedBy(event: E): L | undefined;
}

const redisHalves = new WeakMap<RedisModel, Half<RedisLock, Release | Expiry>>();

function redisLocksOf(sourceCode: SourceCode, model: RedisModel): Half<RedisLock, Release | Expiry> {
  const cached = redisHalves.get(model);
  if (cached) return cached;
  const locks = model.acquisitions.map((acquisition) => redisLock(sourceCode, model, acquisition));
  const byAcquisition = new Map<Acquisition | LockTableAcquisition | AdvisoryLockItem, RedisLock>(locks.map((lock) => [lock.redis, lock]));
  let byHandle: Map<Release | Expiry, RedisLock> | undefined;
  const half: Half<RedisLock, Release | Expiry> = {
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

function pairingOf(lock: RedisLock): RedisPairing {
  return pairings.get(lock)!();
}

/** The whole list, in the model's order: what the lock map shows (its size is the answer's). */
function everyPaired<E extends Release | Expiry>(acquisition: Acquisition, paired: Paired<E>, order: ReadonlyMap<E, number>): E[] {
  const keep = (event: E) => paired.excluded?.has(event) !== true;
  // Of the split key's events, those in other functions and not already of the lock's own key.
  const others = paired.bySplitKey.filter((event) => event.owner !== acquisition.owner && !contains(acquisition.owner, event.node)
    && (acquisition.keySignature === undefined || event.keySignature !== acquisition.keySignature));
  return [...paired.byKey, ...paired.onHandle, ...others].filter(keep).sort((left, right) => order.get(left)! - order.get(right)!);
}

/** The lock's releases in its own function (nested ones included) that run after it, in the model's order. */
function redisReleasesAfter(lock: RedisLock): Release[] {
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
  let first: TSESTree.Node | undefined;
  for (const release of [...within(paired.byKey, after, eventNode), ...paired.onHandle]) {
    if (release.owner !== acquisition.owner || release.node.range[0] <= acquisition.node.range[1]) continue;
    if (!first || release.node.range[0] < first.range[0]) first = release.node;
  }
  return first;
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
  if (acquisition.library === 'redis') return undefined;
  return within(model.releases, [acquisition.node.range[1], acquisition.owner.range[1]], eventNode).find((candidate) => candidate.owner === acquisition.owner
    && candidate.node.range[0] > acquisition.node.range[1] && candidate.keySignature === undefined && candidate.library === acquisition.library)?.node;
}

function redisTtl(model: RedisModel, acquisition: Acquisition): LockTtl | undefined {
  const expiry = acquisition.command?.set?.expiry;
  if (expiry?.value) return { node: expiry.value, unit: expiry.unit === 'EX' || expiry.unit === 'EXAT' ? 's' : 'ms', completion: undefined };
  // Redlock's `acquire(resources, duration)`; redis-semaphore's `lockTimeout` option is not read.
  const duration = acquisition.library === 'redlock' ? acquisition.node.arguments[1] : undefined;
  if (duration) return { node: duration, unit: 'ms', completion: undefined };
  if (acquisition.kind === 'setnx' && acquisition.keySignature !== undefined) {
    const completion = (redisIndex(model).expiriesByKey.get(acquisition.keySignature) ?? []).find((candidate) => splitAcquisitionOf(model, candidate) === acquisition);
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
  for (const acquisition of inEnclosingFunctions(index.acquisitionsByOwnerAndKey, index.acquisitionOrder, release.owner, release.keySignature)) {
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
    if (event.library === 'redis-semaphore' && receiver) push(semaphoreByReceiver, sourceCode.getText(receiver), event);
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
function pairedEvents<E extends Release | Expiry>(sourceCode: SourceCode, model: RedisModel, acquisition: Acquisition, lookups: EventLookups<E>, excluded?: ReadonlySet<E>): Paired<E> {
  const byKey = acquisition.keySignature === undefined ? [] : lookups.byKey.get(acquisition.keySignature) ?? [];
  const bySplitKey = acquisition.splitKey === undefined ? [] : lookups.bySplitKey.get(acquisition.splitKey) ?? [];
  const onHandle = new Set<E>();
  const local = (list: readonly E[] | undefined) => within(list, acquisition.owner.range, eventNode)
    .filter((event) => (acquisition.keySignature === undefined || event.keySignature !== acquisition.keySignature) && runsBefore(acquisition.node, event.node));
  if (acquisition.library === 'redis-semaphore') {
    const acquired = methodCallParts(acquisition.node)?.receiver;
    for (const event of acquired ? local(lookups.semaphoreByReceiver.get(sourceCode.getText(acquired))) : []) {
      if (event.library === 'redis-semaphore') onHandle.add(event);
    }
  }
  const handle = handleDeclarator(acquisition);
  if (handle?.id.type === AST_NODE_TYPES.Identifier) {
    for (const event of local(lookups.byTargetName.get(handle.id.name))) {
      const target = methodCallParts(event.node)?.receiver ?? event.node.arguments[0];
      const root = target ? skipTypeWrappers(target) : undefined;
      if (root?.type === AST_NODE_TYPES.Identifier && findVariable(sourceCode, root)?.defs[0]?.node === handle) onHandle.add(event);
    }
  }
  return { byKey, bySplitKey, onHandle: [...onHandle].filter((event) => excluded?.has(event) !== true), excluded };
}

/** `const lock = await redlock.acquire(...)`: the declarator holding what the acquisition returned. */
function handleDeclarator(acquisition: Acquisition): TSESTree.VariableDeclarator | undefined {
  const carrier = valueCarrier(acquisition.node);
  const parent = carrier.parent;
  return parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === carrier && parent.id.type === AST_NODE_TYPES.Identifier ? parent : undefined;
}

function keyText(sourceCode: SourceCode, key: TSESTree.Node): string {
  const text = sourceCode.getText(key);
  return /^(['"`])(?:(?!\1|\$\{).)*\1$/su.test(text) ? text.slice(1, -1) : text;
}

// ---------------------------------------------------------------------------------------------
// The SQL half

type SqlLock = LockTableLock | AdvisoryLock;

const sqlHalves = new WeakMap<SqlModel, Half<SqlLock, LockTableRelease | AdvisoryLockItem>>();

function sqlLocksOf(sourceCode: SourceCode, model: SqlModel): Half<SqlLock, LockTableRelease | AdvisoryLockItem> {
  const cached = sqlHalves.get(model);
  if (cached) return cached;
  const tables = lockTables(model);
  const answered = answeredElsewhere(model, tables);
  const rowLocks = new Map<LockTableAcquisition, LockTableLock>();
  for (const acquisition of model.lockTableAcquisitions) rowLocks.set(acquisition, lockTableLock(model, acquisition, answered.get(acquisition)));
  const advisoryLocks = model.advisoryLocks.filter((item) => item.call.action === 'lock').map((item) => advisoryLock(sourceCode, model, item));
  const locks: SqlLock[] = [...rowLocks.values(), ...advisoryLocks];
  const byAcquisition = new Map<Acquisition | LockTableAcquisition | AdvisoryLockItem, SqlLock>(locks.map((lock) => [lock.library === 'advisory' ? lock.advisory : lock.lockTable, lock]));
  let unlocked: Map<AdvisoryLockItem, AdvisoryLock> | undefined;
  const half: Half<SqlLock, LockTableRelease | AdvisoryLockItem> = {
    locks,
    byAcquisition,
    releasedBy(event) {
      if ('table' in event) {
        const acquisition = lockRowAcquisitionOf(tables, event);
        return acquisition && rowLocks.get(acquisition);
      }
      if (!unlocked) {
        unlocked = new Map();
        // The latest lock before the unlock that pairs with it (each lock's unlocks lie in its function).
        for (const lock of advisoryLocks) for (const unlock of lock.releases) unlocked.set(unlock, lock);
      }
      return unlocked.get(event);
    },
  };
  sqlHalves.set(model, half);
  return half;
}

interface RowEvents {
  readonly releases: LockTableRelease[];
  readonly renewals: LockTableRelease[];
}

/** Releases and renewals in other functions that pair with a table's only acquisition, by that acquisition. */
function answeredElsewhere(model: SqlModel, tables: ReadonlyMap<string, LockTable>): ReadonlyMap<LockTableAcquisition, RowEvents> {
  const answered = new Map<LockTableAcquisition, RowEvents>();
  for (const [list, which] of [[model.lockTableReleases, 'releases'], [model.lockTableRenewals, 'renewals']] as const) {
    for (const event of list) {
      const acquisition = lockRowAcquisitionOf(tables, event);
      // Releases in the acquisition's own function are paired from its side, in order.
      if (!acquisition || (which === 'releases' && contains(acquisition.function, event.node))) continue;
      let paired = answered.get(acquisition);
      if (!paired) {
        paired = { releases: [], renewals: [] };
        answered.set(acquisition, paired);
      }
      if (which === 'renewals' || namesOneRow(event)) paired[which].push(event);
    }
  }
  return answered;
}

/** The acquisition of the same table: the one earlier in the same function, else the file's only one. */
function lockRowAcquisitionOf(tables: ReadonlyMap<string, LockTable>, event: LockTableRelease): LockTableAcquisition | undefined {
  const sameTable = tables.get(event.table)?.acquisitions ?? [];
  return within(sameTable, event.function.range, itemNode)
    .filter((acquisition) => acquisition.function === event.function && acquisition.range[1] < event.range[0]).at(-1)
    ?? (sameTable.length === 1 ? sameTable[0] : undefined);
}

/** A release names its row (`WHERE name = $1`); a sweep of expired rows or a reset frees no one row. */
function namesOneRow(release: LockTableRelease): boolean {
  return release.statement.where.some((comparison) => comparison.operator === '=')
    && !release.statement.where.some((comparison) => comparison.comparedWithClock);
}

function lockTableLock(
  model: SqlModel,
  acquisition: LockTableAcquisition,
  answered: RowEvents | undefined,
): LockTableLock {
  let releases: LockTableRelease[] | undefined;
  let section: { release: TSESTree.Node | undefined } | undefined;
  const lock: LockTableLock = {
    kind: 'lock-table',
    library: 'lock-table',
    redis: undefined,
    lockTable: acquisition,
    node: acquisition.node,
    owner: acquisition.function,
    key: undefined,
    keySignature: undefined,
    keyText: acquisition.table,
    token: undefined,
    ttl: undefined,
    mintsFence: false,
    get releases() {
      releases ??= [...lockRowReleasesIn(model, acquisition), ...(answered?.releases ?? [])];
      return releases;
    },
    renewals: answered?.renewals ?? [],
    from: acquisition.range[0],
    get to() {
      return this.release?.range[0] ?? acquisition.function.range[1];
    },
    get release() {
      section ??= { release: sqlSectionEnd(lock) };
      return section.release;
    },
  };
  return lock;
}

const releaseQueriesByModel = new WeakMap<SqlModel, ReadonlySet<NonNullable<LockTableRelease['query']>>>();

/** The queries that free a lock row; knex chains carry no query (and cannot free the row they take in the same statement). */
function releaseQueries(model: SqlModel): ReadonlySet<NonNullable<LockTableRelease['query']>> {
  let queries = releaseQueriesByModel.get(model);
  if (!queries) {
    queries = new Set(model.lockTableReleases.flatMap((release) => (release.query ? [release.query] : [])));
    releaseQueriesByModel.set(model, queries);
  }
  return queries;
}

/** The row's releases later in its function body (nested functions included), through any client (the row outlives connections). */
function lockRowReleasesIn(model: SqlModel, acquisition: LockTableAcquisition): LockTableRelease[] {
  // One query that takes and frees the row holds it for no work at all.
  if (acquisition.query && releaseQueries(model).has(acquisition.query)) return [];
  return within(model.lockTableReleases, acquisition.function.range, itemNode)
    .filter((release) => release.table === acquisition.table && release.range[0] > acquisition.range[1] && namesOneRow(release));
}

function advisoryLock(sourceCode: SourceCode, model: SqlModel, item: AdvisoryLockItem): AdvisoryLock {
  let releases: AdvisoryLockItem[] | undefined;
  let section: { release: TSESTree.Node | undefined } | undefined;
  const lock: AdvisoryLock = {
    kind: 'advisory',
    library: 'advisory',
    redis: undefined,
    advisory: item,
    node: item.node,
    owner: item.function,
    key: undefined,
    keySignature: undefined,
    get keyText() {
      return advisoryKeyText(sourceCode, item);
    },
    token: undefined,
    ttl: undefined,
    mintsFence: false,
    get releases() {
      releases ??= advisoryUnlocksOf(sourceCode, model, item);
      return releases;
    },
    renewals: [],
    from: item.range[0],
    // A transaction-level lock holds until the transaction's end: the rest of the function.
    get to() {
      return this.release?.range[0] ?? item.function.range[1];
    },
    get release() {
      section ??= { release: sqlSectionEnd(lock) };
      return section.release;
    },
  };
  return lock;
}

/**
 * A session advisory lock's unlocks: `pg_advisory_unlock` (or `_unlock_all`) later in the same
 * function body, sent by the same client (as `no-pooled-advisory-lock` pairs them), in a query of
 * their own. Unlocks in nested functions count too, so a rule can stay silent on them. None when the
 * lock is a transaction lock or shares its query with an unlock.
 */
function advisoryUnlocksOf(sourceCode: SourceCode, model: SqlModel, lock: AdvisoryLockItem): AdvisoryLockItem[] {
  if (lock.call.scope !== 'session') return [];
  if (advisoryByQuery(model).get(lock.query)!.some((other) => other !== lock && other.call.action !== 'lock')) return [];
  const key = advisoryKeyText(sourceCode, lock);
  return within(model.advisoryLocks, lock.function.range, itemNode).filter((candidate) => candidate.call.scope === 'session' && candidate.call.action !== 'lock'
    && candidate.query.sender.identity === lock.query.sender.identity
    && candidate.range[0] > lock.range[1]
    // `pg_advisory_unlock(2)` does not release `pg_advisory_lock(1)`; unknown keys may match.
    && (candidate.call.action === 'unlock-all' || !differentKeys(key, advisoryKeyText(sourceCode, candidate))));
}

/**
 * The session lock an unlock answers for, whichever connection took it: the latest session lock
 * before it in its function whose key may be the unlock's (`pg_advisory_unlock(1)` answers for
 * `pg_advisory_lock(1)`, not for a later `pg_advisory_lock(2)`; unknown keys may match). Where it
 * was sent on another connection than the unlock, the unlock answers `false`.
 */
export function sessionLockBefore(sourceCode: SourceCode, model: SqlModel, unlock: AdvisoryLockItem): AdvisoryLockItem | undefined {
  const key = unlock.call.action === 'unlock-all' ? undefined : advisoryKeyText(sourceCode, unlock);
  // A backward scan from the unlock that stops at the first match: in a function of many
  // lock/unlock pairs, each unlock's match is its own pair's lock, a step or two back.
  const locks = model.advisoryLocks;
  for (let index = advisoryPositions(model).get(unlock)! - 1; index >= 0; index--) {
    const lock = locks[index]!;
    if (lock.range[0] < unlock.function.range[0]) return undefined;
    if (lock.function !== unlock.function || lock.call.action !== 'lock' || lock.call.scope !== 'session') continue;
    if (!differentKeys(key, advisoryKeyText(sourceCode, lock))) return lock;
  }
  return undefined;
}

const positionsByModel = new WeakMap<SqlModel, ReadonlyMap<AdvisoryLockItem, number>>();

function advisoryPositions(model: SqlModel): ReadonlyMap<AdvisoryLockItem, number> {
  let positions = positionsByModel.get(model);
  if (!positions) {
    positions = new Map(model.advisoryLocks.map((item, index) => [item, index]));
    positionsByModel.set(model, positions);
  }
  return positions;
}

/**
 * The key arguments of an advisory call as the code writes them, parameters replaced by the
 * JavaScript bound to them: `(42)`, `(jobId)`, `(1, hashtext(name))`. `undefined` when not readable.
 */
function advisoryKeyText(sourceCode: SourceCode, item: AdvisoryLockItem): string | undefined {
  const location = item.call.location;
  if (!location) return undefined;
  const text = item.query.sql.text.slice(location.start, location.end);
  const open = text.indexOf('(');
  if (open < 0) return undefined;
  const argumentsText = text.slice(open);
  const bound = new Map<string, string>();
  for (const match of argumentsText.matchAll(/\$(\d+)/gu)) {
    const parameter = item.query.parameters[Number(match[1]) - 1];
    if (!parameter) return undefined;
    bound.set(match[0], sourceCode.getText(parameter));
  }
  const key = argumentsText.replace(/\$\d+/gu, (placeholder) => bound.get(placeholder) ?? placeholder);
  return key.replace(/\s+/gu, '').toLowerCase();
}

function differentKeys(left: string | undefined, right: string | undefined): boolean {
  return left !== undefined && right !== undefined && left !== right;
}

const advisoryByQueryByModel = new WeakMap<SqlModel, ReadonlyMap<AdvisoryLockItem['query'], readonly AdvisoryLockItem[]>>();

/** The file's advisory calls by the query that sends them, gathered once per file. */
function advisoryByQuery(model: SqlModel): ReadonlyMap<AdvisoryLockItem['query'], readonly AdvisoryLockItem[]> {
  const cached = advisoryByQueryByModel.get(model);
  if (cached) return cached;
  const byQuery = new Map<AdvisoryLockItem['query'], AdvisoryLockItem[]>();
  for (const item of model.advisoryLocks) {
    const list = byQuery.get(item.query);
    if (list) list.push(item);
    else byQuery.set(item.query, [item]);
  }
  advisoryByQueryByModel.set(model, byQuery);
  return byQuery;
}

const itemNode = (item: { readonly node: TSESTree.Node }): TSESTree.Node => item.node;

