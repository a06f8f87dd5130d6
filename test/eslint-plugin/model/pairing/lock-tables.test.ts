// A file's lock tables (lockTables): its lock-table acquisitions grouped by table, with the columns
// they return, which name this holder's row when a release compares them.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { lockTables } from '../../../../eslint-plugin/src/model/pairing/lock-tables.js';
import type { SqlModel } from '../../../../eslint-plugin/src/model/nouns/sql-items.js';
import { readAtEnd } from '../../../support/probe-rule.js';

function sqlModelOf(code: string): SqlModel {
  return readAtEnd(code, (context) => getLockModel(context).sql, { typescript: true });
}

describe('lockTables', () => {
  it('groups acquisitions by table and gathers the columns they return', () => {
    const model = sqlModelOf(`import { Pool } from 'pg';
const pool = new Pool();
export async function take(name: string, me: string) {
  await pool.query('INSERT INTO job_locks (name, owner) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING id', [name, me]);
  await pool.query('INSERT INTO job_locks (name, owner) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING token', [name, me]);
  await pool.query('INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, now()) ON CONFLICT DO NOTHING', [name, me]);
}`);
    const tables = lockTables(model);
    assert.deepEqual([...tables.keys()], ['job_locks', 'leases']);
    assert.deepEqual(
      tables.get('job_locks')!.acquisitions.map((acquisition) => acquisition.node.loc.start.line),
      [4, 5],
    );
    assert.deepEqual([...tables.get('job_locks')!.returned], ['id', 'token']);
    assert.deepEqual([...tables.get('leases')!.returned], []);
    // Gathered once per model.
    assert.equal(lockTables(model), tables);
  });

  it('has no table for a file that writes rows without taking them as locks', () => {
    const model = sqlModelOf(`import { Pool } from 'pg';
const pool = new Pool();
export async function save(id: string) {
  await pool.query('INSERT INTO invoices (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id', [id]);
  await pool.query('DELETE FROM sessions WHERE id = $1', [id]);
}`);
    assert.equal(lockTables(model).size, 0);
  });
});
