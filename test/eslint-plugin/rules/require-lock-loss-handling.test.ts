import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/require-lock-loss-handling.js';

const ruleTester = new RuleTester();

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // Redlock v5: the routine takes the signal and never looks at it before the UPDATE.
    code: `import Redlock from 'redlock';
import { Pool } from 'pg';
const redlock = new Redlock([client]);
const pool = new Pool();
async function close(id: number) {
  await redlock.using([\`lock:invoice:\${id}\`], 5000, async (signal) => {
    const invoice = await fetchInvoice(id);
    await pool.query('UPDATE invoices SET total = $1 WHERE id = $2', [invoice.total, id]);
  });
}`,
    errors: [{ messageId: 'redlockSignalIgnored', line: 6, column: 9 }],
  },
  {
    // No signal parameter at all, with settings before the routine; a Redis write.
    code: `import { Redlock } from '@sesamecare-oss/redlock';
import Redis from 'ioredis';
const redis = new Redis();
const redlock = new Redlock([redis]);
async function tally() {
  await redlock.using(['lock:tally'], 10000, { automaticExtensionThreshold: 500 }, async () => {
    const n = await slowCount();
    await redis.set('tally', String(n));
  });
}`,
    errors: [{ messageId: 'redlockSignalIgnored', line: 6, column: 9 }],
  },
  {
    // The check comes only after the last write: it guards nothing.
    code: `import Redlock from 'redlock';
import { PrismaClient } from '@prisma/client';
const redlock = new Redlock([client]);
const prisma = new PrismaClient();
async function f() {
  await redlock.using(['lock:a'], 5000, async (signal) => {
    await prisma.job.update({ where: { id: 1 }, data: { state: 'done' } });
    if (signal.aborted) console.warn('lost', signal.error);
  });
}`,
    errors: [{ messageId: 'redlockSignalIgnored', line: 6, column: 9 }],
  },
  {
    // redis-semaphore Mutex with the default refresh and no onLockLost.
    code: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
import { Pool } from 'pg';
const redis = new Redis();
const pool = new Pool();
async function settle(id: number) {
  const mutex = new Mutex(redis, \`settle:\${id}\`, { lockTimeout: 10000 });
  await mutex.acquire();
  try {
    await computeLedger(id);
    await pool.query('UPDATE ledgers SET settled = true WHERE id = $1', [id]);
  } finally {
    await mutex.release();
  }
}`,
    errors: [{ messageId: 'semaphoreLossIgnored', line: 8, column: 9 }],
  },
  {
    // The Mutex imported under another name: the constructor is still redis-semaphore's Mutex.
    code: `import { Mutex as RedisMutex } from 'redis-semaphore';
import Redis from 'ioredis';
import { Pool } from 'pg';
const redis = new Redis();
const pool = new Pool();
async function settle(id: number) {
  const mutex = new RedisMutex(redis, \`settle:\${id}\`, { lockTimeout: 10000 });
  await mutex.acquire();
  try {
    await pool.query('UPDATE ledgers SET settled = true WHERE id = $1', [id]);
  } finally {
    await mutex.release();
  }
}`,
    errors: [{ messageId: 'semaphoreLossIgnored', line: 8, column: 9 }],
  },
  {
    // Semaphore (options fourth), an explicit non-zero refresh, tryAcquire, a node-redis write.
    code: `import { Semaphore } from 'redis-semaphore';
import { createClient } from 'redis';
const client = createClient();
async function crawl(url: string) {
  const slots = new Semaphore(client, 'crawler', 5, { refreshInterval: 4000 });
  if (!(await slots.tryAcquire())) return;
  try {
    const page = await download(url);
    await client.set(\`page:\${url}\`, page);
  } finally {
    await slots.release();
  }
}`,
    errors: [{ messageId: 'semaphoreLossIgnored', line: 6, column: 15 }],
  },
  {
    // A Mutex made inline, no options at all.
    code: `const { Mutex } = require('redis-semaphore');
const Redis = require('ioredis');
const redis = new Redis();
async function f() {
  const m = new Mutex(redis, 'report');
  await m.acquire();
  await redis.incr('reports');
  await m.release();
}`,
    errors: [{ messageId: 'semaphoreLossIgnored', line: 6, column: 9 }],
  },
];

ruleTester.run('require-lock-loss-handling', rule, {
  valid: [
    // Redlock's own README shape: check the signal before writing, throw its error.
    `import Redlock from 'redlock';
     const redlock = new Redlock([client]);
     async function f() {
       await redlock.using(['lock:a'], 5000, async (signal) => {
         await readStuff();
         if (signal.aborted) throw signal.error;
         await pool.query('UPDATE t SET x = 1 WHERE id = 1');
       });
     }`,
    // throwIfAborted(), an abort listener, the signal passed on: all consult it.
    `import Redlock from 'redlock';
     const redlock = new Redlock([client]);
     async function f() { await redlock.using(['lock:a'], 5000, async (signal) => { signal.throwIfAborted(); await redis.set('x', '1'); }); }`,
    `import Redlock from 'redlock';
     const redlock = new Redlock([client]);
     async function f() {
       await redlock.using(['lock:a'], 5000, async (signal) => {
         const controller = new AbortController(); signal.addEventListener('abort', () => controller.abort());
         await pool.query('DELETE FROM t WHERE id = 1');
       });
     }`,
    `import Redlock from 'redlock';
     const redlock = new Redlock([client]);
     async function f() { await redlock.using(['lock:a'], 5000, async (signal) => { await writeAll(items, signal); await pool.query('UPDATE t SET x = 1'); }); }`,
    // Checked once per round of a loop that writes.
    `import Redlock from 'redlock';
     const redlock = new Redlock([client]);
     async function f(items) {
       await redlock.using(['lock:a'], 5000, async (signal) => {
         for (const item of items) { await pool.query('INSERT INTO t (id) VALUES ($1)', [item]); if (signal.aborted) break; }
       });
     }`,
    // A routine that only reads; a routine passed by name (its body is elsewhere).
    `import Redlock from 'redlock';
     const redlock = new Redlock([client]);
     async function f() { return redlock.using(['lock:a'], 5000, async () => { return await pool.query('SELECT * FROM t'); }); }`,
    `import Redlock from 'redlock';
     const redlock = new Redlock([client]);
     async function f() { await redlock.using(['lock:a'], 5000, work); }`,
    // Redlock acquire/release is not auto-extending: no signal to ignore.
    `import Redlock from 'redlock';
     const redlock = new Redlock([client]);
     async function f() { const lock = await redlock.acquire(['lock:a'], 5000); try { await pool.query('UPDATE t SET x = 1'); } finally { await lock.release(); } }`,
    // redis-semaphore: onLockLost given, refresh off, isAcquired checked, options unreadable.
    `import { Mutex } from 'redis-semaphore';
     const mutex = new Mutex(redis, 'a', { onLockLost: (err) => { controller.abort(err); } });
     async function f() { await mutex.acquire(); try { await pool.query('UPDATE t SET x = 1'); } finally { await mutex.release(); } }`,
    `import { Mutex } from 'redis-semaphore';
     const mutex = new Mutex(redis, 'a', { lockTimeout: 60000, refreshInterval: 0 });
     async function f() { await mutex.acquire(); try { await pool.query('UPDATE t SET x = 1'); } finally { await mutex.release(); } }`,
    `import { Mutex } from 'redis-semaphore';
     const mutex = new Mutex(redis, 'a');
     async function f() {
       await mutex.acquire();
       try { await compute(); if (!mutex.isAcquired) throw new Error('lost the lock'); await pool.query('UPDATE t SET x = 1'); } finally { await mutex.release(); }
     }`,
    `import { Mutex } from 'redis-semaphore';
     const mutex = new Mutex(redis, 'a', options);
     async function f() { await mutex.acquire(); try { await pool.query('UPDATE t SET x = 1'); } finally { await mutex.release(); } }`,
    `import { Mutex } from 'redis-semaphore';
     const mutex = new Mutex(redis, 'a', { ...defaults });
     async function f() { await mutex.acquire(); try { await pool.query('UPDATE t SET x = 1'); } finally { await mutex.release(); } }`,
    // A Mutex built somewhere the model cannot see (a class field): its options are unknown.
    `import { Mutex } from 'redis-semaphore';
     class Jobs { constructor(private mutex: Mutex) {} async run() { await this.mutex.acquire(); await pool.query('UPDATE t SET x = 1'); await this.mutex.release(); } }`,
    // Lookalikes: async-mutex, a Map, an AbortController of one's own.
    `import { Mutex } from 'async-mutex';
     const mutex = new Mutex();
     async function f() { const release = await mutex.acquire(); try { await pool.query('UPDATE t SET x = 1'); } finally { release(); } }`,
    `const locks = new Map();
     async function f() { await locks.using(['a'], 5000, async () => { await pool.query('UPDATE t SET x = 1'); }); }`,
    `async function f(lock) { await lock.using(['a'], 5000, async (signal) => { await pool.query('UPDATE t SET x = 1'); }); }`,
  ],
  invalid,
});
