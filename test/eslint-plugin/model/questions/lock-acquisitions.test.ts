// Whether a Redis acquisition takes a lock or only writes a marker (isLockAcquisition), is an exported
// lock helper (isExportedLockHelper), owes its own release (isScopedAcquisition), or has no expiry
// (redisAcquisitionsWithoutTtl); and which key writes touch a lock (isLockKeyWrite).

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel, type LockModel } from '../../../../eslint-plugin/src/model/index.js';
import {
  isExportedLockHelper,
  isLockAcquisition,
  isLockKeyWrite,
  isScopedAcquisition,
  redisAcquisitionsWithoutTtl,
} from '../../../../eslint-plugin/src/model/questions/lock-acquisitions.js';
import type { ProbeContext } from '../../../support/probe-rule.js';
import { readAtEnd } from '../../../support/probe-rule.js';

function ask<T>(code: string, read: (model: LockModel, context: ProbeContext) => T, typescript = true): T {
  return readAtEnd(code, (context) => read(getLockModel(context), context), { typescript });
}

const HEAD = `import Redis from 'ioredis';
const redis = new Redis();
`;

describe('isLockAcquisition', () => {
  it('a lock key, a key this module releases, or a key inside a function named like a lock helper', () => {
    assert.deepEqual(
      ask(
        `${HEAD}export async function f(token: string, id: string) {
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  await redis.set(\`job:\${id}\`, token, 'NX', 'PX', 1000);
  await redis.del(\`job:\${id}\`);
  await redis.set(\`processed:\${id}\`, '1', 'NX');
  await redis.set(\`cache:\${id}\`, 'v', 'NX', 'EX', 60);
}
export async function acquireMutex(key: string, token: string) {
  return redis.set(key, token, 'NX', 'PX', 1000);
}`,
        (model, context) =>
          model.redis.acquisitions.map((acquisition) => isLockAcquisition(context.sourceCode, model.redis, /mutex|lock/iu, acquisition)),
      ),
      // The idempotency marker and the first-write-wins cache entry are not locks.
      [true, true, false, false, true],
    );
  });
});

describe('isExportedLockHelper', () => {
  it('exported, named like a lock helper, its key from a parameter', () => {
    assert.deepEqual(
      ask(
        `${HEAD}export async function acquireLock(key: string, token: string) {
  return redis.set(key, token, 'NX', 'PX', 1000);
}
async function tryLock(key: string, token: string) {
  return redis.set(key, token, 'NX', 'PX', 1000);
}
export async function takeLock(token: string) {
  return redis.set('lock:fixed', token, 'NX', 'PX', 1000);
}
export const grabLock = async (options: { key: string }, token: string) => redis.set(options.key, token, 'NX', 'PX', 1000);
export async function markProcessed(key: string) {
  return redis.set(key, '1', 'NX');
}`,
        (model, context) =>
          model.redis.acquisitions.map((acquisition) =>
            isExportedLockHelper(context.sourceCode, model.settings.lockKeyPattern, acquisition),
          ),
      ),
      [true, false, false, true, false],
    );
  });

  it('exported through module.exports and exports.name', () => {
    assert.deepEqual(
      ask(
        `const Redis = require('ioredis');
const redis = new Redis();
async function acquireLock(key, token) { return redis.set(key, token, 'NX', 'PX', 1000); }
exports.releaseLater = async function obtainLock(key, token) { return redis.set(key, token, 'NX', 'PX', 1000); };
module.exports = { acquireLock };`,
        (model, context) =>
          model.redis.acquisitions.map((acquisition) =>
            isExportedLockHelper(context.sourceCode, model.settings.lockKeyPattern, acquisition),
          ),
        false,
      ),
      [true, true],
    );
  });
});

describe('isScopedAcquisition', () => {
  it('not queued in MULTI, not Redlock’s using: the release is the code’s to write', () => {
    assert.deepEqual(
      ask(
        `${HEAD}import Redlock from 'redlock';
const redlock = new Redlock([redis]);
export async function f(token: string) {
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  await redis.multi().set('lock:b', token, 'NX', 'PX', 1000).exec();
  await redlock.using(['lock:c'], 1000, async () => {});
  const lock = await redlock.acquire(['lock:d'], 1000);
  await lock.release();
}`,
        (model) => model.redis.acquisitions.map((acquisition) => [acquisition.node.loc.start.line, isScopedAcquisition(acquisition)]),
      ),
      [
        [6, true],
        [7, false],
        [8, false],
        [9, true],
      ],
    );
  });
});

describe('redisAcquisitionsWithoutTtl', () => {
  it('SETNX and SET NX with no expiry and none later; a later EXPIRE of the key makes it a split acquire', () => {
    assert.deepEqual(
      ask(
        `${HEAD}export async function f(token: string, id: string) {
  await redis.setnx('lock:a', token);
  await redis.set('lock:b', token, 'NX');
  await redis.setnx('lock:c', token);
  await redis.expire('lock:c', 30);
  await redis.set('lock:d', token, 'NX', 'PX', 1000);
  await redis.set(\`processed:\${id}\`, '1', 'NX');
}`,
        (model, context) => redisAcquisitionsWithoutTtl(context.sourceCode, model).map((acquisition) => acquisition.node.loc.start.line),
      ),
      [4, 5],
    );
  });
});

describe('isLockKeyWrite', () => {
  it('a write to a key released here, or inside a lock helper; not to a data key, even one named like a lock', () => {
    assert.deepEqual(
      ask(
        `${HEAD}export async function f(token: string) {
  await redis.set('lock:a', token);
  await redis.set('job:1', token);
  await redis.del('job:1');
  await redis.set('user:1', token);
}
export async function acquireLock(key: string, token: string) {
  await redis.set(key, token);
}`,
        (model) =>
          model.redis.commands
            .filter((command) => command.name === 'SET')
            .map((command) => isLockKeyWrite(model.redis, model.settings.lockKeyPattern, command)),
      ),
      // A plain SET of a key named like a lock is data (housekeeping's isLockKey): not a lock write.
      [false, true, false, true],
    );
  });
});
