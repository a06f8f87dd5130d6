import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import { createTypedRuleTester } from '../support/typed-rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/no-check-then-set.js';
import { suggestionsClearFindings } from '../support/suggestions-clear-findings.js';

const ruleTester = new RuleTester();

// With type information a receiver is Redis because its type says so: an in-process Map subclass
// with Redis-like method names stays silent, a client whose origin only the checker sees is found.
const typed = createTypedRuleTester();

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // ioredis, the article's attempt 1.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function runInvoicing(token) {
  if ((await redis.get('lock:invoice')) === null) {
    await redis.set('lock:invoice', token);
    await doWork();
    await redis.del('lock:invoice');
  }
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        data: { read: 'GET', write: 'SET' },
        line: 5,
        column: 11,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            data: { ttl: '30000' },
            output: `import Redis from 'ioredis';
const redis = new Redis();
async function runInvoicing(token) {
  if (await redis.set('lock:invoice', token, 'PX', 30000, 'NX')) {
    await doWork();
    await redis.del('lock:invoice');
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: an early return on the held value; the write's own EX becomes PX; defaultTtlMs unused.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquire(jobId: string, token: string) {
  const key = \`lock:job:\${jobId}\`;
  const holder = await redis.get(key);
  if (holder) {
    console.log('held by', holder);
    return false;
  }
  await redis.set(key, token, 'EX', 60);
  return true;
}`,
    options: [{ defaultTtlMs: 5000 }],
    errors: [
      {
        messageId: 'checkThenSet',
        line: 10,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            data: { ttl: '60000' },
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquire(jobId: string, token: string) {
  const key = \`lock:job:\${jobId}\`;
  const holder = await redis.get(key);
  if (!(await redis.set(key, token, 'PX', 60000, 'NX'))) {
    console.log('held by', holder);
    return false;
  }
  return true;
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis EXISTS inline, early return, SETEX with a constant TTL.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const LOCK_KEY = 'lock:report';
const TTL = 30;
async function run(token) {
  if (await redis.exists(LOCK_KEY)) return;
  await redis.setex(LOCK_KEY, TTL, token);
  await work();
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        data: { read: 'EXISTS', write: 'SETEX' },
        line: 7,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            data: { ttl: 'TTL * 1000' },
            output: `import Redis from 'ioredis';
const redis = new Redis();
const LOCK_KEY = 'lock:report';
const TTL = 30;
async function run(token) {
  if (!(await redis.set(LOCK_KEY, token, 'PX', TTL * 1000, 'NX'))) return;
  await work();
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: wait until the key is gone, then write it.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function lock(token) {
  while (await redis.get('lock:a')) await sleep(100);
  await redis.set('lock:a', token, 'PX', 5000);
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        line: 5,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import Redis from 'ioredis';
const redis = new Redis();
async function lock(token) {
  while (!(await redis.set('lock:a', token, 'PX', 5000, 'NX'))) await sleep(100);
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis generic call() forms, the write as the branch's only statement.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  const held = await redis.call('EXISTS', 'lock:a');
  if (held === 0) await redis.call('SET', 'lock:a', token);
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        line: 5,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  await redis.set('lock:a', token, 'PX', 30000, 'NX');
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
export async function acquire(token: string) {
  const current = await client.get('lock:report');
  if (current !== null) return false;
  await client.set('lock:report', token, { EX: 30 });
  return true;
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        line: 6,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import { createClient } from 'redis';
const client = createClient();
export async function acquire(token: string) {
  if (!(await client.set('lock:report', token, { NX: true, PX: 30000 }))) return false;
  return true;
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v5 spelling and camelCase setEx.
    code: `import { createClient } from 'redis';
const client = createClient();
async function other(t) { await client.set('cache:x', t, { condition: 'NX', expiration: { type: 'EX', value: 5 } }); }
export async function acquire(token: string) {
  if (!(await client.exists('lock:sync'))) {
    await client.setEx('lock:sync', 10, token);
  }
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        line: 6,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import { createClient } from 'redis';
const client = createClient();
async function other(t) { await client.set('cache:x', t, { condition: 'NX', expiration: { type: 'EX', value: 5 } }); }
export async function acquire(token: string) {
  if (await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 10000 } })) {
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis sendCommand.
    code: `import { createClient } from 'redis';
const client = createClient();
async function f(token) {
  if (await client.sendCommand(['GET', 'lock:a'])) return;
  await client.sendCommand(['SET', 'lock:a', token]);
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        line: 5,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import { createClient } from 'redis';
const client = createClient();
async function f(token) {
  if (!(await client.set('lock:a', token, { NX: true, PX: 30000 }))) return;
}`,
          },
        ],
      },
    ],
  },
  {
    // node_redis v3: the write inside the read's callback, decided by an early return.
    code: `const redis = require('redis');
const client = redis.createClient();
function acquire(token, done) {
  client.get('lock:cron', (err, value) => {
    if (err) return done(err);
    if (value) return done(null, false);
    client.set('lock:cron', token, 'EX', 60, () => done(null, true));
  });
}`,
    errors: [{ messageId: 'checkThenSet', line: 7, suggestions: [] }],
  },
  {
    // Upstash.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function acquire(token: string) {
  if (await redis.exists('lock:sync')) throw new Error('busy');
  await redis.set('lock:sync', token, { px: 20000 });
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        line: 5,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function acquire(token: string) {
  if (!(await redis.set('lock:sync', token, { nx: true, px: 20000 }))) throw new Error('busy');
}`,
          },
        ],
      },
    ],
  },
  {
    // A small lock class: key and token in fields.
    code: `import Redis from 'ioredis';
export class JobLock {
  private readonly redis = new Redis();
  constructor(private readonly key: string, private readonly token: string) {}
  async acquire() {
    if (await this.redis.get(this.key)) return false;
    await this.redis.set(this.key, this.token, 'PX', 30000);
    return true;
  }
  async release() {
    await this.redis.del(this.key);
  }
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        line: 7,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import Redis from 'ioredis';
export class JobLock {
  private readonly redis = new Redis();
  constructor(private readonly key: string, private readonly token: string) {}
  async acquire() {
    if (!(await this.redis.set(this.key, this.token, 'PX', 30000, 'NX'))) return false;
    return true;
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
    // A key that does not say "lock", taken and freed in the same function: a lock.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function exclusive(name, token, work) {
  if (await redis.exists('mutex:' + name)) return;
  await redis.set('mutex:' + name, token, 'EX', 10);
  try { await work(); } finally { await redis.del('mutex:' + name); }
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        line: 5,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import Redis from 'ioredis';
const redis = new Redis();
async function exclusive(name, token, work) {
  if (!(await redis.set('mutex:' + name, token, 'PX', 10000, 'NX'))) return;
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
export async function acquireLock(key: string, token: string) {
  if (await redis.exists(key)) return false;
  await redis.set(key, token, 'EX', 10);
  return true;
}`,
    errors: [
      {
        messageId: 'checkThenSet',
        line: 5,
        suggestions: [
          {
            messageId: 'useAtomicSet',
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquireLock(key: string, token: string) {
  if (!(await redis.set(key, token, 'PX', 10000, 'NX'))) return false;
  return true;
}`,
          },
        ],
      },
    ],
  },
  {
    // MULTI does not make the earlier GET part of the transaction: reported, no in-place rewrite.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  if (await redis.get('lock:a')) return;
  await redis.multi().set('lock:a', token, 'PX', 1000).incr('lock:a:fence').exec();
}`,
    errors: [{ messageId: 'checkThenSet', line: 5, suggestions: [] }],
  },
  {
    // The token is minted after the check: no in-place suggestion.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function f() {
  if (await redis.get('lock:a')) return;
  const token = crypto.randomUUID();
  await redis.set('lock:a', token, 'PX', 1000);
}`,
    errors: [{ messageId: 'checkThenSet', line: 6, suggestions: [] }],
  },
];

ruleTester.run('no-check-then-set', rule, {
  valid: [
    // The atomic acquisition, in every dialect.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token) { if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return; await work(); }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function f(token) { if (!(await client.set('lock:invoice', token, { NX: true, PX: 30000 }))) return; }`,
    `import { Redis } from '@upstash/redis'; const redis = Redis.fromEnv();
     async function f(token) { if (!(await redis.set('lock:invoice', token, { nx: true, px: 30000 }))) return; }`,
    // A read before an atomic SET NX (a status check for a log line) is fine.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token) { if (await redis.get('lock:a')) return; await redis.set('lock:a', token, 'NX', 'PX', 1000); }`,
    // Cache-aside memoisation: the value read is returned, the key is a cache key.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function load(id) { const cached = await redis.get('cache:' + id); if (cached) return cached; const value = await compute(id); await redis.set('cache:' + id, value, 'EX', 60); return value; }`,
    // Cache-aside, even under a key that mentions "lock": the read value is data.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function lockStatus(id) { const v = await redis.get('lockstatus:' + id); if (v) return JSON.parse(v); const s = await fetchStatus(id); await redis.set('lockstatus:' + id, JSON.stringify(s), 'EX', 60); return s; }`,
    // Cache-aside with EXISTS: the present path reads the key again (a cache hit).
    `import Redis from 'ioredis'; const redis = new Redis();
     async function load(id) { if (await redis.exists('lock-cache:' + id)) return redis.get('lock-cache:' + id); await redis.set('lock-cache:' + id, await compute(id), 'EX', 60); }`,
    // A write-once value under a parameter key, in a function not named like a lock helper.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function remember(key, value) { if (await redis.exists(key)) return; await redis.set(key, value); }`,
    // A session store with EX.
    `import { createClient } from 'redis'; const client = createClient();
     async function touch(id, data) { if (!(await client.exists(\`sess:\${id}\`))) await client.set(\`sess:\${id}\`, JSON.stringify(data), { EX: 3600 }); }`,
    // A rate limiter.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function hit(ip) { const n = await redis.incr('rate:' + ip); if (n === 1) await redis.expire('rate:' + ip, 60); return n; }`,
    // Map single-flight.
    `const inflight = new Map();
     async function load(key) { const pending = inflight.get(key); if (pending) return pending; const p = fetchIt(key); inflight.set(key, p); return p; }`,
    `async function load(inflight, key) { if (inflight.get('lock:' + key)) return; inflight.set('lock:' + key, true); }`,
    // The holder rewriting its own lock (the read is compared with its token): not a "free" path.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function refresh(token) { if ((await redis.get('lock:a')) === token) await redis.set('lock:a', token, 'PX', 30000); }`,
    // The write on the path where the key was present.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token) { if (await redis.get('lock:a')) { await redis.set('lock:a', token, 'XX', 'PX', 1000); await redis.set('lock:a', token); } }`,
    // A read whose result decides nothing, a read of another key.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token) { const v = await redis.get('lock:a'); await redis.set('lock:a', token, 'PX', 1000); return v; }`,
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token) { if (await redis.get('lock:a')) return; await redis.set('lock:b', token, 'PX', 1000); }`,
    // Redlock and redis-semaphore.
    `import Redlock from 'redlock'; const redlock = new Redlock([client]);
     async function f() { await redlock.using(['lock:a'], 5000, async () => { await work(); }); }`,
    `import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis';
     const mutex = new Mutex(new Redis(), 'lock:a');
     async function f() { if (!(await mutex.tryAcquire())) return; try { await work(); } finally { await mutex.release(); } }`,
  ],
  invalid,
});

suggestionsClearFindings('no-check-then-set', rule, invalid);

typed.run('no-check-then-set (type-aware)', rule, {
  valid: [
    {
      code: `import { LocalLocks } from './local-locks';
export function acquire(redis: LocalLocks, token: string) {
  if (redis.get('lock:invoice')) return false;
  redis.set('lock:invoice', token);
  return true;
}`,
      filename: 'file.ts',
    },
  ],
  invalid: [
    {
      code: `import { getStore } from './store';
const store = getStore();
export async function acquire(token: string) {
  if (await store.get('lock:invoice')) return false;
  await store.set('lock:invoice', token);
  return true;
}`,
      filename: 'file.ts',
      errors: [
        {
          messageId: 'checkThenSet',
          line: 5,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import { getStore } from './store';
const store = getStore();
export async function acquire(token: string) {
  if (!(await store.set('lock:invoice', token, 'PX', 30000, 'NX'))) return false;
  return true;
}`,
            },
          ],
        },
      ],
    },
  ],
});
