import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/no-pooled-advisory-lock.js';
import noXactLockOutsideTransaction from '../../../eslint-plugin/src/rules/no-xact-lock-outside-transaction.js';
import { proveSuggestions } from '../support/sql-suggestions.js';

const ruleTester = new RuleTester();

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // pg's Pool with max: 1 still closes its idle client after 10 s, and the session lock with it.
    code: `import { Pool } from 'pg';
const pool = new Pool({ max: 1 });
async function run(jobId: number) {
  await pool.query('SELECT pg_advisory_lock($1)', [jobId]);
  await pool.query('SELECT pg_advisory_unlock($1)', [jobId]);
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useDedicatedConnection',
            output: `import { Pool } from 'pg';
const pool = new Pool({ max: 1 });
async function run(jobId: number) {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [jobId]);
    await client.query('SELECT pg_advisory_unlock($1)', [jobId]);
  } finally {
    client.release();
  }
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 5, column: 9 },
    ],
  },
  {
    // Two nested locks on a pool: the outer lock's connection must be held up to its own unlock,
    // not the inner lock's (`pg_advisory_unlock(2)` does not free `pg_advisory_lock(1)`).
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run() {
  await pool.query('SELECT pg_advisory_lock(1)');
  await pool.query('SELECT pg_advisory_lock(2)');
  await doWork();
  await pool.query('SELECT pg_advisory_unlock(2)');
  await audit();
  await pool.query('SELECT pg_advisory_unlock(1)');
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useDedicatedConnection',
            output: `import { Pool } from 'pg';
const pool = new Pool();
async function run() {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(1)');
    await pool.query('SELECT pg_advisory_lock(2)');
    await doWork();
    await pool.query('SELECT pg_advisory_unlock(2)');
    await audit();
    await client.query('SELECT pg_advisory_unlock(1)');
  } finally {
    client.release();
  }
}`,
          },
        ],
      },
      {
        messageId: 'pooledLock',
        line: 5,
        column: 9,
        suggestions: [
          {
            messageId: 'useDedicatedConnection',
            output: `import { Pool } from 'pg';
const pool = new Pool();
async function run() {
  await pool.query('SELECT pg_advisory_lock(1)');
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(2)');
    await doWork();
    await client.query('SELECT pg_advisory_unlock(2)');
  } finally {
    client.release();
  }
  await audit();
  await pool.query('SELECT pg_advisory_unlock(1)');
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 7, column: 9 },
      { messageId: 'pooledUnlock', line: 9, column: 9 },
    ],
  },
  {
    // pg Pool: lock and unlock each on whichever connection is free.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(jobId: number) {
  await pool.query('SELECT pg_advisory_lock($1)', [jobId]);
  await doWork(jobId);
  await pool.query('SELECT pg_advisory_unlock($1)', [jobId]);
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useDedicatedConnection',
            output: `import { Pool } from 'pg';
const pool = new Pool();
async function run(jobId: number) {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [jobId]);
    await doWork(jobId);
    await client.query('SELECT pg_advisory_unlock($1)', [jobId]);
  } finally {
    client.release();
  }
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 6, column: 9 },
    ],
  },
  {
    // pg Pool: the article's try-lock, unlock in finally; the result check stays.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(jobId: number) {
  const { rows } = await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [jobId]);
  if (!rows[0].locked) return;
  try {
    await doWork(jobId);
  } finally {
    await pool.query('SELECT pg_advisory_unlock($1)', [jobId]);
  }
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 26,
        suggestions: [
          {
            messageId: 'useDedicatedConnection',
            output: `import { Pool } from 'pg';
const pool = new Pool();
async function run(jobId: number) {
  const client = await pool.connect();
  try {
    const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [jobId]);
    if (!rows[0].locked) return;
    try {
      await doWork(jobId);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [jobId]);
    }
  } finally {
    client.release();
  }
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 9, column: 11 },
    ],
  },
  {
    // pg: a pool imported from the app's own module, by its conventional name.
    code: `import { pool } from './db';
export async function nightly() {
  await pool.query('SELECT pg_advisory_lock(42)');
}`,
    errors: [{ messageId: 'pooledLock', line: 3, column: 9, suggestions: [] }],
  },
  {
    // postgres.js: the sql instance is a pool.
    code: `import postgres from 'postgres';
const sql = postgres();
async function run(id: number) {
  await sql\`SELECT pg_advisory_lock(\${id})\`;
  await doWork(id);
  await sql\`SELECT pg_advisory_unlock(\${id})\`;
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useDedicatedConnection',
            output: `import postgres from 'postgres';
const sql = postgres();
async function run(id: number) {
  const reserved = await sql.reserve();
  try {
    await reserved\`SELECT pg_advisory_lock(\${id})\`;
    await doWork(id);
    await reserved\`SELECT pg_advisory_unlock(\${id})\`;
  } finally {
    reserved.release();
  }
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 6, column: 9 },
    ],
  },
  {
    // postgres.js injected into a service: the member holding the instance is the tag (\`this.sql\`), split over methods.
    code: `import type postgres from 'postgres';
export class MigrationHook {
  constructor(private readonly sql: postgres.Sql) {}
  private async acquireLock(): Promise<void> {
    await this
      .sql\`SELECT pg_advisory_lock(\${132})\`;
  }
  private async releaseLock(): Promise<void> {
    await this.sql\`SELECT pg_advisory_unlock(\${132})\`;
  }
}`,
    errors: [
      { messageId: 'pooledLock', line: 5, column: 11 },
      { messageId: 'pooledUnlock', line: 9, column: 11 },
    ],
  },
  {
    // Prisma: the client is a pool; unlock in finally.
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function run(id: number) {
  await prisma.$executeRaw\`SELECT pg_advisory_lock(\${id})\`;
  try {
    await doWork(id);
  } finally {
    await prisma.$executeRaw\`SELECT pg_advisory_unlock(\${id})\`;
  }
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useTransactionLock',
            output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function run(id: number) {
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw\`SELECT pg_advisory_xact_lock(\${id})\`;
    await doWork(id);
  });
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 8, column: 11 },
    ],
  },
  {
    // Prisma through $queryRaw: the transaction-level lock returns `void`, so the suggestion sends it
    // with $executeRaw (Prisma's $queryRaw cannot deserialise `void`).
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function run(id: number) {
  await prisma.$queryRaw\`SELECT pg_advisory_lock(\${id})\`;
  try {
    await doWork(id);
  } finally {
    await prisma.$queryRaw\`SELECT pg_advisory_unlock(\${id})\`;
  }
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useTransactionLock',
            output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function run(id: number) {
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw\`SELECT pg_advisory_xact_lock(\${id})\`;
    await doWork(id);
  });
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 8, column: 11 },
    ],
  },
  {
    // knex raw with ? bindings.
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function run(id: number) {
  await db.raw('SELECT pg_advisory_lock(?)', [id]);
  await doWork(id);
  await db.raw('SELECT pg_advisory_unlock(?)', [id]);
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useTransactionLock',
            output: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function run(id: number) {
  await db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [id]);
    await doWork(id);
  });
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 6, column: 9 },
    ],
  },
  {
    // Sequelize with named replacements: the transaction goes in the options.
    code: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
async function run(id: number) {
  await sequelize.query('SELECT pg_advisory_lock(:id)', { replacements: { id } });
  await doWork(id);
  await sequelize.query('SELECT pg_advisory_unlock(:id)', { replacements: { id } });
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useTransactionLock',
            output: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
async function run(id: number) {
  await sequelize.transaction(async (transaction) => {
    await sequelize.query('SELECT pg_advisory_xact_lock(:id)', { replacements: { id }, transaction });
    await doWork(id);
  });
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 6, column: 9 },
    ],
  },
  {
    // TypeORM DataSource.query is pooled.
    code: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
async function run(id: number) {
  await dataSource.query('SELECT pg_advisory_lock($1)', [id]);
  await doWork(id);
  await dataSource.query('SELECT pg_advisory_unlock($1)', [id]);
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useTransactionLock',
            output: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
async function run(id: number) {
  await dataSource.transaction(async (manager) => {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [id]);
    await doWork(id);
  });
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 6, column: 9 },
    ],
  },
  {
    // kysely: sql`...`.execute(db) runs on the pool.
    code: `import { Kysely, sql } from 'kysely';
const db = new Kysely<Database>({ dialect });
async function run(id: number) {
  await sql\`SELECT pg_advisory_lock(\${id})\`.execute(db);
  await doWork(id);
  await sql\`SELECT pg_advisory_unlock(\${id})\`.execute(db);
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'useTransactionLock',
            output: `import { Kysely, sql } from 'kysely';
const db = new Kysely<Database>({ dialect });
async function run(id: number) {
  await db.transaction().execute(async (trx) => {
    await sql\`SELECT pg_advisory_xact_lock(\${id})\`.execute(trx);
    await doWork(id);
  });
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 6, column: 9 },
    ],
  },
  {
    // drizzle behind a project factory, typed by an assertion: the asserted database type says it is a pool.
    code: `import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { getDatabase } from './db';
async function run(id: number) {
  const db = getDatabase() as NodePgDatabase;
  await db.execute(sql\`SELECT pg_try_advisory_lock(\${id})\`);
}`,
    errors: [{ messageId: 'pooledLock', line: 6, column: 9 }],
  },
  {
    // A lazily made drizzle database behind a Proxy, typed by a type alias of what drizzle() returns.
    code: `import { drizzle } from 'drizzle-orm/vercel-postgres';
import { sql } from 'drizzle-orm';
type DrizzleDb = ReturnType<typeof drizzle>;
export const db = new Proxy({}, { get: (_target, prop) => Reflect.get(makeDb(), prop) }) as DrizzleDb;
async function run(id: number) {
  await db.execute(sql\`SELECT pg_try_advisory_lock(\${id})\`);
}`,
    errors: [{ messageId: 'pooledLock', line: 6, column: 9 }],
  },
  {
    // drizzle: db.execute(sql`...`) runs on the pool.
    code: `import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const db = drizzle(process.env.DATABASE_URL!);
async function run(id: number) {
  await db.execute(sql\`SELECT pg_advisory_lock(\${id})\`);
  await doWork(id);
  await db.execute(sql\`SELECT pg_advisory_unlock(\${id})\`);
}`,
    errors: [
      {
        messageId: 'pooledLock',
        line: 5,
        column: 9,
        suggestions: [
          {
            messageId: 'useTransactionLock',
            output: `import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const db = drizzle(process.env.DATABASE_URL!);
async function run(id: number) {
  await db.transaction(async (tx) => {
    await tx.execute(sql\`SELECT pg_advisory_xact_lock(\${id})\`);
    await doWork(id);
  });
}`,
          },
        ],
      },
      { messageId: 'pooledUnlock', line: 7, column: 9 },
    ],
  },
  {
    // An unlock alone through the pool frees nothing reliably.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function unlock(key: number) {
  await pool.query('SELECT pg_advisory_unlock($1)', [key]);
}`,
    errors: [{ messageId: 'pooledUnlock', line: 4, column: 9 }],
  },
  {
    // A return inside the span would leave the transaction callback instead of the function: no transaction suggestion.
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function run(id: number) {
  await db.raw('SELECT pg_advisory_lock(?)', [id]);
  if (await done(id)) return;
  await db.raw('SELECT pg_advisory_unlock(?)', [id]);
}`,
    errors: [
      { messageId: 'pooledLock', line: 4, column: 9, suggestions: [] },
      { messageId: 'pooledUnlock', line: 6, column: 9 },
    ],
  },
];

ruleTester.run('no-pooled-advisory-lock', rule, {
  valid: [
    // postgres.js with max: 1 is one session (codebuff's leader lock, packages/internal/src/db).
    `import postgres from 'postgres';
     const lockSql = postgres(process.env.DATABASE_URL, { max: 1 });
     async function lead(id: number) {
       await lockSql\`SELECT pg_advisory_lock(\${id})\`;
       try { await doWork(id); } finally { await lockSql\`SELECT pg_advisory_unlock(\${id})\`; }
     }`,
    // pg's Pool with one client that it never closes for idling.
    `import { Pool } from 'pg';
     const lockPool = new Pool({ max: 1, idleTimeoutMillis: 0 });
     async function run(id: number) {
       await lockPool.query('SELECT pg_advisory_lock($1)', [id]);
       try { await doWork(id); } finally { await lockPool.query('SELECT pg_advisory_unlock($1)', [id]); }
     }`,
    // pg: one dedicated client, unlock in finally, client released.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run(id: number) {
       const client = await pool.connect();
       try {
         await client.query('SELECT pg_advisory_lock($1)', [id]);
         try { await doWork(id); } finally { await client.query('SELECT pg_advisory_unlock($1)', [id]); }
       } finally {
         client.release();
       }
     }`,
    // pg: a Client is one connection.
    `import { Client } from 'pg';
     const client = new Client();
     async function run() { await client.query('SELECT pg_try_advisory_lock(1)'); }`,
    // pg: a PoolClient parameter.
    `import type { PoolClient } from 'pg';
     async function run(client: PoolClient) { await client.query('SELECT pg_advisory_lock(1)'); }`,
    // Transaction-level locks (pg-boss style) are the other rule's business.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run() { await pool.query('BEGIN; SELECT pg_advisory_xact_lock(1); UPDATE jobs SET state = 1; COMMIT'); }`,
    // Lock and unlock in one text run on one connection.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run() { await pool.query('SELECT pg_advisory_lock(1); UPDATE t SET x = 1; SELECT pg_advisory_unlock(1)'); }`,
    // postgres.js: a reserved connection, and a transaction handle.
    `import postgres from 'postgres';
     const sql = postgres();
     async function run(id: number) {
       const reserved = await sql.reserve();
       try { await reserved\`SELECT pg_advisory_lock(\${id})\`; await reserved\`SELECT pg_advisory_unlock(\${id})\`; } finally { reserved.release(); }
     }`,
    `import postgres from 'postgres';
     const sql = postgres();
     async function run(id: number) { await sql.begin(async (sql) => { await sql\`SELECT pg_advisory_lock(\${id})\`; }); }`,
    // Prisma interactive transaction: one connection.
    `import { PrismaClient } from '@prisma/client';
     const prisma = new PrismaClient();
     async function run(id: number) { await prisma.$transaction(async (tx) => { await tx.$executeRaw\`SELECT pg_advisory_xact_lock(\${id})\`; }); }`,
    // TypeORM QueryRunner: one connection.
    `import { DataSource } from 'typeorm';
     const dataSource = new DataSource({ type: 'postgres' });
     async function run(id: number) {
       const runner = dataSource.createQueryRunner();
       await runner.connect();
       try { await runner.query('SELECT pg_advisory_lock($1)', [id]); } finally { await runner.query('SELECT pg_advisory_unlock($1)', [id]); await runner.release(); }
     }`,
    // A kysely `sql` re-exported by the app, run on a transaction: the sender is the transaction.
    `import { sql } from './db';
     async function run(db, id: number) { await db.transaction().execute(async (trx) => { await sql\`SELECT pg_advisory_xact_lock(\${id})\`.execute(trx); }); }`,
    `import { sql, db } from './db';
     async function run(id: number) {
       await db.transaction().execute(async (trx) => {
         await sql\`SELECT pg_advisory_lock(\${id})\`.execute(trx);
         await sql\`SELECT pg_advisory_unlock(\${id})\`.execute(trx);
       });
     }`,
    // Sequelize: a query naming its transaction runs on the transaction's connection.
    `import { Sequelize } from 'sequelize';
     const sequelize = new Sequelize('postgres://');
     async function run(id: number) {
       await sequelize.transaction(async (t) => {
         await sequelize.query('SELECT pg_advisory_lock(?)', { replacements: [id], transaction: t });
         await sequelize.query('SELECT pg_advisory_unlock(?)', { replacements: [id], transaction: t });
       });
     }`,
    // A sender the file does not show: no claim.
    `async function run(db, id) { await db.query('SELECT pg_advisory_lock($1)', [id]); }`,
    // Not SQL that locks.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run() { await pool.query("SELECT 'pg_advisory_lock(1)' AS text"); }`,
    // Unparseable SQL is skipped.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run() { await pool.query('SELECT pg_advisory_lock(1'); }`,
  ],
  invalid,
});

proveSuggestions('no-pooled-advisory-lock', rule, invalid, { 'no-xact-lock-outside-transaction': noXactLockOutsideTransaction });
