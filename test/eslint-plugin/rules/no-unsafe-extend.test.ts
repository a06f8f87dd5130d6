import { RuleTester } from '../support/rule-tester.js';
import { createTypedRuleTester } from '../support/typed-rule-tester.js';
import rule from '../../../eslint-plugin/src/rules/no-unsafe-extend.js';
import { suggestionsClearFindings } from '../support/suggestions-clear-findings.js';

const ruleTester = new RuleTester();

/** The script as the suggestion passes it, a literal at the call. */
const EXTEND_LITERAL = `'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end'`;

const valid = [
  // The article's compare-and-pexpire script in a heartbeat, ioredis.
  `import Redis from 'ioredis'; const redis = new Redis();
   const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end';
   export function keepAlive(token: string) { return setInterval(() => { void redis.eval(EXTEND, 1, 'lock:invoice', token, 30000); }, 10000); }`,
  // node-redis eval with keys/arguments, `~=` and an early return.
  `import { createClient } from 'redis'; const client = createClient();
   const EXTEND = \`if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
     return redis.call('pexpire', KEYS[1], ARGV[2])\`;
   async function renew(token) { await client.eval(EXTEND, { keys: ['lock:report'], arguments: [token, '30000'] }); }`,
  // Upstash eval(script, keys, args).
  `import { Redis } from '@upstash/redis'; const redis = Redis.fromEnv();
   const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0';
   export async function renew(id: string, token: string) { await redis.eval(EXTEND, [\`locks:\${id}\`], [token, 30000]); }`,
  // ioredis defineCommand of the same script.
  `import Redis from 'ioredis'; const redis = new Redis();
   redis.defineCommand('extendLock', { numberOfKeys: 1, lua: 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0' });
   async function renew(key, token) { await redis.extendLock(key, token, 30000); }`,
  // bullmq's extendLock: an owner-checked SET PX is a renewal too.
  `import Redis from 'ioredis'; const redis = new Redis();
   const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2]) end return 0';
   async function renew(token) { await redis.eval(EXTEND, 1, 'bull:queue:job:lock', token, 30000); }`,
  // Redlock v5 and v3/v4 extend, @sesamecare-oss/redlock.
  `import Redlock from 'redlock'; const redlock = new Redlock([client]);
   async function f() { let lock = await redlock.acquire(['lock:a'], 5000); const timer = setInterval(async () => { lock = await lock.extend(5000); }, 2000);
     try { await work(); } finally { clearInterval(timer); await lock.release(); } }`,
  `const Redlock = require('redlock'); const redlock = new Redlock([client]);
   async function f() { const lock = await redlock.lock('lock:a', 5000); await work(); await lock.extend(5000); await work(); await lock.unlock(); }`,
  `import { Redlock } from '@sesamecare-oss/redlock'; const redlock = new Redlock([client]);
   async function f() { const lock = await redlock.acquire(['lock:a'], 5000); await lock.extend(10000); await lock.release(); }`,
  // redis-semaphore refreshes its own lock.
  `import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis';
   const mutex = new Mutex(new Redis(), 'lock:a', { refreshInterval: 5000 });
   async function f() { await mutex.acquire(); try { await work(); } finally { await mutex.release(); } }`,
  // The expiry that completes a split acquire belongs to no-split-acquire.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function f(token) { if (await redis.setnx('lock:a', token)) { await redis.expire('lock:a', 30); await work(); } }`,
  `import Redis from 'ioredis'; const redis = new Redis();
   async function f(token) { await redis.multi().setnx('lock:a', token).expire('lock:a', 30).exec(); }`,
  `const redis = require('redis'); const client = redis.createClient();
   function f(token, cb) { client.setnx('lock:cron', token, (err, ok) => { if (ok) client.expire('lock:cron', 30, cb); }); }`,
  // EXPIRE ... NX (Redis 7) only gives a TTL to a key that has none: it cannot extend a live lock.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function ensureTtl(token) { await redis.expire('lock:a', 30, 'NX'); }`,
  // Lookalikes: session store, rate limiter, cache.
  `import { createClient } from 'redis'; const client = createClient();
   async function touch(sessionId) { await client.expire(\`sess:\${sessionId}\`, 3600); }`,
  `import Redis from 'ioredis'; const redis = new Redis();
   async function hit(ip) { const key = \`rate:\${ip}\`; const count = await redis.incr(key); if (count === 1) await redis.expire(key, 60); return count <= 100; }`,
  `import Redis from 'ioredis'; const redis = new Redis();
   const LIMIT = 'local n = redis.call("INCR", KEYS[1]) if n == 1 then redis.call("EXPIRE", KEYS[1], ARGV[1]) end return n';
   async function hit(ip) { return redis.eval(LIMIT, 1, 'lockout:' + ip, 60); }`,
  `import Redis from 'ioredis'; const cache = new Redis();
   async function remember(id, value) { await cache.set('user:' + id, value, 'EX', 60); await cache.expire('user:' + id, 120); }`,
  // An acquire script whose expiry follows its own write of the key.
  `import Redis from 'ioredis'; const redis = new Redis();
   const ACQUIRE = 'if redis.call("EXISTS", KEYS[1]) == 0 then redis.call("SET", KEYS[1], ARGV[1]) redis.call("PEXPIRE", KEYS[1], ARGV[2]) return 1 end return 0';
   async function acquire(token) { return redis.eval(ACQUIRE, 1, 'lock:a', token, 30000); }`,
  // A Map is not Redis.
  `const locks = new Map(); function renew(name) { locks.set(name, Date.now() + 30000); }`,
];

const invalid = [
  {
    // ioredis: a heartbeat renewing with plain PEXPIRE; the token comes from the acquisition.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function runExclusive(work: () => Promise<void>) {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  const heartbeat = setInterval(() => {
    void redis.pexpire('lock:invoice', 30000);
  }, 10000);
  try {
    await work();
  } finally {
    clearInterval(heartbeat);
  }
}`,
    errors: [
      {
        messageId: 'plainExtend' as const,
        line: 7,
        column: 10,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function runExclusive(work: () => Promise<void>) {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  const heartbeat = setInterval(() => {
    void redis.eval(${EXTEND_LITERAL}, 1, 'lock:invoice', token, 30000);
  }, 10000);
  try {
    await work();
  } finally {
    clearInterval(heartbeat);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: EXPIRE in seconds in a lock class; the token is a field, the TTL becomes milliseconds.
    code: `import Redis from 'ioredis';
export class InvoiceLock {
  private readonly redis = new Redis();
  private readonly key = 'lock:invoice';
  private readonly token = crypto.randomUUID();
  async acquire() {
    return this.redis.set(this.key, this.token, 'PX', 30000, 'NX');
  }
  async renew() {
    await this.redis.expire(this.key, 30);
  }
}`,
    errors: [
      {
        messageId: 'plainExtend' as const,
        line: 10,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import Redis from 'ioredis';
export class InvoiceLock {
  private readonly redis = new Redis();
  private readonly key = 'lock:invoice';
  private readonly token = crypto.randomUUID();
  async acquire() {
    return this.redis.set(this.key, this.token, 'PX', 30000, 'NX');
  }
  async renew() {
    await this.redis.eval(${EXTEND_LITERAL}, 1, this.key, this.token, 30000);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: check-then-extend in JavaScript; a compare-and-pexpire constant exists and is reused.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end';
export async function renew(key: string, owner: string, ttlMs: number) {
  if ((await redis.get(key)) === owner) {
    await redis.pexpire(key, ttlMs);
  }
}`,
    errors: [
      {
        messageId: 'checkThenExtend' as const,
        line: 6,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end';
export async function renew(key: string, owner: string, ttlMs: number) {
  if ((await redis.get(key)) === owner) {
    await redis.eval(EXTEND, 1, key, owner, ttlMs);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: the owner read in a pipeline, the renewal a later command.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end';
export async function renew(key: string, owner: string, ttlMs: number) {
  const [[, holder]] = (await redis.pipeline().get(key).exec())!;
  if (holder === owner) await redis.pexpire(key, ttlMs);
}`,
    errors: [
      {
        messageId: 'checkThenExtend' as const,
        line: 6,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end';
export async function renew(key: string, owner: string, ttlMs: number) {
  const [[, holder]] = (await redis.pipeline().get(key).exec())!;
  if (holder === owner) await redis.eval(EXTEND, 1, key, owner, ttlMs);
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: a registered compare-and-pexpire command is called instead of inserting a script.
    code: `import Redis from 'ioredis';
const redis = new Redis();
redis.defineCommand('extendLock', { numberOfKeys: 1, lua: 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0' });
export async function renew(lockToken: string) {
  await redis.call('PEXPIRE', 'lock:a', 10000);
}`,
    errors: [
      {
        messageId: 'plainExtend' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
redis.defineCommand('extendLock', { numberOfKeys: 1, lua: 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0' });
export async function renew(lockToken: string) {
  await redis.extendLock('lock:a', lockToken, 10000);
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v4: pExpire in a timer, key in a constant; node-redis takes string arguments only.
    code: `import { createClient } from 'redis';
const client = createClient();
const LOCK_KEY = 'report:lock';
export async function run(token: string, work: () => Promise<void>) {
  if (!(await client.set(LOCK_KEY, token, { NX: true, PX: 30000 }))) return;
  const timer = setInterval(() => { void client.pExpire(LOCK_KEY, 30000); }, 10000);
  try { await work(); } finally { clearInterval(timer); }
}`,
    errors: [
      {
        messageId: 'plainExtend' as const,
        line: 6,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
const LOCK_KEY = 'report:lock';
export async function run(token: string, work: () => Promise<void>) {
  if (!(await client.set(LOCK_KEY, token, { NX: true, PX: 30000 }))) return;
  const timer = setInterval(() => { void client.eval(${EXTEND_LITERAL}, { keys: [LOCK_KEY], arguments: [token, '30000'] }); }, 10000);
  try { await work(); } finally { clearInterval(timer); }
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v5 spelling; EXPIRE with a seconds variable.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function renew(token: string, ttlSeconds: number) {
  await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } });
  await client.expire('lock:sync', ttlSeconds);
}`,
    errors: [
      {
        messageId: 'plainExtend' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function renew(token: string, ttlSeconds: number) {
  await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } });
  await client.eval(${EXTEND_LITERAL}, { keys: ['lock:sync'], arguments: [token, String(ttlSeconds * 1000)] });
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
export async function renew(lockToken: string) {
  await client.sendCommand(['PEXPIRE', 'lock:sync', '30000']);
}`,
    errors: [
      {
        messageId: 'plainExtend' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function renew(lockToken: string) {
  await client.eval(${EXTEND_LITERAL}, { keys: ['lock:sync'], arguments: [lockToken, '30000'] });
}`,
          },
        ],
      },
    ],
  },
  {
    // node_redis v3 callbacks: the callback is kept last.
    code: `const redis = require('redis');
const client = redis.createClient();
function renew(lockToken, cb) {
  client.pexpire('lock:cron', 30000, cb);
}`,
    errors: [
      {
        messageId: 'plainExtend' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `const redis = require('redis');
const client = redis.createClient();
function renew(lockToken, cb) {
  client.eval(${EXTEND_LITERAL}, 1, 'lock:cron', lockToken, 30000, cb);
}`,
          },
        ],
      },
    ],
  },
  {
    // Upstash, key in a template literal.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function renew(id: string, token: string) {
  await redis.pexpire(\`locks:\${id}\`, 30_000);
}`,
    errors: [
      {
        messageId: 'plainExtend' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function renew(id: string, token: string) {
  await redis.eval(${EXTEND_LITERAL}, [\`locks:\${id}\`], [token, 30_000]);
}`,
          },
        ],
      },
    ],
  },
  {
    // A Lua script that renews without comparing the token; its TTL argument is kept.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const RENEW = 'return redis.call("PEXPIRE", KEYS[1], ARGV[1])';
export async function renew(token: string, ttlMs: number) {
  await redis.eval(RENEW, 1, 'lock:a', ttlMs);
}`,
    errors: [
      {
        messageId: 'uncheckedScript' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
const RENEW = 'return redis.call("PEXPIRE", KEYS[1], ARGV[1])';
export async function renew(token: string, ttlMs: number) {
  await redis.eval(${EXTEND_LITERAL}, 1, 'lock:a', token, ttlMs);
}`,
          },
        ],
      },
    ],
  },
  {
    // After a split acquire, only the expiry completing it is no-split-acquire's; the renewal in the timer is this rule's.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function run(token: string) {
  if (!(await redis.setnx('lock:a', token))) return;
  await redis.expire('lock:a', 30);
  setInterval(() => { void redis.expire('lock:a', 30); }, 10000);
}`,
    errors: [
      {
        messageId: 'plainExtend' as const,
        line: 6,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function run(token: string) {
  if (!(await redis.setnx('lock:a', token))) return;
  await redis.expire('lock:a', 30);
  setInterval(() => { void redis.eval(${EXTEND_LITERAL}, 1, 'lock:a', token, 30000); }, 10000);
}`,
          },
        ],
      },
    ],
  },
  {
    // PEXPIRE queued in multi(): no in-place fix (the exec() reply shape would change).
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function renew(token: string) {
  await redis.multi().pexpire('lock:a', 30000).exec();
}`,
    errors: [{ messageId: 'plainExtend' as const, line: 4, suggestions: [] }],
  },
  {
    // PEXPIRE in a pipeline(): the same, no in-place fix.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function renewAll(token: string, keys: string[]) {
  await redis.pipeline().pexpire('lock:a', 30000).pexpire('lock:b', 30000).exec();
}`,
    errors: [
      { messageId: 'plainExtend' as const, line: 4, column: 9, suggestions: [] },
      { messageId: 'plainExtend' as const, line: 4, suggestions: [] },
    ],
  },
  {
    // An absolute expiry cannot become a relative PEXPIRE argument without changing its meaning.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function renew(token: string, until: number) {
  await redis.pexpireat('lock:a', until);
}`,
    errors: [{ messageId: 'plainExtend' as const, line: 4, suggestions: [] }],
  },
  {
    // The key says "lock" but no token is in sight: report without a suggestion.
    code: `export async function heartbeat(redis, jobId) {
  await redis.expire('lock:job:' + jobId, 30);
}`,
    errors: [{ messageId: 'plainExtend' as const, line: 2, suggestions: [] }],
  },
];

ruleTester.run('no-unsafe-extend', rule, { valid, invalid });
suggestionsClearFindings('no-unsafe-extend', rule, invalid);

// Type-aware: with type information a receiver is Redis because its type says so, whatever its name.
const typedRuleTester = createTypedRuleTester();

typedRuleTester.run('no-unsafe-extend (type-aware)', rule, {
  valid: [
    {
      // A Map subclass with Redis-like names, held in a variable named \`redis\`: not Redis.
      code: `import { LocalLocks } from './local-locks';
export function renew(redis: LocalLocks) {
  redis.expire('lock:invoice', 30);
}`,
      filename: 'file.ts',
    },
  ],
  invalid: [
    {
      // A real ioredis client whose name and origin say nothing: only its type does.
      code: `import { getStore } from './store';
const store = getStore();
export async function renew(token: string) {
  await store.pexpire('lock:invoice', 30000);
}`,
      filename: 'file.ts',
      errors: [
        {
          messageId: 'plainExtend',
          line: 4,
          suggestions: [
            {
              messageId: 'useCompareAndExpire',
              output: `import { getStore } from './store';
const store = getStore();
export async function renew(token: string) {
  await store.eval(${EXTEND_LITERAL}, 1, 'lock:invoice', token, 30000);
}`,
            },
          ],
        },
      ],
    },
  ],
});

// A plain write followed by an expiry, and test code: an expiry that renews nobody's lock.
ruleTester.run('no-unsafe-extend (writes with an expiry, test code)', rule, {
  valid: [
    // yennanliu/SpringPlayground springAdvance/DistributionLock/.../redis_expire_time_lock.sql, the
    // demo's `set lock 111` then `expire lock 20`, in JavaScript: a write with an expiry.
    `const Redis = require('ioredis'); const redis = new Redis();
     async function demo() { await redis.set('lock', '111'); await redis.expire('lock', 20); return redis.ttl('lock'); }`,
    // The same split over a node_redis v3 callback.
    `const redis = require('redis'); const client = redis.createClient();
     client.set('lock:banner', 'on', () => { client.expire('lock:banner', 60); });`,
    // A hash written and given an expiry.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function track(room, user) { await redis.hset(\`locks:\${room}\`, user, Date.now()); await redis.pexpire(\`locks:\${room}\`, 60000); }`,
    // vitest: a hook shortens the TTL of the lock the module's helper takes, so the next test starts free.
    `import { afterEach, it, expect } from 'vitest';
     import Redis from 'ioredis';
     const redis = new Redis();
     const take = (token) => redis.set('lock:seed', token, 'NX', 'PX', 5000);
     afterEach(async () => { await redis.pexpire('lock:seed', 1); });
     it('takes the lock', async () => { expect(await take('t1')).toBe('OK'); });`,
  ],
  invalid: [
    {
      // A plain SET in one function, but the key is also taken with SET NX elsewhere: a lock, and
      // the heartbeat's plain PEXPIRE (after no write of its own) renews whoever holds it.
      code: `import Redis from 'ioredis';
const redis = new Redis();
export async function take(token) { return redis.set('lock:sync', token, 'NX', 'PX', 30000); }
export async function reset() { await redis.set('lock:sync', 'free'); }
export function heartbeat() { return setInterval(() => redis.pexpire('lock:sync', 30000), 10000); }`,
      errors: [{ messageId: 'plainExtend' as const, line: 5, suggestions: [] }],
    },
    {
      // A test case that takes the lock with SET NX and renews it with a plain PEXPIRE exercises that renewal.
      code: `import Redis from 'ioredis';
const redis = new Redis();
it('renews', async () => {
  const token = crypto.randomUUID();
  await redis.set('lock:renew', token, 'NX', 'PX', 1000);
  await redis.pexpire('lock:renew', 5000);
});`,
      errors: [
        {
          messageId: 'plainExtend' as const,
          line: 6,
          suggestions: [
            {
              messageId: 'useCompareAndExpire',
              output: `import Redis from 'ioredis';
const redis = new Redis();
it('renews', async () => {
  const token = crypto.randomUUID();
  await redis.set('lock:renew', token, 'NX', 'PX', 1000);
  await redis.eval(${EXTEND_LITERAL}, 1, 'lock:renew', token, 5000);
});`,
            },
          ],
        },
      ],
    },
  ],
});

// `SET key token XX PX ttl`: a renewal that asks only whether the key exists, so a holder whose
// lock expired writes its token over the next holder's. A compare-first `SET … IFEQ` stays silent.
const REDIS_84 = { locksmith: { redis: { server: 'redis', version: '8.4' } } };

const existsOnlyInvalid = [
  {
    // ioredis: a heartbeat that renews with SET XX PX; the token is the one it writes.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function runExclusive(work: () => Promise<void>) {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  const heartbeat = setInterval(() => {
    void redis.set('lock:invoice', token, 'XX', 'PX', 30000);
  }, 10000);
  try { await work(); } finally { clearInterval(heartbeat); }
}`,
    errors: [
      {
        messageId: 'existsOnlyExtend' as const,
        line: 7,
        column: 10,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            data: { command: 'SET … XX' },
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function runExclusive(work: () => Promise<void>) {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  const heartbeat = setInterval(() => {
    void redis.eval(${EXTEND_LITERAL}, 1, 'lock:invoice', token, 30000);
  }, 10000);
  try { await work(); } finally { clearInterval(heartbeat); }
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis on Redis 8.4: the server's SET … IFEQ … PX first, which keeps SET's OK/null reply.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function renew(token: string, ttlMs: number) {
  return (await redis.set('lock:invoice', token, 'PX', ttlMs, 'XX')) === 'OK';
}
export async function take(token: string) { return redis.set('lock:invoice', token, 'PX', 30000, 'NX'); }`,
    settings: REDIS_84,
    errors: [
      {
        messageId: 'existsOnlyExtend' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'useCompareAndSet' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function renew(token: string, ttlMs: number) {
  return (await redis.call('SET', 'lock:invoice', token, 'IFEQ', token, 'PX', ttlMs)) === 'OK';
}
export async function take(token: string) { return redis.set('lock:invoice', token, 'PX', 30000, 'NX'); }`,
          },
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function renew(token: string, ttlMs: number) {
  return (await redis.eval(${EXTEND_LITERAL}, 1, 'lock:invoice', token, ttlMs)) === 'OK';
}
export async function take(token: string) { return redis.set('lock:invoice', token, 'PX', 30000, 'NX'); }`,
          },
        ],
      },
    ],
  },
  {
    // ioredis raw call with EX seconds: the TTL becomes milliseconds.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function extendLock(lockToken: string) {
  await redis.call('SET', 'lock:nightly', lockToken, 'XX', 'EX', 60);
}`,
    errors: [
      {
        messageId: 'existsOnlyExtend' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function extendLock(lockToken: string) {
  await redis.eval(${EXTEND_LITERAL}, 1, 'lock:nightly', lockToken, 60000);
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v4: options object; node-redis takes string arguments only.
    code: `import { createClient } from 'redis';
const client = createClient();
const LOCK_KEY = 'report:lock';
export async function run(token: string, work: () => Promise<void>) {
  if (!(await client.set(LOCK_KEY, token, { NX: true, PX: 30000 }))) return;
  const timer = setInterval(() => { void client.set(LOCK_KEY, token, { XX: true, PX: 30000 }); }, 10000);
  try { await work(); } finally { clearInterval(timer); }
}`,
    errors: [
      {
        messageId: 'existsOnlyExtend' as const,
        line: 6,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
const LOCK_KEY = 'report:lock';
export async function run(token: string, work: () => Promise<void>) {
  if (!(await client.set(LOCK_KEY, token, { NX: true, PX: 30000 }))) return;
  const timer = setInterval(() => { void client.eval(${EXTEND_LITERAL}, { keys: [LOCK_KEY], arguments: [token, '30000'] }); }, 10000);
  try { await work(); } finally { clearInterval(timer); }
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v4 sendCommand array.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function renew(token: string) {
  await client.sendCommand(['SET', 'lock:sync', token, 'XX', 'PX', '5000']);
}`,
    errors: [
      {
        messageId: 'existsOnlyExtend' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function renew(token: string) {
  await client.eval(${EXTEND_LITERAL}, { keys: ['lock:sync'], arguments: [token, '5000'] });
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v5: condition and expiration.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function run(token: string) {
  await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } });
  await client.set('lock:sync', token, { condition: 'XX', expiration: { type: 'EX', value: 5 } });
}`,
    errors: [
      {
        messageId: 'existsOnlyExtend' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function run(token: string) {
  await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } });
  await client.eval(${EXTEND_LITERAL}, { keys: ['lock:sync'], arguments: [token, '5000'] });
}`,
          },
        ],
      },
    ],
  },
  {
    // node_redis v3 with a callback.
    code: `const redis = require('redis');
const client = redis.createClient();
function renew(lockToken, cb) {
  client.set('lock:cron', lockToken, 'XX', 'PX', 30000, cb);
}`,
    errors: [
      {
        messageId: 'existsOnlyExtend' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `const redis = require('redis');
const client = redis.createClient();
function renew(lockToken, cb) {
  client.eval(${EXTEND_LITERAL}, 1, 'lock:cron', lockToken, 30000, cb);
}`,
          },
        ],
      },
    ],
  },
  {
    // Upstash: lower-case options.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function renew(id: string, token: string) {
  await redis.set(\`locks:\${id}\`, token, { xx: true, px: 30_000 });
}`,
    errors: [
      {
        messageId: 'existsOnlyExtend' as const,
        line: 4,
        suggestions: [
          {
            messageId: 'useCompareAndExpire' as const,
            output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function renew(id: string, token: string) {
  await redis.eval(${EXTEND_LITERAL}, [\`locks:\${id}\`], [token, 30_000]);
}`,
          },
        ],
      },
    ],
  },
  {
    // An absolute PXAT has no TTL to pass on, and a queued link's reply comes through exec(): reported, no suggestion.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function renew(token: string, until: number) {
  await redis.set('lock:a', token, 'XX', 'PXAT', until);
  await redis.multi().set('lock:b', token, 'XX', 'PX', 1000).incr('jobs').exec();
}`,
    errors: [
      { messageId: 'existsOnlyExtend' as const, line: 4, suggestions: [] },
      { messageId: 'existsOnlyExtend' as const, line: 5, suggestions: [] },
    ],
  },
];

ruleTester.run('no-unsafe-extend (SET … XX)', rule, {
  valid: [
    // The compare-first renewal of Redis 8.4 / Valkey 8.1.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function renew(token) { await redis.set('lock:a', token, 'IFEQ', token, 'PX', 30000); }`,
    // A compare-and-set script whose SET XX runs only after the owner check (Simba's mutex_guard.lua).
    `import Redis from 'ioredis'; const redis = new Redis();
     const GUARD = 'if redis.call("get", KEYS[1]) ~= ARGV[1] then return 0 end return redis.call("set", KEYS[1], ARGV[1], "xx", "px", ARGV[2])';
     export async function renew(token) { return redis.eval(GUARD, 1, 'mutex:lock', token, 30000); }`,
    // A cache entry refreshed only while it exists, every dialect: not a lock key.
    `import Redis from 'ioredis'; const cache = new Redis();
     export async function refresh(id, value) { await cache.set('user:' + id, value, 'XX', 'EX', 60); }`,
    `import { createClient } from 'redis'; const client = createClient();
     export async function touch(sessionId, data) { await client.set(\`sess:\${sessionId}\`, data, { XX: true, EX: 3600 }); }`,
    `import { Redis } from '@upstash/redis'; const redis = Redis.fromEnv();
     export async function refresh(slug, html) { await redis.set(\`page:\${slug}\`, html, { xx: true, ex: 300 }); }`,
    // A lock-named key the module stores data under with a plain SET: a flag, refreshed while it exists.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function show() { await redis.set('lock:banner', 'on'); }
     export async function keep() { await redis.set('lock:banner', 'on', 'XX', 'EX', 60); }`,
    // XX with KEEPTTL or no expiry writes a value; it renews nothing (no-lock-key-write judges writes).
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function note(token, state) { await redis.set('lock:a', token, 'NX', 'PX', 1000); await redis.set('lock:a', state, 'XX', 'KEEPTTL'); }`,
    // A test hook refreshing a fixture lock.
    `import Redis from 'ioredis'; const redis = new Redis();
     const take = (token) => redis.set('lock:seed', token, 'NX', 'PX', 5000);
     afterEach(async () => { await redis.set('lock:seed', 'x', 'XX', 'PX', 1); });
     it('takes', async () => { await take('t'); });`,
    // A Map is not Redis.
    `const locks = new Map(); export function renew(name, token) { locks.set(name, token, 'XX', 'PX', 30000); }`,
  ],
  invalid: existsOnlyInvalid,
});
suggestionsClearFindings('no-unsafe-extend (SET … XX)', rule, existsOnlyInvalid);

// A lock-table heartbeat whose WHERE names the row but not its owner.
const rowRenewalInvalid = [
  {
    // pg: the heartbeat of a lock table with an owner column; the owner is the acquisition's.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval \\'30 seconds\\')', [name, owner]);
  const heartbeat = setInterval(() => {
    void pool.query('UPDATE job_locks SET expires_at = now() + interval \\'30 seconds\\' WHERE name = $1', [name]);
  }, 10000);
  try { await doJob(name); } finally { clearInterval(heartbeat); await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]); }
}`,
    errors: [
      {
        messageId: 'unownedRowRenewal' as const,
        line: 6,
        column: 10,
        suggestions: [
          {
            messageId: 'compareOwner' as const,
            output: `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval \\'30 seconds\\')', [name, owner]);
  const heartbeat = setInterval(() => {
    void pool.query('UPDATE job_locks SET expires_at = now() + interval \\'30 seconds\\' WHERE name = $1 AND owner = $2', [name, owner]);
  }, 10000);
  try { await doJob(name); } finally { clearInterval(heartbeat); await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]); }
}`,
          },
        ],
      },
    ],
  },
  {
    // pg: PrivateCaptcha's lock table has no owner column: reported, nothing to compare with.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function acquireLock(name, data, ttlMs) {
  const { rows } = await pool.query('INSERT INTO locks (name, data, expires_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data, expires_at = EXCLUDED.expires_at WHERE locks.expires_at <= NOW() RETURNING *', [name, data, new Date(Date.now() + ttlMs)]);
  return rows[0] ?? null;
}
export async function extendLock(name, ttlMs) {
  await pool.query('UPDATE locks SET expires_at = $2 WHERE name = $1 AND expires_at > NOW()', [name, new Date(Date.now() + ttlMs)]);
}`,
    errors: [{ messageId: 'unownedRowRenewal' as const, line: 8, suggestions: [] }],
  },
  {
    // postgres.js: acquire and heartbeat in two functions with a parameter of the same name.
    code: `import postgres from 'postgres';
const sql = postgres();
export async function acquire(name: string, owner: string) {
  await sql\`INSERT INTO app_lock (name, owner, lock_until) VALUES (\${name}, \${owner}, now() + interval '1 minute') ON CONFLICT DO NOTHING\`;
}
export async function heartbeat(name: string, owner: string) {
  await sql\`UPDATE app_lock SET lock_until = now() + interval '1 minute' WHERE name = \${name}\`;
}`,
    errors: [
      {
        messageId: 'unownedRowRenewal' as const,
        line: 7,
        column: 9,
        suggestions: [
          {
            messageId: 'compareOwner' as const,
            output: `import postgres from 'postgres';
const sql = postgres();
export async function acquire(name: string, owner: string) {
  await sql\`INSERT INTO app_lock (name, owner, lock_until) VALUES (\${name}, \${owner}, now() + interval '1 minute') ON CONFLICT DO NOTHING\`;
}
export async function heartbeat(name: string, owner: string) {
  await sql\`UPDATE app_lock SET lock_until = now() + interval '1 minute' WHERE name = \${name} AND owner = \${owner}\`;
}`,
          },
        ],
      },
    ],
  },
  {
    // knex raw: \`?\` placeholders, the owner bound where its placeholder falls.
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, workerId: string) {
  await db.raw('INSERT INTO job_locks (name, locked_by, expires_at) VALUES (?, ?, ?)', [name, workerId, new Date(Date.now() + 30000)]);
  await doJob(name);
  await db.raw('UPDATE job_locks SET expires_at = ? WHERE name = ?', [new Date(Date.now() + 30000), name]);
  await doMore(name);
}`,
    errors: [
      {
        messageId: 'unownedRowRenewal' as const,
        line: 6,
        column: 9,
        suggestions: [
          {
            messageId: 'compareOwner' as const,
            output: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, workerId: string) {
  await db.raw('INSERT INTO job_locks (name, locked_by, expires_at) VALUES (?, ?, ?)', [name, workerId, new Date(Date.now() + 30000)]);
  await doJob(name);
  await db.raw('UPDATE job_locks SET expires_at = ? WHERE name = ? AND locked_by = ?', [new Date(Date.now() + 30000), name, workerId]);
  await doMore(name);
}`,
          },
        ],
      },
    ],
  },
  {
    // Prisma raw: an interpolated heartbeat.
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function runJob(name: string, owner: string) {
  await prisma.$executeRaw\`INSERT INTO job_locks (name, owner, expires_at) VALUES (\${name}, \${owner}, now() + interval '1 minute')\`;
  await doJob(name);
  await prisma.$executeRaw\`UPDATE job_locks SET expires_at = now() + interval '1 minute' WHERE name = \${name}\`;
}`,
    errors: [
      {
        messageId: 'unownedRowRenewal' as const,
        line: 6,
        column: 9,
        suggestions: [
          {
            messageId: 'compareOwner' as const,
            output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function runJob(name: string, owner: string) {
  await prisma.$executeRaw\`INSERT INTO job_locks (name, owner, expires_at) VALUES (\${name}, \${owner}, now() + interval '1 minute')\`;
  await doJob(name);
  await prisma.$executeRaw\`UPDATE job_locks SET expires_at = now() + interval '1 minute' WHERE name = \${name} AND owner = \${owner}\`;
}`,
          },
        ],
      },
    ],
  },
];

ruleTester.run('no-unsafe-extend (lock-table heartbeat)', rule, {
  valid: [
    // The owner compared: only this holder's row is extended.
    `import { Pool } from 'pg'; const pool = new Pool();
     export async function take(name, owner) { await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now())', [name, owner]); }
     export async function heartbeat(name, owner) { await pool.query('UPDATE job_locks SET expires_at = now() + interval \\'30 seconds\\' WHERE name = $1 AND owner = $2', [name, owner]); }`,
    // A second column compared with =, the owner under a name of its own (scheduler_locks.process_id).
    `import { Pool } from 'pg'; const pool = new Pool();
     export async function take(name, pid) { await pool.query('INSERT INTO scheduler_locks (lock_name, process_id, expires_at) VALUES ($1, $2, now())', [name, pid]); }
     export async function heartbeat(name, pid) { await pool.query('UPDATE scheduler_locks SET expires_at = now() + interval \\'30 minutes\\' WHERE lock_name = $1 AND process_id = $2 AND expires_at > now()', [name, pid]); }`,
    // An account lockout: a table named like a lock that no statement of the file takes as one.
    `import { Pool } from 'pg'; const pool = new Pool();
     export async function prolong(userId) { await pool.query('UPDATE account_locks SET expires_at = now() + interval \\'1 hour\\' WHERE user_id = $1', [userId]); }`,
    // ShedLock's unlock: lock_until set back to now in a function named for releasing.
    `import { Pool } from 'pg'; const pool = new Pool();
     export async function lock(name, by) { await pool.query('INSERT INTO shedlock (name, lock_until, locked_at, locked_by) VALUES ($1, now() + interval \\'1 minute\\', now(), $2)', [name, by]); }
     export async function unlock(name) { await pool.query('UPDATE shedlock SET lock_until = now() WHERE name = $1', [name]); }`,
    // A sweep of expired rows, and a write of the row's data rather than its expiry.
    `import { Pool } from 'pg'; const pool = new Pool();
     export async function take(name, owner) { await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now())', [name, owner]); }
     export async function sweep() { await pool.query('UPDATE job_locks SET expires_at = NULL WHERE expires_at < now()'); }
     export async function note(name, progress) { await pool.query('UPDATE job_locks SET progress = $2 WHERE name = $1', [name, progress]); }`,
    // The row named by the handle the acquisition returned: this holder's own row.
    `import { Pool } from 'pg'; const pool = new Pool();
     export async function take(name) { const { rows } = await pool.query('INSERT INTO leases (name, expires_at) VALUES ($1, now()) RETURNING id', [name]); return rows[0].id; }
     export async function renew(id) { await pool.query('UPDATE leases SET expires_at = now() + interval \\'30 seconds\\' WHERE id = $1', [id]); }`,
    // Not a lock table: a session's sliding expiry.
    `import { Pool } from 'pg'; const pool = new Pool();
     export async function touch(sid) { await pool.query('UPDATE sessions SET expires_at = now() + interval \\'1 hour\\' WHERE sid = $1', [sid]); }`,
  ],
  invalid: rowRenewalInvalid,
});

// The lock-table heartbeat written with knex's query builder: reported without a suggestion (the
// owner comparison would be a builder call; only SQL text is edited).
ruleTester.run('no-unsafe-extend (knex query builder)', rule, {
  valid: [
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     export async function take(name, owner) { await db('job_locks').insert({ name, owner, expires_at: new Date() }); }
     export async function heartbeat(name, owner) { await db('job_locks').where({ name, owner }).update({ expires_at: new Date(Date.now() + 30000) }); }`,
    // A session table's expiry extended by id: no owner anywhere, no lock.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     export async function login(id) { await db('sessions').insert({ id, expires_at: new Date() }); }
     export async function touch(id) { await db('sessions').where({ id }).update({ expires_at: new Date(Date.now() + 30000) }); }`,
  ],
  invalid: [
    {
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function take(name, owner) { await db('job_locks').insert({ name, owner, expires_at: new Date() }); }
export async function heartbeat(name) { await db('job_locks').where('name', name).update({ expires_at: new Date(Date.now() + 30000) }); }`,
      errors: [{ messageId: 'unownedRowRenewal', line: 4, column: 47, suggestions: [] }],
    },
  ],
});
suggestionsClearFindings('no-unsafe-extend (lock-table heartbeat)', rule, rowRenewalInvalid);
