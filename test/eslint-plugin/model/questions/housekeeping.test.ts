// Writes and deletions that are a program keeping its own data, not taking or freeing a lock:
// isPlainWrite, isLockKey (a key named like a lock but stored as data is a flag), isHousekeeping
// (test hooks, test cases that never take the key, deleting a value the function just wrote).

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { isHousekeeping, isLockKey, isPlainWrite } from '../../../../eslint-plugin/src/model/questions/housekeeping.js';
import type { RedisModel } from '../../../../eslint-plugin/src/model/nouns/redis-events.js';
import { readAtEnd } from '../../../support/probe-rule.js';

function ask<T>(code: string, read: (model: RedisModel) => T): T {
  return readAtEnd(code, (context) => read(getLockModel(context).redis), { typescript: true });
}

const HEAD = `import Redis from 'ioredis';
const redis = new Redis();
`;

describe('isPlainWrite', () => {
  it('SET without NX/XX/GET/IFEQ, SETEX and PSETEX store a value whatever the key holds', () => {
    assert.deepEqual(
      ask(
        `${HEAD}export async function f(token: string) {
  await redis.set('user:1', 'x');
  await redis.set('user:1', 'x', 'EX', 60);
  await redis.setex('user:1', 60, 'x');
  await redis.psetex('user:1', 60000, 'x');
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  await redis.set('lock:a', token, 'XX', 'PX', 1000);
  await redis.set('user:1', 'y', 'GET');
  await redis.set('lock:a', token, 'IFEQ', token, 'PX', 1000);
  await redis.incr('counter');
}`,
        (model) => model.commands.map((command) => `${command.name} ${isPlainWrite(command)}`),
      ),
      ['SET true', 'SET true', 'SETEX true', 'PSETEX true', 'SET false', 'SET false', 'SET false', 'SET false', 'INCR false'],
    );
  });
});

describe('isLockKey', () => {
  it('a key the module acquires, or one named like a lock that it never stores data under', () => {
    assert.deepEqual(
      ask(
        `${HEAD}export async function f(token: string) {
  await redis.set('job:7', token, 'NX', 'PX', 1000);
  await redis.del('job:7');
  await redis.del('lock:invoice');
  await redis.del('cache:invoice');
}`,
        (model) => model.releases.map((release) => isLockKey(model, release.key!)),
      ),
      [true, true, false],
    );
  });

  it('a key named like a lock but written with a plain SET or HSET is data (a flag, a cache entry)', () => {
    assert.deepEqual(
      ask(
        `${HEAD}export async function flag(id: string) {
  await redis.set(\`lock:flag:\${id}\`, '1');
  await redis.hset('lock:meta', 'owner', 'me');
}
export async function clear(id: string) {
  await redis.del(\`lock:flag:\${id}\`);
  await redis.del('lock:meta');
  await redis.del('lock:real');
}`,
        (model) => model.releases.map((release) => isLockKey(model, release.key!)),
      ),
      [false, false, true],
    );
  });
});

describe('isHousekeeping', () => {
  it('a delete in a test hook, or in a test case that never takes the key itself, is housekeeping', () => {
    assert.deepEqual(
      ask(
        `${HEAD}import { afterEach, it } from 'mocha';
afterEach(async () => { await redis.del('lock:a'); });
it('expires', async () => { await redis.pexpire('lock:a', 1); });
it('takes and frees', async () => {
  await redis.set('lock:a', 't', 'NX', 'PX', 1000);
  await redis.del('lock:a');
});`,
        (model) => [...model.releases, ...model.expiries].map((event) => [event.node.loc.start.line, isHousekeeping(model, event)]),
      ),
      [
        [4, true],
        [8, false],
        [5, true],
      ],
    );
  });

  it('deleting or expiring the value the function just wrote is housekeeping; freeing a lock after a later SET NX is not', () => {
    assert.deepEqual(
      ask(
        `${HEAD}export async function cache(token: string) {
  await redis.set('lock:report', 'data');
  await redis.expire('lock:report', 60);
  await redis.del('lock:report');
}
export async function lock(token: string) {
  await redis.set('lock:job', 'data');
  await redis.set('lock:job', token, 'NX', 'PX', 1000);
  await redis.del('lock:job');
}`,
        (model) => [...model.releases, ...model.expiries].map((event) => [event.node.loc.start.line, isHousekeeping(model, event)]),
      ),
      [
        [6, true],
        [11, false],
        [5, true],
      ],
    );
  });
});
