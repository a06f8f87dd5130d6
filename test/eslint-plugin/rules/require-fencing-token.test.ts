import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/require-fencing-token.js';
import { proveSuggestions } from '../support/sql-suggestions.js';

const ruleTester = new RuleTester();

const FENCED_SCRIPT_CONSTANT = `const ACQUIRE_FENCED_LOCK_SCRIPT = \`
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
    return redis.call("INCR", KEYS[2])
else
    return 0
end
\`;`;

/** The script as the suggestion passes it, a literal at the call. */
const FENCED_ACQUIRE_LITERAL = `'if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return redis.call("INCR", KEYS[2]) else return 0 end'`;

/** A saga step saved through a repository whose class comes from `source`, under an expiring Redis lock. */
function sagaManager(source: string): string {
  return `import Redis from 'ioredis';
import { Repository } from '${source}';
interface Saga { id: string; step: string }
export class SagaManager {
  private readonly redis = new Redis();
  constructor(private readonly sagas: Repository<Saga>) {}
  async advance(saga: Saga, token: string) {
    if (!(await this.redis.set(\`lock:saga:\${saga.id}\`, token, 'PX', 30000, 'NX'))) return;
    saga.step = await nextStep(saga);
    await this.sagas.save(saga);
  }
}
declare function nextStep(saga: Saga): Promise<string>;`;
}

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // TypeORM: a repository's save under an expiring Redis lock.
    code: sagaManager('typeorm'),
    errors: [{ messageId: 'unfencedWrite', line: 10 }],
  },
  {
    // ioredis lock, pg write: the article's invoicing job before the fix.
    code: `import Redis from 'ioredis';
import { Pool } from 'pg';
const redis = new Redis();
const pool = new Pool();
async function runInvoicing(token: string) {
  const acquired = await redis.set('lock:invoice', token, 'PX', 30000, 'NX');
  if (!acquired) return;
  await pool.query("UPDATE invoice_state SET last_run = 'done' WHERE id = $1", [7]);
}`,
    errors: [
      {
        messageId: 'unfencedWrite',
        line: 8,
        column: 9,
        suggestions: [
          {
            messageId: 'useFencedAcquire',
            output: `import Redis from 'ioredis';
import { Pool } from 'pg';
const redis = new Redis();
const pool = new Pool();
async function runInvoicing(token: string) {
  const acquired = await redis.eval(${FENCED_ACQUIRE_LITERAL}, 2, 'lock:invoice', '{lock:invoice}:fence', token, 30000);
  if (!acquired) return;
  await pool.query("UPDATE invoice_state SET last_run = 'done', fence = $2 WHERE id = $1 AND fence < $2", [7, acquired]);
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis with a TTL in a constant: node-redis takes only strings, so the TTL is converted once.
    code: `import { createClient } from 'redis';
import { Pool } from 'pg';
const client = createClient();
const pool = new Pool();
const LOCK_TTL_MS = 30000;
async function run(id: number, token: string) {
  const ok = await client.set(\`lock:job:\${id}\`, token, { NX: true, PX: LOCK_TTL_MS });
  if (!ok) return;
  await pool.query('UPDATE jobs SET state = $1 WHERE id = $2', ['done', id]);
}`,
    errors: [
      {
        messageId: 'unfencedWrite',
        line: 9,
        column: 9,
        suggestions: [
          {
            messageId: 'useFencedAcquire',
            output: `import { createClient } from 'redis';
import { Pool } from 'pg';
const client = createClient();
const pool = new Pool();
const LOCK_TTL_MS = 30000;
async function run(id: number, token: string) {
  const ok = await client.eval(${FENCED_ACQUIRE_LITERAL}, { keys: [\`lock:job:\${id}\`, \`{lock:job:\${id}}:fence\`], arguments: [token, String(LOCK_TTL_MS)] });
  if (!ok) return;
  await pool.query('UPDATE jobs SET state = $1, fence = $3 WHERE id = $2 AND fence < $3', ['done', id, ok]);
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis lock, postgres.js write: the fence travels as an interpolation.
    code: `import { createClient } from 'redis';
import postgres from 'postgres';
const client = createClient();
const sql = postgres();
async function run(id: number, token: string) {
  const ok = await client.set(\`lock:job:\${id}\`, token, { NX: true, PX: 30000 });
  if (!ok) return;
  await sql\`UPDATE jobs SET state = 'done' WHERE id = \${id}\`;
}`,
    errors: [
      {
        messageId: 'unfencedWrite',
        line: 8,
        column: 9,
        suggestions: [
          {
            messageId: 'useFencedAcquire',
            output: `import { createClient } from 'redis';
import postgres from 'postgres';
const client = createClient();
const sql = postgres();
async function run(id: number, token: string) {
  const ok = await client.eval(${FENCED_ACQUIRE_LITERAL}, { keys: [\`lock:job:\${id}\`, \`{lock:job:\${id}}:fence\`], arguments: [token, '30000'] });
  if (!ok) return;
  await sql\`UPDATE jobs SET state = 'done', fence = \${ok} WHERE id = \${id} AND fence < \${ok}\`;
}`,
          },
        ],
      },
    ],
  },
  {
    // knex raw with ? bindings: the fence is bound at both of its placeholders' positions.
    code: `import Redis from 'ioredis';
import knex from 'knex';
const redis = new Redis();
const db = knex({ client: 'pg' });
async function run(id: number, token: string) {
  const ok = await redis.set('lock:invoice', token, 'PX', 30000, 'NX');
  if (!ok) return;
  await db.raw('UPDATE invoice_state SET last_run = ? WHERE id = ?', ['done', id]);
}`,
    errors: [
      {
        messageId: 'unfencedWrite',
        line: 8,
        column: 9,
        suggestions: [
          {
            messageId: 'useFencedAcquire',
            output: `import Redis from 'ioredis';
import knex from 'knex';
const redis = new Redis();
const db = knex({ client: 'pg' });
async function run(id: number, token: string) {
  const ok = await redis.eval(${FENCED_ACQUIRE_LITERAL}, 2, 'lock:invoice', '{lock:invoice}:fence', token, 30000);
  if (!ok) return;
  await db.raw('UPDATE invoice_state SET last_run = ?, fence = ? WHERE id = ? AND fence < ?', ['done', ok, id, ok]);
}`,
          },
        ],
      },
    ],
  },
  {
    // Prisma $executeRaw: the fence joins the tagged template.
    code: `import Redis from 'ioredis';
import { PrismaClient } from '@prisma/client';
const redis = new Redis();
const prisma = new PrismaClient();
async function run(id: number, token: string) {
  const locked = await redis.set(\`lock:invoice:\${id}\`, token, 'EX', 30, 'NX');
  if (!locked) return;
  await prisma.$executeRaw\`UPDATE invoices SET state = 'sent' WHERE id = \${id}\`;
}`,
    errors: [
      {
        messageId: 'unfencedWrite',
        line: 8,
        column: 9,
        suggestions: [
          {
            messageId: 'useFencedAcquire',
            output: `import Redis from 'ioredis';
import { PrismaClient } from '@prisma/client';
const redis = new Redis();
const prisma = new PrismaClient();
async function run(id: number, token: string) {
  const locked = await redis.eval(${FENCED_ACQUIRE_LITERAL}, 2, \`lock:invoice:\${id}\`, \`{lock:invoice:\${id}}:fence\`, token, 30 * 1000);
  if (!locked) return;
  await prisma.$executeRaw\`UPDATE invoices SET state = 'sent', fence = \${locked} WHERE id = \${id} AND fence < \${locked}\`;
}`,
          },
        ],
      },
    ],
  },
  {
    // The fence comes from a separate INCR after SET NX: minted too late.
    code: `import Redis from 'ioredis';
import { Pool } from 'pg';
const redis = new Redis();
const pool = new Pool();
async function run(token: string) {
  const ok = await redis.set('lock:invoice', token, 'PX', 30000, 'NX');
  if (!ok) return;
  const fence = await redis.incr('lock:invoice:counter');
  await pool.query("UPDATE invoice_state SET last_run = 'done', fence = $1 WHERE id = $2 AND fence < $1", [fence, 7]);
}`,
    errors: [{ messageId: 'lateFence', line: 9, column: 9 }],
  },
  {
    // Redlock returns no fencing token: a Prisma update under it is unfenced.
    code: `import Redlock from 'redlock';
import { PrismaClient } from '@prisma/client';
const redlock = new Redlock([]);
const prisma = new PrismaClient();
async function run(id: number) {
  const lock = await redlock.acquire([\`lock:\${id}\`], 30000);
  try {
    await prisma.invoice.update({ where: { id }, data: { state: 'sent' } });
  } finally {
    await lock.release();
  }
}`,
    errors: [{ messageId: 'unfencedWrite', line: 8, column: 11, suggestions: [] }],
  },
  {
    // An upsert that also updates the row it finds writes as an update does.
    code: `import Redlock from 'redlock';
import { PrismaClient } from '@prisma/client';
const redlock = new Redlock([]);
const prisma = new PrismaClient();
async function run(id: number) {
  const lock = await redlock.acquire([\`lock:\${id}\`], 30000);
  try {
    await prisma.invoice.upsert({ where: { id }, update: { state: 'sent' }, create: { id, state: 'sent' } });
  } finally {
    await lock.release();
  }
}`,
    errors: [{ messageId: 'unfencedWrite', line: 8, column: 11, suggestions: [] }],
  },
  {
    // redis-semaphore Mutex, a knex update.
    code: `import { Mutex } from 'redis-semaphore';
import Redis from 'ioredis';
import knex from 'knex';
const redis = new Redis();
const db = knex({ client: 'pg' });
async function run(id: number) {
  const mutex = new Mutex(redis, 'lock:account');
  await mutex.acquire();
  try {
    await db('accounts').where({ id }).update({ balance: 0 });
  } finally {
    await mutex.release();
  }
}`,
    errors: [{ messageId: 'unfencedWrite', line: 10, column: 11, suggestions: [] }],
  },
  {
    // A lock table expires too: the write under it needs a fence.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(me: string) {
  const { rows } = await pool.query("INSERT INTO locks (name, owner, expires_at) VALUES ('invoice', $1, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = $1, expires_at = now() + interval '30 seconds' WHERE locks.expires_at < now() RETURNING owner", [me]);
  if (rows[0]?.owner !== me) return;
  await pool.query('DELETE FROM pending_invoices WHERE period = $1', ['2026-11']);
  await pool.query('DELETE FROM locks WHERE name = $1 AND owner = $2', ['invoice', me]);
}`,
    errors: [{ messageId: 'unfencedWrite', line: 6, column: 9, suggestions: [] }],
  },
  {
    // The row is held up to the DELETE that names it: sweeping other holders' expired rows on the way
    // releases none of this one, so the write after the sweep still runs under the lock.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(me: string) {
  const { rows } = await pool.query("INSERT INTO locks (name, owner, expires_at) VALUES ('invoice', $1, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = $1, expires_at = now() + interval '30 seconds' WHERE locks.expires_at < now() RETURNING owner", [me]);
  if (rows[0]?.owner !== me) return;
  await pool.query('DELETE FROM locks WHERE expires_at < now()');
  await pool.query('DELETE FROM pending_invoices WHERE period = $1', ['2026-11']);
  await pool.query('DELETE FROM locks WHERE name = $1 AND owner = $2', ['invoice', me]);
}`,
    errors: [{ messageId: 'unfencedWrite', line: 7, column: 9, suggestions: [] }],
  },
  {
    // A lock table written with knex's query builder (a factory's instance in a class field): the
    // write after the insert runs under the row, which expires; the lock's own statements are no writes.
    code: `const knex = require('knex');
class Queue {
  constructor(config) { this.knex = knex(config); }
  async push(task) {
    try {
      await this.knex('locks').insert({ key: task.channel, expired_at: Date.now() + 60000 });
    } catch (error) {
      return false;
    }
    await this.knex('tasks').where('id', task.id).delete();
    await this.knex('locks').where('key', task.channel).delete();
    return true;
  }
}`,
    errors: [{ messageId: 'unfencedWrite', line: 10, column: 11, suggestions: [] }],
  },
  {
    // TypeORM, Sequelize, kysely and drizzle writes under an ioredis lock.
    code: `import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { Sequelize } from 'sequelize';
import { Kysely, sql } from 'kysely';
const redis = new Redis();
const dataSource = new DataSource({ type: 'postgres' });
const sequelize = new Sequelize('postgres://');
const db = new Kysely<Database>({ dialect });
async function run(token: string) {
  const ok = await redis.set('lock:nightly', token, 'EX', 60, 'NX');
  if (!ok) return;
  await dataSource.query('UPDATE stats SET total = total + 1 WHERE id = $1', [1]);
  await sequelize.query('UPDATE stats SET total = 0 WHERE id = :id', { replacements: { id: 2 } });
  await sql\`DELETE FROM stats WHERE id = \${3}\`.execute(db);
}`,
    errors: [
      {
        messageId: 'unfencedWrite',
        line: 12,
        column: 9,
        suggestions: [
          {
            messageId: 'useFencedAcquire',
            output: `import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { Sequelize } from 'sequelize';
import { Kysely, sql } from 'kysely';
const redis = new Redis();
const dataSource = new DataSource({ type: 'postgres' });
const sequelize = new Sequelize('postgres://');
const db = new Kysely<Database>({ dialect });
async function run(token: string) {
  const ok = await redis.eval(${FENCED_ACQUIRE_LITERAL}, 2, 'lock:nightly', '{lock:nightly}:fence', token, 60 * 1000);
  if (!ok) return;
  await dataSource.query('UPDATE stats SET total = total + 1, fence = $2 WHERE id = $1 AND fence < $2', [1, ok]);
  await sequelize.query('UPDATE stats SET total = 0 WHERE id = :id', { replacements: { id: 2 } });
  await sql\`DELETE FROM stats WHERE id = \${3}\`.execute(db);
}`,
          },
        ],
      },
      { messageId: 'unfencedWrite', line: 13, column: 9, suggestions: [] },
      { messageId: 'unfencedWrite', line: 14, column: 9, suggestions: [] },
    ],
  },
  {
    // drizzle, and a custom fence column from the options.
    code: `import Redis from 'ioredis';
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const redis = new Redis();
const db = drizzle(process.env.DATABASE_URL!);
async function run(id: number, token: string) {
  const ok = await redis.set(\`lock:order:\${id}\`, token, 'PX', 10000, 'NX');
  if (ok) {
    await db.execute(sql\`UPDATE orders SET state = 'shipped' WHERE id = \${id}\`);
  }
}`,
    options: [{ fenceColumns: ['epoch'] }],
    errors: [
      {
        messageId: 'unfencedWrite',
        line: 9,
        column: 11,
        suggestions: [
          {
            messageId: 'useFencedAcquire',
            output: `import Redis from 'ioredis';
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const redis = new Redis();
const db = drizzle(process.env.DATABASE_URL!);
async function run(id: number, token: string) {
  const ok = await redis.eval(${FENCED_ACQUIRE_LITERAL}, 2, \`lock:order:\${id}\`, \`{lock:order:\${id}}:fence\`, token, 10000);
  if (ok) {
    await db.execute(sql\`UPDATE orders SET state = 'shipped', epoch = \${ok} WHERE id = \${id} AND epoch < \${ok}\`);
  }
}`,
          },
        ],
      },
    ],
  },
];

ruleTester.run('require-fencing-token', rule, {
  valid: [
    // A project class named Repository (not TypeORM's): its save is not known to write rows.
    sagaManager('./repository'),
    // The fix: fence minted atomically by the acquire script, compared in the write.
    `import Redis from 'ioredis';
     import { Pool } from 'pg';
     ${FENCED_SCRIPT_CONSTANT}
     const redis = new Redis();
     const pool = new Pool();
     async function run(token: string) {
       const fence = await redis.eval(ACQUIRE_FENCED_LOCK_SCRIPT, 2, '{invoice}:lock', '{invoice}:fence', token, 30000);
       if (!fence) return;
       await pool.query("UPDATE invoice_state SET last_run = 'done', fence = $1 WHERE id = $2 AND fence < $1", [fence, 7]);
     }`,
    // A fenced write with the fence passed in by the caller.
    `import Redis from 'ioredis';
     import postgres from 'postgres';
     const redis = new Redis();
     const sql = postgres();
     async function run(token: string, fence: number) {
       if (!(await redis.set('lock:invoice', token, 'PX', 30000, 'NX'))) return;
       await sql\`UPDATE invoice_state SET last_run = 'done', fence = \${fence} WHERE id = 7 AND fence < \${fence}\`;
     }`,
    // Prisma with a fence condition.
    `import Redlock from 'redlock';
     import { PrismaClient } from '@prisma/client';
     const redlock = new Redlock([]);
     const prisma = new PrismaClient();
     async function run(id: number, fence: number) {
       await redlock.using([\`lock:\${id}\`], 30000, async () => {
         await prisma.invoice.updateMany({ where: { id, fence: { lt: fence } }, data: { state: 'sent', fence } });
       });
     }`,
    // A Prisma upsert that updates nothing is create-if-missing: a stale holder's second run changes no row.
    `import Redis from 'ioredis';
     import { PrismaClient } from '@prisma/client';
     const redis = new Redis();
     const prisma = new PrismaClient();
     async function book(userId: string, token: string) {
       if (!(await redis.set('lock:user:' + userId, token, 'NX', 'EX', 5))) return;
       try {
         await prisma.user.upsert({ where: { email: userId }, update: {}, create: { id: userId, email: userId } });
       } finally {
         await redis.eval(RELEASE, 1, 'lock:user:' + userId, token);
       }
     }`,
    // Efficiency-only locks: the comment, and the option.
    `import Redis from 'ioredis';
     import { Pool } from 'pg';
     const redis = new Redis();
     const pool = new Pool();
     async function run(token: string) {
       // locksmith: efficiency
       const ok = await redis.set('lock:report', token, 'PX', 30000, 'NX');
       if (!ok) return;
       await pool.query('UPDATE reports SET built_at = now() WHERE id = 1');
     }`,
    {
      code: `import Redis from 'ioredis';
       import { Pool } from 'pg';
       const redis = new Redis();
       const pool = new Pool();
       async function run(token: string) {
         const ok = await redis.set('lock:cache-warm', token, 'PX', 30000, 'NX');
         if (ok) await pool.query('UPDATE caches SET warmed_at = now() WHERE id = 1');
       }`,
      options: [{ efficiencyLocks: ['^lock:cache-'] }],
    },
    {
      code: `import Redis from 'ioredis';
       import { Pool } from 'pg';
       const redis = new Redis();
       const pool = new Pool();
       async function run(token: string) {
         const ok = await redis.set('lock:cache-warm', token, 'PX', 30000, 'NX');
         if (ok) await pool.query('UPDATE caches SET warmed_at = now() WHERE id = 1');
       }`,
      settings: { locksmith: { efficiencyLocks: ['/^lock:cache-/'] } },
    },
    // Idempotent writes: a unique constraint, an optimistic version check.
    `import Redis from 'ioredis';
     import { Pool } from 'pg';
     const redis = new Redis();
     const pool = new Pool();
     async function run(token: string) {
       const ok = await redis.set('lock:invoice', token, 'PX', 30000, 'NX');
       if (!ok) return;
       await pool.query('INSERT INTO invoices (period, customer_id) VALUES ($1, $2) ON CONFLICT (period, customer_id) DO NOTHING', ['2026-11', 3]);
       await pool.query('UPDATE docs SET body = $1, version = version + 1 WHERE id = $2 AND version = $3', ['x', 1, 2]);
     }`,
    // SQL the parser cannot read is no finding.
    `import Redis from 'ioredis';
     import { Pool } from 'pg';
     const redis = new Redis();
     const pool = new Pool();
     async function run(token: string) {
       const ok = await redis.set('lock:invoice', token, 'PX', 30000, 'NX');
       if (!ok) return;
       await pool.query('UPDATE invoice_state SET WHERE id = 7');
     }`,
    // Plain UPDATEs under no lock.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function rename(id: number, name: string) { await pool.query('UPDATE users SET name = $1 WHERE id = $2', [name, id]); }`,
    // A write on the connection that holds an advisory lock cannot outlive the lock.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run(id: number) {
       const client = await pool.connect();
       try {
         await client.query('SELECT pg_advisory_lock($1)', [id]);
         await client.query('UPDATE jobs SET state = 1 WHERE id = $1', [id]);
         await client.query('SELECT pg_advisory_unlock($1)', [id]);
       } finally { client.release(); }
     }`,
    // Writes after the release are not under the lock.
    `import Redis from 'ioredis';
     import { Pool } from 'pg';
     const redis = new Redis();
     const pool = new Pool();
     async function run(token: string) {
       const ok = await redis.set('lock:a', token, 'PX', 30000, 'NX');
       if (!ok) return;
       await redis.eval('if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end', 1, 'lock:a', token);
       await pool.query('UPDATE audit SET done = true WHERE id = 1');
     }`,
    // knex: a write under a lock-table row that carries the fence in its WHERE; writes to lookalike
    // tables (sessions with an expiry and no owner, a cache) hold no lock; an idempotent insert needs no fence.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function run(name: string, owner: string, fence: number) {
       await db('locks').insert({ name, owner, expires_at: new Date(Date.now() + 30000) });
       await db('invoices').where('id', 1).where('fence', '<', fence).update({ state: 'sent', fence });
       await db('invoices_log').insert({ id: 1, state: 'sent' }).onConflict('id').ignore();
       await db('locks').where({ name, owner }).del();
     }
     async function login(id: string) {
       await db('sessions').insert({ id, expires_at: new Date() });
       await db('users').where({ id }).update({ last_login: new Date() });
       await db('cache').insert({ key: id, expires_at: new Date() }).onConflict('key').merge();
       await db('users').where({ id }).update({ cached: true });
     }`,
  ],
  invalid,
});

proveSuggestions('require-fencing-token', rule, invalid);
