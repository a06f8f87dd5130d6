import { RuleTester } from '../support/rule-tester.js';
import rule, { type MessageId } from '../../../eslint-plugin/src/rules/no-split-acquire.js';
import { suggestionsClearFindings } from '../support/suggestions-clear-findings.js';

const ruleTester = new RuleTester();

const cases = {
  valid: [
    // The atomic acquisition, in every dialect.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(token) { await redis.set('lock:invoice', token, 'NX', 'PX', 30000); }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function f(token) { await client.set('lock:invoice', token, { NX: true, PX: 30000 }); }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function f(token) { await client.set('lock:invoice', token, { condition: 'NX', expiration: { type: 'PX', value: 30000 } }); }`,
    `import { Redis } from '@upstash/redis'; const redis = Redis.fromEnv();
     async function f(token) { await redis.set('lock:invoice', token, { nx: true, px: 30000 }); }`,
    // A rate limiter: INCR then EXPIRE is not an acquisition.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function hit(ip) { const n = await redis.incr('rate:' + ip); if (n === 1) await redis.expire('rate:' + ip, 60); return n; }`,
    // A session store: SET with EX, then a later refresh.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function touch(id, data) { await redis.set('sess:' + id, data, 'EX', 3600); await redis.expire('sess:' + id, 3600); }`,
    // SETNX and EXPIRE of different keys.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(a, b) { await redis.setnx('lock:a', '1'); await redis.expire('lock:b', 30); }`,
    // An expiry before the SETNX is not the second half of a split acquire.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(t) { await redis.expire('lock:a', 30); await redis.setnx('lock:a', t); }`,
    // A Map is not Redis.
    `const redis = new Map(); function f() { redis.setnx('lock:a', 1); redis.expire('lock:a', 30); }`,
  ],
  invalid: [
    {
      // ioredis, the article's attempt 3.
      code: `import Redis from 'ioredis';
const redis = new Redis();
async function acquire(token) {
  const ok = await redis.setnx('lock:invoice', token);
  await redis.expire('lock:invoice', 60);
  return ok === 1;
}`,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 5,
          column: 9,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import Redis from 'ioredis';
const redis = new Redis();
async function acquire(token) {
  const ok = await redis.set('lock:invoice', token, 'PX', 60000, 'NX').then((reply) => (reply === 'OK' ? 1 : 0));
  return ok === 1;
}`,
            },
          ],
        },
      ],
    },
    {
      // ioredis: the key in a template literal, the TTL in a constant, the reply used as a condition.
      code: `import Redis from 'ioredis';
const redis = new Redis();
const TTL_SECONDS = 30;
async function run(jobId, token) {
  const key = \`lock:job:\${jobId}\`;
  if (!(await redis.setnx(key, token))) return;
  await redis.expire(key, TTL_SECONDS);
}`,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 7,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import Redis from 'ioredis';
const redis = new Redis();
const TTL_SECONDS = 30;
async function run(jobId, token) {
  const key = \`lock:job:\${jobId}\`;
  if (!(await redis.set(key, token, 'PX', TTL_SECONDS * 1000, 'NX'))) return;
}`,
            },
          ],
        },
      ],
    },
    {
      // ioredis MULTI: the EXPIRE runs even when SETNX failed.
      code: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  await redis.multi().setnx('lock:a', token).expire('lock:a', 10).exec();
}`,
      errors: [
        {
          messageId: 'splitAcquireInTransaction',
          line: 4,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  await redis.multi().set('lock:a', token, 'PX', 10000, 'NX').exec();
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
  pipeline.setnx('lock:a', token);
  pipeline.pexpire('lock:a', 5000);
  await pipeline.exec();
}`,
      errors: [
        {
          messageId: 'splitAcquireInTransaction',
          line: 6,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  const pipeline = redis.pipeline();
  pipeline.set('lock:a', token, 'PX', 5000, 'NX');
  await pipeline.exec();
}`,
            },
          ],
        },
      ],
    },
    {
      // ioredis generic call() form, SET NX without expiry then EXPIRE.
      code: `import Redis from 'ioredis';
const redis = new Redis();
async function f(token) {
  await redis.call('SET', 'lock:a', token, 'NX');
  await redis.call('EXPIRE', 'lock:a', 30);
}`,
      errors: [
        {
          messageId: 'splitAcquire',
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
      // node-redis v4: camelCase setNX and pExpire.
      code: `import { createClient } from 'redis';
const client = createClient();
async function f(token) {
  const acquired = await client.setNX('lock:report', token);
  await client.pExpire('lock:report', 30000);
  return acquired;
}`,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 5,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import { createClient } from 'redis';
const client = createClient();
async function f(token) {
  const acquired = await client.set('lock:report', token, { NX: true, PX: 30000 }).then((reply) => (reply === 'OK' ? 1 : 0));
  return acquired;
}`,
            },
          ],
        },
      ],
    },
    {
      // node-redis v5 style file: the fix uses { condition, expiration }.
      code: `import { createClient } from 'redis';
const client = createClient();
async function other(t) { await client.set('cache:x', t, { condition: 'NX', expiration: { type: 'EX', value: 5 } }); }
async function f(token) {
  if (!(await client.SETNX('lock:report', token))) return;
  await client.EXPIRE('lock:report', 30);
}`,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 6,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import { createClient } from 'redis';
const client = createClient();
async function other(t) { await client.set('cache:x', t, { condition: 'NX', expiration: { type: 'EX', value: 5 } }); }
async function f(token) {
  if (!(await client.set('lock:report', token, { condition: 'NX', expiration: { type: 'PX', value: 30000 } }))) return;
}`,
            },
          ],
        },
      ],
    },
    {
      // node-redis sendCommand arrays.
      code: `import { createClient } from 'redis';
const client = createClient();
async function f(token) {
  await client.sendCommand(['SETNX', 'lock:a', token]);
  await client.sendCommand(['EXPIRE', 'lock:a', '30']);
}`,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 5,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import { createClient } from 'redis';
const client = createClient();
async function f(token) {
  await client.set('lock:a', token, { NX: true, PX: 30000 });
}`,
            },
          ],
        },
      ],
    },
    {
      // node_redis v3 callbacks: the expiry inside SETNX's callback.
      code: `const redis = require('redis');
const client = redis.createClient();
function acquire(token, done) {
  client.setnx('lock:cron', token, (err, ok) => {
    if (err || !ok) return done(false);
    client.expire('lock:cron', 60, () => done(true));
  });
}`,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 6,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `const redis = require('redis');
const client = redis.createClient();
function acquire(token, done) {
  client.set('lock:cron', token, 'NX', 'PX', 60000, (err, ok) => {
    if (err || !ok) return done(false);
  });
}`,
            },
          ],
        },
      ],
    },
    {
      // Upstash lowercase options: SET NX without expiry, then EXPIRE.
      code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function f(token: string) {
  await redis.set('lock:sync', token, { nx: true });
  await redis.expire('lock:sync', 20);
}`,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 5,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function f(token: string) {
  await redis.set('lock:sync', token, { nx: true, px: 20000 });
}`,
            },
          ],
        },
      ],
    },
    {
      // A client of unknown origin: the SETNX/EXPIRE shape alone is enough.
      code: `export async function f(redis, token) {
  await redis.setnx('lock:a', token);
  await redis.expire('lock:a', 30);
}`,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 3,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `export async function f(redis, token) {
  await redis.set('lock:a', token, 'PX', 30000, 'NX');
}`,
            },
          ],
        },
      ],
    },
  ],
} satisfies Parameters<typeof ruleTester.run<MessageId, []>>[2];

ruleTester.run('no-split-acquire', rule, cases);
suggestionsClearFindings('no-split-acquire', rule, cases.invalid);
