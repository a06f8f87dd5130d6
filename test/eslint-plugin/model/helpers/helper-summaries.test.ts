// The summaries of a module's own lock helpers (model/helpers/), read off the model ESLint
// builds. Shapes from public code read through the code search, rewritten: module-level
// acquireLock/releaseLock pairs (jsscoder/FarmLokal_backend_assignment src/utils/redisLock.ts),
// a class with acquire/release methods (LeonTheBuilder/aframework beans/dlock.bean.js), a
// `withLock(key, fn)`, and `lock()` returning an unlock function.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import type { LockModel } from '../../../../eslint-plugin/src/model/nouns/lock-types.js';
import type { LockHelperSummary } from '../../../../eslint-plugin/src/model/nouns/redis-events.js';
import { readAtEnd } from '../../../support/probe-rule.js';

function modelOf(code: string, typescript = false): LockModel {
  return readAtEnd(code, getLockModel, { typescript });
}

type SummaryData = Omit<LockHelperSummary, 'fn' | 'event'>;

/** The summaries by helper name, without their AST nodes. */
function summaries(code: string, typescript = false): Partial<Record<string, SummaryData>> {
  const result: Partial<Record<string, SummaryData>> = {};
  for (const summary of modelOf(code, typescript).redis.lockHelpers.values()) {
    result[summary.name ?? '?'] = Object.fromEntries(
      Object.entries(summary).filter(([field]) => field !== 'fn' && field !== 'event'),
    ) as unknown as SummaryData;
  }
  return result;
}

function named(found: Partial<Record<string, SummaryData>>, name: string): SummaryData {
  const summary = found[name];
  assert.ok(summary, `no summary for ${name}`);
  return summary;
}

const COMPARE_AND_DELETE = `'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end'`;

describe('lock helper summaries', () => {
  it('module-level acquire and release functions: key, token, TTL, try and what it returns', () => {
    const found = summaries(`import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function acquireLock(name, ttlMs = 30000) {
  const token = randomUUID();
  const ok = await redis.set(\`lock:\${name}\`, token, 'PX', ttlMs, 'NX');
  return ok === 'OK' ? token : null;
}
export async function releaseLock(name, token) {
  return redis.eval(${COMPARE_AND_DELETE}, 1, \`lock:\${name}\`, token);
}`);
    assert.deepEqual(Object.keys(found).sort(), ['acquireLock', 'releaseLock']);
    const acquire = found['acquireLock']!;
    assert.equal(acquire.role, 'acquire');
    assert.deepEqual(acquire.keyParameters, [{ index: 0, property: undefined }]);
    assert.equal(acquire.keyPattern, 't:lock:${$0}');
    assert.deepEqual(acquire.ttlParameter, { index: 1, property: undefined });
    assert.equal(acquire.tokenParameter, undefined);
    assert.equal(acquire.isTry, true);
    assert.equal(acquire.returns, 'token');
    assert.equal(acquire.hasTtl, true);
    const release = found['releaseLock']!;
    assert.equal(release.role, 'release');
    assert.equal(release.safe, true);
    assert.equal(release.keyPattern, 't:lock:${$0}');
    assert.deepEqual(release.tokenParameter, { index: 1, property: undefined });
  });

  it('a function that releases its own lock is a with-lock helper when it runs a parameter, however it calls it; else a job', () => {
    const found = summaries(
      `import Redis from 'ioredis';
const redis = new Redis();
async function take(key, token) { return redis.set(key, token, 'PX', 30000, 'NX'); }
async function drop(key) { await redis.del(key); }
export async function withLockCall(key, token, work) {
  if (!(await redis.set(key, token, 'PX', 30000, 'NX'))) return;
  try { await work.call(null, key); } finally { await redis.del(key); }
}
export async function withLockCast(key, token, work) {
  if (!(await redis.set(key, token, 'PX', 30000, 'NX'))) return;
  try { await (work as () => Promise<void>)(); } finally { await redis.del(key); }
}
export async function withLockOptional(key, token, work) {
  if (!(await redis.set(key, token, 'PX', 30000, 'NX'))) return;
  try { await work?.(); } finally { await redis.del(key); }
}
export async function nightlyJob(key, token, report) {
  if (!(await redis.set(key, token, 'PX', 30000, 'NX'))) return;
  try { await redis.incr(report.counter); } finally { await redis.del(key); }
}
void take; void drop;`,
      true,
    );
    for (const name of ['withLockCall', 'withLockCast', 'withLockOptional']) {
      assert.equal(named(found, name).role, 'with-lock', name);
      assert.equal(named(found, name).callbackParameter, 2, name);
    }
    assert.equal(found['nightlyJob'], undefined, 'a job that releases its own lock is no helper');
  });

  it('a plain DEL release is summarised as unsafe; a helper that throws when not taken is no try', () => {
    const found = summaries(`import Redis from 'ioredis';
const redis = new Redis();
export const acquireLock = async (key, ttl = 5000) => {
  const lock = await redis.set(key, 'LOCKED', 'PX', ttl, 'NX');
  if (!lock) throw new Error('LockAcquisitionError');
  return { key, ttl };
};
export const releaseLock = async (key) => { await redis.del(key); };`);
    assert.equal(named(found, 'acquireLock').isTry, false);
    assert.equal(named(found, 'releaseLock').role, 'release');
    assert.equal(named(found, 'releaseLock').safe, false);
  });

  it('class methods: the key the instance holds, the extend method, the with-lock method and its callback', () => {
    const found = summaries(`import Redis from 'ioredis';
const EXTEND = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end';
export class JobLock {
  constructor(redis, key, owner) { this.redis = redis; this.key = key; this.owner = owner; }
  async acquire(ttl) { return (await this.redis.set(this.key, this.owner, 'NX', 'PX', ttl)) === 'OK'; }
  async extend(ttl) { return this.redis.eval(EXTEND, 1, this.key, this.owner, ttl); }
  async release() { return this.redis.eval(${COMPARE_AND_DELETE}, 1, this.key, this.owner); }
}
export async function withLock(redis, key, fn) {
  if (!(await redis.set(key, 'x', 'NX', 'PX', 10000))) return;
  try { return await fn(); } finally { await redis.del(key); }
}`);
    assert.equal(named(found, 'acquire').keyOfInstance, true);
    assert.equal(named(found, 'acquire').isTry, true);
    assert.equal(named(found, 'acquire').returns, 'result');
    assert.equal(named(found, 'extend').role, 'extend');
    assert.equal(named(found, 'extend').safe, true);
    assert.equal(named(found, 'release').role, 'release');
    assert.equal(named(found, 'withLock').role, 'with-lock');
    assert.equal(named(found, 'withLock').callbackParameter, 2);
    assert.deepEqual(named(found, 'withLock').keyParameters, [{ index: 1, property: undefined }]);
  });

  it('a lock() that returns its unlock function, and a destructured key', () => {
    const found = summaries(`import Redis from 'ioredis';
const redis = new Redis();
export async function lock({ key, ttlSeconds }) {
  const token = crypto.randomUUID();
  if (!(await redis.set(\`mutex:\${key}\`, token, 'EX', ttlSeconds, 'NX'))) return null;
  return async () => { await redis.eval(${COMPARE_AND_DELETE}, 1, \`mutex:\${key}\`, token); };
}`);
    assert.equal(named(found, 'lock').returns, 'handle');
    assert.deepEqual(named(found, 'lock').handleRelease, ['call']);
    assert.deepEqual(named(found, 'lock').keyParameters, [{ index: 0, property: 'key' }]);
    assert.deepEqual(named(found, 'lock').ttlParameter, { index: 0, property: 'ttlSeconds' });
  });

  it('module-private helpers named for nothing are lock helpers when every caller passes a lock key; a dedupe marker is not', () => {
    const found = summaries(`import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
async function take(key) {
  const token = randomUUID();
  return (await redis.set(key, token, 'PX', 30000, 'NX')) === 'OK' ? token : null;
}
async function drop(key, token) { await redis.eval(RELEASE, 1, key, token); }
async function remember(key) { return (await redis.set(key, '1', 'EX', 86400, 'NX')) === 'OK'; }
export async function nightly(work) {
  const token = await take('lock:nightly');
  if (!token) return;
  try { await work(); } finally { await drop('lock:nightly', token); }
}
export async function onEvent(event) {
  if (await remember(\`seen:\${event.id}\`)) await handle(event);
}`);
    // nightly(work) runs its callback under the lock take() took: a with-lock helper in turn.
    assert.deepEqual(Object.keys(found).sort(), ['drop', 'nightly', 'take']);
    assert.equal(named(found, 'nightly').role, 'with-lock');
    assert.equal(named(found, 'take').role, 'acquire');
    assert.equal(named(found, 'drop').role, 'release');
  });

  it('lookalikes are no helpers: a cache, a cache-clearing helper, a rate limiter, a reader, a job that works under its lock', () => {
    const found = summaries(`import Redis from 'ioredis';
const redis = new Redis();
export class Cache {
  get(key) { return redis.get(key); }
  set(key, value) { return redis.set(key, value, 'EX', 60); }
  del(key) { return redis.del(key); }
}
export async function clearUserCache(id) { await redis.del(\`cache:user:\${id}\`); }
export async function isRateLimited(ip) { return !(await redis.set(\`rl:\${ip}\`, 1, 'NX', 'EX', 60)); }
export async function isLocked(name) { return (await redis.get(\`lock:\${name}\`)) !== null; }
export async function nightly() {
  if (!(await redis.set('lock:nightly', 'x', 'NX', 'EX', 3600))) return false;
  await runNightlyReport();
  return true;
}`);
    assert.deepEqual(found, {});
  });

  it('an acquire helper that computes its retry backoff after a failed SET NX is still one (issue 32 tool bug)', () => {
    const found = summaries(`import Redis from 'ioredis';
const redis = new Redis();
function backoff(attempt) {
  return Math.min(1000, 50 * 2 ** attempt) + Math.floor(Math.random() * 25);
}
export async function acquireLock(key, token, ttlMs) {
  for (let attempt = 0; attempt < 10; attempt++) {
    if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK') return true;
    const delay = backoff(attempt);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  return false;
}
export async function acquireLockJittered(key, token) {
  while ((await redis.set(key, token, 'PX', 30000, 'NX')) !== 'OK') await sleep(backoff(1) + jitter());
  return true;
}`);
    assert.equal(named(found, 'acquireLock').role, 'acquire');
    assert.equal(named(found, 'acquireLock').isTry, true);
    assert.equal(named(found, 'acquireLockJittered').role, 'acquire');
  });

  it('a function that goes on to work after taking the lock is a job, not a helper', () => {
    const found = summaries(`import Redis from 'ioredis';
const redis = new Redis();
export async function acquireAndSettle(key, token) {
  if ((await redis.set(key, token, 'PX', 30000, 'NX')) !== 'OK') return false;
  const total = await computeLedger();
  await saveLedger(total);
  return true;
}`);
    assert.equal(found.acquireAndSettle, undefined);
  });
});
