import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import { createTypedRuleTester } from '../support/typed-rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/require-release-in-finally.js';
import { proveSuggestions } from '../support/sql-suggestions.js';
import { suggestionsClearFindings } from '../support/suggestions-clear-findings.js';

const ruleTester = new RuleTester();

const RELEASE = `const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';`;

const valid = [
  // The handle declared first and assigned in the try, released in finally.
  `import Redlock, { type Lock } from 'redlock';
import Redis from 'ioredis';
const redlock = new Redlock([new Redis()]);
export async function bookSafely(id: string) {
  let lock: Lock | undefined;
  try {
    lock = await redlock.acquire([\`locks:ticket:\${id}\`], 1000);
    await reserve(id);
  } finally {
    await lock?.release();
  }
}`,
  // A consumer's test of redis-semaphore (the shape of swarthy/redis-semaphore's test/src tests,
  // which import the package): a failed expectation leaves the lock to expire in the test server.
  `import { describe, it } from 'mocha'; import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis';
   const mutex = new Mutex(new Redis(), 'lock:a');
   describe('Mutex', () => { it('acquires', async () => { await mutex.acquire(); expect(await isLocked()).to.equal(true); await mutex.release(); }); });`,
  // A lock kept on success: the worker chosen keeps its lock (it expires on its own), and the only
  // release gives the lock up on the branch that goes on to the next worker. No release ends the
  // work, so none runs "on the success path only".
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   export async function assign(workers: string[], token: string) {
     let chosen = null;
     for (const id of workers) {
       if (await redis.set(\`lock:worker:\${id}\`, token, 'NX', 'PX', 5000)) {
         const status = await redis.hget('worker:status', id);
         if (status === '1') { chosen = id; break; }
         else { await redis.eval(RELEASE, 1, \`lock:worker:\${id}\`, token); }
       }
     }
     if (chosen) await send(chosen);
   }`,
  // The release in `finally`, ioredis.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function f(token) { if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
     try { await work(); } finally { await redis.eval(RELEASE, 1, 'lock:invoice', token); } }`,
  // Statements between the acquisition and the try are tolerated (node-redis, a heartbeat).
  `import { createClient } from 'redis'; const client = createClient(); ${RELEASE}
   async function f(token) {
     const ok = await client.set('lock:report', token, { NX: true, PX: 30000 });
     if (!ok) return;
     const heartbeat = setInterval(() => renew(token), 10000);
     try { await work(); } finally { clearInterval(heartbeat); await client.eval(RELEASE, { keys: ['lock:report'], arguments: [token] }); }
   }`,
  // Redlock v5, v3/v4 and @sesamecare-oss/redlock, and using().
  `import Redlock from 'redlock'; const redlock = new Redlock([client]);
   async function f() { const lock = await redlock.acquire(['lock:a'], 5000); try { await work(); } finally { await lock.release(); } }
   async function g() { await redlock.using(['lock:a'], 5000, async (signal) => { await work(signal); }); }`,
  `const Redlock = require('redlock'); const redlock = new Redlock([client]);
   async function f() { const lock = await redlock.lock('lock:a', 5000); try { await work(); } finally { await lock.unlock(); } }`,
  `import { Redlock } from '@sesamecare-oss/redlock'; const redlock = new Redlock([client]);
   async function f() { const lock = await redlock.acquire(['lock:a'], 5000); try { await work(); } finally { await lock.release(); } }`,
  // Disposal releases on every path.
  `import { Redlock } from '@sesamecare-oss/redlock'; const redlock = new Redlock([client]);
   async function f() { await using lock = await redlock.acquire(['lock:a'], 5000); await work(); await lock.release(); }`,
  // redis-semaphore.
  `import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis'; const mutex = new Mutex(new Redis(), 'lock:a');
   async function f() { await mutex.acquire(); try { await work(); } finally { await mutex.release(); } }
   async function g() { if (!(await mutex.tryAcquire())) return; try { await work(); } finally { await mutex.release(); } }`,
  // catch-and-rethrow releases on the error path too.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function f(token) { if (!(await redis.set('lock:a', token, 'NX', 'PX', 1000))) return;
     try { await work(); } catch (error) { await redis.eval(RELEASE, 1, 'lock:a', token); throw error; }
     await redis.eval(RELEASE, 1, 'lock:a', token); }`,
  // The work's errors are caught and swallowed: the release after it always runs.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function f(token) { if (!(await redis.set('lock:a', token, 'NX', 'PX', 1000))) return;
     try { await work(); } catch (error) { console.error(error); }
     await redis.eval(RELEASE, 1, 'lock:a', token); }`,
  // A release in a promise's finally() callback.
  `import Redlock from 'redlock'; const redlock = new Redlock([client]);
   async function f() { const lock = await redlock.acquire(['lock:a'], 5000); await work().finally(() => lock.release()); }`,
  // Acquire and release in two methods of a lock class: out of scope.
  `import Redis from 'ioredis'; ${RELEASE}
   class JobLock { redis = new Redis(); key = 'lock:job'; token = crypto.randomUUID();
     async acquire() { return this.redis.set(this.key, this.token, 'NX', 'PX', 30000); }
     async release() { await this.redis.eval(RELEASE, 1, this.key, this.token); } }`,
  // Nothing between acquiring and releasing can throw.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function probe(token) { const ok = await redis.set('lock:a', token, 'NX', 'PX', 1000); if (!ok) return false; await redis.eval(RELEASE, 1, 'lock:a', token); return true; }`,
  // Only the lock's own machinery (a split expiry) runs before the release: nothing to guard.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function run(token) { await redis.setnx('lock:job', token); await redis.expire('lock:job', 30); await redis.del('lock:job'); }`,
  // No release at all: the TTL frees it (require-lock-ttl's concern, not this rule's).
  `import Redis from 'ioredis'; const redis = new Redis();
   async function f(token) { if (!(await redis.set('lock:daily', token, 'NX', 'PX', 86400000))) return; await work(); }`,
  // node_redis v3 callbacks: try/finally cannot guard a callback chain.
  `const redis = require('redis'); const client = redis.createClient();
   function f(token) { client.set('lock:cron', token, 'NX', 'PX', 30000, (err, ok) => { if (!ok) return; runCron(); client.del('lock:cron'); }); }`,
  // Cache-aside: SET and DEL of a cache key are not a lock.
  `import Redis from 'ioredis'; const cache = new Redis();
   async function f(id, value) { await cache.set('user:' + id, value, 'EX', 60); await notify(id); await cache.del('user:' + id); }`,
];

const invalid = [
  {
    // The release that ends the locked branch, before its return: released on the success path only.
    code: `import Redis from 'ioredis';
const redis = new Redis();
${RELEASE}
export async function pull(token: string) {
  const acquired = await redis.set('lock:pull', token, 'NX', 'PX', 10000);
  if (acquired) {
    await sync();
    await redis.eval(RELEASE, 1, 'lock:pull', token);
    return;
  }
  await waitForOthers();
}`,
    errors: [{ messageId: 'releaseNotInFinally' as const, line: 5, suggestions: [] }],
  },
  {
    // Redlock's handle declared first and assigned in the try (\`let lock: Lock; lock = await redlock.acquire(…)\`).
    code: `import Redlock, { type Lock } from 'redlock';
import Redis from 'ioredis';
const redlock = new Redlock([new Redis()]);
export async function book(id: string) {
  let lock: Lock;
  try {
    lock = await redlock.acquire([\`locks:ticket:\${id}\`], 1000);
    await reserve(id);
    await lock.release();
  } catch (error) {
    console.error(error);
  }
}
declare function reserve(id: string): Promise<void>;`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 7,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import Redlock, { type Lock } from 'redlock';
import Redis from 'ioredis';
const redlock = new Redlock([new Redis()]);
export async function book(id: string) {
  let lock: Lock;
  try {
    lock = await redlock.acquire([\`locks:ticket:\${id}\`], 1000);
    try {
      await reserve(id);
    } finally {
      await lock.release();
    }
  } catch (error) {
    console.error(error);
  }
}
declare function reserve(id: string): Promise<void>;`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: the work between the guard and the release moves into try; later statements stay after.
    code: `import Redis from 'ioredis';
const redis = new Redis();
${RELEASE}
export async function runInvoices(token: string) {
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  const invoices = await loadInvoices();
  // send them all
  await sendInvoices(invoices);
  await redis.eval(RELEASE, 1, 'lock:invoice', token);
  console.log('done');
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 5,
        column: 15,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
${RELEASE}
export async function runInvoices(token: string) {
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  try {
    const invoices = await loadInvoices();
    // send them all
    await sendInvoices(invoices);
  } finally {
    await redis.eval(RELEASE, 1, 'lock:invoice', token);
  }
  console.log('done');
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: acquisition in the if test, work and release in its block; four-space indentation.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function run(token: string) {
    if (await redis.set('lock:run', token, 'PX', 30000, 'NX')) {
        await work();
        await redis.del('lock:run');
    }
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function run(token: string) {
    if (await redis.set('lock:run', token, 'PX', 30000, 'NX')) {
        try {
            await work();
        } finally {
            await redis.del('lock:run');
        }
    }
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v4, key in a constant, guard kept outside the try.
    code: `import { createClient } from 'redis';
const client = createClient();
const LOCK_KEY = 'lock:report';
export async function report(token: string) {
  const acquired = await client.set(LOCK_KEY, token, { NX: true, PX: 30000 });
  if (!acquired) {
    return;
  }
  await buildReport();
  await client.del(LOCK_KEY);
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
const LOCK_KEY = 'lock:report';
export async function report(token: string) {
  const acquired = await client.set(LOCK_KEY, token, { NX: true, PX: 30000 });
  if (!acquired) {
    return;
  }
  try {
    await buildReport();
  } finally {
    await client.del(LOCK_KEY);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v5 spelling, key in a template literal, one-line function: the try is inline.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function sync(id: string, token: string) { if (!(await client.set(\`lock:\${id}\`, token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } }))) return; await push(id); await client.del(\`lock:\${id}\`); }`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 3,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function sync(id: string, token: string) { if (!(await client.set(\`lock:\${id}\`, token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } }))) return; try { await push(id); } finally { await client.del(\`lock:\${id}\`); } }`,
          },
        ],
      },
    ],
  },
  {
    // node-redis sendCommand forms for both halves.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function sync(token: string) {
  if (!(await client.sendCommand(['SET', 'lock:sync', token, 'NX', 'PX', '30000']))) return;
  await pushChanges();
  await client.sendCommand(['DEL', 'lock:sync']);
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function sync(token: string) {
  if (!(await client.sendCommand(['SET', 'lock:sync', token, 'NX', 'PX', '30000']))) return;
  try {
    await pushChanges();
  } finally {
    await client.sendCommand(['DEL', 'lock:sync']);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Upstash.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function sync(token: string) {
  if ((await redis.set('lock:sync', token, { nx: true, px: 30000 })) !== 'OK') return;
  await pushChanges();
  await redis.del('lock:sync');
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function sync(token: string) {
  if ((await redis.set('lock:sync', token, { nx: true, px: 30000 })) !== 'OK') return;
  try {
    await pushChanges();
  } finally {
    await redis.del('lock:sync');
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Redlock v5: release() on the handle.
    code: `import Redlock from 'redlock';
const redlock = new Redlock([client]);
export async function run() {
  const lock = await redlock.acquire(['lock:a'], 5000);
  await work();
  await lock.release();
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import Redlock from 'redlock';
const redlock = new Redlock([client]);
export async function run() {
  const lock = await redlock.acquire(['lock:a'], 5000);
  try {
    await work();
  } finally {
    await lock.release();
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Redlock v3/v4: lock() and unlock().
    code: `const Redlock = require('redlock');
const redlock = new Redlock([client]);
async function run() {
  const lock = await redlock.lock('lock:a', 5000);
  await work();
  await lock.unlock();
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `const Redlock = require('redlock');
const redlock = new Redlock([client]);
async function run() {
  const lock = await redlock.lock('lock:a', 5000);
  try {
    await work();
  } finally {
    await lock.unlock();
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // @sesamecare-oss/redlock.
    code: `import { Redlock } from '@sesamecare-oss/redlock';
const redlock = new Redlock([client]);
export async function run() {
  const lock = await redlock.acquire(['lock:a'], 5000);
  await work();
  await lock.release();
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import { Redlock } from '@sesamecare-oss/redlock';
const redlock = new Redlock([client]);
export async function run() {
  const lock = await redlock.acquire(['lock:a'], 5000);
  try {
    await work();
  } finally {
    await lock.release();
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // redis-semaphore: acquire() and release().
    code: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
const mutex = new Mutex(new Redis(), 'reports');
export async function report() {
  await mutex.acquire();
  await buildReport();
  await mutex.release();
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
const mutex = new Mutex(new Redis(), 'reports');
export async function report() {
  await mutex.acquire();
  try {
    await buildReport();
  } finally {
    await mutex.release();
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // redis-semaphore: tryAcquire() with its guard, on a field of a class.
    code: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
export class Reports {
  private readonly mutex = new Mutex(new Redis(), 'reports');
  async run() {
    if (!(await this.mutex.tryAcquire())) return;
    await buildReport();
    await this.mutex.release();
  }
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 6,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
export class Reports {
  private readonly mutex = new Mutex(new Redis(), 'reports');
  async run() {
    if (!(await this.mutex.tryAcquire())) return;
    try {
      await buildReport();
    } finally {
      await this.mutex.release();
    }
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // A helper from lockWrappers, released through the handle it returned.
    code: `export async function nightly() {
  const lock = await acquireLock('nightly');
  await runNightly();
  await releaseLock(lock);
}`,
    settings: { locksmith: { lockWrappers: { acquire: ['acquireLock'], release: ['releaseLock'] } } },
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 2,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `export async function nightly() {
  const lock = await acquireLock('nightly');
  try {
    await runNightly();
  } finally {
    await releaseLock(lock);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Two releases (an early one on a second path): reported, the restructuring is left to the author.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function run(token: string, dryRun: boolean) {
  if (!(await redis.set('lock:a', token, 'NX', 'PX', 30000))) return;
  if (dryRun) {
    await redis.del('lock:a');
    return;
  }
  await work();
  await redis.del('lock:a');
}`,
    errors: [{ messageId: 'releaseNotInFinally' as const, line: 4, suggestions: [] }],
  },
  {
    // The release under a JavaScript owner check moves whole, with the comment above it.
    code: `import { createClient } from 'redis';
const redis = createClient();
export async function issueInvoice(customerId: string, token: string) {
  const lockKey = \`lock:invoice:\${customerId}\`;
  const acquired = await redis.set(lockKey, token, { NX: true, PX: 30_000 });
  if (!acquired) return;

  await invoice(customerId);

  // Release only our own lock.
  if ((await redis.get(lockKey)) === token) {
    await redis.del(lockKey);
  }
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import { createClient } from 'redis';
const redis = createClient();
export async function issueInvoice(customerId: string, token: string) {
  const lockKey = \`lock:invoice:\${customerId}\`;
  const acquired = await redis.set(lockKey, token, { NX: true, PX: 30_000 });
  if (!acquired) return;

  try {
    await invoice(customerId);
  } finally {
    // Release only our own lock.
    if ((await redis.get(lockKey)) === token) {
      await redis.del(lockKey);
    }
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // A catch that throws again skips the release after it.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function run(token: string) {
  if (!(await redis.set('lock:a', token, 'NX', 'PX', 30000))) return;
  try {
    await work();
  } catch (error) {
    throw new Error('work failed', { cause: error });
  }
  await redis.del('lock:a');
}`,
    errors: [
      {
        messageId: 'releaseNotInFinally' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function run(token: string) {
  if (!(await redis.set('lock:a', token, 'NX', 'PX', 30000))) return;
  try {
    try {
      await work();
    } catch (error) {
      throw new Error('work failed', { cause: error });
    }
  } finally {
    await redis.del('lock:a');
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // A value computed by the work is used after the release: moving it into try would hide it.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function run(token: string) {
  if (!(await redis.set('lock:a', token, 'NX', 'PX', 30000))) return null;
  const result = await work();
  await redis.del('lock:a');
  return result;
}`,
    errors: [{ messageId: 'releaseNotInFinally' as const, line: 4, suggestions: [] }],
  },
];

ruleTester.run('require-release-in-finally', rule, { valid, invalid });
suggestionsClearFindings('require-release-in-finally', rule, invalid);

// Type-aware: with type information a receiver is Redis because its type says so, whatever its name.
const typedRuleTester = createTypedRuleTester();

typedRuleTester.run('require-release-in-finally (type-aware)', rule, {
  valid: [
    {
      // An in-process lock table: nothing outlives the process, nothing to leak.
      code: `import { LocalLocks } from './local-locks';
export function run(redis: LocalLocks, token: string, work: () => void) {
  if (!redis.setnx('lock:invoice', token)) return;
  work();
  redis.del('lock:invoice');
}`,
      filename: 'file.ts',
    },
  ],
  invalid: [
    {
      code: `import { getStore } from './store';
const store = getStore();
export async function run(token: string, work: () => Promise<void>) {
  if (!(await store.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  await work();
  await store.del('lock:invoice');
}`,
      filename: 'file.ts',
      errors: [
        {
          messageId: 'releaseNotInFinally',
          line: 4,
          suggestions: [
            {
              messageId: 'moveReleaseToFinally',
              output: `import { getStore } from './store';
const store = getStore();
export async function run(token: string, work: () => Promise<void>) {
  if (!(await store.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  try {
    await work();
  } finally {
    await store.del('lock:invoice');
  }
}`,
            },
          ],
        },
      ],
    },
  ],
});

// PostgreSQL: a session advisory lock unlocked, or a lock-table row deleted, on the success path only.
const pgInvalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // pg PoolClient: lock, work, unlock, release — an exception skips the unlock and the client goes back to the pool still holding the lock.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function migrate(id: number) {
  const client = await pool.connect();
  await client.query('SELECT pg_advisory_lock($1)', [id]);
  await runMigrations(client);
  await client.query('SELECT pg_advisory_unlock($1)', [id]);
  client.release();
}`,
    errors: [
      {
        messageId: 'advisoryUnlockNotInFinally',
        line: 5,
        column: 9,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally',
            output: `import { Pool } from 'pg';
const pool = new Pool();
export async function migrate(id: number) {
  const client = await pool.connect();
  await client.query('SELECT pg_advisory_lock($1)', [id]);
  try {
    await runMigrations(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [id]);
  }
  client.release();
}`,
          },
        ],
      },
    ],
  },
  {
    // pg Client, a try-lock: the guard stays outside the try.
    code: `import { Client } from 'pg';
const client = new Client();
export async function sync(id: number) {
  const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [id]);
  if (!rows[0].locked) return;
  await pushChanges();
  await client.query('SELECT pg_advisory_unlock($1)', [id]);
}`,
    errors: [
      {
        messageId: 'advisoryUnlockNotInFinally',
        line: 4,
        column: 26,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally',
            output: `import { Client } from 'pg';
const client = new Client();
export async function sync(id: number) {
  const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [id]);
  if (!rows[0].locked) return;
  try {
    await pushChanges();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [id]);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // postgres.js reserved connection.
    code: `import postgres from 'postgres';
const sql = postgres();
export async function migrate(id: number) {
  const reserved = await sql.reserve();
  await reserved\`SELECT pg_advisory_lock(\${id})\`;
  await runMigrations(reserved);
  await reserved\`SELECT pg_advisory_unlock(\${id})\`;
  reserved.release();
}`,
    errors: [
      {
        messageId: 'advisoryUnlockNotInFinally',
        line: 5,
        column: 9,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally',
            output: `import postgres from 'postgres';
const sql = postgres();
export async function migrate(id: number) {
  const reserved = await sql.reserve();
  await reserved\`SELECT pg_advisory_lock(\${id})\`;
  try {
    await runMigrations(reserved);
  } finally {
    await reserved\`SELECT pg_advisory_unlock(\${id})\`;
  }
  reserved.release();
}`,
          },
        ],
      },
    ],
  },
  {
    // pg Pool: unlock on the success path only (no-pooled-advisory-lock reports the pool itself).
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function report(id: number) {
  await pool.query('SELECT pg_advisory_lock($1)', [id]);
  await buildReport();
  await pool.query('SELECT pg_advisory_unlock($1)', [id]);
}`,
    errors: [
      {
        messageId: 'advisoryUnlockNotInFinally',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally',
            output: `import { Pool } from 'pg';
const pool = new Pool();
export async function report(id: number) {
  await pool.query('SELECT pg_advisory_lock($1)', [id]);
  try {
    await buildReport();
  } finally {
    await pool.query('SELECT pg_advisory_unlock($1)', [id]);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Lock table through pg: INSERT to take the row, DELETE on the success path only.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval \\'30 seconds\\')', [name, owner]);
  await doJob(name);
  await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);
}`,
    errors: [
      {
        messageId: 'lockRowReleaseNotInFinally',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally',
            output: `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval \\'30 seconds\\')', [name, owner]);
  try {
    await doJob(name);
  } finally {
    await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Lock table through knex raw and through Prisma.
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, owner: string) {
  await db.raw('INSERT INTO app_lock (name, owner) VALUES (?, ?)', [name, owner]);
  await doJob(name);
  await db.raw('DELETE FROM app_lock WHERE name = ? AND owner = ?', [name, owner]);
}`,
    errors: [
      {
        messageId: 'lockRowReleaseNotInFinally',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally',
            output: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, owner: string) {
  await db.raw('INSERT INTO app_lock (name, owner) VALUES (?, ?)', [name, owner]);
  try {
    await doJob(name);
  } finally {
    await db.raw('DELETE FROM app_lock WHERE name = ? AND owner = ?', [name, owner]);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function runJob(name: string, owner: string) {
  await prisma.$executeRaw\`INSERT INTO job_locks (name, owner) VALUES (\${name}, \${owner}) ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner WHERE job_locks.expires_at < now()\`;
  await doJob(name);
  await prisma.$executeRaw\`DELETE FROM job_locks WHERE name = \${name} AND owner = \${owner}\`;
}`,
    errors: [
      {
        messageId: 'lockRowReleaseNotInFinally',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally',
            output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function runJob(name: string, owner: string) {
  await prisma.$executeRaw\`INSERT INTO job_locks (name, owner) VALUES (\${name}, \${owner}) ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner WHERE job_locks.expires_at < now()\`;
  try {
    await doJob(name);
  } finally {
    await prisma.$executeRaw\`DELETE FROM job_locks WHERE name = \${name} AND owner = \${owner}\`;
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Two unlocks on two paths: reported, no suggestion.
    code: `import { Client } from 'pg';
const client = new Client();
export async function sync(id: number, fast: boolean) {
  await client.query('SELECT pg_advisory_lock($1)', [id]);
  if (fast) {
    await quickSync();
    await client.query('SELECT pg_advisory_unlock($1)', [id]);
    return;
  }
  await fullSync();
  await client.query('SELECT pg_advisory_unlock($1)', [id]);
}`,
    errors: [{ messageId: 'advisoryUnlockNotInFinally', line: 4, column: 9, suggestions: [] }],
  },
];

ruleTester.run('require-release-in-finally (PostgreSQL)', rule, {
  valid: [
    // The pg documentation's shape: a dedicated client, unlock in finally, release after.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function f(id: number) { const client = await pool.connect(); try { await client.query('SELECT pg_advisory_lock($1)', [id]); try { await work(); } finally { await client.query('SELECT pg_advisory_unlock($1)', [id]); } } finally { client.release(); } }`,
    // A try-lock checked, unlock in finally; postgres.js reserve.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function f(id: number) { const client = await pool.connect(); const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [id]); if (!rows[0].locked) return; try { await work(); } finally { await client.query('SELECT pg_advisory_unlock($1)', [id]); client.release(); } }`,
    `import postgres from 'postgres'; const sql = postgres();
     async function f(id: number) { const reserved = await sql.reserve(); await reserved\`SELECT pg_advisory_lock(\${id})\`; try { await work(); } finally { await reserved\`SELECT pg_advisory_unlock(\${id})\`; reserved.release(); } }`,
    // The connection is destroyed in finally, and the session's locks with it.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function f(id: number) { const client = await pool.connect(); try { await client.query('SELECT pg_advisory_lock($1)', [id]); await work(); await client.query('SELECT pg_advisory_unlock($1)', [id]); } finally { client.release(true); } }`,
    // Unlock in a catch that rethrows, and on the success path.
    `import { Client } from 'pg'; const client = new Client();
     async function f(id: number) { await client.query('SELECT pg_advisory_lock($1)', [id]); try { await work(); } catch (error) { await client.query('SELECT pg_advisory_unlock($1)', [id]); throw error; } await client.query('SELECT pg_advisory_unlock($1)', [id]); }`,
    // Transaction-level locks end with their transaction; an unlock on another client is not this lock's.
    `import { Client } from 'pg'; const client = new Client(); const other = new Client();
     async function f(id: number) { await client.query('BEGIN'); await client.query('SELECT pg_advisory_xact_lock($1)', [id]); await work(); await client.query('COMMIT'); }
     async function g(id: number) { await client.query('SELECT pg_advisory_lock($1)', [id]); await work(); await other.query('SELECT pg_advisory_unlock($1)', [id]); }`,
    // An unlock of another key does not release this lock (nor is it this rule's business that the lock is never released).
    `import { Client } from 'pg'; const client = new Client();
     async function f(id: number) { await client.query('SELECT pg_advisory_lock(1)'); await work(); await client.query('SELECT pg_advisory_unlock($1)', [id + 1]); }`,
    // Nothing between lock and unlock can throw.
    `import { Client } from 'pg'; const client = new Client();
     async function f(id: number) { await client.query('SELECT pg_advisory_lock($1)', [id]); await client.query('SELECT pg_advisory_unlock($1)', [id]); }`,
    // Unlock in a nested callback: a guarantee this rule cannot weigh.
    `import { Client } from 'pg'; const client = new Client();
     async function f(id: number) { await client.query('SELECT pg_advisory_lock($1)', [id]); await work().finally(() => client.query('SELECT pg_advisory_unlock($1)', [id])); }`,
    // Lock table: the DELETE in finally; a plain session row that is no lock.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function f(name: string, owner: string) { await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval \\'1 minute\\')', [name, owner]); try { await doJob(); } finally { await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]); } }
     async function g(id: string) { await pool.query('INSERT INTO sessions (id, user_id) VALUES ($1, $2)', [id, 1]); await work(); await pool.query('DELETE FROM sessions WHERE id = $1', [id]); }`,
    // A sweep of expired rows after taking one is not its release.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function f(name: string, owner: string) { await pool.query("INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval '1 minute') ON CONFLICT DO NOTHING", [name, owner]); await work(); await pool.query('DELETE FROM job_locks WHERE expires_at < now()'); }`,
  ],
  invalid: pgInvalid,
});

suggestionsClearFindings('require-release-in-finally', rule, pgInvalid);
proveSuggestions('require-release-in-finally', rule, pgInvalid);

// A lock table written with knex's query builder: the same judgement; the suggestion moves the
// chain as it is written into a finally.
const knexInvalid: InvalidTestCase<MessageId, Options>[] = [
  {
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, owner: string) {
  await db('job_locks').insert({ name, owner, expires_at: new Date(Date.now() + 30000) });
  await doJob(name);
  await db('job_locks').where({ name, owner }).del();
}`,
    errors: [
      {
        messageId: 'lockRowReleaseNotInFinally',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'moveReleaseToFinally',
            output: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, owner: string) {
  await db('job_locks').insert({ name, owner, expires_at: new Date(Date.now() + 30000) });
  try {
    await doJob(name);
  } finally {
    await db('job_locks').where({ name, owner }).del();
  }
}`,
          },
        ],
      },
    ],
  },
];

ruleTester.run('require-release-in-finally (knex query builder)', rule, {
  valid: [
    // The release in finally; a session row that is no lock; a sweep of expired rows is no release.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function f(name: string, owner: string) { await db('job_locks').insert({ name, owner, expires_at: new Date() }); try { await doJob(); } finally { await db('job_locks').where({ name, owner }).del(); } }
     async function g(id: string) { await db('sessions').insert({ id, user_id: 1, expires_at: new Date() }); await work(); await db('sessions').where({ id }).del(); }
     async function h(name: string, owner: string) { await db('job_locks').insert({ name, owner, expires_at: new Date() }).onConflict('name').ignore(); await work(); await db('job_locks').where('expires_at', '<', db.fn.now()).del(); }`,
  ],
  invalid: knexInvalid,
});

suggestionsClearFindings('require-release-in-finally', rule, knexInvalid);
