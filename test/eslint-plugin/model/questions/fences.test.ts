// The fence questions of a write under a lock: whether the lock is held for efficiency only
// (isEfficiencyLock: a `// locksmith: efficiency` comment, an `efficiencyLocks` pattern) and whether
// the fence the write compares was minted after the acquisition (fenceMintedAfter), too late to order it.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { fenceMintedAfter, isEfficiencyLock } from '../../../../eslint-plugin/src/model/questions/fences.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each lock's line, with isEfficiencyLock's answer under `patterns`. */
function efficiency(code: string, patterns: readonly RegExp[] = []): [number, boolean][] {
  return readAtEnd(
    code,
    (context) =>
      getLockModel(context).locks.all.map((lock): [number, boolean] => [
        lock.node.loc.start.line,
        isEfficiencyLock(context.sourceCode, lock, patterns),
      ]),
    { typescript: true },
  );
}

/** Whether each SQL write's fence was minted after the file's one lock. */
function mintedAfter(code: string): boolean[] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context);
      const [lock, ...others] = model.locks.all;
      assert.ok(lock && others.length === 0, 'one lock');
      return model.sql.writes.map((write) => fenceMintedAfter(context.sourceCode, model.redis, write, ['fence'], lock));
    },
    { typescript: true },
  );
}

const HEAD = `import Redis from 'ioredis';
import { Pool } from 'pg';
const redis = new Redis();
const pool = new Pool();
`;

describe('isEfficiencyLock', () => {
  it('a `locksmith: efficiency` comment on or above the acquisition’s statement marks it', () => {
    assert.deepEqual(
      efficiency(`${HEAD}export async function f(token: string) {
  // locksmith: efficiency — a duplicate run only wastes work
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  await redis.set('lock:b', token, 'NX', 'PX', 1000); // locksmith: efficiency
  const taken = await redis.set(
    'lock:c', token, 'NX', 'PX', 1000, /* locksmith: efficiency */
  );
  // locksmith: efficiency

  await redis.set('lock:d', token, 'NX', 'PX', 1000);
  // an efficiency lock, says nobody to Locksmith
  await redis.set('lock:e', token, 'NX', 'PX', 1000);
  return taken;
}`),
      [
        [7, true],
        [8, true],
        [9, true],
        [14, false],
        [16, false],
      ],
    );
  });

  it('a key matching an efficiencyLocks pattern marks it', () => {
    assert.deepEqual(
      efficiency(
        `${HEAD}export async function f(token: string) {
  await redis.set('lock:cache:warm', token, 'NX', 'PX', 1000);
  await redis.set('lock:payments', token, 'NX', 'PX', 1000);
}`,
        [/cache:/iu],
      ),
      [
        [6, true],
        [7, false],
      ],
    );
  });
});

describe('fenceMintedAfter', () => {
  it('a fence from an INCR after the acquisition was minted too late; one minted before was not', () => {
    assert.deepEqual(
      mintedAfter(`${HEAD}export async function run(token: string) {
  if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return;
  const fence = await redis.incr('fence:job');
  await pool.query('UPDATE jobs SET fence = $1 WHERE id = 1 AND fence < $1', [fence]);
}`),
      [true],
    );
    assert.deepEqual(
      mintedAfter(`${HEAD}export async function run(token: string) {
  const fence = await redis.incr('fence:job');
  if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return;
  await pool.query('UPDATE jobs SET fence = $1 WHERE id = 1 AND fence < $1', [fence]);
}`),
      [false],
    );
  });

  it('follows the value through `await` inline; silent when the fence is a parameter, not compared with <, or not an INCR', () => {
    assert.deepEqual(
      mintedAfter(`${HEAD}export async function run(token: string, given: number) {
  if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return;
  await pool.query('UPDATE jobs SET fence = $1 WHERE id = 1 AND fence < $1', [await redis.incr('fence:job')]);
  await pool.query('UPDATE jobs SET fence = $1 WHERE id = 1 AND fence < $1', [given]);
  await pool.query('UPDATE jobs SET fence = $1 WHERE id = 1 AND fence = $1', [await redis.incr('fence:job')]);
  await pool.query('UPDATE jobs SET fence = $1 WHERE id = 1 AND fence < $1', [await redis.get('fence:job')]);
}`),
      [true, false, false, false],
    );
  });
});
