// The lock and the model's nouns: one `Lock` per lock a file takes, whatever takes it, with its
// releases and renewals; the `LockModel` rules query. Types only, like the rest of nouns/.

import type { TSESTree } from '@typescript-eslint/utils';
import type { ScopeOwner } from '../../util/ast.js';
import type { Acquisition, Expiry, LockLibraryKind, RedisModel, Release } from './redis-events.js';
import type { AdvisoryLockItem, LockTableAcquisition, LockTableRelease, SqlModel } from './sql-items.js';
import type { SharedSettings, TypeOracle } from './vocabulary.js';

/** What the lock is held as: a PostgreSQL lock taken through a project helper is held as that lock. */
export type LockKind = LockLibraryKind | 'lock-table' | 'advisory';

/** How long the lock lives unless renewed, as the code writes it. */
export interface LockTtl {
  readonly node: TSESTree.Node;
  readonly unit: 's' | 'ms';
  /** Set by the `EXPIRE` that completes a `SETNX`, not by the acquisition itself. */
  readonly completion: Expiry | undefined;
}

export interface LockBase {
  /** What it is held as (`helper` locks with a PostgreSQL family are `advisory` or `lock-table`). */
  readonly kind: LockKind;
  /** The acquisition call (or the query that takes the advisory lock or inserts the lock row). */
  readonly node: TSESTree.Node;
  readonly owner: ScopeOwner;
  readonly key: TSESTree.Node | undefined;
  readonly keySignature: string | undefined;
  /** The lock's name as the code writes it (the key, the lock table), for `efficiencyLocks` patterns. */
  readonly keyText: string | undefined;
  /** The value that tells this holder apart (a Redis lock's stored token). */
  readonly token: TSESTree.Node | undefined;
  readonly ttl: LockTtl | undefined;
  /** The acquisition mints a fence atomically (the fenced acquire script). */
  readonly mintsFence: boolean;
  /** Source offsets the critical section spans: from the acquisition to its release (or the function's end). */
  readonly from: number;
  readonly to: number;
  /**
   * The release ending the section: the first of `releases` after the acquisition in its own
   * function; for a library lock whose handle is not followed, its library's first release there.
   */
  readonly release: TSESTree.Node | undefined;
}

export interface RedisLock extends LockBase {
  readonly library: LockLibraryKind;
  readonly redis: Acquisition;
  /**
   * Every release that may free it, in the model's order: of the same key anywhere in the module, on
   * the handle the acquisition returned (`lock.release()`, `releaseLock(lock)`) or a semaphore's
   * own receiver in its function, and of the same key built from another function's parameter.
   */
  readonly releases: readonly Release[];
  /** The renewals of the same key or handle; the `EXPIRE` completing a `SETNX` is the acquisition's, not one. */
  readonly renewals: readonly Expiry[];
}

export interface LockTableLock extends LockBase {
  readonly library: 'lock-table';
  readonly redis: undefined;
  readonly lockTable: LockTableAcquisition;
  /**
   * The statements freeing its row: a `DELETE` (or an owner-clearing `UPDATE`) of the table that names
   * the row (`WHERE name = $1`, not a sweep of expired rows), later in its function, through any
   * client; and those in other functions of a file that takes the table in this one place.
   */
  readonly releases: readonly LockTableRelease[];
  readonly renewals: readonly LockTableRelease[];
}

export interface AdvisoryLock extends LockBase {
  readonly library: 'advisory';
  readonly redis: undefined;
  readonly advisory: AdvisoryLockItem;
  /**
   * A session lock's unlocks: `pg_advisory_unlock` of a key that may be its own (or `_unlock_all`),
   * later in its function, on the same client, in a query of their own. A transaction lock has none.
   */
  readonly releases: readonly AdvisoryLockItem[];
  readonly renewals: readonly never[];
}

export type Lock = RedisLock | LockTableLock | AdvisoryLock;

export interface Locks {
  /** Every lock of the file: the Redis half first, then lock-table rows, then advisory locks, each in source order. */
  readonly all: readonly Lock[];
  readonly redis: readonly RedisLock[];
  readonly sql: readonly (LockTableLock | AdvisoryLock)[];
  lockOfAcquisition(acquisition: Acquisition): RedisLock | undefined;
  lockOfAcquisition(acquisition: LockTableAcquisition): LockTableLock | undefined;
  lockOfAcquisition(acquisition: AdvisoryLockItem): AdvisoryLock | undefined;
  /**
   * The lock a release or renewal answers. Redis: the latest acquisition of its key before it in its
   * function or one around it, else the key's first, else the acquisition of a lock split over
   * functions, else the one whose handle it is called on. A lock row: the acquisition of its table
   * earlier in its function, else the file's only one. An unlock: the lock whose `releases` hold it.
   */
  lockReleasedBy(event: Release | Expiry): RedisLock | undefined;
  lockReleasedBy(event: LockTableRelease): LockTableLock | undefined;
  lockReleasedBy(event: AdvisoryLockItem): AdvisoryLock | undefined;
}

/** Each half is built on first read: a SQL-only rule never builds the Redis half, nor the reverse. */
export interface LockModel {
  readonly redis: RedisModel;
  readonly sql: SqlModel;
  /** Every lock of the file with its releases and renewals, paired in one place (locks.ts). */
  readonly locks: Locks;
  readonly settings: SharedSettings;
  readonly typeOracle: TypeOracle | null;
  /** True when `node` runs inside a test case or a setup/teardown hook of a test framework. */
  inTestCode(node: TSESTree.Node): boolean;
}

/** One half of the pairing (pairing/redis-locks.ts, pairing/sql-locks.ts): its locks and the lookups into them. */
export interface LockHalf<L extends Lock, E> {
  readonly locks: readonly L[];
  /** By the model's own acquisition item (two advisory locks of one query share its node). */
  readonly byAcquisition: ReadonlyMap<Acquisition | LockTableAcquisition | AdvisoryLockItem, L>;
  releasedBy(event: E): L | undefined;
}

/** An acquisition or a release, whichever lock family it belongs to. */
export interface LockStep {
  readonly node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  readonly owner: ScopeOwner;
}
