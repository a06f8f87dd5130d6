// The one place a lock is paired with its releases and renewals (this folder): every lock a file
// takes (a Redis key, Redlock, redis-semaphore, a project helper, an advisory lock, a lock-table row)
// as one `Lock`, from the Redis half (redis-locks.ts) and the SQL half (sql-locks.ts), and the
// lookups from an acquisition or a release to it. Rules ask here, never pair on their own.

import { type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains } from '../../util/ast.js';
import { eventNode, within } from '../facts/source-order.js';
import type { Acquisition, Expiry, RedisModel, Release } from '../nouns/redis-events.js';
import type { AdvisoryLockItem, LockTableAcquisition, LockTableRelease, SqlModel, SqlWrite } from '../nouns/sql-items.js';
import type { RedisLock, Lock, Locks } from '../nouns/lock-types.js';

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

function isRedisEvent(
  event: Acquisition | Release | Expiry | LockTableAcquisition | LockTableRelease | AdvisoryLockItem,
): event is Acquisition | Release | Expiry {
  // The SQL items name a table or a query, never a Redis key signature.
  return 'keySignature' in event;
}

/** The related location "the lock is acquired here" for a Redis release or renewal, when the module shows it. */
export function acquiredAt(
  locks: Locks,
  event: Release | Expiry,
): { message: string; node: TSESTree.Node; role: 'acquisition' } | undefined {
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
  return within(writes, [lock.from, lock.to], eventNode).filter(
    (write) => write.range[0] > lock.from && write.range[1] <= lock.to && contains(lock.owner, write.node) && write.node !== lock.node,
  );
}

/**
 * The releases of `lock` that run after its acquisition in its own function or in a function nested
 * there: the ones an error between the two can skip (require-release-in-finally), in the order of `releases`.
 */
export function releasesAfterAcquisition<L extends Lock>(lock: L): L['releases'] {
  // A Redis lock reads only the part of its key's (shared) bucket inside its function.
  if (lock.redis) return redisReleasesAfter(lock);
  return (lock.releases as readonly (LockTableRelease | AdvisoryLockItem)[]).filter(
    (release) => contains(lock.owner, release.node) && release.range[0] > lock.node.range[1],
  ) as L['releases'];
}

import { pairingOf, redisLocksOf, redisReleasesAfter } from './redis-locks.js';
import { sqlLocksOf } from './sql-locks.js';
