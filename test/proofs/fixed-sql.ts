// The PostgreSQL code Locksmith's suggestions write, rendered by eslint-plugin/src/fixes/sql-templates
// and compiled into callable functions, so the proofs run exactly the text a fix inserts.

import type pg from 'pg';
import type postgres from 'postgres';
import {
  HANDLE_NAMES,
  renderCheckoutWrap,
  renderFencedUpdate,
  renderPlaceholder,
  renderTakeoverGuard,
  renderTransactionWrap,
} from '../../eslint-plugin/src/fixes/sql-templates.js';

type AsyncBody = (...values: unknown[]) => Promise<unknown>;

/** Compiles an async function body rendered by a template; the one place SQL-side fix code is evaluated. */
function compileAsync(parameters: readonly string[], body: string): AsyncBody {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the fix's rendered text is the point of the proof
  const compiled = new Function(...parameters, `return (async () => {\n${body}\n})();`) as AsyncBody;
  return compiled;
}

/** The fenced write in pg's placeholder style: `$1` the fence, `$2` the row id. */
export const FENCED_WRITE_PG_TEXT = renderFencedUpdate({
  table: 'invoice_state',
  assignments: [`last_run = 'done'`],
  where: 'id = $2',
  fence: renderPlaceholder('dollar', { number: 1, expression: 'fence' }),
});

/** The fenced write as postgres.js tagged-template code, with `fence` and `rowId` bound. */
export const FENCED_WRITE_POSTGRES_JS_CODE = `return sql\`${renderFencedUpdate({
  table: 'invoice_state',
  assignments: [`last_run = 'done'`],
  where: 'id = ${rowId}',
  fence: renderPlaceholder('tagged', { number: 1, expression: 'fence' }),
})}\`;`;

const fencedWritePostgresJs = compileAsync(['sql', 'fence', 'rowId'], FENCED_WRITE_POSTGRES_JS_CODE);

/** Runs the fenced write through postgres.js; resolves to the number of rows it changed. */
export async function runFencedWritePostgresJs(sql: postgres.Sql, fence: number, rowId: number): Promise<number> {
  const result = (await fencedWritePostgresJs(sql, fence, rowId)) as postgres.RowList<postgres.Row[]>;
  return result.count;
}

/** The lock-table acquisition as the article writes it, minus its expiry guard (what the rule reports). */
export const UNGUARDED_LOCK_UPSERT_SQL = `INSERT INTO locks (name, owner, expires_at)
VALUES ($1, $2, now() + interval '30 seconds')
ON CONFLICT (name) DO UPDATE
   SET owner = $2, expires_at = now() + interval '30 seconds'
RETURNING owner`;

/** no-lock-takeover's fix applied to the unguarded upsert: the guard inserted after the SET list. */
export const UNGUARDED_UPSERT_WITH_GUARD_SQL = UNGUARDED_LOCK_UPSERT_SQL.replace(
  `interval '30 seconds'\nRETURNING owner`,
  `interval '30 seconds'${renderTakeoverGuard('locks', 'expires_at')}\nRETURNING owner`,
);
if (UNGUARDED_UPSERT_WITH_GUARD_SQL === UNGUARDED_LOCK_UPSERT_SQL) throw new Error('the takeover guard was not inserted');

const LOCK_ON_ONE_CLIENT_BODY = [
  `  await ${HANDLE_NAMES.pg}.query('SELECT pg_advisory_lock($1)', [lockKey]);`,
  '  await work();',
  `  const { rows } = await ${HANDLE_NAMES.pg}.query('SELECT pg_advisory_unlock($1) AS unlocked', [lockKey]);`,
  '  return rows[0].unlocked;',
].join('\n');

/** no-pooled-advisory-lock's fix: lock, work and unlock on one client checked out of the pool. */
export const CHECKOUT_WRAPPED_LOCK_CODE = renderCheckoutWrap('pg', {
  client: 'pool',
  handle: HANDLE_NAMES.pg,
  body: LOCK_ON_ONE_CLIENT_BODY,
  indent: '',
});

const checkoutWrappedLock = compileAsync(['pool', 'lockKey', 'work'], CHECKOUT_WRAPPED_LOCK_CODE);

/** Runs the fix's checkout-wrapped lock; resolves to what `pg_advisory_unlock` returned. */
export async function runCheckoutWrappedLock(pool: pg.Pool, lockKey: number, work: () => Promise<void>): Promise<boolean> {
  return (await checkoutWrappedLock(pool, lockKey, work)) === true;
}

/** no-xact-lock-outside-transaction's fix per library: the lock and the section in one transaction. */
export const TRANSACTION_WRAPPED_XACT_LOCK_CODE = {
  postgres: renderTransactionWrap('postgres', {
    client: 'sql',
    handle: HANDLE_NAMES.postgres,
    body: [`  await ${HANDLE_NAMES.postgres}\`SELECT pg_advisory_xact_lock(\${lockKey})\`;`, '  await criticalSection();'].join('\n'),
    indent: '',
  }),
  pg: renderTransactionWrap('pg', {
    client: 'pool',
    handle: HANDLE_NAMES.pg,
    body: [`  await ${HANDLE_NAMES.pg}.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);`, '  await criticalSection();'].join('\n'),
    indent: '',
  }),
} as const;

const transactionWrapped = {
  postgres: compileAsync(['sql', 'lockKey', 'criticalSection'], TRANSACTION_WRAPPED_XACT_LOCK_CODE.postgres),
  pg: compileAsync(['pool', 'lockKey', 'criticalSection'], TRANSACTION_WRAPPED_XACT_LOCK_CODE.pg),
};

/** Runs `criticalSection` under the fix's transaction-level lock, through postgres.js or a pg Pool. */
export async function runTransactionWrappedXactLock(
  database: { readonly library: 'postgres'; readonly sql: postgres.Sql } | { readonly library: 'pg'; readonly pool: pg.Pool },
  lockKey: number,
  criticalSection: () => Promise<void>,
): Promise<void> {
  if (database.library === 'postgres') await transactionWrapped.postgres(database.sql, lockKey, criticalSection);
  else await transactionWrapped.pg(database.pool, lockKey, criticalSection);
}
