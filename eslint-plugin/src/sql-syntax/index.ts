// The SQL module: the PostgreSQL parser behind domain questions. Nothing else imports the parser;
// the few statements most locks are taken with are read without it (here and advisory-select.ts).

import { describeStatement, transactionControlFacts, VERSION_COLUMNS, type SqlStatementFacts } from './facts.js';
import { readAdvisorySelect } from './advisory-select.js';
import { parseSql } from './parse.js';

export type { AdvisoryLockCall, ColumnComparison, OnConflictFacts, SqlStatementFacts, StatementKind } from './facts.js';
export { VERSION_COLUMNS };
export { looksLikeSql, parseSql } from './parse.js';
export { buildSqlText, type SqlSourcePart, type SqlText } from './sql-text.js';

const described = new WeakMap<object, readonly SqlStatementFacts[]>();

// A text that is one bare transaction-control statement, in every spelling PostgreSQL accepts. The
// parser is not asked: it is the slow part, its first calls in a process are the slowest (tens of
// milliseconds), and it rejects `COMMIT WORK`, `END` and `ABORT`, which end a transaction all the same.
const TRANSACTION_CONTROL = /^(\s*)(start\s+transaction|(begin|commit|end|rollback|abort)(?:\s+(?:work|transaction))?)\s*;?\s*$/iu;
const CONTROL_KIND: Readonly<Record<string, 'begin' | 'commit' | 'rollback'>> = {
  start: 'begin',
  begin: 'begin',
  commit: 'commit',
  end: 'commit',
  rollback: 'rollback',
  abort: 'rollback',
};
// Facts of texts read without the parser (transaction control, advisory-lock SELECTs), by text:
// the same text gives the same facts object, as the parser's cache gives the same statements.
const unparsedFacts = new Map<string, readonly SqlStatementFacts[]>();

/** Facts for every statement of `text`, or `undefined` when the text does not parse. */
export function describeSql(text: string): readonly SqlStatementFacts[] | undefined {
  const known = unparsedFacts.get(text);
  if (known) return known;
  const control = TRANSACTION_CONTROL.exec(text);
  const unparsed = control ? transactionControl(control) : readAdvisorySelect(text);
  if (unparsed) {
    // Bounded as the parser's cache is: few distinct texts exist, but they come from user code.
    if (unparsedFacts.size >= 1000) unparsedFacts.clear();
    unparsedFacts.set(text, unparsed);
    return unparsed;
  }
  const statements = parseSql(text);
  if (!statements) return undefined;
  let facts = described.get(statements);
  if (!facts) {
    facts = statements.map(describeStatement);
    described.set(statements, facts);
  }
  return facts;
}

/** Whether `text` is PostgreSQL the model can read: what the tests use to prove a suggestion's SQL is valid. */
export function isValidSql(text: string): boolean {
  return describeSql(text) !== undefined;
}

/** The WHERE compares one of `columns` with a parameter using `<` (the fence check). */
export function comparesColumnBelowParameter(statement: SqlStatementFacts, columns: readonly string[]): boolean {
  return (
    !statement.whereHasOr &&
    statement.where.some(
      (comparison) => columns.includes(comparison.column) && comparison.operator === '<' && comparison.parameter !== undefined,
    )
  );
}

/** The WHERE compares one of `columns` (e.g. the owner) for equality. */
export function comparesColumn(statement: SqlStatementFacts, columns: readonly string[]): boolean {
  return !statement.whereHasOr && statement.where.some((comparison) => columns.includes(comparison.column) && comparison.operator === '=');
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
  return (
    where?.some(
      (comparison) => columns.includes(comparison.column) && (comparison.comparedWithClock || comparison.parameter !== undefined),
    ) ?? false
  );
}

function transactionControl(match: RegExpExecArray): readonly SqlStatementFacts[] {
  const start = match[1]!.length;
  const keyword = match[2]!.split(/\s/u, 1)[0]!.toLowerCase();
  return [transactionControlFacts(CONTROL_KIND[keyword]!, { start, end: start + match[2]!.length })];
}
