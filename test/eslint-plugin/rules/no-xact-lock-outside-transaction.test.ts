import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/no-xact-lock-outside-transaction.js';
import noPooledAdvisoryLock from '../../../eslint-plugin/src/rules/no-pooled-advisory-lock.js';
import { proveSuggestions } from '../support/sql-suggestions.js';

const ruleTester = new RuleTester();

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // pg Pool: the lock's implicit transaction ends with its own statement.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(id: number) {
  await pool.query('SELECT pg_advisory_xact_lock($1)', [id]);
  await pool.query('UPDATE jobs SET state = $2 WHERE id = $1', [id, 'running']);
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import { Pool } from 'pg';
const pool = new Pool();
async function run(id: number) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [id]);
    await client.query('UPDATE jobs SET state = $2 WHERE id = $1', [id, 'running']);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
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
    // `END` (like `COMMIT WORK` and `ABORT`) ends the transaction as `COMMIT` does: the lock after it autocommits.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(id: number) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE jobs SET state = 1 WHERE id = $1', [id]);
    await client.query('END');
    await client.query('SELECT pg_advisory_xact_lock($1)', [id]);
    await client.query('UPDATE jobs SET state = 2 WHERE id = $1', [id]);
  } finally {
    client.release();
  }
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 9,
        column: 11,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import { Pool } from 'pg';
const pool = new Pool();
async function run(id: number) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE jobs SET state = 1 WHERE id = $1', [id]);
    await client.query('END');
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [id]);
      await client.query('UPDATE jobs SET state = 2 WHERE id = $1', [id]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
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
    // pg PoolClient checked out here, but no BEGIN: autocommit still ends the lock at once.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(id: number) {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [id]);
    await client.query('UPDATE jobs SET state = 1 WHERE id = $1', [id]);
  } finally {
    client.release();
  }
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 6,
        column: 11,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import { Pool } from 'pg';
const pool = new Pool();
async function run(id: number) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [id]);
      await client.query('UPDATE jobs SET state = 1 WHERE id = $1', [id]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
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
    // pg: BEGIN through the pool lands on another connection, so it opens no transaction here.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(id: number) {
  await pool.query('BEGIN');
  await pool.query('SELECT pg_advisory_xact_lock($1)', [id]);
  await pool.query('COMMIT');
}`,
    errors: [{ messageId: 'xactLockOutsideTransaction', line: 5, column: 9, suggestions: [] }],
  },
  {
    // postgres.js
    code: `import postgres from 'postgres';
const sql = postgres();
async function run(id: number) {
  await sql\`SELECT pg_advisory_xact_lock(\${id})\`;
  await sql\`UPDATE jobs SET state = 1 WHERE id = \${id}\`;
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import postgres from 'postgres';
const sql = postgres();
async function run(id: number) {
  await sql.begin(async (tx) => {
    await tx\`SELECT pg_advisory_xact_lock(\${id})\`;
    await tx\`UPDATE jobs SET state = 1 WHERE id = \${id}\`;
  });
}`,
          },
        ],
      },
    ],
  },
  {
    // Prisma: the void lock function was sent with $queryRaw, which cannot deserialise `void`; the
    // suggestion sends it with $executeRaw inside the transaction.
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function run(id: number) {
  await prisma.$queryRaw\`SELECT pg_advisory_xact_lock(\${id})\`;
  await prisma.job.update({ where: { id }, data: { state: 'running' } });
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function run(id: number) {
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw\`SELECT pg_advisory_xact_lock(\${id})\`;
    await tx.job.update({ where: { id }, data: { state: 'running' } });
  });
}`,
          },
        ],
      },
    ],
  },
  {
    // Prisma: the try form, result checked.
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function run(id: number) {
  const [{ locked }] = await prisma.$queryRaw<{ locked: boolean }[]>\`SELECT pg_try_advisory_xact_lock(\${id}) AS locked\`;
  if (locked) {
    await prisma.job.update({ where: { id }, data: { state: 'running' } });
  }
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 4,
        column: 30,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function run(id: number) {
  await prisma.$transaction(async (tx) => {
    const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>\`SELECT pg_try_advisory_xact_lock(\${id}) AS locked\`;
    if (locked) {
      await tx.job.update({ where: { id }, data: { state: 'running' } });
    }
  });
}`,
          },
        ],
      },
    ],
  },
  {
    // knex
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function run(id: number) {
  await db.raw('SELECT pg_advisory_xact_lock(?)', [id]);
  await db('jobs').where({ id }).update({ state: 'running' });
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function run(id: number) {
  await db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [id]);
    await trx('jobs').where({ id }).update({ state: 'running' });
  });
}`,
          },
        ],
      },
    ],
  },
  {
    // Sequelize: the transaction is named in the query's options.
    code: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
async function run(id: number) {
  await sequelize.query('SELECT pg_advisory_xact_lock(?)', { replacements: [id] });
  await work(id);
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
async function run(id: number) {
  await sequelize.transaction(async (transaction) => {
    await sequelize.query('SELECT pg_advisory_xact_lock(?)', { replacements: [id], transaction });
    await work(id);
  });
}`,
          },
        ],
      },
    ],
  },
  {
    // TypeORM
    code: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
async function run(id: number) {
  await dataSource.query('SELECT pg_advisory_xact_lock($1)', [id]);
  await work(id);
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
async function run(id: number) {
  await dataSource.transaction(async (manager) => {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [id]);
    await work(id);
  });
}`,
          },
        ],
      },
    ],
  },
  {
    // kysely
    code: `import { Kysely, sql } from 'kysely';
const db = new Kysely<Database>({ dialect });
async function run(id: number) {
  await sql\`SELECT pg_advisory_xact_lock(\${id})\`.execute(db);
  await work(id);
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 4,
        column: 9,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import { Kysely, sql } from 'kysely';
const db = new Kysely<Database>({ dialect });
async function run(id: number) {
  await db.transaction().execute(async (trx) => {
    await sql\`SELECT pg_advisory_xact_lock(\${id})\`.execute(trx);
    await work(id);
  });
}`,
          },
        ],
      },
    ],
  },
  {
    // drizzle
    code: `import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const db = drizzle(process.env.DATABASE_URL!);
async function run(id: number) {
  await db.execute(sql\`SELECT pg_advisory_xact_lock(\${id})\`);
  await work(id);
}`,
    errors: [
      {
        messageId: 'xactLockOutsideTransaction',
        line: 5,
        column: 9,
        suggestions: [
          {
            messageId: 'wrapInTransaction',
            output: `import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const db = drizzle(process.env.DATABASE_URL!);
async function run(id: number) {
  await db.transaction(async (tx) => {
    await tx.execute(sql\`SELECT pg_advisory_xact_lock(\${id})\`);
    await work(id);
  });
}`,
          },
        ],
      },
    ],
  },
  {
    // A return in the work would leave the callback, not the function: no suggestion.
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function run(id: number) {
  await db.raw('SELECT pg_advisory_xact_lock(?)', [id]);
  if (await done(id)) return;
  await work(id);
}`,
    errors: [{ messageId: 'xactLockOutsideTransaction', line: 4, column: 9, suggestions: [] }],
  },
];

ruleTester.run('no-xact-lock-outside-transaction', rule, {
  valid: [
    // A TypeORM EntityManager handed in as a parameter is, as often as not, a transaction's manager: no finding on its type alone.
    `import type { EntityManager } from 'typeorm';
export async function lockSubscription(entityManager: EntityManager, id: number) {
  await entityManager.query('SELECT pg_advisory_xact_lock($1)', [id]);
}`,
    // pg-boss style: BEGIN, the lock and the work in one text.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run() { await pool.query('BEGIN; SELECT pg_advisory_xact_lock(1); UPDATE jobs SET state = 1; COMMIT'); }`,
    // Several statements in one simple query share one implicit transaction.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run() { await pool.query("SELECT pg_advisory_xact_lock(1); DELETE FROM queue WHERE state = 'done'"); }`,
    // pg: BEGIN on the same checked-out client.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run(id: number) {
       const client = await pool.connect();
       try {
         await client.query('BEGIN');
         await client.query('SELECT pg_advisory_xact_lock($1)', [id]);
         await client.query('UPDATE jobs SET state = 1 WHERE id = $1', [id]);
         await client.query('COMMIT');
       } catch (error) { await client.query('ROLLBACK'); throw error; } finally { client.release(); }
     }`,
    // A private helper whose parameter is declared with the pool's type (knex's \`Knex\`, which a
    // transaction also is), while every caller passes it a transaction: the callers decide.
    `import type { Knex } from 'knex';
     import { db } from './db';
     class KeyService {
       private async lockName(trx: Knex, name: string) { await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [name]); }
       async create(trx: Knex, name: string) {
         return trx.transaction(async (inner) => { await this.lockName(inner, name); await inner('keys').insert({ name }); });
       }
       async rename(name: string) {
         return db.knex.transaction(async (trx) => { await this.lockName(trx, name); await trx('keys').update({ name }); });
       }
     }
     export default new KeyService();`,
    // pg: BEGIN on a checked-out client; the COMMITs before the lock end branches that return.
    `import { Pool } from 'pg';
     const pool = new Pool();
     export async function fetchBatch(id: number, done: boolean, empty: boolean) {
       const client = await pool.connect();
       try {
         await client.query('BEGIN');
         if (done) {
           await client.query('COMMIT');
           return null;
         }
         if (empty) { await client.query('COMMIT'); return null; }
         await client.query('SELECT pg_advisory_xact_lock($1)', [id]);
         await client.query('UPDATE jobs SET state = 1 WHERE id = $1', [id]);
         await client.query('COMMIT');
       } catch (error) { await client.query('ROLLBACK'); throw error; } finally { client.release(); }
     }`,
    // A client handed in may already be inside the caller's transaction.
    `import type { PoolClient } from 'pg';
     async function lockJob(client: PoolClient, id: number) { await client.query('SELECT pg_advisory_xact_lock($1)', [id]); }`,
    // postgres.js sql.begin, Prisma $transaction, knex, TypeORM, kysely, drizzle transactions.
    `import postgres from 'postgres';
     const sql = postgres();
     async function run(id: number) { await sql.begin(async (sql) => { await sql\`SELECT pg_advisory_xact_lock(\${id})\`; await sql\`UPDATE jobs SET state = 1 WHERE id = \${id}\`; }); }`,
    `import { PrismaClient } from '@prisma/client';
     const prisma = new PrismaClient();
     async function run(id: number) { await prisma.$transaction(async (tx) => { await tx.$executeRaw\`SELECT pg_advisory_xact_lock(\${id})\`; }); }`,
    `import knex from 'knex';
     const db = knex({ client: 'pg' });
     async function run(id: number) { await db.transaction(async (trx) => { await trx.raw('SELECT pg_advisory_xact_lock(?)', [id]); }); }`,
    `import knex from 'knex';
     const db = knex({ client: 'pg' });
     async function run(id: number) { const trx = await db.transaction(); await trx.raw('SELECT pg_advisory_xact_lock(?)', [id]); await trx.commit(); }`,
    `import { DataSource } from 'typeorm';
     const dataSource = new DataSource({ type: 'postgres' });
     async function run(id: number) { await dataSource.transaction(async (manager) => { await manager.query('SELECT pg_advisory_xact_lock($1)', [id]); }); }`,
    `import { DataSource } from 'typeorm';
     const dataSource = new DataSource({ type: 'postgres' });
     async function run(id: number) {
       const runner = dataSource.createQueryRunner();
       await runner.startTransaction();
       await runner.query('SELECT pg_advisory_xact_lock($1)', [id]);
       await runner.commitTransaction();
     }`,
    `import { Sequelize } from 'sequelize';
     const sequelize = new Sequelize('postgres://');
     async function run(id: number) { await sequelize.transaction(async (t) => { await sequelize.query('SELECT pg_advisory_xact_lock(?)', { replacements: [id], transaction: t }); }); }`,
    `import { Kysely, sql } from 'kysely';
     const db = new Kysely<Database>({ dialect });
     async function run(id: number) { await db.transaction().execute(async (trx) => { await sql\`SELECT pg_advisory_xact_lock(\${id})\`.execute(trx); }); }`,
    `import { drizzle } from 'drizzle-orm/node-postgres';
     import { sql } from 'drizzle-orm';
     const db = drizzle(process.env.DATABASE_URL!);
     async function run(id: number) { await db.transaction(async (tx) => { await tx.execute(sql\`SELECT pg_advisory_xact_lock(\${id})\`); }); }`,
    // Session-level locks are the other rule's business.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run() { await pool.query('SELECT pg_advisory_lock(1)'); }`,
    // A statement that locks and works in one go.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function run() { await pool.query('SELECT pg_advisory_xact_lock(id) FROM jobs WHERE id = 1'); }`,
    // Unknown sender.
    `async function run(db, id) { await db.query('SELECT pg_advisory_xact_lock($1)', [id]); }`,
  ],
  invalid,
});

proveSuggestions('no-xact-lock-outside-transaction', rule, invalid, { 'no-pooled-advisory-lock': noPooledAdvisoryLock });
