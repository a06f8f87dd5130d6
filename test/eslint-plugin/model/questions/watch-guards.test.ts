// The WATCH that guards a DEL release (watchGuardOf), and whether it holds: on a dedicated connection
// with the DEL in MULTI/EXEC and EXEC's null reply read (`held`), on a shared client (`shared`), or with
// the reply dropped (`unchecked`).

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { watchGuardOf } from '../../../../eslint-plugin/src/model/questions/watch-guards.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each release by line, with its guard's verdict and WATCH line, or `-`. */
function guards(code: string): string[] {
  return readAtEnd(
    code,
    (context) =>
      getLockModel(context).redis.releases.map((release) => {
        const guard = watchGuardOf(context.sourceCode, release);
        return `${release.node.loc.start.line} ${guard ? `${guard.verdict} (watch ${guard.watch.loc.start.line})` : '-'}`;
      }),
    { typescript: true },
  );
}

describe('watchGuardOf', () => {
  it('a dedicated connection (`duplicate()`), DEL in MULTI/EXEC and the reply read: held', () => {
    assert.deepEqual(
      guards(`import Redis from 'ioredis';
const redis = new Redis();
export async function release(token: string) {
  const connection = redis.duplicate();
  await connection.watch('lock:a');
  if ((await connection.get('lock:a')) !== token) return false;
  const reply = await connection.multi().del('lock:a').exec();
  return reply !== null;
}`),
      ['7 held (watch 5)'],
    );
  });

  it('the same on a module-wide client that serves every caller: shared (so is a connection the function makes with `new`)', () => {
    assert.deepEqual(
      guards(`import Redis from 'ioredis';
const redis = new Redis();
export async function release(token: string) {
  await redis.watch('lock:a');
  if ((await redis.get('lock:a')) !== token) return false;
  const reply = await redis.multi().del('lock:a').exec();
  return reply !== null;
}
export async function fresh(token: string) {
  const connection = new Redis();
  await connection.watch('lock:b');
  if ((await connection.get('lock:b')) !== token) return false;
  const reply = await connection.multi().del('lock:b').exec();
  return reply !== null;
}`),
      ['6 shared (watch 4)', '13 shared (watch 11)'],
    );
  });

  it('a dedicated connection whose DEL is outside MULTI, or whose EXEC reply is dropped: unchecked', () => {
    assert.deepEqual(
      guards(`import Redis from 'ioredis';
const redis = new Redis();
export async function outside(token: string) {
  const connection = redis.duplicate();
  await connection.watch('lock:a');
  if ((await connection.get('lock:a')) !== token) return;
  await connection.del('lock:a');
}
export async function dropped(token: string) {
  const connection = redis.duplicate();
  await connection.watch('lock:b');
  if ((await connection.get('lock:b')) !== token) return;
  await connection.multi().del('lock:b').exec();
}`),
      ['7 unchecked (watch 5)', '13 unchecked (watch 11)'],
    );
  });

  it('no WATCH, a WATCH of another key, or one after the DEL guards nothing', () => {
    assert.deepEqual(
      guards(`import Redis from 'ioredis';
export async function f() {
  const connection = new Redis();
  await connection.del('lock:a');
  await connection.watch('lock:b');
  await connection.multi().del('lock:c').exec();
  await connection.watch('lock:a');
}`),
      ['4 -', '6 -'],
    );
  });
});
