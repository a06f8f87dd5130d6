// Which lock-table statements free or renew one named lock row without asking who owns it: the
// questions no-unsafe-release and no-unsafe-extend ask of the SQL model (the acquisition each answers
// is paired in locks.ts).

import { functionName, isFunctionLike } from '../../util/ast.js';
import { EXPIRY_COLUMNS, OWNER_COLUMNS } from '../tables/sql-clients.js';
import type { LockTableRelease, SqlModel } from '../nouns/sql-items.js';
import { lockTables } from '../pairing/lock-tables.js';

/**
 * The table shows that it is taken as a lock in this file: an acquisition, or an owner column in some
 * statement (a lone `DELETE FROM account_locks WHERE user_id = $1` may be an account lockout, not a mutex).
 */
function takenAsLock(model: SqlModel, table: string): boolean {
  const columns = model.tableColumns.get(table);
  return lockTables(model).has(table) || OWNER_COLUMNS.some((column) => columns?.has(column));
}

/** The `WHERE` names the row by a handle the acquisition returned (`RETURNING id`): this holder's own row. */
function namesReturnedHandle(model: SqlModel, statement: LockTableRelease): boolean {
  const returned = lockTables(model).get(statement.table)?.returned;
  return returned !== undefined && statement.statement.where.some((comparison) => returned.has(comparison.column));
}

/**
 * A release of one named lock row that does not ask who owns it: `DELETE FROM locks WHERE name = $1`,
 * or an `UPDATE` that sets the owner to `NULL` with such a `WHERE`. Not a release: a sweep of expired
 * rows (`WHERE expires_at < now()`), a statement with no `WHERE` or an `OR` in it, and a `WHERE` on a
 * handle the acquisition returned (`RETURNING id`), which names this holder's row.
 */
export function isUnownedRelease(model: SqlModel, release: LockTableRelease): boolean {
  const statement = release.statement;
  if (release.ownerCompared || !takenAsLock(model, release.table)) return false;
  if (!statement.hasWhere || statement.whereHasOr) return false;
  if (release.kind === 'update' && !statement.setNullColumns.some((column) => OWNER_COLUMNS.includes(column))) return false;
  if (statement.where.some((comparison) => EXPIRY_COLUMNS.includes(comparison.column))) return false;
  if (namesReturnedHandle(model, release)) return false;
  return statement.where.some((comparison) => comparison.operator === '=' && !OWNER_COLUMNS.includes(comparison.column));
}

/**
 * A heartbeat of one named lock row that does not ask who owns it: `UPDATE locks SET expires_at = $2
 * WHERE name = $1`, which extends the row whoever holds it now. The `UPDATE` sets an expiry column
 * (to a value, not `NULL`) and no owner column, and its `WHERE` names the row by exactly one column
 * compared with `=`, besides any comparison of the expiry (`AND expires_at > now()` still extends a
 * live lock of another holder). Not a heartbeat: a `WHERE` that compares a second column with `=`
 * (it may be the owner under a name of its own, `process_id`, `instance`), one with an `OR`, one on a
 * handle the acquisition returned, a statement in a function named for releasing (`SET lock_until =
 * now()` is ShedLock's unlock), and a table not taken as a lock in this file.
 */
export function isUnownedRenewal(model: SqlModel, renewal: LockTableRelease): boolean {
  const statement = renewal.statement;
  if (renewal.kind !== 'update' || renewal.ownerCompared || !takenAsLock(model, renewal.table)) return false;
  const extended = statement.setColumns.filter((column) => EXPIRY_COLUMNS.includes(column));
  if (extended.length === 0 || extended.some((column) => statement.setNullColumns.includes(column))) return false;
  if (!statement.hasWhere || statement.whereHasOr) return false;
  const identity = statement.where.filter((comparison) => !EXPIRY_COLUMNS.includes(comparison.column));
  if (identity.length !== 1 || identity[0]!.operator !== '=' || OWNER_COLUMNS.includes(identity[0]!.column)) return false;
  if (namesReturnedHandle(model, renewal)) return false;
  const fn = renewal.owner;
  return !(isFunctionLike(fn) && /release|unlock|free|clear|drop/iu.test(functionName(fn) ?? ''));
}
