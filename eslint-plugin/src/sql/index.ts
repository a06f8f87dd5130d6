// The SQL module: the PostgreSQL parser behind domain questions. Nothing else imports the parser.

import { describeStatement, VERSION_COLUMNS, type SqlStatementFacts } from './facts.js';
import { parseSql } from './parse.js';

export type { AdvisoryLockCall, ColumnComparison, OnConflictFacts, SqlStatementFacts, StatementKind } from './facts.js';
export { VERSION_COLUMNS };
export { isValidSql, looksLikeSql, parseSql } from './parse.js';
export { buildSqlText, type SqlSourcePart, type SqlText } from './sql-text.js';

const described = new WeakMap<object, readonly SqlStatementFacts[]>();

/** Facts for every statement of `text`, or `undefined` when the text does not parse. */
export function describeSql(text: string): readonly SqlStatementFacts[] | undefined {
  const statements = parseSql(text);
  if (!statements) return undefined;
  let facts = described.get(statements);
  if (!facts) {
    facts = statements.map(describeStatement);
    described.set(statements, facts);
  }
  return facts;
}

/** The WHERE compares one of `columns` with a parameter using `<` (the fence check). */
export function comparesColumnBelowParameter(statement: SqlStatementFacts, columns: readonly string[]): boolean {
  return !statement.whereHasOr && statement.where.some(
    (comparison) => columns.includes(comparison.column) && comparison.operator === '<' && comparison.parameter !== undefined,
  );
}

/** The WHERE compares one of `columns` (e.g. the owner) for equality. */
export function comparesColumn(statement: SqlStatementFacts, columns: readonly string[]): boolean {
  return !statement.whereHasOr && statement.where.some(
    (comparison) => columns.includes(comparison.column) && comparison.operator === '=',
  );
}

/** `INSERT ... ON CONFLICT DO NOTHING`: idempotent on a unique constraint. */
export function isConflictDoNothing(statement: SqlStatementFacts): boolean {
  return statement.kind === 'insert' && statement.onConflict?.action === 'nothing';
}

/** `INSERT ... ON CONFLICT DO UPDATE` with no `WHERE`: takes any existing row over. */
export function isUnguardedUpsert(statement: SqlStatementFacts): boolean {
  return statement.kind === 'insert' && statement.onConflict?.action === 'update' && statement.onConflict.where === undefined;
}

/** A `DO UPDATE ... WHERE` that compares one of `columns` (an expiry) with the clock or a parameter. */
export function hasExpiryGuard(statement: SqlStatementFacts, columns: readonly string[]): boolean {
  const where = statement.onConflict?.where;
  return where?.some((comparison) => columns.includes(comparison.column) && (comparison.comparedWithClock || comparison.parameter !== undefined)) ?? false;
}
