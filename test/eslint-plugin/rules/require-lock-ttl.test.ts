import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import { IDEMPOTENCY_INTERCEPTOR } from '../support/lookalikes.js';
import { createTypedRuleTester } from '../support/typed-rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/require-lock-ttl.js';
import { suggestionsClearFindings } from '../support/suggestions-clear-findings.js';

const ruleTester = new RuleTester();

// With type information a receiver is Redis because its type says so: an in-process Map subclass
// with Redis-like method names stays silent, a client whose origin only the checker sees is found.
const typed = createTypedRuleTester();

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // ioredis, the article's attempt 2: SETNX and nothing else.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function runInvoicing(token) {
  if (!(await redis.setnx('lock:invoice', token))) return;
  try {
    await doWork();
  } finally {
    await redis.del('lock:invoice');
  }
}`,
    errors: [
      {
        messageId: 'noExpiry',
        data: { command: 'SETNX' },
        line: 4,
        column: 15,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import Redis from 'ioredis';
const redis = new Redis();
async function runInvoicing(token) {
  if (!(await redis.set('lock:invoice', token, 'PX', 30000, 'NX'))) return;
  try {
    await doWork();
  } finally {
    await redis.del('lock:invoice');
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis SET NX without expiry; the key in a template literal, defaultTtlMs set.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquire(jobId: string, token: string) {
  return redis.set(\`lock:job:\${jobId}\`, token, 'NX');
}`,
    options: [{ defaultTtlMs: 10000 }],
    errors: [
      {
        messageId: 'noExpiry',
        data: { command: 'SET' },
        line: 4,
        column: 10,
        suggestions: [
          {
            messageId: 'addExpiry',
            data: { option: `'PX', 10000` },
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquire(jobId: string, token: string) {
  return redis.set(\`lock:job:\${jobId}\`, token, 'NX', 'PX', 10000);
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: SETNX whose numeric reply is compared keeps its meaning; the key is a constant.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const LOCK_KEY = 'lock:report';
async function acquire(token) {
  const ok = await redis.setnx(LOCK_KEY, token);
  return ok === 1;
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 5,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import Redis from 'ioredis';
const redis = new Redis();
const LOCK_KEY = 'lock:report';
async function acquire(token) {
  const ok = await redis.set(LOCK_KEY, token, 'PX', 30000, 'NX').then((reply) => (reply === 'OK' ? 1 : 0));
  return ok === 1;
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis MULTI chain.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  await redis.multi().setnx('lock:a', token).incr('lock:a:fence').exec();
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
async function f(token) {
  await redis.multi().set('lock:a', token, 'PX', 30000, 'NX').incr('lock:a:fence').exec();
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis pipeline held in a variable.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  const pipeline = redis.pipeline();
  pipeline.set('lock:a', token, 'NX');
  pipeline.incr('lock:a:fence');
  await pipeline.exec();
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 5,
        suggestions: [
          {
            messageId: 'addExpiry',
            output: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  const pipeline = redis.pipeline();
  pipeline.set('lock:a', token, 'NX', 'PX', 30000);
  pipeline.incr('lock:a:fence');
  await pipeline.exec();
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis generic call() form.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  return redis.call('SET', 'lock:a', token, 'NX');
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'addExpiry',
            data: { option: `'PX', 30000` },
            output: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  return redis.call('SET', 'lock:a', token, 'NX', 'PX', 30000);
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v4 options object.
    code: `import { createClient } from 'redis';
const client = createClient();
async function acquire(token) {
  return client.set('lock:report', token, { NX: true });
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'addExpiry',
            data: { option: 'PX: 30000' },
            output: `import { createClient } from 'redis';
const client = createClient();
async function acquire(token) {
  return client.set('lock:report', token, { NX: true, PX: 30000 });
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v4 camelCase setNX.
    code: `import { createClient } from 'redis';
const client = createClient();
async function acquire(token) {
  if (!(await client.setNX('lock:report', token))) throw new Error('busy');
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            data: { ttl: '30000' },
            output: `import { createClient } from 'redis';
const client = createClient();
async function acquire(token) {
  if (!(await client.set('lock:report', token, { NX: true, PX: 30000 }))) throw new Error('busy');
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis sendCommand: the TTL goes in as a string.
    code: `import { createClient } from 'redis';
const client = createClient();
async function acquire(token) {
  return client.sendCommand(['SET', 'lock:a', token, 'NX']);
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'addExpiry',
            data: { option: `'PX', '30000'` },
            output: `import { createClient } from 'redis';
const client = createClient();
async function acquire(token) {
  return client.sendCommand(['SET', 'lock:a', token, 'NX', 'PX', '30000']);
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v5 { condition } spelling.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function acquire(token: string) {
  return client.set('lock:sync', token, { condition: 'NX' });
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'addExpiry',
            data: { option: `expiration: { type: 'PX', value: 30000 }` },
            output: `import { createClient } from 'redis';
const client = createClient();
export async function acquire(token: string) {
  return client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 30000 } });
}`,
          },
        ],
      },
    ],
  },
  {
    // node_redis v3 callbacks: SETNX keeps its callback.
    code: `const redis = require('redis');
const client = redis.createClient();
function acquire(token, done) {
  client.setnx('lock:cron', token, (err, ok) => done(!err && ok === 1));
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `const redis = require('redis');
const client = redis.createClient();
function acquire(token, done) {
  client.set('lock:cron', token, 'NX', 'PX', 30000, (err, ok) => done(!err && ok === 1));
}`,
          },
        ],
      },
    ],
  },
  {
    // node_redis v3: SET NX with a callback.
    code: `const redis = require('redis');
const client = redis.createClient();
function acquire(token, done) {
  client.set('lock:cron', token, 'NX', done);
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'addExpiry',
            data: { option: `'PX', 30000` },
            output: `const redis = require('redis');
const client = redis.createClient();
function acquire(token, done) {
  client.set('lock:cron', token, 'NX', 'PX', 30000, done);
}`,
          },
        ],
      },
    ],
  },
  {
    // Upstash lowercase options.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function acquire(token: string) {
  return redis.set('lock:sync', token, { nx: true });
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'addExpiry',
            data: { option: 'px: 30000' },
            output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function acquire(token: string) {
  return redis.set('lock:sync', token, { nx: true, px: 30000 });
}`,
          },
        ],
      },
    ],
  },
  {
    // Upstash setnx.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function acquire(token: string) {
  return (await redis.setnx('lock:sync', token)) === 1;
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function acquire(token: string) {
  return (await redis.set('lock:sync', token, { nx: true, px: 30000 }).then((reply) => (reply === 'OK' ? 1 : 0))) === 1;
}`,
          },
        ],
      },
    ],
  },
  {
    // A small lock class: acquire and release in two methods, key in a field.
    code: `import Redis from 'ioredis';
export class JobLock {
  private readonly redis = new Redis();
  constructor(private readonly key: string, private readonly token: string) {}
  async acquire() {
    return (await this.redis.set(this.key, this.token, 'NX')) === 'OK';
  }
  async release() {
    await this.redis.eval('if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0', 1, this.key, this.token);
  }
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 6,
        suggestions: [
          {
            messageId: 'addExpiry',
            output: `import Redis from 'ioredis';
export class JobLock {
  private readonly redis = new Redis();
  constructor(private readonly key: string, private readonly token: string) {}
  async acquire() {
    return (await this.redis.set(this.key, this.token, 'NX', 'PX', 30000)) === 'OK';
  }
  async release() {
    await this.redis.eval('if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0', 1, this.key, this.token);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // A Lua acquisition whose SET NX has no expiry: reported, no in-place suggestion.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const ACQUIRE = 'if redis.call("SET", KEYS[1], ARGV[1], "NX") then return redis.call("INCR", KEYS[2]) end return 0';
export async function acquire(token: string) {
  return redis.eval(ACQUIRE, 2, 'lock:a', 'lock:a:fence', token);
}`,
    errors: [{ messageId: 'noExpiry', data: { command: 'EVAL' }, line: 5, suggestions: [] }],
  },
  {
    // A key that does not say "lock", but the module takes it and releases it: a lock.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function exclusive(name, token, work) {
  if (!(await redis.set('mutex:' + name, token, 'NX'))) return;
  try { await work(); } finally { await redis.del('mutex:' + name); }
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'addExpiry',
            output: `import Redis from 'ioredis';
const redis = new Redis();
async function exclusive(name, token, work) {
  if (!(await redis.set('mutex:' + name, token, 'NX', 'PX', 30000))) return;
  try { await work(); } finally { await redis.del('mutex:' + name); }
}`,
          },
        ],
      },
    ],
  },
  {
    // A lock helper whose key is a parameter: the function's name says "lock".
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function tryLock(key: string, token: string) {
  return (await redis.set(key, token, 'NX')) === 'OK';
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 4,
        suggestions: [
          {
            messageId: 'addExpiry',
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function tryLock(key: string, token: string) {
  return (await redis.set(key, token, 'NX', 'PX', 30000)) === 'OK';
}`,
          },
        ],
      },
    ],
  },
  {
    // An unknown client: the SETNX shape and the lock key are enough.
    code: `export async function f(redis, token) {
  return redis.setnx('lock:a', token);
}`,
    errors: [
      {
        messageId: 'noExpiry',
        line: 2,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `export async function f(redis, token) {
  return redis.set('lock:a', token, 'PX', 30000, 'NX').then((reply) => (reply === 'OK' ? 1 : 0));
}`,
          },
        ],
      },
    ],
  },
];

ruleTester.run('require-lock-ttl', rule, {
  valid: [
    // An idempotency record: claimed with SET NX, overwritten with the result (or marked done) by a
    // plain SET, deleted when the work failed so that a retry can run. Not a lock.
    IDEMPOTENCY_INTERCEPTOR,
    // The atomic acquisition with an expiry, in every dialect and option order.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token) { await redis.set('lock:invoice', token, 'NX', 'PX', 30000); await redis.set('lock:b', token, 'EX', 30, 'NX'); }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function f(token) { await client.set('lock:invoice', token, { NX: true, PX: 30000 }); }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function f(token) { await client.set('lock:invoice', token, { condition: 'NX', expiration: { type: 'PX', value: 30000 } }); }`,
    `import { Redis } from '@upstash/redis'; const redis = Redis.fromEnv();
     async function f(token) { await redis.set('lock:invoice', token, { nx: true, ex: 30 }); }`,
    `const redis = require('redis'); const client = redis.createClient();
     function f(token, cb) { client.set('lock:cron', token, 'NX', 'PX', 60000, cb); }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function f(token) { await client.sendCommand(['SET', 'lock:a', token, 'NX', 'PX', '30000']); }`,
    // Options the analysis cannot read may carry an expiry.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token, ...options) { await redis.set('lock:a', token, 'NX', ...options); }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function f(token, expiry) { await client.set('lock:a', token, { NX: true, ...expiry }); }`,
    // Split acquire: no-split-acquire owns it, never both rules.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token) { await redis.setnx('lock:a', token); await redis.expire('lock:a', 30); }`,
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token) { await redis.multi().setnx('lock:a', token).pexpire('lock:a', 3000).exec(); }`,
    `const redis = require('redis'); const client = redis.createClient();
     function f(token, done) { client.setnx('lock:cron', token, (err, ok) => { if (!ok) return done(false); client.expire('lock:cron', 60, () => done(true)); }); }`,
    // A lock script that sets NX with PX, and the Redis documentation's fenced acquire.
    `import Redis from 'ioredis'; const redis = new Redis();
     const ACQUIRE = 'if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return redis.call("INCR", KEYS[2]) else return 0 end';
     async function f(token) { return redis.eval(ACQUIRE, 2, '{invoice}:lock', '{invoice}:fence', token, 30000); }`,
    // Write-once markers: SETNX for idempotency, never released, not a lock key.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function handle(event) { if (!(await redis.setnx('processed:' + event.id, '1'))) return; await apply(event); }`,
    `import { Redis } from '@upstash/redis'; const redis = Redis.fromEnv();
     export async function claim(orderId: string) { return redis.set(\`order:\${orderId}:claimed\`, '1', { nx: true }); }`,
    // Cache-aside memoisation and a session store with EX.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function load(id) { const hit = await redis.get('cache:' + id); if (hit) return hit; const value = await compute(id); await redis.set('cache:' + id, value, 'EX', 60); return value; }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function save(id, data) { await client.set(\`sess:\${id}\`, JSON.stringify(data), { EX: 3600 }); }`,
    // A rate limiter.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function hit(ip) { const n = await redis.incr('rate:' + ip); if (n === 1) await redis.expire('rate:' + ip, 60); return n; }`,
    // Redlock and redis-semaphore always set a TTL.
    `import Redlock from 'redlock'; const redlock = new Redlock([client]);
     async function f() { await redlock.using(['lock:a'], 5000, async () => { await work(); }); }`,
    `const Redlock = require('redlock'); const redlock = new Redlock([client]);
     async function f() { const lock = await redlock.lock('lock:a', 5000); await work(); await lock.unlock(); }`,
    `import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis';
     const mutex = new Mutex(new Redis(), 'lock:a', { lockTimeout: 10000 });
     async function f() { await mutex.acquire(); try { await work(); } finally { await mutex.release(); } }`,
    // A Map single-flight is not Redis.
    `const inflight = new Map(); function f(key, load) { if (!inflight.has(key)) inflight.set(key, load()); return inflight.get(key); }`,
    `const locks = new Map(); function f() { locks.setnx('lock:a', 1); }`,
  ],
  invalid,
});

suggestionsClearFindings('require-lock-ttl', rule, invalid);

typed.run('require-lock-ttl (type-aware)', rule, {
  valid: [
    {
      code: `import { LocalLocks } from './local-locks';
export function acquire(redis: LocalLocks, token: string) {
  redis.setnx('lock:invoice', token);
}`,
      filename: 'file.ts',
    },
  ],
  invalid: [
    {
      code: `import { getStore } from './store';
const store = getStore();
export async function acquire(token: string) {
  return store.set('lock:invoice', token, 'NX');
}`,
      filename: 'file.ts',
      errors: [
        {
          messageId: 'noExpiry',
          line: 4,
          suggestions: [
            {
              messageId: 'addExpiry',
              output: `import { getStore } from './store';
const store = getStore();
export async function acquire(token: string) {
  return store.set('lock:invoice', token, 'NX', 'PX', 30000);
}`,
            },
          ],
        },
      ],
    },
  ],
});

// Lock tables whose rows carry no expiry: a unique INSERT takes the lock, a DELETE frees it.
const pgInvalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // pg Pool, a plain INSERT on a unique name.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query('INSERT INTO job_locks (name, owner) VALUES ($1, $2)', [name, owner]);
  try {
    await doJob(name);
  } finally {
    await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);
  }
}`,
    errors: [{ messageId: 'noRowExpiry', line: 4, column: 9, suggestions: [] }],
  },
  {
    // pg PoolClient, ON CONFLICT DO NOTHING, acquire and release in two methods.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export class Mutex {
  constructor(private readonly name: string, private readonly owner: string) {}
  async tryAcquire(): Promise<boolean> {
    const client = await pool.connect();
    try {
      const result = await client.query('INSERT INTO app_lock (name, owner) VALUES ($1, $2) ON CONFLICT DO NOTHING', [this.name, this.owner]);
      return result.rowCount === 1;
    } finally {
      client.release();
    }
  }
  async release() {
    await pool.query('DELETE FROM app_lock WHERE name = $1 AND owner = $2', [this.name, this.owner]);
  }
}`,
    errors: [{ messageId: 'noRowExpiry', line: 8, column: 28, suggestions: [] }],
  },
  {
    // postgres.js.
    code: `import postgres from 'postgres';
const sql = postgres();
export async function acquire(name: string, owner: string) {
  const rows = await sql\`INSERT INTO job_locks (name, owner) VALUES (\${name}, \${owner}) ON CONFLICT DO NOTHING RETURNING owner\`;
  return rows.length === 1;
}
export async function release(name: string, owner: string) {
  await sql\`DELETE FROM job_locks WHERE name = \${name} AND owner = \${owner}\`;
}`,
    errors: [{ messageId: 'noRowExpiry', line: 4, column: 22, suggestions: [] }],
  },
  {
    // knex raw and Prisma.
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function acquire(name: string, owner: string) {
  await db.raw('INSERT INTO shedlock (name, locked_by) VALUES (?, ?)', [name, owner]);
}
export async function release(name: string) {
  await db.raw('DELETE FROM shedlock WHERE name = ?', [name]);
}`,
    errors: [{ messageId: 'noRowExpiry', line: 4, column: 9, suggestions: [] }],
  },
  {
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function runJob(name: string, owner: string) {
  await prisma.$executeRaw\`INSERT INTO job_locks (name, owner) VALUES (\${name}, \${owner})\`;
  await doJob(name);
  await prisma.$executeRaw\`DELETE FROM job_locks WHERE name = \${name} AND owner = \${owner}\`;
}`,
    errors: [{ messageId: 'noRowExpiry', line: 4, column: 9, suggestions: [] }],
  },
];

ruleTester.run('require-lock-ttl (lock tables)', rule, {
  valid: [
    // The row carries an expiry; the guarded upsert of no-lock-takeover.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function acquire(name: string, owner: string) { await pool.query("INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at WHERE job_locks.expires_at < now()", [name, owner]); }
     async function release(name: string, owner: string) { await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]); }`,
    // ShedLock's shape: lock_until set by an UPDATE elsewhere in the file.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function acquire(name: string, owner: string) { await pool.query('INSERT INTO shedlock (name, locked_by) VALUES ($1, $2) ON CONFLICT DO NOTHING', [name, owner]); await pool.query('UPDATE shedlock SET lock_until = now() + interval \\'1 minute\\' WHERE name = $1 AND locked_by = $2', [name, owner]); }
     async function release(name: string, owner: string) { await pool.query('DELETE FROM shedlock WHERE name = $1 AND locked_by = $2', [name, owner]); }`,
    // A sweep of stale rows by a timestamp is an expiry too.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function acquire(name: string, owner: string) { await pool.query('INSERT INTO job_locks (name, owner, locked_at) VALUES ($1, $2, now())', [name, owner]); }
     async function release(name: string, owner: string) { await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]); }
     async function sweep() { await pool.query("DELETE FROM job_locks WHERE locked_at < now() - interval '10 minutes'"); }`,
    // No DELETE in sight: the release is elsewhere, unknown.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function acquire(name: string, owner: string) { await pool.query('INSERT INTO job_locks (name, owner) VALUES ($1, $2)', [name, owner]); }`,
    // Not a lock table.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function login(id: string, user: string) { await pool.query('INSERT INTO sessions (id, user_id) VALUES ($1, $2)', [id, user]); }
     async function logout(id: string) { await pool.query('DELETE FROM sessions WHERE id = $1', [id]); }`,
  ],
  invalid: pgInvalid,
});

// The same judgement of a lock table written with knex's query builder.
ruleTester.run('require-lock-ttl (knex query builder)', rule, {
  valid: [
    // The row carries an expiry, or the reaper compares a time-named column, or the row is built elsewhere.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function acquire(name: string, owner: string) { await db('job_locks').insert({ name, owner, expires_at: new Date(Date.now() + 30000) }); }
     async function release(name: string, owner: string) { await db('job_locks').where({ name, owner }).del(); }`,
    `const knex = require('knex'); const db = knex({});
     async function acquire(key) { await db('locks').insert({ key, expired_at: Date.now() + 60000 }); }
     async function release(key) { await db('locks').where('key', key).del(); }
     async function reap() { await db('locks').where('expired_at', '<', Date.now()).del(); }`,
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function acquire(row: { name: string }) { await db('job_locks').insert(row); }
     async function release(name: string) { await db('job_locks').where({ name }).del(); }`,
    // Not a lock table: sessions freed by id.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function login(id: string, userId: string) { await db('sessions').insert({ id, user_id: userId }); }
     async function logout(id: string) { await db('sessions').where({ id }).del(); }`,
  ],
  invalid: [
    {
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function acquire(name: string, owner: string) {
  await db('job_locks').insert({ name, owner });
}
export async function release(name: string, owner: string) {
  await db('job_locks').where({ name, owner }).del();
}`,
      errors: [{ messageId: 'noRowExpiry', line: 4, column: 9, suggestions: [] }],
    },
  ],
});
