// The one SQL statement a held lock's critical section runs, when it runs nothing else
// (singleStatement): the database serialises that statement without the lock. Silent when the
// section does anything more, runs the statement in a loop, or runs no single-table write.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { singleStatement } from '../../../../eslint-plugin/src/model/questions/single-statement.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each lock's line, with `STATEMENT table` for its one statement, or `-`. */
function statements(code: string): string[] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context);
      return model.locks.all.map((lock) => {
        const only = singleStatement(context.sourceCode, model.redis, model.sql, lock);
        return `${lock.node.loc.start.line} ${only ? `${only.statement} ${only.table}` : '-'}`;
      });
    },
    { typescript: true },
  );
}

const HEAD = `import Redis from 'ioredis';
import { Pool } from 'pg';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
const pool = new Pool();
declare function notify(): Promise<void>;
`;

describe('singleStatement', () => {
  it('one UPDATE under a Redis lock, with only the lock’s machinery around it', () => {
    assert.deepEqual(
      statements(`${HEAD}export async function bump(id: string) {
  const token = randomUUID();
  if (!(await redis.set('lock:counter', token, 'NX', 'PX', 5000))) return;
  try {
    await pool.query('UPDATE counters SET n = n + 1 WHERE id = $1', [id]);
  } finally {
    await redis.del('lock:counter');
  }
}`),
      ['9 `UPDATE` counters'],
    );
  });

  it('silent when the section also does other work, or runs the statement per item', () => {
    assert.deepEqual(
      statements(`${HEAD}export async function more(id: string, token: string) {
  if (!(await redis.set('lock:a', token, 'NX', 'PX', 5000))) return;
  await pool.query('UPDATE counters SET n = n + 1 WHERE id = $1', [id]);
  await notify();
  await redis.del('lock:a');
}
export async function batch(ids: string[], token: string) {
  if (!(await redis.set('lock:b', token, 'NX', 'PX', 5000))) return;
  for (const id of ids) await pool.query('UPDATE counters SET n = n + 1 WHERE id = $1', [id]);
  await redis.del('lock:b');
}
export async function read(id: string, token: string) {
  if (!(await redis.set('lock:c', token, 'NX', 'PX', 5000))) return;
  const { rows } = await pool.query('SELECT n FROM counters WHERE id = $1', [id]);
  await redis.del('lock:c');
  return rows;
}`),
      ['8 -', '14 -', '19 -'],
    );
  });

  it('an advisory lock around one INSERT; BEGIN and COMMIT do not count as statements', () => {
    assert.deepEqual(
      statements(`${HEAD}export async function insert(id: number) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [id]);
    await client.query('INSERT INTO events (id) VALUES ($1)', [id]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}`),
      ['11 `INSERT` events'],
    );
  });
});
