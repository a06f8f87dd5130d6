// What becomes of a lock when the work under it throws: isGuaranteed (a release in `finally` or in
// `catch`), hasWorkBetween (can anything between acquiring and releasing throw) and
// endsSessionInFinally (a `finally` that closes the connection, and its advisory locks with it).

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { endsSessionInFinally, hasWorkBetween, isGuaranteed } from '../../../../eslint-plugin/src/model/questions/error-paths.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** For each function's one Redis lock: whether its release is guaranteed, and whether work lies between. */
function redisPaths(code: string): { guaranteed: boolean; work: boolean }[] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context).redis;
      return model.acquisitions.map((acquisition) => {
        const release = model.releases.find((candidate) => candidate.owner === acquisition.owner)!;
        return { guaranteed: isGuaranteed(release), work: hasWorkBetween(context.sourceCode, acquisition, release, new Set()) };
      });
    },
    { typescript: true },
  );
}

const HEAD = `import Redis from 'ioredis';
const redis = new Redis();
declare function work(): Promise<void>;
`;

describe('isGuaranteed and hasWorkBetween', () => {
  it('a release in finally, or in a catch that rethrows, is guaranteed; a release after the work is not', () => {
    assert.deepEqual(
      redisPaths(`${HEAD}export async function inFinally(token: string) {
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  try { await work(); } finally { await redis.del('lock:a'); }
}
export async function inCatch(token: string) {
  await redis.set('lock:b', token, 'NX', 'PX', 1000);
  try { await work(); } catch (error) { await redis.del('lock:b'); throw error; }
}
export async function after(token: string) {
  await redis.set('lock:c', token, 'NX', 'PX', 1000);
  await work();
  await redis.del('lock:c');
}`),
      [
        { guaranteed: true, work: true },
        { guaranteed: true, work: true },
        { guaranteed: false, work: true },
      ],
    );
  });

  it('no work between: nothing to throw; a function defined between runs later; a try whose catch swallows cannot skip the release', () => {
    assert.deepEqual(
      redisPaths(`${HEAD}export async function nothing(token: string) {
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  const label = 'a' + token;
  await redis.del('lock:a');
  return label;
}
export async function deferred(token: string) {
  await redis.set('lock:b', token, 'NX', 'PX', 1000);
  const later = async () => work();
  await redis.del('lock:b');
  return later;
}
export async function swallowed(token: string) {
  await redis.set('lock:c', token, 'NX', 'PX', 1000);
  try { await work(); } catch { console.error('ignored'); }
  await redis.del('lock:c');
}
export async function rethrown(token: string) {
  await redis.set('lock:d', token, 'NX', 'PX', 1000);
  try { await work(); } catch (error) { throw new Error('wrapped', { cause: error }); }
  await redis.del('lock:d');
}`),
      [
        { guaranteed: false, work: false },
        { guaranteed: false, work: false },
        { guaranteed: false, work: false },
        { guaranteed: false, work: true },
      ],
    );
  });

  it('the lock’s own machinery between is not work', () => {
    const answers = readAtEnd(
      `${HEAD}export async function f(token: string) {
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  await redis.pexpire('lock:a', 1000);
  await redis.del('lock:a');
}`,
      (context) => {
        const model = getLockModel(context).redis;
        const [acquisition] = model.acquisitions;
        const [release] = model.releases;
        const [renewal] = model.expiries;
        return [
          hasWorkBetween(context.sourceCode, acquisition!, release!, new Set()),
          hasWorkBetween(context.sourceCode, acquisition!, release!, new Set([renewal!.node])),
        ];
      },
      { typescript: true },
    );
    assert.deepEqual(answers, [true, false]);
  });
});

describe('endsSessionInFinally', () => {
  it('client.release(true) or end() of the lock’s client in finally closes the session; release() hands it back open', () => {
    assert.deepEqual(
      readAtEnd(
        `import { Pool } from 'pg';
const pool = new Pool();
export async function destroyed(id: number) {
  const client = await pool.connect();
  try { await client.query('SELECT pg_advisory_lock($1)', [id]); } finally { client.release(true); }
}
export async function ended(id: number) {
  const client = await pool.connect();
  try { await client.query('SELECT pg_advisory_lock($1)', [id]); } finally { await client.end(); }
}
export async function handedBack(id: number) {
  const client = await pool.connect();
  try { await client.query('SELECT pg_advisory_lock($1)', [id]); } finally { client.release(); }
}
export async function notInFinally(id: number) {
  const client = await pool.connect();
  await client.query('SELECT pg_advisory_lock($1)', [id]);
  client.release(true);
}`,
        (context) => getLockModel(context).sql.advisoryLocks.map((lock) => endsSessionInFinally(context.sourceCode, lock)),
        { typescript: true },
      ),
      [true, true, false, false],
    );
  });
});
