// The SQL half of the pairing (pairing/sql-locks.ts): each session advisory lock with the unlocks of
// its key on its own connection later in its function, each lock-table row with the DELETEs that name
// it and the UPDATEs that renew it, and for every unlock the session lock it answers for. A transaction
// lock, a lock unlocked in its own text, an unlock on another connection or of another key, a sweep of
// expired rows, and a release no single acquisition can claim pair with nothing.

import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { sessionLockBefore, sqlLocksOf } from '../../../../eslint-plugin/src/model/pairing/sql-locks.js';
import { readAtEnd } from '../../../support/probe-rule.js';

const line = (node: TSESTree.Node | undefined): number | undefined => node?.loc.start.line;
const lines = (events: readonly { readonly node: TSESTree.Node }[]): (number | undefined)[] => events.map((event) => line(event.node));

interface Read {
  locks: Record<string, unknown>[];
  unlocks: [number | undefined, string, number | undefined, number | undefined][];
  rows: [number | undefined, string, number | undefined][];
}

function read(code: string): Read {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context).sql;
      const half = sqlLocksOf(context.sourceCode, model);
      return {
        locks: half.locks.map((lock) => ({
          line: line(lock.node),
          kind: lock.kind,
          keyText: lock.keyText,
          releases: lines(lock.releases),
          renewals: lines(lock.renewals),
          end: line(lock.release),
        })),
        unlocks: model.advisoryLocks
          .filter((item) => item.call.action !== 'lock')
          .map((unlock) => [
            line(unlock.node),
            unlock.call.action,
            line(half.releasedBy(unlock)?.node),
            line(sessionLockBefore(context.sourceCode, model, unlock)?.node),
          ]),
        rows: [...model.lockTableReleases, ...model.lockTableRenewals].map((event) => [
          line(event.node),
          event.kind,
          line(half.releasedBy(event)?.node),
        ]),
      };
    },
    { typescript: true },
  );
}

describe('sql-locks: advisory locks', () => {
  it('pairs a session lock with the unlocks of its key on its connection; not a transaction lock or one unlocked in its own text', () => {
    const { locks, unlocks } = read(`import { Pool } from 'pg';
const pool = new Pool();
export async function migrate(jobId: number) {
  const client = await pool.connect();
  const other = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [jobId]);
    await client.query('SELECT pg_advisory_lock(2)');
    await other.query('SELECT pg_advisory_unlock($1)', [jobId]);
    await client.query('SELECT pg_advisory_unlock(2)');
    await client.query('SELECT pg_advisory_unlock( $1 )', [jobId]);
  } finally {
    client.release();
    other.release();
  }
}
export async function all() {
  const client = await pool.connect();
  await client.query('SELECT pg_advisory_lock(7)');
  await client.query('SELECT pg_advisory_unlock_all()');
  client.release();
}
export async function oneText() {
  await pool.query('SELECT pg_advisory_lock(9); UPDATE t SET x = 1; SELECT pg_advisory_unlock(9)');
}
export async function xact() {
  const client = await pool.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_advisory_xact_lock(3)');
  await client.query('COMMIT');
  client.release();
}
`);
    assert.deepEqual(locks, [
      // The key as the code writes it, its placeholder replaced by the JavaScript bound to it.
      { line: 7, kind: 'advisory', keyText: '(jobid)', releases: [11], renewals: [], end: 11 },
      { line: 8, kind: 'advisory', keyText: '(2)', releases: [10], renewals: [], end: 10 },
      { line: 19, kind: 'advisory', keyText: '(7)', releases: [20], renewals: [], end: 20 },
      { line: 24, kind: 'advisory', keyText: '(9)', releases: [], renewals: [], end: undefined },
      { line: 29, kind: 'advisory', keyText: '(3)', releases: [], renewals: [], end: undefined },
    ]);
    assert.deepEqual(unlocks, [
      // Sent on another connection: no lock of its own to release, though the lock before it is its key's.
      [9, 'unlock', undefined, 7],
      [10, 'unlock', 8, 8],
      [11, 'unlock', 7, 7],
      [20, 'unlock-all', 19, 19],
      [24, 'unlock', undefined, 24],
    ]);
  });
});

describe('sql-locks: lock-table rows', () => {
  it('pairs the row with the DELETEs naming it here and elsewhere and the heartbeat; a sweep frees no row', () => {
    const { locks, rows } = read(`import { Pool } from 'pg';
const pool = new Pool();
export async function acquire(name: string, owner: string) {
  const { rowCount } = await pool.query("INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval '30 seconds') ON CONFLICT (name) DO NOTHING", [name, owner]);
  if (!rowCount) return false;
  await pool.query('DELETE FROM job_locks WHERE expires_at < now()');
  await work();
  await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);
  return true;
}
export async function heartbeat(name: string, owner: string) {
  await pool.query("UPDATE job_locks SET expires_at = now() + interval '30 seconds' WHERE name = $1 AND owner = $2", [name, owner]);
}
export async function release(name: string, owner: string) {
  await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);
}
export async function sweep() {
  await pool.query('DELETE FROM job_locks WHERE expires_at < now()');
}
declare function work(): Promise<void>;
`);
    assert.deepEqual(locks, [{ line: 4, kind: 'lock-table', keyText: 'job_locks', releases: [8, 15], renewals: [12], end: 8 }]);
    // Every event of the table answers for its only acquisition, the sweeps included; they are not among its releases.
    assert.deepEqual(rows, [
      [6, 'delete', 4],
      [8, 'delete', 4],
      [15, 'delete', 4],
      [18, 'delete', 4],
      [12, 'update', 4],
    ]);
  });

  it('a release in a function of its own cannot tell which of two acquisitions it answers', () => {
    const { locks, rows } = read(`import { Pool } from 'pg';
const pool = new Pool();
export async function a(name: string) {
  await pool.query("INSERT INTO job_locks (name) VALUES ($1) ON CONFLICT DO NOTHING", [name]);
}
export async function b(name: string) {
  await pool.query("INSERT INTO job_locks (name) VALUES ($1) ON CONFLICT DO NOTHING", [name]);
}
export async function release(name: string) {
  await pool.query('DELETE FROM job_locks WHERE name = $1', [name]);
}
`);
    assert.deepEqual(
      locks.map((lock) => [lock['line'], lock['releases']]),
      [
        [4, []],
        [7, []],
      ],
    );
    assert.deepEqual(rows, [[10, 'delete', undefined]]);
  });

  it('one query that takes and frees the row holds it for nothing', () => {
    const { locks } = read(`import { Pool } from 'pg';
const pool = new Pool();
export async function once(name: string) {
  await pool.query("INSERT INTO job_locks (name) VALUES ($1) ON CONFLICT DO NOTHING; DELETE FROM job_locks WHERE name = $1", [name]);
}`);
    assert.deepEqual(
      locks.map((lock) => [lock['line'], lock['releases'], lock['end']]),
      [[4, [], undefined]],
    );
  });
});
