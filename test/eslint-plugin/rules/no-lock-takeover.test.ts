import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/no-lock-takeover.js';
import { proveSuggestions } from '../support/sql-suggestions.js';

const ruleTester = new RuleTester();

const UPSERT = `INSERT INTO locks (name, owner, expires_at) VALUES ($1, $2, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at`;
const GUARDED = `${UPSERT} WHERE locks.expires_at < now()`;

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // pg Pool: the article's lock table without its WHERE.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function acquire(name: string, me: string) {
  const { rows } = await pool.query(
    \`INSERT INTO locks (name, owner, expires_at)
     VALUES ($1, $2, now() + interval '30 seconds')
     ON CONFLICT (name) DO UPDATE SET owner = $2, expires_at = now() + interval '30 seconds'
     RETURNING owner\`,
    [name, me],
  );
  return rows[0]?.owner === me;
}`,
    errors: [
      {
        messageId: 'unguardedTakeover',
        line: 4,
        column: 26,
        suggestions: [
          {
            messageId: 'addExpiryGuard',
            output: `import { Pool } from 'pg';
const pool = new Pool();
async function acquire(name: string, me: string) {
  const { rows } = await pool.query(
    \`INSERT INTO locks (name, owner, expires_at)
     VALUES ($1, $2, now() + interval '30 seconds')
     ON CONFLICT (name) DO UPDATE SET owner = $2, expires_at = now() + interval '30 seconds' WHERE locks.expires_at < now()
     RETURNING owner\`,
    [name, me],
  );
  return rows[0]?.owner === me;
}`,
          },
        ],
      },
    ],
  },
  {
    // pg PoolClient, SQL in a module constant, ShedLock's column names.
    code: `import type { PoolClient } from 'pg';
const TAKE = 'INSERT INTO shedlock (name, lock_until, locked_at, locked_by) VALUES ($1, $2, now(), $3) ON CONFLICT (name) DO UPDATE SET lock_until = $2, locked_at = now(), locked_by = $3';
export async function take(client: PoolClient, name: string, until: Date, me: string) {
  const result = await client.query(TAKE, [name, until, me]);
  return result.rowCount === 1;
}`,
    errors: [
      {
        messageId: 'unguardedTakeover',
        line: 4,
        column: 24,
        suggestions: [
          {
            messageId: 'addExpiryGuard',
            output: `import type { PoolClient } from 'pg';
const TAKE = 'INSERT INTO shedlock (name, lock_until, locked_at, locked_by) VALUES ($1, $2, now(), $3) ON CONFLICT (name) DO UPDATE SET lock_until = $2, locked_at = now(), locked_by = $3 WHERE shedlock.lock_until < now()';
export async function take(client: PoolClient, name: string, until: Date, me: string) {
  const result = await client.query(TAKE, [name, until, me]);
  return result.rowCount === 1;
}`,
          },
        ],
      },
    ],
  },
  {
    // postgres.js tagged template: interpolations are parameters.
    code: `import postgres from 'postgres';
const sql = postgres();
async function acquire(name: string, me: string) {
  const [row] = await sql\`INSERT INTO job_locks (name, owner, expires_at) VALUES (\${name}, \${me}, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at RETURNING owner\`;
  return row?.owner === me;
}`,
    errors: [
      {
        messageId: 'unguardedTakeover',
        line: 4,
        column: 23,
        suggestions: [
          {
            messageId: 'addExpiryGuard',
            output: `import postgres from 'postgres';
const sql = postgres();
async function acquire(name: string, me: string) {
  const [row] = await sql\`INSERT INTO job_locks (name, owner, expires_at) VALUES (\${name}, \${me}, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at WHERE job_locks.expires_at < now() RETURNING owner\`;
  return row?.owner === me;
}`,
          },
        ],
      },
    ],
  },
  {
    // knex raw with ? bindings.
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function acquire(name: string, me: string) {
  return db.raw("INSERT INTO locks (name, owner, expires_at) VALUES (?, ?, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at RETURNING owner", [name, me]);
}`,
    errors: [
      {
        messageId: 'unguardedTakeover',
        line: 4,
        column: 10,
        suggestions: [
          {
            messageId: 'addExpiryGuard',
            output: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function acquire(name: string, me: string) {
  return db.raw("INSERT INTO locks (name, owner, expires_at) VALUES (?, ?, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at WHERE locks.expires_at < now() RETURNING owner", [name, me]);
}`,
          },
        ],
      },
    ],
  },
  {
    // Prisma $queryRaw, a table alias.
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function acquire(name: string, me: string) {
  return prisma.$queryRaw\`INSERT INTO app_lock AS l (name, owner, expires_at) VALUES (\${name}, \${me}, now() + interval '1 minute') ON CONFLICT (name) DO UPDATE SET owner = \${me}, expires_at = now() + interval '1 minute' RETURNING owner\`;
}`,
    errors: [
      {
        messageId: 'unguardedTakeover',
        line: 4,
        column: 10,
        suggestions: [
          {
            messageId: 'addExpiryGuard',
            output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function acquire(name: string, me: string) {
  return prisma.$queryRaw\`INSERT INTO app_lock AS l (name, owner, expires_at) VALUES (\${name}, \${me}, now() + interval '1 minute') ON CONFLICT (name) DO UPDATE SET owner = \${me}, expires_at = now() + interval '1 minute' WHERE l.expires_at < now() RETURNING owner\`;
}`,
          },
        ],
      },
    ],
  },
  {
    // TypeORM, Sequelize, kysely, drizzle: the same upsert.
    code: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export const take = (name: string, me: string) => dataSource.query("${UPSERT} RETURNING owner", [name, me]);`,
    errors: [
      {
        messageId: 'unguardedTakeover',
        line: 3,
        column: 51,
        suggestions: [
          {
            messageId: 'addExpiryGuard',
            output: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export const take = (name: string, me: string) => dataSource.query("${GUARDED} RETURNING owner", [name, me]);`,
          },
        ],
      },
    ],
  },
  {
    code: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export const take = (name: string, me: string) => sequelize.query("INSERT INTO locks (name, owner, expires_at) VALUES (:name, :me, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = :me, expires_at = EXCLUDED.expires_at RETURNING owner", { replacements: { name, me } });`,
    errors: [
      {
        messageId: 'unguardedTakeover',
        line: 3,
        column: 51,
        suggestions: [
          {
            messageId: 'addExpiryGuard',
            output: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export const take = (name: string, me: string) => sequelize.query("INSERT INTO locks (name, owner, expires_at) VALUES (:name, :me, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = :me, expires_at = EXCLUDED.expires_at WHERE locks.expires_at < now() RETURNING owner", { replacements: { name, me } });`,
          },
        ],
      },
    ],
  },
  {
    code: `import { Kysely, sql } from 'kysely';
const db = new Kysely<Database>({ dialect });
export const take = (name: string, me: string) => sql\`INSERT INTO locks (name, owner, expires_at) VALUES (\${name}, \${me}, now()) ON CONFLICT (name) DO UPDATE SET owner = \${me}, expires_at = now() + interval '30 seconds' RETURNING owner\`.execute(db);`,
    errors: [
      {
        messageId: 'unguardedTakeover',
        line: 3,
        column: 51,
        suggestions: [
          {
            messageId: 'addExpiryGuard',
            output: `import { Kysely, sql } from 'kysely';
const db = new Kysely<Database>({ dialect });
export const take = (name: string, me: string) => sql\`INSERT INTO locks (name, owner, expires_at) VALUES (\${name}, \${me}, now()) ON CONFLICT (name) DO UPDATE SET owner = \${me}, expires_at = now() + interval '30 seconds' WHERE locks.expires_at < now() RETURNING owner\`.execute(db);`,
          },
        ],
      },
    ],
  },
  {
    code: `import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const db = drizzle(process.env.DATABASE_URL!);
export const take = (name: string, me: string) => db.execute(sql\`INSERT INTO locks (name, owner, expires_at) VALUES (\${name}, \${me}, now()) ON CONFLICT (name) DO UPDATE SET owner = \${me}, expires_at = now() RETURNING owner\`);`,
    errors: [
      {
        messageId: 'unguardedTakeover',
        line: 4,
        column: 51,
        suggestions: [
          {
            messageId: 'addExpiryGuard',
            output: `import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const db = drizzle(process.env.DATABASE_URL!);
export const take = (name: string, me: string) => db.execute(sql\`INSERT INTO locks (name, owner, expires_at) VALUES (\${name}, \${me}, now()) ON CONFLICT (name) DO UPDATE SET owner = \${me}, expires_at = now() WHERE locks.expires_at < now() RETURNING owner\`);`,
          },
        ],
      },
    ],
  },
  {
    // No expiry column in sight: reported, no guard to suggest.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export const take = (name: string, me: string) => pool.query('INSERT INTO locks (name, owner) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET owner = $2', [name, me]);`,
    errors: [{ messageId: 'unguardedTakeover', line: 3, column: 51, suggestions: [] }],
  },
  {
    // Guarded, but the returned owner is dropped: the caller proceeds even when it lost.
    code: `import { Pool } from 'pg';
const pool = new Pool();
async function run(name: string, me: string) {
  await pool.query("${GUARDED} RETURNING owner", [name, me]);
  await doWork();
}`,
    errors: [{ messageId: 'ownerNotCompared', line: 4, column: 9 }],
  },
  {
    // Guarded, stored, never read.
    code: `import postgres from 'postgres';
const sql = postgres();
async function run(name: string, me: string) {
  const rows = await sql\`INSERT INTO locks (name, owner, expires_at) VALUES (\${name}, \${me}, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET owner = \${me} WHERE locks.expires_at < now() RETURNING owner\`;
  await doWork();
}`,
    errors: [{ messageId: 'ownerNotCompared', line: 4, column: 22 }],
  },
];

ruleTester.run('no-lock-takeover', rule, {
  valid: [
    // The article's lock table: guarded, owner compared.
    `import { Pool } from 'pg';
     const pool = new Pool();
     async function acquire(name: string, me: string) {
       const { rows } = await pool.query("${GUARDED} RETURNING owner", [name, me]);
       return rows[0]?.owner === me;
     }`,
    // ShedLock: the guard compares with a parameter.
    `import type { PoolClient } from 'pg';
     export async function take(client: PoolClient, name: string, until: Date, now: Date, me: string) {
       const result = await client.query('INSERT INTO shedlock (name, lock_until, locked_at, locked_by) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO UPDATE SET lock_until = $2, locked_at = $3, locked_by = $4 WHERE shedlock.lock_until <= $3', [name, until, now, me]);
       return result.rowCount === 1;
     }`,
    // graphile-worker style: the owner may re-take its own row.
    `import postgres from 'postgres';
     const sql = postgres();
     export async function take(name: string, me: string) {
       const rows = await sql\`INSERT INTO worker_locks (name, owner, expires_at) VALUES (\${name}, \${me}, now() + interval '1 minute') ON CONFLICT (name) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE worker_locks.owner = EXCLUDED.owner OR worker_locks.expires_at < now() RETURNING owner\`;
       return rows.length === 1;
     }`,
    // The result goes back to the caller, who decides.
    `import { Pool } from 'pg';
     const pool = new Pool();
     export const take = (name: string, me: string) => pool.query("${GUARDED} RETURNING owner", [name, me]);`,
    // A plain insert into a lock table (unique violation means taken): not a takeover.
    `import { Pool } from 'pg';
     const pool = new Pool();
     export const take = (name: string, me: string) => pool.query("INSERT INTO locks (name, owner, expires_at) VALUES ($1, $2, now() + interval '30 seconds') ON CONFLICT (name) DO NOTHING", [name, me]);`,
    // Ordinary upserts of tables that are not locks.
    `import { Pool } from 'pg';
     const pool = new Pool();
     export const save = (id: number, total: number) => pool.query('INSERT INTO invoices (id, total) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET total = EXCLUDED.total', [id, total]);`,
    `import postgres from 'postgres';
     const sql = postgres();
     export const touch = (id: number) => sql\`INSERT INTO blocks (id, seen_at) VALUES (\${id}, now()) ON CONFLICT (id) DO UPDATE SET seen_at = now()\`;`,
    // A table about locks, not of locks.
    `import { Pool } from 'pg';
     const pool = new Pool();
     export const count = (name: string) => pool.query('INSERT INTO lock_events (name, n) VALUES ($1, 1) ON CONFLICT (name) DO UPDATE SET n = lock_events.n + 1', [name]);`,
    // Unparseable SQL is skipped.
    `import { Pool } from 'pg';
     const pool = new Pool();
     export const take = () => pool.query('INSERT INTO locks (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET');`,
  ],
  invalid,
});

// knex's `.onConflict(...).merge()` is `ON CONFLICT ... DO UPDATE`; `.merge().where(...)` its guard.
// No suggestion for a chain: the guard would be a builder call, and only SQL text is edited.
ruleTester.run('no-lock-takeover (knex query builder)', rule, {
  valid: [
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function acquire(name: string, owner: string) {
       await db('job_locks').insert({ name, owner, expires_at: new Date(Date.now() + 30000) }).onConflict('name').merge().where('job_locks.expires_at', '<', db.fn.now());
       await db('job_locks').insert({ name, owner }).onConflict('name').ignore();
     }`,
    // A cache upsert is no lock.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function put(key: string, value: string) { await db('cache').insert({ key, value, expires_at: new Date() }).onConflict('key').merge(); }`,
  ],
  invalid: [
    {
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function acquire(name: string, owner: string) {
  await db('job_locks').insert({ name, owner, expires_at: new Date(Date.now() + 30000) }).onConflict('name').merge();
}`,
      errors: [{ messageId: 'unguardedTakeover', line: 4, column: 9, suggestions: [] }],
    },
  ],
});

proveSuggestions('no-lock-takeover', rule, invalid);
