// Releases that report failure through their result, and whose result nothing reads
// (droppedReleaseResults): an owner-comparing script, a `pg_advisory_unlock` that may run in another
// session, a lock-table DELETE that compares the owner. Not a plain DEL's count, not Redlock's release.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { droppedReleaseResults } from '../../../../eslint-plugin/src/model/questions/release-results.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each dropped result: `line label (failure) fate`. */
function dropped(code: string): string[] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context);
      return droppedReleaseResults(context.sourceCode, model.redis, model.sql).map(
        ({ release, fate }) => `${release.node.loc.start.line} ${release.label} (${release.failure}) ${fate.kind}`,
      );
    },
    { typescript: true },
  );
}

const RELEASE = `'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end'`;

describe('droppedReleaseResults', () => {
  it('a compare-and-delete script whose 0 is ignored or never read; not one whose answer is tested', () => {
    assert.deepEqual(
      dropped(`import Redis from 'ioredis';
const redis = new Redis();
export async function f(token: string) {
  await redis.eval(${RELEASE}, 1, 'lock:a', token);
  const released = await redis.eval(${RELEASE}, 1, 'lock:b', token);
  if (!(await redis.eval(${RELEASE}, 1, 'lock:c', token))) throw new Error('lost');
  await redis.del('lock:d');
}`),
      ['4 compare-and-delete script (0) ignored', '5 compare-and-delete script (0) unread'],
    );
  });

  it('not Redlock’s release (it throws), nor a script queued in MULTI', () => {
    assert.deepEqual(
      dropped(`import Redis from 'ioredis';
import Redlock from 'redlock';
const redis = new Redis();
const redlock = new Redlock([redis]);
export async function f(token: string) {
  const lock = await redlock.acquire(['lock:a'], 1000);
  await lock.release();
  await redis.multi().eval(${RELEASE}, 1, 'lock:b', token).exec();
}`),
      [],
    );
  });

  it('pg_advisory_unlock through a pool may answer false; on a dedicated client it cannot', () => {
    assert.deepEqual(
      dropped(`import { Pool } from 'pg';
const pool = new Pool();
export async function pooled(id: number) {
  await pool.query('SELECT pg_advisory_lock($1)', [id]);
  await pool.query('SELECT pg_advisory_unlock($1)', [id]);
}
export async function dedicated(id: number) {
  const client = await pool.connect();
  await client.query('SELECT pg_advisory_lock($1)', [id]);
  await client.query('SELECT pg_advisory_unlock($1)', [id]);
  client.release();
}`),
      ['5 pg_advisory_unlock (false) ignored'],
    );
  });

  it('a lock-table DELETE that compares the owner reports no row when the row was another’s; one that does not compare cannot', () => {
    assert.deepEqual(
      dropped(`import { Pool } from 'pg';
const pool = new Pool();
export async function f(name: string, me: string) {
  await pool.query('INSERT INTO locks (name, owner) VALUES ($1, $2) ON CONFLICT DO NOTHING', [name, me]);
  await pool.query('DELETE FROM locks WHERE name = $1 AND owner = $2', [name, me]);
  await pool.query('DELETE FROM locks WHERE name = $1', [name]);
  const { rowCount } = await pool.query('DELETE FROM locks WHERE name = $1 AND owner = $2', [name, me]);
  return rowCount;
}`),
      ['5 DELETE FROM locks (no row affected) ignored'],
    );
  });
});
