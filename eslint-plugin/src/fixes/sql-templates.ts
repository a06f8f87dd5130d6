// SQL and client-code templates for the PostgreSQL fixes, one per client dialect. Rules render their
// suggestions with these and test/proofs runs the rendered SQL against a real PostgreSQL.

import { FENCED_UPDATE_SQL, GUARDED_LOCK_UPSERT_SQL } from './fenced-sql.js';
import type { SqlLibrary } from '../model/nouns/vocabulary.js';
import { SQL_CLIENTS, fixWritesTransaction, sqlClientSemantics } from '../model/tables/sql-clients.js';

export { fixWritesTransaction, sqlClientSemantics };

export { FENCED_UPDATE_SQL, GUARDED_LOCK_UPSERT_SQL };

/**
 * How a fix writes a bound value into SQL text:
 * - `dollar`: pg, TypeORM, Prisma `*Unsafe`: `$n`, the value appended to the values array;
 * - `tagged`: postgres.js, Prisma `$queryRaw`/`$executeRaw`, kysely/drizzle/slonik `sql`: `${expr}`;
 * - `question`: knex `raw`, Sequelize replacements: `?`, one binding per occurrence.
 */
export type PlaceholderStyle = 'dollar' | 'tagged' | 'question';

/** The placeholder text for a bound value: `$3`, `${fence}` or `?`. */
export function renderPlaceholder(style: PlaceholderStyle, value: { readonly number: number; readonly expression: string }): string {
  switch (style) {
    case 'dollar':
      return `$${value.number}`;
    case 'tagged':
      return `\${${value.expression}}`;
    case 'question':
      return '?';
  }
}

export interface FencedUpdateParts {
  readonly table: string;
  /** SQL assignments, e.g. `last_run = 'done'`. */
  readonly assignments: readonly string[];
  /** The row condition without the fence, e.g. `id = $2`. */
  readonly where: string;
  /** Placeholder text for the fence (from `renderPlaceholder`). */
  readonly fence: string;
  readonly fenceColumn?: string;
}

/**
 * The fenced write: `UPDATE t SET ..., fence = F WHERE ... AND fence < F`. With `question` style the
 * fence is bound twice (both `?`s), in SET-then-WHERE order.
 */
export function renderFencedUpdate(parts: FencedUpdateParts): string {
  const column = parts.fenceColumn ?? 'fence';
  return `UPDATE ${parts.table} SET ${[...parts.assignments, `${column} = ${parts.fence}`].join(', ')} WHERE ${parts.where} AND ${column} < ${parts.fence}`;
}

/** The two insertions that fence an existing UPDATE's text: after its SET list, and after its WHERE. */
export function fenceInsertions(
  fence: string,
  fenceColumn: string,
  hasWhere: boolean,
): { readonly afterSet: string; readonly afterWhere: string } {
  return {
    afterSet: `, ${fenceColumn} = ${fence}`,
    afterWhere: hasWhere ? ` AND ${fenceColumn} < ${fence}` : ` WHERE ${fenceColumn} < ${fence}`,
  };
}

/** The expiry guard a lock-table upsert needs, inserted after its `DO UPDATE SET` list. */
export function renderTakeoverGuard(table: string, expiryColumn: string): string {
  return ` WHERE ${table}.${expiryColumn} < now()`;
}

/** `pg_advisory_lock` → `pg_advisory_xact_lock` (and the try/shared forms). */
export function transactionLevelName(functionName: string): string {
  return functionName.replace(/^pg_(try_)?advisory_/u, (prefix) => `${prefix}xact_`);
}

/** Libraries whose transaction helper the xact-lock fixes can write. */
export type TransactionHelperLibrary = Exclude<SqlLibrary, 'unknown' | 'slonik'>;

export interface TransactionWrapParts {
  /** Source text of the pooled client (`pool`, `prisma`, `this.db`). */
  readonly client: string;
  /** Name for the transaction's handle inside the callback or block. */
  readonly handle: string;
  /** The statements to run inside, already indented one level deeper than `indent`. */
  readonly body: string;
  readonly indent: string;
}

/**
 * The library's own way to run `body` in one transaction on one connection. pg has no helper, so
 * it gets the checkout-BEGIN-COMMIT/ROLLBACK-release block the pg documentation gives.
 */
export function renderTransactionWrap(library: TransactionHelperLibrary, parts: TransactionWrapParts): string {
  const { client, handle, body, indent } = parts;
  const { checkout, transactionHelper } = SQL_CLIENTS[library];
  if (transactionHelper !== undefined) return callbackWrap(`${client}.${transactionHelper}`, handle, body, indent);
  return [
    `const ${handle} = await ${client}.${checkout!.method}();`,
    `${indent}try {`,
    `${indent}  await ${handle}.query('BEGIN');`,
    body,
    `${indent}  await ${handle}.query('COMMIT');`,
    `${indent}} catch (error) {`,
    `${indent}  await ${handle}.query('ROLLBACK');`,
    `${indent}  throw error;`,
    `${indent}} finally {`,
    `${indent}  ${handle}.release();`,
    `${indent}}`,
  ].join('\n');
}

function callbackWrap(helper: string, handle: string, body: string, indent: string): string {
  return `await ${helper}(async (${handle}) => {\n${body}\n${indent}});`;
}

/** pg: `BEGIN`…`COMMIT` on a connection the code already holds. */
export function renderBeginCommit(connection: string, body: string, indent: string): string {
  return [
    `await ${connection}.query('BEGIN');`,
    `${indent}try {`,
    body,
    `${indent}  await ${connection}.query('COMMIT');`,
    `${indent}} catch (error) {`,
    `${indent}  await ${connection}.query('ROLLBACK');`,
    `${indent}  throw error;`,
    `${indent}}`,
  ].join('\n');
}

/** Checks out one dedicated connection for `body` and gives it back in `finally`. */
export function renderCheckoutWrap(library: Exclude<SqlLibrary, 'unknown'>, parts: TransactionWrapParts): string {
  const { client, handle, body, indent } = parts;
  return [
    `const ${handle} = await ${client}.${SQL_CLIENTS[library].checkout!.method}();`,
    `${indent}try {`,
    body,
    `${indent}} finally {`,
    `${indent}  ${handle}.release();`,
    `${indent}}`,
  ].join('\n');
}

/** The name a fix gives the handle it introduces, per library. */
export const HANDLE_NAMES: Readonly<Record<TransactionHelperLibrary, string>> = {
  pg: 'client',
  postgres: 'tx',
  knex: 'trx',
  prisma: 'tx',
  typeorm: 'manager',
  sequelize: 'transaction',
  kysely: 'trx',
  drizzle: 'tx',
};
