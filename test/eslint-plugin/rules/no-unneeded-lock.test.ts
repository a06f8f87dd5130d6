import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/no-unneeded-lock.js';
import { proveSuggestions } from '../support/sql-suggestions.js';

const ruleTester = new RuleTester();

const RELEASE = `'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end'`;

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // ioredis lock around one pg UPDATE: the row is the database's to serialise.
    code: `import Redis from 'ioredis';
import { Pool } from 'pg';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
const pool = new Pool();
async function markSent(id: number) {
  const token = randomUUID();
  const ok = await redis.set(\`lock:invoice:\${id}\`, token, 'PX', 30000, 'NX');
  if (!ok) return;
  try {
    await pool.query("UPDATE invoices SET state = 'sent' WHERE id = $1", [id]);
  } finally {
    await redis.eval(${RELEASE}, 1, \`lock:invoice:\${id}\`, token);
  }
}`,
    errors: [
      {
        messageId: 'unneededLock',
        line: 8,
        column: 20,
        suggestions: [
          {
            messageId: 'dropLock',
            output: `import Redis from 'ioredis';
import { Pool } from 'pg';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
const pool = new Pool();
async function markSent(id: number) {
  await pool.query("UPDATE invoices SET state = 'sent' WHERE id = $1", [id]);
}`,
          },
        ],
      },
    ],
  },
  {
    // Redlock using() around one Prisma update.
    code: `import Redlock from 'redlock';
import { PrismaClient } from '@prisma/client';
const redlock = new Redlock([]);
const prisma = new PrismaClient();
async function run(id: number) {
  await redlock.using([\`lock:\${id}\`], 30000, async () => {
    await prisma.invoice.update({ where: { id }, data: { state: 'sent' } });
  });
}`,
    errors: [
      {
        messageId: 'unneededLock',
        line: 6,
        column: 9,
        suggestions: [
          {
            messageId: 'dropLock',
            output: `import Redlock from 'redlock';
import { PrismaClient } from '@prisma/client';
const redlock = new Redlock([]);
const prisma = new PrismaClient();
async function run(id: number) {
  await prisma.invoice.update({ where: { id }, data: { state: 'sent' } });
}`,
          },
        ],
      },
    ],
  },
  {
    // An advisory lock around one statement on a dedicated client.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(id: number) {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [id]);
    await client.query('UPDATE jobs SET runs = runs + 1 WHERE id = $1', [id]);
    await client.query('SELECT pg_advisory_unlock($1)', [id]);
  } finally {
    client.release();
  }
}`,
    errors: [
      {
        messageId: 'unneededLock',
        line: 6,
        column: 11,
        suggestions: [
          {
            messageId: 'dropLock',
            output: `import { Pool } from 'pg';
const pool = new Pool();
async function run(id: number) {
  const client = await pool.connect();
  try {
    await client.query('UPDATE jobs SET runs = runs + 1 WHERE id = $1', [id]);
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
    // redis-semaphore around one knex update; a fenced statement is still one statement.
    code: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
import knex from 'knex';
const redis = new Redis();
const db = knex({ client: 'pg' });
async function run(id: number, fence: number) {
  const mutex = new Mutex(redis, 'lock:account');
  await mutex.acquire();
  try {
    await db.raw('UPDATE accounts SET balance = 0, fence = ? WHERE id = ? AND fence < ?', [fence, id, fence]);
  } finally {
    await mutex.release();
  }
}`,
    errors: [
      {
        messageId: 'unneededLock',
        line: 8,
        column: 9,
        suggestions: [
          {
            messageId: 'dropLock',
            output: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
import knex from 'knex';
const redis = new Redis();
const db = knex({ client: 'pg' });
async function run(id: number, fence: number) {
  await db.raw('UPDATE accounts SET balance = 0, fence = ? WHERE id = ? AND fence < ?', [fence, id, fence]);
}`,
          },
        ],
      },
    ],
  },
  {
    // postgres.js, the efficiency marker does not exempt; no release in sight: no suggestion.
    code: `import Redis from 'ioredis';
import postgres from 'postgres';
const redis = new Redis();
const sql = postgres();
async function run(id: number, token: string) {
  // locksmith: efficiency
  if (await redis.set('lock:counter', token, 'PX', 5000, 'NX')) {
    await sql\`UPDATE counters SET n = n + 1 WHERE id = \${id}\`;
  }
}`,
    errors: [{ messageId: 'unneededLock', line: 7, column: 13, suggestions: [] }],
  },
];

ruleTester.run('no-unneeded-lock', rule, {
  valid: [
    // Two statements: the lock serialises more than one write.
    `import Redis from 'ioredis';
     import { Pool } from 'pg';
     const redis = new Redis();
     const pool = new Pool();
     async function run(id: number, token: string) {
       const ok = await redis.set('lock:transfer', token, 'PX', 30000, 'NX');
       if (!ok) return;
       await pool.query('UPDATE accounts SET balance = balance - 1 WHERE id = $1', [id]);
       await pool.query('UPDATE accounts SET balance = balance + 1 WHERE id = $1', [id + 1]);
     }`,
    // One statement per item of a loop: a batch the lock makes exclusive, not one statement.
    `import Redis from 'ioredis';
     import { Pool } from 'pg';
     const redis = new Redis();
     const pool = new Pool();
     async function run(rows: { code: string; rate: number }[], token: string) {
       const ok = await redis.set('lock:rates', token, 'PX', 30000, 'NX');
       if (!ok) return;
       for (const row of rows) {
         await pool.query('INSERT INTO rates (code, rate) VALUES ($1, $2) ON CONFLICT (code) DO UPDATE SET rate = EXCLUDED.rate', [row.code, row.rate]);
       }
     }`,
    // Work outside the database: an opaque helper counts as a step.
    `import Redis from 'ioredis';
     import { Pool } from 'pg';
     const redis = new Redis();
     const pool = new Pool();
     async function run(id: number, token: string) {
       const ok = await redis.set('lock:invoice', token, 'PX', 30000, 'NX');
       if (!ok) return;
       const pdf = await renderPdf(id);
       await pool.query('UPDATE invoices SET pdf = $2 WHERE id = $1', [id, pdf]);
     }`,
    // One statement reading another table.
    `import Redis from 'ioredis';
     import { Pool } from 'pg';
     const redis = new Redis();
     const pool = new Pool();
     async function run(token: string) {
       const ok = await redis.set('lock:totals', token, 'PX', 30000, 'NX');
       if (!ok) return;
       await pool.query('UPDATE totals SET n = (SELECT count(*) FROM invoices) WHERE id = 1');
     }`,
    // pg-boss style: the lock and the work in one transaction text.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run() { await pool.query('BEGIN; SELECT pg_advisory_xact_lock(1); UPDATE jobs SET state = 1; COMMIT'); }`,
    // A lock table is the database's own serialisation.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run(me: string) {
       await pool.query("INSERT INTO locks (name, owner, expires_at) VALUES ('a', $1, now()) ON CONFLICT (name) DO UPDATE SET owner = $1 WHERE locks.expires_at < now() RETURNING owner", [me]);
       await pool.query('UPDATE jobs SET state = 1 WHERE id = 1');
     }`,
    // Nothing in the section at all.
    `import Redis from 'ioredis';
     const redis = new Redis();
     async function run(token: string) { await redis.set('lock:a', token, 'PX', 30000, 'NX'); }`,
  ],
  invalid,
});

proveSuggestions('no-unneeded-lock', rule, invalid);
