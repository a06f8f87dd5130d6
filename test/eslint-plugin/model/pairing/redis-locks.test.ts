// The Redis half of the pairing (pairing/redis-locks.ts): each Redis, Redlock or redis-semaphore
// acquisition as a lock with its TTL, its releases (by key anywhere in the module, by the handle or
// semaphore it was taken on), the releases after it in its own function, where its critical section
// ends, and the lock each release answers for. A DEL of another key, another handle's release and
// another semaphore's release are never the lock's.

import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { pairingOf, redisLocksOf, redisReleasesAfter } from '../../../../eslint-plugin/src/model/pairing/redis-locks.js';
import type { RedisLock } from '../../../../eslint-plugin/src/model/nouns/lock-types.js';
import { readAtEnd } from '../../../support/probe-rule.js';

const line = (node: TSESTree.Node | undefined): number | undefined => node?.loc.start.line;
const lines = (events: readonly { readonly node: TSESTree.Node }[]): (number | undefined)[] => events.map((event) => line(event.node));

const CODE = `import Redis from 'ioredis';
import Redlock from 'redlock';
import { Mutex } from 'redis-semaphore';
const redis = new Redis();
const redlock = new Redlock([redis]);
export async function plain(id: string, token: string) {
  await redis.del(\`lock:\${id}\`);
  await redis.set(\`lock:\${id}\`, token, 'EX', 30, 'NX');
  await redis.del(\`other:\${id}\`);
  setTimeout(() => redis.del(\`lock:\${id}\`), 10);
  await redis.del(\`lock:\${id}\`);
}
export async function elsewhere(id: string) {
  await redis.del(\`lock:\${id}\`);
}
export async function fixed(token: string) {
  await redis.set('lock:fixed', token, 'NX');
  await redis.del('lock:fixed');
}
export async function handles() {
  const first = await redlock.acquire(['lock:r1'], 1000);
  const second = await redlock.acquire(['lock:r2'], 2000);
  await second.release();
  await first.release();
}
export async function semaphores() {
  const a = new Mutex(redis, 'lock:sa');
  const b = new Mutex(redis, 'lock:sb');
  await a.acquire();
  await b.release();
  await a.release();
}`;

interface Read {
  locks: Record<string, unknown>[];
  answers: [number | undefined, number | undefined][];
}

function read(code: string): Read {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context).redis;
      const half = redisLocksOf(context.sourceCode, model);
      const brief = (lock: RedisLock) => ({
        line: line(lock.node),
        kind: lock.kind,
        keyText: lock.keyText,
        ttl: lock.ttl && `${context.sourceCode.getText(lock.ttl.node)} ${lock.ttl.unit}`,
        releases: lines(lock.releases),
        after: lines(redisReleasesAfter(lock)),
        onHandle: lines(pairingOf(lock).releases.onHandle),
        end: line(lock.release),
      });
      return {
        locks: half.locks.map(brief),
        answers: [...model.releases, ...model.expiries].map((event) => [line(event.node), line(half.releasedBy(event)?.node)]),
      };
    },
    { typescript: true },
  );
}

describe('redis-locks', () => {
  it('pairs each lock with its key’s releases, its handle’s or its semaphore’s, and reads its TTL', () => {
    const { locks } = read(CODE);
    assert.deepEqual(locks, [
      // Every DEL of the key is the lock's; only those after it in its function (the timer's included)
      // follow it, and the section ends at the first on its normal path.
      { line: 8, kind: 'redis', keyText: '`lock:${id}`', ttl: '30 s', releases: [7, 10, 11, 14], after: [10, 11], onHandle: [], end: 11 },
      // A literal key is shown without its quotes; a SET NX with no expiry has no TTL.
      { line: 17, kind: 'redis', keyText: 'lock:fixed', ttl: undefined, releases: [18], after: [18], onHandle: [], end: 18 },
      { line: 21, kind: 'redlock', keyText: 'lock:r1', ttl: '1000 ms', releases: [24], after: [24], onHandle: [24], end: 24 },
      { line: 22, kind: 'redlock', keyText: 'lock:r2', ttl: '2000 ms', releases: [23], after: [23], onHandle: [23], end: 23 },
      // The other semaphore's release (line 30) is not this one's.
      { line: 29, kind: 'redis-semaphore', keyText: 'lock:sa', ttl: undefined, releases: [31], after: [31], onHandle: [], end: 31 },
    ]);
  });

  it('answers, for each release, the lock it ends: by key, by handle, by semaphore; none for another key', () => {
    const { answers } = read(CODE);
    assert.deepEqual(answers, [
      [7, 8],
      [9, undefined],
      [10, 8],
      [11, 8],
      [14, 8],
      [18, 17],
      [23, 22],
      [24, 21],
      [30, undefined],
      [31, 29],
    ]);
  });

  it('a SETNX’s TTL is the EXPIRE that completes it, which is no renewal; a later PEXPIRE is', () => {
    const { locks } = readAtEnd(
      `import Redis from 'ioredis';
const redis = new Redis();
export async function run(id: string, token: string) {
  if (!(await redis.setnx(\`lock:\${id}\`, token))) return;
  await redis.expire(\`lock:\${id}\`, 60);
  await redis.pexpire(\`lock:\${id}\`, 60000);
  await redis.del(\`lock:\${id}\`);
}`,
      (context) => {
        const half = redisLocksOf(context.sourceCode, getLockModel(context).redis);
        return {
          locks: half.locks.map((lock) => ({
            ttl: lock.ttl && [context.sourceCode.getText(lock.ttl.node), lock.ttl.unit, line(lock.ttl.completion?.node)],
            renewals: lines(lock.renewals),
            excluded: [...(pairingOf(lock).renewals.excluded ?? [])].map((event) => line(event.node)),
          })),
        };
      },
      { typescript: true },
    );
    assert.deepEqual(locks, [{ ttl: ['60', 's', 5], renewals: [6], excluded: [5] }]);
  });

  it('builds the locks once per model', () => {
    const same = readAtEnd(
      `import Redis from 'ioredis';
const redis = new Redis();
export async function f(token: string) {
  await redis.set('lock:a', token, 'NX', 'PX', 100);
}`,
      (context) => {
        const model = getLockModel(context).redis;
        return redisLocksOf(context.sourceCode, model) === redisLocksOf(context.sourceCode, model);
      },
      { typescript: true },
    );
    assert.equal(same, true);
  });
});
