// Auto-extending locks and whether their work listens for the lock being lost: hasAutoExtendingLocks
// and locksIgnoringLoss, for Redlock's `using` (its abort signal) and redis-semaphore (`isAcquired`,
// `onLockLost`), silent where the model cannot see the whole picture.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { hasAutoExtendingLocks, locksIgnoringLoss } from '../../../../eslint-plugin/src/model/questions/lock-loss.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Whether the file has auto-extending locks, and each lock ignoring loss: `library line → first write line`. */
function loss(code: string): { auto: boolean; ignoring: string[] } {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context);
      return {
        auto: hasAutoExtendingLocks(context.sourceCode, model.redis),
        ignoring: locksIgnoringLoss(context.sourceCode, model.redis, model.sql).map(
          (found) => `${found.library} ${found.acquisition.node.loc.start.line} → ${found.write.loc.start.line}`,
        ),
      };
    },
    { typescript: true },
  );
}

const REDLOCK_HEAD = `import Redis from 'ioredis';
import Redlock from 'redlock';
const redis = new Redis();
const redlock = new Redlock([redis]);
`;

describe('lock-loss', () => {
  it('Redlock using: work that writes without reading the signal ignores a lost lock; one that checks it does not', () => {
    assert.deepEqual(
      loss(`${REDLOCK_HEAD}export async function ignores() {
  await redlock.using(['lock:a'], 5000, async () => {
    await redis.set('report', 'done');
  });
}
export async function checks() {
  await redlock.using(['lock:b'], 5000, async (signal) => {
    if (signal.aborted) throw signal.error;
    await redis.set('report', 'done');
  });
}`),
      { auto: true, ignoring: ['redlock 6 → 7'] },
    );
  });

  it('Redlock acquire/release is not auto-extending; a routine passed by name is not followed', () => {
    assert.deepEqual(
      loss(`${REDLOCK_HEAD}export async function manual() {
  const lock = await redlock.acquire(['lock:a'], 5000);
  await redis.set('report', 'done');
  await lock.release();
}`),
      { auto: false, ignoring: [] },
    );
    assert.deepEqual(
      loss(`${REDLOCK_HEAD}async function work() { await redis.set('report', 'done'); }
export async function byName() {
  await redlock.using(['lock:a'], 5000, work);
}`),
      { auto: true, ignoring: [] },
    );
  });

  it('redis-semaphore: a mutex refreshing by default ignores loss unless the work reads isAcquired or onLockLost handles it', () => {
    assert.deepEqual(
      loss(`import Redis from 'ioredis';
import { Mutex } from 'redis-semaphore';
const redis = new Redis();
export async function ignores() {
  const mutex = new Mutex(redis, 'lock:a');
  await mutex.acquire();
  try { await redis.set('report', 'done'); } finally { await mutex.release(); }
}
export async function checks() {
  const mutex = new Mutex(redis, 'lock:b');
  await mutex.acquire();
  try {
    if (!mutex.isAcquired) return;
    await redis.set('report', 'done');
  } finally { await mutex.release(); }
}
export async function handled() {
  const mutex = new Mutex(redis, 'lock:c', { onLockLost: () => process.exit(1) });
  await mutex.acquire();
  try { await redis.set('report', 'done'); } finally { await mutex.release(); }
}
export async function notRefreshed() {
  const mutex = new Mutex(redis, 'lock:d', { refreshInterval: 0 });
  await mutex.acquire();
  try { await redis.set('report', 'done'); } finally { await mutex.release(); }
}`),
      { auto: true, ignoring: ['redis-semaphore 6 → 7'] },
    );
  });
});
