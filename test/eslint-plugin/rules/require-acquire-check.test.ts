import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import { createTypedRuleTester } from '../support/typed-rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/require-acquire-check.js';
import { proveSuggestions } from '../support/sql-suggestions.js';
import { suggestionsClearFindings } from '../support/suggestions-clear-findings.js';

const ruleTester = new RuleTester();

const valid = [
  // An idempotency claim answering with an object fails open about a duplicate request, not a lock.
  `import Redis from 'ioredis';
const redis = new Redis();
export async function tryAcquireIdempotency(key: string) {
  try {
    return { acquired: (await redis.set(\`idem:\${key}\`, '1', 'NX', 'EX', 86400)) === 'OK' };
  } catch {
    return { acquired: true };
  }
}`,
  // `if (!ok) return;` — the Redis documentation's own pattern, ioredis.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function f(token) { const ok = await redis.set('lock:invoice', token, 'NX', 'PX', 30000); if (!ok) return; await work(); }`,
  // `if (ok) { ... }`, node-redis v4.
  `import { createClient } from 'redis'; const client = createClient();
   async function f(token) { if (await client.set('lock:report', token, { NX: true, PX: 30000 })) { await work(); } }`,
  // Throwing when not acquired, node-redis v5 spelling.
  `import { createClient } from 'redis'; const client = createClient();
   async function f(token) { if (!(await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } }))) throw new Error('busy'); await work(); }`,
  // Returning the result to the caller; comparing it.
  `import Redis from 'ioredis'; const redis = new Redis();
   export function acquire(key, token) { return redis.set(key, token, 'PX', 30000, 'NX'); }
   export async function tryLock(token) { return (await redis.setnx('lock:a', token)) === 1; }`,
  // An exported result is read by the importing modules.
  `import Redis from 'ioredis'; const redis = new Redis();
   export const leader = await redis.set('lock:leader', process.pid, 'NX', 'PX', 30000);`,
  // Passing it to a function.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function f(token) { assertAcquired(await redis.set('lock:a', token, 'NX', 'PX', 30000)); await work(); }`,
  // node_redis v3: a callback that tests its reply, or hands it to the caller's callback.
  `const redis = require('redis'); const client = redis.createClient();
   function f(token) { client.set('lock:cron', token, 'NX', 'PX', 30000, (err, reply) => { if (err || reply !== 'OK') return; runCron(); }); }
   function g(token, cb) { client.setnx('lock:cron', token, cb); }`,
  // Upstash.
  `import { Redis } from '@upstash/redis'; const redis = Redis.fromEnv();
   export async function f(token: string) { const ok = await redis.set('lock:sync', token, { nx: true, px: 30000 }); if (ok !== 'OK') return; await work(); }`,
  // redis-semaphore: tryAcquire tested; acquire() throws when it cannot take the lock.
  `import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis'; const mutex = new Mutex(new Redis(), 'lock:a');
   async function f() { if (!(await mutex.tryAcquire())) return; try { await work(); } finally { await mutex.release(); } }
   async function g() { await mutex.acquire(); try { await work(); } finally { await mutex.release(); } }`,
  // Redlock throws when it cannot take the lock.
  `import Redlock from 'redlock'; const redlock = new Redlock([client]);
   async function f() { const lock = await redlock.acquire(['lock:a'], 5000); try { await work(); } finally { await lock.release(); } }
   async function g() { await redlock.using(['lock:a'], 5000, async () => { await work(); }); }`,
  // A SET NX that is not a lock: a first-write-wins marker drops its result on purpose.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function markSeen(id) { await redis.set('processed:' + id, '1', 'NX', 'EX', 86400); }`,
  // Queued in MULTI: the reply comes with exec().
  `import Redis from 'ioredis'; const redis = new Redis();
   async function f(token) { const [[, ok]] = await redis.multi().set('lock:a', token, 'NX', 'PX', 1000).exec(); if (!ok) return; }`,
  // Ownership checked by reading the key back.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function f(token) { await redis.set('lock:a', token, 'NX', 'PX', 30000); if ((await redis.get('lock:a')) !== token) return; await work(); }`,
  // An acquire helper that fails closed.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function acquireLock(key, token) { try { return (await redis.set(key, token, 'NX', 'PX', 30000)) === 'OK'; } catch { return false; } }`,
  // A job runner's catch reporting the job's success is not about the lock.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function runJob(token) { try { if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return false; await work(); return true; } catch { return true; } }`,
  // A run-with-lock helper whose catch reports the work's outcome: the work never ran without the lock.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function withLock(token, fn) { try { if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return false; await fn(); return true; } catch { return true; } }`,
  // A single-use flag (geofencing, idempotency hints) that fails open on purpose: SET NX of a key
  // that names no lock, in a helper that names no lock, and that nothing in the module releases.
  `import { Redis } from '@upstash/redis'; const redis = Redis.fromEnv();
   export async function tryAcquireFlag(key, ttlSeconds) {
     try { return (await redis.set(key, '1', { nx: true, ex: ttlSeconds })) === 'OK'; } catch { return true; }
   }`,
  // Map single-flight and cache-aside memoisation.
  `const inflight = new Map(); function once(key, load) { if (!inflight.has(key)) inflight.set(key, load()); return inflight.get(key); }`,
  `import Redis from 'ioredis'; const cache = new Redis();
   async function get(id) { const hit = await cache.get('user:' + id); if (hit) return hit; const value = await load(id); await cache.set('user:' + id, value, 'EX', 60); return value; }`,
];

const invalid = [
  {
    // ioredis: the example, the result dropped.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function runInvoices(token: string) {
  await redis.set('lock:invoice', token, 'NX', 'PX', 30000);
  await sendInvoices();
}`,
    errors: [
      {
        messageId: 'resultIgnored' as const,
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'guardWithResult' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function runInvoices(token: string) {
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  await sendInvoices();
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: a lock class whose acquire() drops SETNX's reply; the caller cannot know. The key is
    // a lock because the class releases it.
    code: `import Redis from 'ioredis';
class InvoiceLock {
  private readonly redis = new Redis();
  private readonly key = 'lock:invoice';
  async acquire(token: string) {
    await this.redis.setnx(this.key, token);
  }
  async release() {
    await this.redis.del(this.key);
  }
}`,
    errors: [
      {
        messageId: 'resultIgnored' as const,
        line: 6,
        suggestions: [
          {
            messageId: 'returnResult' as const,
            output: `import Redis from 'ioredis';
class InvoiceLock {
  private readonly redis = new Redis();
  private readonly key = 'lock:invoice';
  async acquire(token: string) {
    return await this.redis.setnx(this.key, token);
  }
  async release() {
    await this.redis.del(this.key);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v4 setNX stored and never read; key in a constant.
    code: `import { createClient } from 'redis';
const client = createClient();
const LOCK_KEY = 'lock:report';
export async function report(token: string) {
  const acquired = await client.setNX(LOCK_KEY, token);
  await buildReport();
}`,
    errors: [
      {
        messageId: 'resultNeverChecked' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'guardWithResult' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
const LOCK_KEY = 'lock:report';
export async function report(token: string) {
  const acquired = await client.setNX(LOCK_KEY, token);
  if (!acquired) return;
  await buildReport();
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v5 spelling, key in a template literal.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function sync(id: string, token: string) {
  await client.set(\`lock:sync:\${id}\`, token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } });
  await pushChanges(id);
}`,
    errors: [
      {
        messageId: 'resultIgnored' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'guardWithResult' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function sync(id: string, token: string) {
  if (!(await client.set(\`lock:sync:\${id}\`, token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } }))) return;
  await pushChanges(id);
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis sendCommand form.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function sync(token: string) {
  await client.sendCommand(['SET', 'lock:sync', token, 'NX', 'PX', '30000']);
  await pushChanges();
}`,
    errors: [
      {
        messageId: 'resultIgnored' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'guardWithResult' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function sync(token: string) {
  if (!(await client.sendCommand(['SET', 'lock:sync', token, 'NX', 'PX', '30000']))) return;
  await pushChanges();
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis call() form.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function sync(token: string) {
  await redis.call('SET', 'lock:sync', token, 'NX', 'PX', 30000);
  await pushChanges();
}`,
    errors: [
      {
        messageId: 'resultIgnored' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'guardWithResult' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function sync(token: string) {
  if (!(await redis.call('SET', 'lock:sync', token, 'NX', 'PX', 30000))) return;
  await pushChanges();
}`,
          },
        ],
      },
    ],
  },
  {
    // node_redis v3: a callback that never looks at the reply.
    code: `const redis = require('redis');
const client = redis.createClient();
function cron(token) {
  client.set('lock:cron', token, 'NX', 'PX', 30000, (err) => {
    runCron();
  });
}`,
    errors: [{ messageId: 'resultIgnored' as const, line: 4, suggestions: [] }],
  },
  {
    // Upstash.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function sync(token: string) {
  await redis.set('lock:sync', token, { nx: true, px: 30000 });
  await pushChanges();
}`,
    errors: [
      {
        messageId: 'resultIgnored' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'guardWithResult' as const,
            output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function sync(token: string) {
  if (!(await redis.set('lock:sync', token, { nx: true, px: 30000 }))) return;
  await pushChanges();
}`,
          },
        ],
      },
    ],
  },
  {
    // redis-semaphore: tryAcquire's boolean dropped.
    code: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
const mutex = new Mutex(new Redis(), 'reports');
export async function report() {
  await mutex.tryAcquire();
  try {
    await buildReport();
  } finally {
    await mutex.release();
  }
}`,
    errors: [
      {
        messageId: 'resultIgnored' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'guardWithResult' as const,
            output: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
const mutex = new Mutex(new Redis(), 'reports');
export async function report() {
  if (!(await mutex.tryAcquire())) return;
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
    // An acquire script (SET NX PX in Lua) whose reply is dropped.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const ACQUIRE = 'return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])';
export async function run(token: string) {
  await redis.eval(ACQUIRE, 1, 'lock:run', token, 30000);
  await work();
}`,
    errors: [
      {
        messageId: 'resultIgnored' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'guardWithResult' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
const ACQUIRE = 'return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])';
export async function run(token: string) {
  if (!(await redis.eval(ACQUIRE, 1, 'lock:run', token, 30000))) return;
  await work();
}`,
          },
        ],
      },
    ],
  },
  {
    // Fail-open: an acquire helper whose catch reports the lock as taken.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquireLock(key: string, token: string) {
  try {
    return (await redis.set(key, token, 'NX', 'PX', 30000)) === 'OK';
  } catch {
    return true;
  }
}`,
    errors: [
      {
        messageId: 'failOpen' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'failClosed' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquireLock(key: string, token: string) {
  try {
    return (await redis.set(key, token, 'NX', 'PX', 30000)) === 'OK';
  } catch {
    return false;
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Fail-open with an answer object: the catch says \`{ acquired: true }\`.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquireLock(key: string, token: string) {
  try {
    const reply = await redis.set(key, token, 'NX', 'PX', 30000);
    return { acquired: reply === 'OK', token };
  } catch (error) {
    console.error(error);
    return { acquired: true, token };
  }
}`,
    errors: [
      {
        messageId: 'failOpen' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'failClosed' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquireLock(key: string, token: string) {
  try {
    const reply = await redis.set(key, token, 'NX', 'PX', 30000);
    return { acquired: reply === 'OK', token };
  } catch (error) {
    console.error(error);
    return { acquired: false, token };
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Fail-open in a helper that returns the acquisition's result through a variable (node-redis).
    code: `import { createClient } from 'redis';
const client = createClient();
export async function grab(token: string) {
  try {
    const reply = await client.set('lock:leader', token, { NX: true, PX: 10000 });
    return reply === 'OK';
  } catch (error) {
    console.error(error);
    return true;
  }
}`,
    errors: [
      {
        messageId: 'failOpen' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'failClosed' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function grab(token: string) {
  try {
    const reply = await client.set('lock:leader', token, { NX: true, PX: 10000 });
    return reply === 'OK';
  } catch (error) {
    console.error(error);
    return false;
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Fail-open by name: tryLock's catch says "taken" although its try never returns the reply itself.
    code: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
const mutex = new Mutex(new Redis(), 'lock:reports');
export async function tryLock() {
  try {
    if (await mutex.tryAcquire()) return true;
    return false;
  } catch {
    return true;
  }
}`,
    errors: [
      {
        messageId: 'failOpen' as const,
        line: 6,
        suggestions: [
          {
            messageId: 'failClosed' as const,
            output: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
const mutex = new Mutex(new Redis(), 'lock:reports');
export async function tryLock() {
  try {
    if (await mutex.tryAcquire()) return true;
    return false;
  } catch {
    return false;
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // Inside a loop `return` would abandon the other jobs: reported without a suggestion.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function runAll(jobs: { id: string }[], token: string) {
  for (const job of jobs) {
    await redis.set('lock:' + job.id, token, 'NX', 'PX', 1000);
    await run(job);
  }
}`,
    errors: [{ messageId: 'resultIgnored' as const, line: 5, suggestions: [] }],
  },
  {
    // Not awaited in a function that cannot await: reported without a suggestion.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export function start(token: string) {
  redis.setnx('lock:a', token);
  work();
}`,
    errors: [{ messageId: 'resultIgnored' as const, line: 4, suggestions: [] }],
  },
  {
    // Assigned to a variable that is never read.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function start(token: string) {
  let acquired;
  acquired = await redis.set('lock:a', token, 'NX', 'PX', 1000);
  await work();
}`,
    errors: [{ messageId: 'resultNeverChecked' as const, line: 5, suggestions: [] }],
  },
];

ruleTester.run('require-acquire-check', rule, { valid, invalid });
suggestionsClearFindings('require-acquire-check', rule, invalid);

// Type-aware: with type information a receiver is Redis because its type says so, whatever its name.
const typedRuleTester = createTypedRuleTester();

typedRuleTester.run('require-acquire-check (type-aware)', rule, {
  valid: [
    {
      // A Map subclass with Redis-like names: its setnx is not a Redis try-acquire.
      code: `import { LocalLocks } from './local-locks';
export function run(redis: LocalLocks, token: string, work: () => void) {
  redis.setnx('lock:invoice', token);
  work();
}`,
      filename: 'file.ts',
    },
  ],
  invalid: [
    {
      code: `import { getStore } from './store';
const store = getStore();
export async function run(token: string, work: () => Promise<void>) {
  await store.set('lock:invoice', token, 'NX', 'PX', 30000);
  await work();
}`,
      filename: 'file.ts',
      errors: [
        {
          messageId: 'resultIgnored',
          line: 4,
          suggestions: [
            {
              messageId: 'guardWithResult',
              output: `import { getStore } from './store';
const store = getStore();
export async function run(token: string, work: () => Promise<void>) {
  if (!(await store.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  await work();
}`,
            },
          ],
        },
      ],
    },
  ],
});

// PostgreSQL: the answer of `pg_try_advisory_lock` is a column of the row the query returns.
const pgInvalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // pg Pool: the result dropped.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function run(jobId: number) {
  await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [jobId]);
  await doWork(jobId);
}`,
    errors: [
      {
        messageId: 'resultIgnored',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'guardWithResult',
            output: `import { Pool } from 'pg';
const pool = new Pool();
export async function run(jobId: number) {
  if (!(await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [jobId])).rows[0]?.locked) return;
  await doWork(jobId);
}`,
          },
        ],
      },
    ],
  },
  {
    // pg PoolClient: rows destructured, never tested.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function run(jobId: number) {
  const client = await pool.connect();
  try {
    const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [jobId]);
    await doWork(jobId);
  } finally {
    client.release();
  }
}`,
    errors: [
      {
        messageId: 'resultNeverChecked',
        line: 6,
        column: 28,
        suggestions: [
          {
            messageId: 'guardWithResult',
            output: `import { Pool } from 'pg';
const pool = new Pool();
export async function run(jobId: number) {
  const client = await pool.connect();
  try {
    const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [jobId]);
    if (!rows[0]?.locked) return;
    await doWork(jobId);
  } finally {
    client.release();
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // pg: only the row count is read, and it is always 1.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function run(jobId: number) {
  const client = await pool.connect();
  const result = await client.query('SELECT pg_try_advisory_lock($1)', [jobId]);
  if (result.rowCount === 0) return;
  await doWork(jobId);
}`,
    errors: [
      {
        messageId: 'resultNeverChecked',
        line: 5,
        column: 24,
        suggestions: [
          {
            messageId: 'guardWithResult',
            output: `import { Pool } from 'pg';
const pool = new Pool();
export async function run(jobId: number) {
  const client = await pool.connect();
  const result = await client.query('SELECT pg_try_advisory_lock($1)', [jobId]);
  if (!result.rows[0]?.pg_try_advisory_lock) return;
  if (result.rowCount === 0) return;
  await doWork(jobId);
}`,
          },
        ],
      },
    ],
  },
  {
    // postgres.js: the boolean destructured and never read.
    code: `import postgres from 'postgres';
const sql = postgres();
export async function run(jobId: number) {
  const [{ locked }] = await sql\`SELECT pg_try_advisory_lock(\${jobId}) AS locked\`;
  await doWork(jobId);
}`,
    errors: [
      {
        messageId: 'resultNeverChecked',
        line: 4,
        column: 30,
        suggestions: [
          {
            messageId: 'guardWithResult',
            output: `import postgres from 'postgres';
const sql = postgres();
export async function run(jobId: number) {
  const [{ locked }] = await sql\`SELECT pg_try_advisory_lock(\${jobId}) AS locked\`;
  if (!locked) return;
  await doWork(jobId);
}`,
          },
        ],
      },
    ],
  },
  {
    // knex raw: the boolean copied into a variable nobody reads.
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function run(jobId: number) {
  const result = await db.raw('SELECT pg_try_advisory_lock(?) AS locked', [jobId]);
  const locked = result.rows[0].locked;
  await doWork(jobId);
}`,
    errors: [
      {
        messageId: 'resultNeverChecked',
        line: 4,
        column: 24,
        suggestions: [
          {
            messageId: 'guardWithResult',
            output: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function run(jobId: number) {
  const result = await db.raw('SELECT pg_try_advisory_lock(?) AS locked', [jobId]);
  if (!result.rows[0]?.locked) return;
  const locked = result.rows[0].locked;
  await doWork(jobId);
}`,
          },
        ],
      },
    ],
  },
  {
    // Prisma $queryRaw, dropped as the last statement: the suggestion returns the answer.
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function tryLock(jobId: number) {
  await prisma.$queryRaw\`SELECT pg_try_advisory_xact_lock(\${jobId}) AS locked\`;
}`,
    errors: [
      {
        messageId: 'resultIgnored',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'returnResult',
            output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function tryLock(jobId: number) {
  return (await prisma.$queryRaw\`SELECT pg_try_advisory_xact_lock(\${jobId}) AS locked\`)[0]?.locked;
}`,
          },
        ],
      },
    ],
  },
  {
    // Sequelize: the rows' shape depends on options, so the dropped result gets no suggestion.
    code: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://localhost/app');
export async function run(jobId: number) {
  await sequelize.query('SELECT pg_try_advisory_lock(42)');
  await doWork(jobId);
}`,
    errors: [{ messageId: 'resultIgnored', line: 4, column: 9, suggestions: [] }],
  },
  {
    // An acquire helper that fails open around a try-lock.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function acquireLock(jobId: number) {
  try {
    const { rows } = await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [jobId]);
    return rows[0].locked;
  } catch {
    return true;
  }
}`,
    errors: [
      {
        messageId: 'failOpen',
        line: 5,
        column: 28,
        suggestions: [
          {
            messageId: 'failClosed',
            output: `import { Pool } from 'pg';
const pool = new Pool();
export async function acquireLock(jobId: number) {
  try {
    const { rows } = await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [jobId]);
    return rows[0].locked;
  } catch {
    return false;
  }
}`,
          },
        ],
      },
    ],
  },
];

ruleTester.run('require-acquire-check (PostgreSQL)', rule, {
  valid: [
    // pg: the answer tested with an early return.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function f(id: number) { const client = await pool.connect(); try { const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [id]); if (!rows[0].locked) return; await work(); } finally { client.release(); } }`,
    // pg: optional chaining, a result object, a non-null assertion.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function f(id: number) { const { rows } = await pool.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [id]); if (!rows[0]?.locked) return; await work(); }
     async function g(id: number) { const result = await pool.query('SELECT pg_try_advisory_lock($1) AS got', [id]); if (result.rows[0]!.got !== true) throw new Error('busy'); await work(); }`,
    // Nested destructuring, the default column name.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function f(id: number) { const { rows: [{ pg_try_advisory_lock: locked }] } = await pool.query('SELECT pg_try_advisory_lock($1)', [id]); if (locked) await work(); }`,
    // postgres.js: destructured and tested; the row kept and tested.
    `import postgres from 'postgres'; const sql = postgres();
     async function f(id: number) { const [{ locked }] = await sql\`SELECT pg_try_advisory_lock(\${id}) AS locked\`; if (!locked) return; await work(); }
     async function g(id: number) { const [row] = await sql\`SELECT pg_try_advisory_lock(\${id}) AS locked\`; return row.locked; }`,
    // Returned, passed on, or handed to a helper whole.
    `import { Pool } from 'pg'; const pool = new Pool();
     export async function tryLock(id: number) { const { rows } = await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [id]); return rows[0].locked as boolean; }
     export async function tryLock2(id: number) { return pool.query('SELECT pg_try_advisory_lock($1) AS locked', [id]); }
     export async function tryLock3(id: number) { const result = await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [id]); return isLocked(result); }
     export async function tryLock4(id: number) { const { rows } = await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [id]); return rows.some((row) => row.locked); }`,
    // knex raw and Prisma $queryRaw, tested.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function f(id: number) { const { rows } = await db.raw('SELECT pg_try_advisory_lock(?) AS locked', [id]); if (!rows[0].locked) return; await work(); }`,
    `import { PrismaClient } from '@prisma/client'; const prisma = new PrismaClient();
     async function f(id: number) { const [{ locked }] = await prisma.$queryRaw<{ locked: boolean }[]>\`SELECT pg_try_advisory_lock(\${id}) AS locked\`; if (!locked) return; await work(); }`,
    // A callback receives the result; a blocking lock has no answer to check.
    `import { Pool } from 'pg'; const pool = new Pool();
     function f(id: number) { pool.query('SELECT pg_try_advisory_lock($1) AS locked', [id], (error, result) => { if (!error && result.rows[0].locked) work(); }); }
     async function g(id: number) { await pool.query('SELECT pg_advisory_lock($1)', [id]); await work(); }`,
    // A try-lock inside a larger expression, or beside other statements, is not followed.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function f(id: number) { await pool.query('SELECT CASE WHEN pg_try_advisory_lock($1) THEN 1 ELSE 0 END', [id]); }
     async function g(id: number) { await pool.query('BEGIN; SELECT pg_try_advisory_xact_lock($1)', [id]); }`,
    // Sequelize: its result shape is not followed; any read counts.
    `import { Sequelize } from 'sequelize'; const sequelize = new Sequelize('postgres://localhost/app');
     async function f(id: number) { const [[row]] = await sequelize.query('SELECT pg_try_advisory_lock(42) AS locked'); await work(); }`,
  ],
  invalid: pgInvalid,
});

suggestionsClearFindings('require-acquire-check', rule, pgInvalid);
proveSuggestions('require-acquire-check', rule, pgInvalid);
