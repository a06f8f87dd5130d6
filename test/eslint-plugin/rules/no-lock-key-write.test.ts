import { RuleTester } from '../support/rule-tester.js';
import rule from '../../../eslint-plugin/src/rules/no-lock-key-write.js';

const ruleTester = new RuleTester();

const RELEASE = `const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';`;

const valid = [
  // The lock and its data under two keys: the usual, correct shape.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   export async function run(id: string) {
     const token = crypto.randomUUID();
     if (!(await redis.set(\`lock:job:\${id}\`, token, 'NX', 'PX', 30000))) return;
     try { await redis.set(\`job:\${id}:state\`, 'running'); await redis.incr(\`job:\${id}:runs\`); await redis.hset(\`job:\${id}\`, 'owner', token); }
     finally { await redis.eval(RELEASE, 1, \`lock:job:\${id}\`, token); }
   }`,
  // A key that only shares the lock's prefix is another key.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function run(id) { const token = crypto.randomUUID();
     if (await redis.set('lock:' + id, token, 'NX', 'PX', 30000)) { await redis.set('lock:' + id + ':data', '1'); await redis.eval(RELEASE, 1, 'lock:' + id, token); } }`,
  // The lock's own release and renewal: the compare-and-delete script, and a renewal that rewrites its own token.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function run(token) { await redis.set('lock:a', token, 'NX', 'PX', 30000); await work(); await redis.set('lock:a', token, 'PX', 30000); await redis.eval(RELEASE, 1, 'lock:a', token); }`,
  // A plain DEL or PEXPIRE of the lock key is no-unsafe-release's and no-unsafe-extend's, not this rule's.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function run(token) { await redis.set('lock:a', token, 'NX', 'PX', 30000); await redis.pexpire('lock:a', 30000); await redis.del('lock:a'); }`,
  // SET XX (a renewal) and SET with options nothing can read (IFEQ) are renewals other rules judge.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function run(token, mode) { await redis.set('lock:a', token, 'NX', 'PX', 30000); await redis.set('lock:a', 'x', 'XX', 'PX', 30000); await redis.set('lock:a', token, 'IFEQ', token, 'PX', 30000); await redis.eval(RELEASE, 1, 'lock:a', token); }`,
  // The write comes after the last release: the lock is gone by then.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function run(token) { await redis.set('lock:a', token, 'NX', 'PX', 30000); await redis.eval(RELEASE, 1, 'lock:a', token); await redis.set('lock:a', 'done', 'EX', 60); }`,
  // No release in the function: a first-write-wins marker (SET NX, then the value), not a lock section.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function once(id) { if (await redis.set(\`lock:init:\${id}\`, 'pending', 'NX', 'EX', 60)) { await init(); await redis.set(\`lock:init:\${id}\`, 'done'); } }`,
  // The Redis documentation's old SETNX lock: GETSET takes an expired lock over when SETNX failed.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function acquire(key, expires) {
     const ok = await redis.setnx(key, expires);
     if (!ok) { const current = await redis.get(key); if (Number(current) < Date.now()) await redis.getset(key, expires); }
     await work(); await redis.del(key);
   }`,
  `import Redis from 'ioredis'; const redis = new Redis();
   async function acquire(key, expires) {
     if (await redis.setnx(key, expires)) { await work(); } else { await redis.getset(key, expires); }
     await redis.del(key);
   }`,
  // A write in the other branch of an if around the acquisition.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function f(force, token) { if (force) { await redis.set('lock:a', 'forced'); } else { await redis.set('lock:a', token, 'NX', 'PX', 1000); } await redis.eval(RELEASE, 1, 'lock:a', token); }`,
  // Lookalikes: a Map, a cache, a rate limiter named like a lock.
  `import Redis from 'ioredis'; const redis = new Redis(); const locks = new Map(); ${RELEASE}
   async function f(token) { await redis.set('lock:a', token, 'NX', 'PX', 1000); locks.set('lock:a', Date.now()); await redis.eval(RELEASE, 1, 'lock:a', token); }`,
  `import Redis from 'ioredis'; import { LRUCache } from 'lru-cache'; const redis = new Redis(); const cache = new LRUCache({ max: 10 }); ${RELEASE}
   async function f(token) { await redis.set('lock:a', token, 'NX', 'PX', 1000); cache.set('lock:a', token); await redis.eval(RELEASE, 1, 'lock:a', token); }`,
  `import Redis from 'ioredis'; const redis = new Redis();
   async function limit(ip) { const key = \`ratelimit:lock:\${ip}\`; await redis.set(key, 0, 'NX', 'EX', 60); const count = await redis.incr(key); return count <= 100; }`,
  // Test code overwrites the key on purpose, to simulate another holder.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   it('does not free a lock another holder took', async () => {
     await redis.set('lock:a', 't1', 'NX', 'PX', 1000);
     await redis.set('lock:a', 't2');
     await redis.eval(RELEASE, 1, 'lock:a', 't1');
   });`,
  // redis-semaphore keeps its lock under a prefixed key (`mutex:<name>`), not the name itself.
  `import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis'; const redis = new Redis();
   async function f() { const mutex = new Mutex(redis, 'report'); await mutex.acquire(); try { await redis.set('report', 'x'); } finally { await mutex.release(); } }`,
  // GETEX without PERSIST reads (or renews), it does not drop the TTL.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function f(token) { await redis.set('lock:a', token, 'NX', 'PX', 1000); await redis.getex('lock:a'); await redis.eval(RELEASE, 1, 'lock:a', token); }`,
  // A write in a nested function that runs after the section (a timer) still counts only when inside it.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   async function f(token) { await redis.set('lock:a', token, 'NX', 'PX', 1000); await redis.eval(RELEASE, 1, 'lock:a', token); setTimeout(() => redis.set('lock:a', 'x'), 10); }`,
];

const invalid = [
  {
    // ioredis: the lock key reused for the job's status.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';
export async function run(id: string) {
  const token = crypto.randomUUID();
  if (!(await redis.set(\`lock:job:\${id}\`, token, 'NX', 'PX', 30000))) return;
  try {
    await redis.set(\`lock:job:\${id}\`, 'running');
  } finally {
    await redis.eval(RELEASE, 1, \`lock:job:\${id}\`, token);
  }
}`,
    errors: [{ messageId: 'lockKeyWrite' as const, line: 8, column: 11, data: { command: 'SET' } }],
  },
  {
    // node-redis: hSet on the lock key (WRONGTYPE for the release, or a hash the release never frees).
    code: `import { createClient } from 'redis';
const client = createClient();
const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';
async function run(token: string) {
  const ok = await client.set('lock:report', token, { NX: true, PX: 30000 });
  if (!ok) return;
  await client.hSet('lock:report', { startedAt: Date.now() });
  await client.eval(RELEASE, { keys: ['lock:report'], arguments: [token] });
}`,
    errors: [{ messageId: 'lockKeyWrite' as const, line: 7, column: 9, data: { command: 'HSET' } }],
  },
  {
    // node-redis v5 options, and a counter on the lock key; the renewal ends the section.
    code: `import { createClient } from 'redis';
const client = createClient();
const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end';
async function run(token: string) {
  await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 30000 } });
  await client.incr('lock:sync');
  await client.eval(EXTEND, { keys: ['lock:sync'], arguments: [token, '30000'] });
}`,
    errors: [{ messageId: 'lockKeyWrite' as const, line: 6, data: { command: 'INCR' } }],
  },
  {
    // Upstash: SET with an expiry is still a plain write of another value; PERSIST drops the TTL.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
async function run(token: string) {
  await redis.set('lock:cron', token, { nx: true, px: 30000 });
  await redis.set('lock:cron', 'busy', { ex: 60 });
  await redis.persist('lock:cron');
  await redis.eval('if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end', ['lock:cron'], [token]);
}`,
    errors: [
      { messageId: 'lockKeyWrite' as const, line: 5, data: { command: 'SET' } },
      { messageId: 'lockKeyWrite' as const, line: 6, data: { command: 'PERSIST' } },
    ],
  },
  {
    // ioredis call() and a node_redis v3 callback style APPEND, before a plain DEL release.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function run(key: string, token: string) {
  await redis.set(key, token, 'NX', 'PX', 30000);
  await redis.call('SETEX', key, 60, 'stale');
  await redis.append(key, ':1');
  await redis.del(key);
}`,
    errors: [
      { messageId: 'lockKeyWrite' as const, line: 5, data: { command: 'SETEX' } },
      { messageId: 'lockKeyWrite' as const, line: 6, data: { command: 'APPEND' } },
    ],
  },
  {
    // Redlock: the resource is the key, and the lock value its release compares is gone.
    code: `import Redlock from 'redlock';
import Redis from 'ioredis';
const redis = new Redis();
const redlock = new Redlock([redis]);
async function run() {
  const lock = await redlock.acquire(['lock:invoice'], 5000);
  try {
    await redis.set('lock:invoice', JSON.stringify({ step: 1 }));
  } finally {
    await lock.release();
  }
}`,
    errors: [{ messageId: 'lockKeyWrite' as const, line: 8, data: { command: 'SET' } }],
  },
  {
    // Redlock v5 using(): the routine is the section.
    code: `import Redlock from 'redlock';
import Redis from 'ioredis';
const redis = new Redis();
const redlock = new Redlock([redis]);
async function run() {
  await redlock.using(['lock:invoice'], 5000, async () => {
    await redis.rename('lock:invoice', 'invoice:done');
  });
}`,
    errors: [{ messageId: 'lockKeyWrite' as const, line: 7, data: { command: 'RENAME' } }],
  },
  {
    // A SETNX lock whose key then stores the job's result, in the branch where the lock was taken.
    code: `import Redis from 'ioredis';
const redis = new Redis();
async function run(token: string) {
  const ok = await redis.setnx('lock:report', token);
  if (ok) {
    await redis.getset('lock:report', 'done');
  }
  await redis.del('lock:report');
}`,
    errors: [{ messageId: 'lockKeyWrite' as const, line: 6, data: { command: 'GETSET' } }],
  },
];

ruleTester.run('no-lock-key-write', rule, { valid, invalid });
