// The SQL half of the pairing: each advisory lock and lock-table row as a `Lock`, with the unlocks
// and row releases that answer for it (by key and connection, by table and row).

import { type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains } from '../../util/ast.js';
import { eventNode, sectionEndOf, within } from '../facts/source-order.js';
import type { Acquisition } from '../nouns/redis-events.js';
import type { AdvisoryLockItem, LockTableAcquisition, LockTableRelease, SqlModel } from '../nouns/sql-items.js';
import { lockTables, type LockTable } from './lock-tables.js';
import type { LockTableLock, AdvisoryLock, LockHalf } from '../nouns/lock-types.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

export type SqlLock = LockTableLock | AdvisoryLock;

const sqlHalves = new WeakMap<SqlModel, LockHalf<SqlLock, LockTableRelease | AdvisoryLockItem>>();

export function sqlLocksOf(sourceCode: SourceCode, model: SqlModel): LockHalf<SqlLock, LockTableRelease | AdvisoryLockItem> {
  const cached = sqlHalves.get(model);
  if (cached) return cached;
  const tables = lockTables(model);
  const answered = answeredElsewhere(model, tables);
  const rowLocks = new Map<LockTableAcquisition, LockTableLock>();
  for (const acquisition of model.lockTableAcquisitions)
    rowLocks.set(acquisition, lockTableLock(model, acquisition, answered.get(acquisition)));
  const advisoryLocks = model.advisoryLocks
    .filter((item) => item.call.action === 'lock')
    .map((item) => advisoryLock(sourceCode, model, item));
  const locks: SqlLock[] = [...rowLocks.values(), ...advisoryLocks];
  const byAcquisition = new Map<Acquisition | LockTableAcquisition | AdvisoryLockItem, SqlLock>(
    locks.map((lock) => [lock.library === 'advisory' ? lock.advisory : lock.lockTable, lock]),
  );
  let unlocked: Map<AdvisoryLockItem, AdvisoryLock> | undefined;
  const half: LockHalf<SqlLock, LockTableRelease | AdvisoryLockItem> = {
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
  for (const [list, which] of [
    [model.lockTableReleases, 'releases'],
    [model.lockTableRenewals, 'renewals'],
  ] as const) {
    for (const event of list) {
      const acquisition = lockRowAcquisitionOf(tables, event);
      // Releases in the acquisition's own function are paired from its side, in order.
      if (!acquisition || (which === 'releases' && contains(acquisition.owner, event.node))) continue;
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
  return (
    within(sameTable, event.owner.range, itemNode)
      .filter((acquisition) => acquisition.owner === event.owner && acquisition.range[1] < event.range[0])
      .at(-1) ?? (sameTable.length === 1 ? sameTable[0] : undefined)
  );
}

/** A release names its row (`WHERE name = $1`); a sweep of expired rows or a reset frees no one row. */
function namesOneRow(release: LockTableRelease): boolean {
  return (
    release.statement.where.some((comparison) => comparison.operator === '=') &&
    !release.statement.where.some((comparison) => comparison.comparedWithClock)
  );
}

function lockTableLock(model: SqlModel, acquisition: LockTableAcquisition, answered: RowEvents | undefined): LockTableLock {
  let releases: LockTableRelease[] | undefined;
  let section: { release: TSESTree.Node | undefined } | undefined;
  const lock: LockTableLock = {
    kind: 'lock-table',
    library: 'lock-table',
    redis: undefined,
    lockTable: acquisition,
    node: acquisition.node,
    owner: acquisition.owner,
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
      return this.release?.range[0] ?? acquisition.owner.range[1];
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
  return within(model.lockTableReleases, acquisition.owner.range, itemNode).filter(
    (release) => release.table === acquisition.table && release.range[0] > acquisition.range[1] && namesOneRow(release),
  );
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
    owner: item.owner,
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
      return this.release?.range[0] ?? item.owner.range[1];
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
  if (
    advisoryByQuery(model)
      .get(lock.query)!
      .some((other) => other !== lock && other.call.action !== 'lock')
  )
    return [];
  const key = advisoryKeyText(sourceCode, lock);
  return within(model.advisoryLocks, lock.owner.range, itemNode).filter(
    (candidate) =>
      candidate.call.scope === 'session' &&
      candidate.call.action !== 'lock' &&
      candidate.query.sender.identity === lock.query.sender.identity &&
      candidate.range[0] > lock.range[1] &&
      // `pg_advisory_unlock(2)` does not release `pg_advisory_lock(1)`; unknown keys may match.
      (candidate.call.action === 'unlock-all' || !differentKeys(key, advisoryKeyText(sourceCode, candidate))),
  );
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
    if (lock.range[0] < unlock.owner.range[0]) return undefined;
    if (lock.owner !== unlock.owner || lock.call.action !== 'lock' || lock.call.scope !== 'session') continue;
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

/** A SQL lock's section ends at its first release in its own function (not in a nested callback). */
function sqlSectionEnd(lock: SqlLock): TSESTree.Node | undefined {
  const candidates = (lock.releases as readonly (LockTableRelease | AdvisoryLockItem)[]).filter(
    (release) => release.owner === lock.owner && release.range[0] > lock.node.range[1],
  );
  return sectionEndOf(candidates, eventNode, lock.owner)?.node;
}
