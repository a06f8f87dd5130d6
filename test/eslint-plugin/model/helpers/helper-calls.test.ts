// Calls to a module's own lock helpers, as every rule sees them (model/helpers/). The helper
// shapes are modelled on public code read through the code search, rewritten: module-level
// acquireLock/releaseLock (jsscoder/FarmLokal_backend_assignment src/utils/redisLock.ts), a lock
// class with acquire/release methods (LeonTheBuilder/aframework beans/dlock.bean.js, the usage
// julian91/redis-promise-lock's README shows), `withLock(key, fn)`, and `lock()` returning an
// unlock function. A finding about a helper's body is reported once, in the body; the call sites
// get the helper's meaning for pairing and critical sections.

import { RuleTester } from '../../support/rule-tester.js';
import noUnneededLock from '../../../../eslint-plugin/src/rules/no-unneeded-lock.js';
import noUnsafeRelease from '../../../../eslint-plugin/src/rules/no-unsafe-release.js';
import requireAcquireCheck from '../../../../eslint-plugin/src/rules/require-acquire-check.js';
import requireFencingToken from '../../../../eslint-plugin/src/rules/require-fencing-token.js';
import requireLockTtl from '../../../../eslint-plugin/src/rules/require-lock-ttl.js';
import requireReleaseCheck from '../../../../eslint-plugin/src/rules/require-release-check.js';
import requireReleaseInFinally from '../../../../eslint-plugin/src/rules/require-release-in-finally.js';
import requireUniqueToken from '../../../../eslint-plugin/src/rules/require-unique-token.js';

const ruleTester = new RuleTester();

const RELEASE = `'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end'`;

/** A lock class whose acquire throws when the lock is taken (no answer to check), released by a plain DEL. */
const LOCK_CLASS = `import Redis from 'ioredis';
const redis = new Redis();
class RedisLock {
  constructor(private readonly client: Redis) {}
  async acquire(name: string, ttl = 30000) {
    const ok = await this.client.set(\`lock:\${name}\`, crypto.randomUUID(), 'PX', ttl, 'NX');
    if (!ok) throw new Error('busy');
  }
  async release(name: string) {
    await this.client.del(\`lock:\${name}\`);
  }
}
const locks = new RedisLock(redis);`;

/** Module-level helpers: a try-acquire answering with a boolean, a safe release, a with-lock, a lock() returning its unlock. */
const HELPERS = `import Redis from 'ioredis';
import { Pool } from 'pg';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
const pool = new Pool();
const RELEASE = ${RELEASE};
export async function acquireLock(key: string, ttlMs = 10000): Promise<boolean> {
  return (await redis.set(key, randomUUID(), 'PX', ttlMs, 'NX')) === 'OK';
}
export async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T | undefined> {
  const token = randomUUID();
  if (!(await redis.set(\`lock:\${key}\`, token, 'NX', 'PX', 30000))) return undefined;
  try { return await fn(); } finally { await redis.eval(RELEASE, 1, \`lock:\${key}\`, token); }
}
export async function lock(key: string, ttl: number) {
  const token = randomUUID();
  if (!(await redis.set(key, token, 'NX', 'PX', ttl))) return null;
  return async () => { await redis.eval(RELEASE, 1, key, token); };
}`;

/** Lookalikes: a cache class, a helper that deletes cache keys, a rate limiter, a reader. */
const LOOKALIKES = `import Redis from 'ioredis';
import { Pool } from 'pg';
const redis = new Redis();
const pool = new Pool();
class Cache {
  get(key: string) { return redis.get(key); }
  set(key: string, value: string) { return redis.set(key, value, 'EX', 60); }
  del(key: string) { return redis.del(key); }
}
const cache = new Cache();
async function clearUserCache(id: string) { await redis.del(\`cache:user:\${id}\`); }
async function allow(ip: string) { return (await redis.set(\`rl:\${ip}\`, 1, 'NX', 'EX', 60)) !== null; }
async function isLocked(name: string) { return (await redis.get(\`lock:\${name}\`)) !== null; }`;

const LOOKALIKE_USES = `${LOOKALIKES}
export async function update(id: string) {
  await allow(id);
  await cache.set(id, 'x');
  await pool.query('UPDATE users SET seen = now() WHERE id = $1', [id]);
  await cache.del(id);
  await clearUserCache(id);
  if (await isLocked(id)) return;
}`;

ruleTester.run('require-release-in-finally (lock helpers)', requireReleaseInFinally, {
  valid: [
    // The release in a finally at the call site.
    `${LOCK_CLASS}
export async function job(id: string) {
  await locks.acquire(\`job:\${id}\`);
  try { await doWork(id); } finally { await locks.release(\`job:\${id}\`); }
}`,
    // A with-lock helper releases in its own body.
    `${HELPERS}
export async function settle(id: string) { await withLock(id, async () => { await doWork(id); }); }`,
    // Another key's release does not end this lock.
    `${LOCK_CLASS}
export async function job(id: string) {
  await locks.acquire(\`job:\${id}\`);
  await doWork(id);
  await locks.release(\`job:\${id}:other\`);
}`,
    LOOKALIKE_USES,
  ],
  invalid: [
    {
      // Another class of the module, injected through a typed constructor parameter (a NestJS service).
      code: `${LOCK_CLASS}
class ReportJob {
  constructor(private readonly lockService: RedisLock) {}
  async run(id: string) {
    await this.lockService.acquire(\`report:\${id}\`);
    await doWork(id);
    await this.lockService.release(\`report:\${id}\`);
  }
}`,
      errors: [
        {
          messageId: 'releaseNotInFinally',
          line: 17,
          suggestions: [
            {
              messageId: 'moveReleaseToFinally',
              output: `${LOCK_CLASS}
class ReportJob {
  constructor(private readonly lockService: RedisLock) {}
  async run(id: string) {
    await this.lockService.acquire(\`report:\${id}\`);
    try {
      await doWork(id);
    } finally {
      await this.lockService.release(\`report:\${id}\`);
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // acquire and release through the class's methods, no finally.
      code: `${LOCK_CLASS}
export async function job(id: string) {
  await locks.acquire(\`job:\${id}\`);
  await doWork(id);
  await locks.release(\`job:\${id}\`);
}`,
      errors: [
        {
          messageId: 'releaseNotInFinally',
          line: 15,
          suggestions: [
            {
              messageId: 'moveReleaseToFinally',
              output: `${LOCK_CLASS}
export async function job(id: string) {
  await locks.acquire(\`job:\${id}\`);
  try {
    await doWork(id);
  } finally {
    await locks.release(\`job:\${id}\`);
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // The unlock function lock() returned, called on the success path only.
      code: `${HELPERS}
export async function sweep() {
  const unlock = await lock('lock:sweep', 5000);
  if (!unlock) return;
  await runSweep();
  await unlock();
}`,
      errors: [
        {
          messageId: 'releaseNotInFinally',
          line: 21,
          suggestions: [
            {
              messageId: 'moveReleaseToFinally',
              output: `${HELPERS}
export async function sweep() {
  const unlock = await lock('lock:sweep', 5000);
  if (!unlock) return;
  try {
    await runSweep();
  } finally {
    await unlock();
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // A with-lock helper whose own body releases on the success path only: reported once, in the body.
      code: `import Redis from 'ioredis';
const redis = new Redis();
async function withLock(key: string, fn: () => Promise<void>) {
  if (!(await redis.set(key, crypto.randomUUID(), 'NX', 'PX', 5000))) return;
  await fn();
  await redis.del(key);
}
export async function a() { await withLock('lock:a', async () => { await work(); }); }
export async function b() { await withLock('lock:b', async () => { await work(); }); }`,
      errors: [
        {
          messageId: 'releaseNotInFinally',
          line: 4,
          suggestions: [
            {
              messageId: 'moveReleaseToFinally',
              output: `import Redis from 'ioredis';
const redis = new Redis();
async function withLock(key: string, fn: () => Promise<void>) {
  if (!(await redis.set(key, crypto.randomUUID(), 'NX', 'PX', 5000))) return;
  try {
    await fn();
  } finally {
    await redis.del(key);
  }
}
export async function a() { await withLock('lock:a', async () => { await work(); }); }
export async function b() { await withLock('lock:b', async () => { await work(); }); }`,
            },
          ],
        },
      ],
    },
  ],
});

ruleTester.run('require-acquire-check (lock helpers)', requireAcquireCheck, {
  valid: [
    `${HELPERS}
export async function nightly() { if (!(await acquireLock('lock:nightly'))) return; await runNightly(); }`,
    // A helper that throws when the lock is taken has no answer to check.
    `${LOCK_CLASS}
export async function job(id: string) { await locks.acquire(id); try { await doWork(id); } finally { await locks.release(id); } }`,
    LOOKALIKE_USES,
  ],
  invalid: [
    {
      // The try-acquire helper's boolean, dropped at the call site (the helper's body returns it: no finding there).
      code: `${HELPERS}
export async function nightly() {
  await acquireLock('lock:nightly');
  await runNightly();
}`,
      errors: [
        {
          messageId: 'resultIgnored',
          data: { acquire: 'acquireLock()' },
          line: 21,
          suggestions: [
            {
              messageId: 'guardWithResult',
              output: `${HELPERS}
export async function nightly() {
  if (!(await acquireLock('lock:nightly'))) return;
  await runNightly();
}`,
            },
          ],
        },
      ],
    },
  ],
});

ruleTester.run('require-fencing-token (lock helpers)', requireFencingToken, {
  valid: [
    // A write after the with-lock call is not under the lock.
    `${HELPERS}
export async function settle(id: string) {
  await withLock(id, async () => { await notify(id); });
  await pool.query('UPDATE invoices SET state = $1 WHERE id = $2', ['settled', id]);
}`,
    LOOKALIKE_USES,
  ],
  invalid: [
    {
      // The work a with-lock helper runs is the lock's critical section.
      code: `${HELPERS}
export async function settle(id: string) {
  await withLock(\`invoice:\${id}\`, async () => {
    await notify(id);
    await pool.query('UPDATE invoices SET state = $1 WHERE id = $2', ['settled', id]);
  });
}`,
      errors: [{ messageId: 'unfencedWrite', line: 23 }],
    },
    {
      // A factory makes the lock manager: a Redis one, or an in-memory fallback. The Redis manager's
      // acquire is the helper the module-level instance reaches.
      code: `import Redis from 'ioredis';
import { Pool } from 'pg';
const pool = new Pool();
class RedisLocks {
  constructor(private readonly redis: Redis) {}
  async acquire(key: string) {
    return (await this.redis.set(\`lock:\${key}\`, crypto.randomUUID(), 'PX', 60000, 'NX')) === 'OK';
  }
}
class MemoryLocks {
  private readonly held = new Set<string>();
  async acquire(key: string) { if (this.held.has(key)) return false; this.held.add(key); return true; }
}
let cached: RedisLocks | MemoryLocks | undefined;
function getManager() {
  if (cached) return cached;
  cached = process.env.REDIS_URL ? new RedisLocks(new Redis(process.env.REDIS_URL)) : new MemoryLocks();
  return cached;
}
const locks = getManager();
export async function settle(id: string) {
  if (!(await locks.acquire(\`invoice:\${id}\`))) return;
  await pool.query('UPDATE invoices SET state = $1 WHERE id = $2', ['settled', id]);
}`,
      errors: [{ messageId: 'unfencedWrite', line: 23 }],
    },
  ],
});

ruleTester.run('no-unneeded-lock (lock helpers)', noUnneededLock, {
  valid: [LOOKALIKE_USES],
  invalid: [
    {
      code: `${HELPERS}
export async function settle(id: string) {
  await withLock(id, async () => {
    await pool.query('UPDATE invoices SET state = $1 WHERE id = $2', ['settled', id]);
  });
}`,
      errors: [
        {
          messageId: 'unneededLock',
          line: 21,
          suggestions: [
            {
              messageId: 'dropLock',
              output: `${HELPERS}
export async function settle(id: string) {
  await pool.query('UPDATE invoices SET state = $1 WHERE id = $2', ['settled', id]);
}`,
            },
          ],
        },
      ],
    },
  ],
});

ruleTester.run('no-unsafe-release (lock helpers)', noUnsafeRelease, {
  valid: [
    // The call sites of an unsafe release helper are not reported again.
    LOOKALIKE_USES,
    // A cache-deleting helper beside lock helpers is no lock release: its key is no parameter-built lock key.
    `${HELPERS}
export async function invalidate(key: string) { await redis.del(key); }`,
  ],
  invalid: [
    {
      // The plain DEL inside release(name), paired with acquire(name) of the same class: reported once, in the body.
      code: `${LOCK_CLASS}
export async function job(id: string) {
  await locks.acquire(id);
  try { await doWork(id); } finally { await locks.release(id); }
}`,
      errors: [{ messageId: 'plainDelete', line: 10 }],
    },
    {
      // Module-level acquireLock/releaseLock: a lock split over two functions.
      code: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquireLock(key: string, ttl = 5000) {
  return redis.set(key, crypto.randomUUID(), 'PX', ttl, 'NX');
}
export async function releaseLock(key: string) {
  await redis.del(key);
}`,
      errors: [{ messageId: 'plainDelete', line: 7 }],
    },
  ],
});

ruleTester.run('require-lock-ttl (lock helpers)', requireLockTtl, {
  valid: [LOOKALIKE_USES],
  invalid: [
    {
      // A helper that takes the lock with no expiry: reported in its body, not at its callers.
      code: `import Redis from 'ioredis';
const redis = new Redis();
class JobLock {
  async acquire(name: string) { return redis.setnx(\`lock:\${name}\`, '1'); }
  async release(name: string) { await redis.del(\`lock:\${name}\`); }
}
const jobs = new JobLock();
export async function run(id: string) {
  if (!(await jobs.acquire(id))) return;
  try { await work(); } finally { await jobs.release(id); }
}`,
      errors: [
        {
          messageId: 'noExpiry',
          line: 4,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import Redis from 'ioredis';
const redis = new Redis();
class JobLock {
  async acquire(name: string) { return redis.set(\`lock:\${name}\`, '1', 'PX', 30000, 'NX').then((reply) => (reply === 'OK' ? 1 : 0)); }
  async release(name: string) { await redis.del(\`lock:\${name}\`); }
}
const jobs = new JobLock();
export async function run(id: string) {
  if (!(await jobs.acquire(id))) return;
  try { await work(); } finally { await jobs.release(id); }
}`,
            },
          ],
        },
      ],
    },
  ],
});

/** Helpers whose caller chooses the token (the client and the value as parameters, a shape common in public code). */
const TOKEN_HELPERS = `import Redis from 'ioredis';
const redis = new Redis();
async function acquireLock(client: Redis, key: string, value: string, ttlSeconds: number) {
  return (await client.set(key, value, 'NX', 'EX', ttlSeconds)) === 'OK';
}
async function releaseLock(client: Redis, key: string, value: string) {
  return client.eval(${RELEASE}, 1, key, value);
}`;

ruleTester.run('require-unique-token (lock helpers)', requireUniqueToken, {
  valid: [
    LOOKALIKE_USES,
    `${TOKEN_HELPERS}
export async function rebuild() {
  const token = crypto.randomUUID();
  if (!(await acquireLock(redis, 'lock:rebuild', token, 60))) return;
  try { await work(); } finally { await releaseLock(redis, 'lock:rebuild', token); }
}`,
    // Never released or renewed here: the value is never compared.
    `${TOKEN_HELPERS}
export async function hourly() { if (!(await acquireLock(redis, 'lock:hourly', 'x', 3600))) return; await work(); }`,
  ],
  invalid: [
    {
      // The caller's value is the same for every holder: reported at the call, not in the helper.
      code: `${TOKEN_HELPERS}
export async function rebuild() {
  if (!(await acquireLock(redis, 'lock:rebuild', 'worker', 60))) return;
  try { await work(); } finally { await releaseLock(redis, 'lock:rebuild', 'worker'); }
}`,
      errors: [{ messageId: 'sharedValue', data: { value: "'worker'" }, line: 10, suggestions: [] }],
    },
    {
      // A literal value in a class's acquire, released by its release(): reported once, in the body.
      code: `${LOCK_CLASS.replace('crypto.randomUUID()', "'locked'")}
export async function job(id: string) {
  await locks.acquire(id);
  try { await doWork(id); } finally { await locks.release(id); }
}`,
      errors: [{ messageId: 'sharedValue', line: 6, suggestions: [] }],
    },
  ],
});

/**
 * A release helper that answers whether the lock was still the caller's (a compare-and-delete
 * reply, tested), as lock services write it; and one that only deletes, answering nothing.
 */
const ANSWERING_RELEASE = `import Redis from 'ioredis';
const redis = new Redis();
class LockService {
  async release(key: string, token: string): Promise<boolean> {
    const deleted = await redis.eval(${RELEASE}, 1, \`lock:\${key}\`, token);
    return deleted === 1;
  }
  async drop(key: string): Promise<number> {
    return redis.del(\`lock:\${key}\`);
  }
}
const locks = new LockService();`;

ruleTester.run('require-release-check (lock helpers)', requireReleaseCheck, {
  valid: [
    LOOKALIKE_USES,
    // The caller reads the helper's answer.
    `${ANSWERING_RELEASE}
export async function done(key: string, token: string) {
  if (!(await locks.release(key, token))) console.warn('lock was lost before the work ended');
}`,
    // A plain DEL's count is no answer about the owner (no-unsafe-release reports the DEL itself).
    `${ANSWERING_RELEASE}
export async function done(key: string) { await locks.drop(key); }`,
  ],
  invalid: [
    {
      // The answer is dropped at the call: reported there, once (the body returns it).
      code: `${ANSWERING_RELEASE}
export async function done(key: string, token: string) {
  await locks.release(key, token);
}`,
      errors: [{ messageId: 'resultDropped', line: 14, data: { release: 'release()', failure: 'a falsy answer' } }],
    },
    {
      // A lock object whose release answers true or false in the branches that test the script's reply.
      code: `import Redis from 'ioredis';
const redis = new Redis();
class Lock {
  constructor(private readonly key: string, private readonly token: string) {}
  async release() {
    const result = await redis.eval(${RELEASE}, 1, this.key, this.token);
    if (result === 1) {
      console.debug('released');
      return true;
    } else {
      console.warn('already expired');
      return false;
    }
  }
}
export async function run(token: string) {
  if (!(await redis.set('lock:nightly', token, 'PX', 30000, 'NX'))) return;
  const lock = new Lock('lock:nightly', token);
  try {
    await work();
  } finally {
    await lock.release();
  }
}`,
      errors: [{ messageId: 'resultDropped', line: 22 }],
    },
  ],
});
