// The try-acquisitions each lock family contributes (TRY_ACQUISITION_SOURCES): Redis SET NX/SETNX of a
// lock key and redis-semaphore's tryAcquire, PostgreSQL's `pg_try_advisory_lock … AS locked` alone in
// its query; not an idempotency marker, not a command queued in MULTI.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { TRY_ACQUISITION_SOURCES } from '../../../../eslint-plugin/src/model/questions/try-acquisitions.js';
import { readAtEnd } from '../../../support/probe-rule.js';

interface Seen {
  readonly tries: string[];
  readonly all: number[];
}

/** What each source answers for `code`: its try-acquisitions as `line label [read back] [column]`, all its acquisitions' lines. */
function sources(code: string): Seen[] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context);
      return TRY_ACQUISITION_SOURCES.map((source) => ({
        tries: source
          .tries(model, context)
          .map(
            (attempt) =>
              `${attempt.node.loc.start.line} ${attempt.label}${attempt.verifiedLater ? ' read-back' : ''}${attempt.callback ? ' callback' : ''}${
                attempt.resultColumn ? ` ${attempt.resultColumn.name}:${attempt.resultColumn.shape}` : ''
              }`,
          ),
        all: source.all(model, context).map((acquisition) => acquisition.node.loc.start.line),
      }));
    },
    { typescript: true },
  );
}

describe('TRY_ACQUISITION_SOURCES', () => {
  it('Redis: SET NX and SETNX of lock keys; not a marker, not a command queued in MULTI', () => {
    const [redis, advisory] = sources(`import Redis from 'ioredis';
const redis = new Redis();
export async function f(token: string, id: string) {
  await redis.set('lock:job', token, 'NX', 'PX', 30000);
  await redis.setnx('lock:other', token);
  await redis.set(\`processed:\${id}\`, '1', 'NX');
  await redis.multi().set('lock:queued', token, 'NX', 'PX', 1000).exec();
}`);
    assert.deepEqual(redis!.tries, ['4 SET NX', '5 SETNX']);
    // Every lock acquisition counts for fail-open helpers, the queued one too; the marker is no lock.
    assert.deepEqual(redis!.all, [4, 5, 7]);
    assert.deepEqual(advisory, { tries: [], all: [] });
  });

  it('Redis: a key of any name that the module also releases is a lock; a GET compared after SET NX reads the lock back', () => {
    const [redis] = sources(`import Redis from 'ioredis';
const redis = new Redis();
export async function f(token: string) {
  await redis.set('job:7', token, 'NX', 'PX', 30000);
  if ((await redis.get('job:7')) !== token) return;
  await redis.del('job:7');
}`);
    assert.deepEqual(redis!.tries, ['4 SET NX read-back']);
  });

  it('node_redis v3: the reply goes to the callback', () => {
    const [redis] = sources(`const redis = require('redis');
const client = redis.createClient();
export function f(token: string, done: () => void) {
  client.set('lock:job', token, 'NX', 'PX', 30000, done);
}`);
    assert.deepEqual(redis!.tries, ['4 SET NX callback']);
  });

  it('PostgreSQL: a try-lock alone in its query, its column (named by PostgreSQL when not aliased) in its library’s result shape', () => {
    const [, advisory] = sources(`import { Pool } from 'pg';
import postgres from 'postgres';
const pool = new Pool();
const sql = postgres();
export async function f(id: number) {
  await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [id]);
  await sql\`SELECT pg_try_advisory_xact_lock(\${id}) AS got\`;
  await pool.query('SELECT pg_try_advisory_lock($1)', [id]);
  await pool.query('SELECT pg_advisory_lock($1)', [id]);
  await pool.query('SELECT pg_advisory_unlock($1)', [id]);
  await pool.query('SELECT pg_try_advisory_lock(1) AS a, pg_try_advisory_lock(2) AS b');
}`);
    assert.deepEqual(advisory!.tries, [
      '6 pg_try_advisory_lock locked:result',
      '7 pg_try_advisory_xact_lock got:rows',
      '8 pg_try_advisory_lock pg_try_advisory_lock:result',
    ]);
    // Two try-locks in one statement are not followed; every lock call counts for fail-open helpers, not the unlock.
    assert.deepEqual(advisory!.all, [6, 7, 8, 9, 11, 11]);
  });
});
