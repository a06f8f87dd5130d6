// The project's PostgreSQL lock helpers (helpers/sql-helper-summaries.ts): functions and methods that
// take or free a session advisory lock or a lock-table row, summarised as Redis helpers are, with the
// family of their lock and a key that never meets a Redis key (`advisory(…)`, `row:table(…)`). A
// transaction-level lock (it ends inside the helper) and a plain write of another table are no helpers.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { summarizeSqlLockHelpers } from '../../../../eslint-plugin/src/model/helpers/sql-helper-summaries.js';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each summary by name: role, family, key pattern, try, TTL, safe, and the body event's line. */
function summaries(code: string): Record<string, unknown[]> {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context);
      const found = summarizeSqlLockHelpers(context.sourceCode, model.sql, model.settings.lockKeyPattern);
      return Object.fromEntries(
        [...found.values()].map((summary) => [
          summary.name ?? '?',
          [
            summary.role,
            summary.family,
            summary.library,
            summary.keyPattern,
            summary.isTry,
            summary.hasTtl,
            summary.safe,
            summary.event.node.loc.start.line,
          ],
        ]),
      );
    },
    { typescript: true },
  );
}

describe('sql-helper-summaries', () => {
  it('advisory and lock-table helpers: role, family, key, try, TTL and whether the release checks the owner', () => {
    assert.deepEqual(
      summaries(`import { Pool } from 'pg';
const pool = new Pool();
export async function acquireRunLock(key: string) {
  const { rows } = await pool.query('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [key]);
  return rows[0].ok as boolean;
}
export async function releaseRunLock(key: string) {
  await pool.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
}
export async function acquireTransactionLock(key: string) {
  await pool.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}
export class MigrationLock {
  async acquire() {
    await pool.query('SELECT pg_advisory_lock(42)');
  }
  async release() {
    await pool.query('SELECT pg_advisory_unlock(42)');
  }
}
export async function acquireLock(name: string, owner: string) {
  const { rowCount } = await pool.query("INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval '30 seconds') ON CONFLICT (name) DO NOTHING", [name, owner]);
  return rowCount === 1;
}
export async function releaseLock(name: string, owner: string) {
  await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);
}
export async function forceRelease(name: string) {
  await pool.query('DELETE FROM job_locks WHERE name = $1', [name]);
}
export async function heartbeat(name: string, owner: string) {
  await pool.query("UPDATE job_locks SET expires_at = now() + interval '30 seconds' WHERE name = $1 AND owner = $2", [name, owner]);
}
export async function markPaid(id: string) {
  await pool.query('UPDATE invoices SET paid = true WHERE id = $1', [id]);
}
`),
      {
        acquireRunLock: ['acquire', 'advisory', 'wrapper', 'advisory($0)', true, false, false, 4],
        releaseRunLock: ['release', 'advisory', 'wrapper', 'advisory($0)', false, false, true, 8],
        // A literal key is its own pattern: acquire() and release() of the class name one lock.
        acquire: ['acquire', 'advisory', 'wrapper', 'advisory(42)', false, false, false, 15],
        release: ['release', 'advisory', 'wrapper', 'advisory(42)', false, false, true, 18],
        // An insert that may find the row taken is a try, and a lock row carries its expiry.
        acquireLock: ['acquire', 'lock-table', 'wrapper', 'row:job_locks($0)', true, true, false, 22],
        releaseLock: ['release', 'lock-table', 'wrapper', 'row:job_locks($0)', false, false, true, 26],
        // Deleting the row by name alone frees another holder's row.
        forceRelease: ['release', 'lock-table', 'wrapper', 'row:job_locks($0)', false, false, false, 29],
        heartbeat: ['extend', 'lock-table', 'wrapper', 'row:job_locks($0)', false, false, true, 32],
      },
    );
  });

  it('a key read from a private field of the instance is compared by its text in each method', () => {
    const found = summaries(`import { Pool } from 'pg';
const pool = new Pool();
export class SessionLock {
  readonly #lockId: number;
  constructor(id: number) { this.#lockId = id; }
  async acquire() {
    await pool.query('SELECT pg_advisory_lock($1)', [this.#lockId]);
  }
  async release() {
    await pool.query('SELECT pg_advisory_unlock($1)', [this.#lockId]);
  }
}
`);
    assert.deepEqual(
      Object.entries(found).map(([name, summary]) => [name, summary[0], summary[3]]),
      [
        ['acquire', 'acquire', 'advisory(this.#lockId)'],
        ['release', 'release', 'advisory(this.#lockId)'],
      ],
    );
  });

  it('a module with no SQL lock has no SQL helpers', () => {
    assert.deepEqual(
      summaries(`import { Pool } from 'pg';
const pool = new Pool();
export async function markPaid(id: string) {
  await pool.query('UPDATE invoices SET paid = true WHERE id = $1', [id]);
}
export async function lockedRows(id: string) {
  return pool.query('SELECT * FROM invoices WHERE id = $1 FOR UPDATE', [id]);
}`),
      {},
    );
  });
});
