import * as assert from 'node:assert/strict';
import * as typescriptParser from '@typescript-eslint/parser';
import { type ESLint, Linter } from 'eslint';
import { describe, it } from 'mocha';
import plugin from '../../../eslint-plugin/src/index.js';
import { RuleTester } from '../support/rule-tester.js';
import rule from '../../../eslint-plugin/src/rules/require-release-check.js';

const ruleTester = new RuleTester();

const RELEASE = `const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';`;
const EXTEND = `const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end';`;

const valid = [
  // ioredis: the release's reply is tested.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   export async function release(key: string, token: string) {
     const released = await redis.eval(RELEASE, 1, key, token);
     if (released !== 1) logger.warn('lock lost before release', { key });
   }`,
  // Returned to the caller, passed on, compared inline.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   export function release(key, token) { return redis.eval(RELEASE, 1, key, token); }`,
  `import Redis from 'ioredis'; const redis = new Redis(); ${EXTEND}
   async function renew(key, token, onLost) { if (!(await redis.eval(EXTEND, 1, key, token, 30000))) onLost(); }`,
  `import { createClient } from 'redis'; const client = createClient(); ${RELEASE}
   async function release(token) { report(await client.eval(RELEASE, { keys: ['lock:a'], arguments: [token] })); }`,
  // node_redis v3: the callback receives the reply.
  `const redis = require('redis'); const client = redis.createClient(); ${RELEASE}
   function release(token, cb) { client.eval(RELEASE, 1, 'lock:a', token, cb); }`,
  // A plain DEL is no-unsafe-release's finding; its count says nothing of ownership.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function release(key) { await redis.del(key); }`,
  // Redlock throws when a release fails; redis-semaphore's release answers nothing.
  `import Redlock from 'redlock'; const redlock = new Redlock([client]);
   async function f() { const lock = await redlock.acquire(['lock:a'], 5000); try { await work(); } finally { await lock.release(); } }`,
  `import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis';
   const mutex = new Mutex(new Redis(), 'lock:a');
   async function f() { await mutex.acquire(); try { await work(); } finally { await mutex.release(); } }`,
  // A script that is not a compare-and-delete (a rate limiter's, a cache's) reports nothing about a lock.
  `import Redis from 'ioredis'; const redis = new Redis();
   async function hit(ip) { await redis.eval('local n = redis.call("INCR", KEYS[1]) if n == 1 then redis.call("EXPIRE", KEYS[1], 60) end return n', 1, \`rate:\${ip}\`); }`,
  // pg_advisory_unlock whose boolean is read.
  `import pg from 'pg'; const pool = new pg.Pool();
   async function run(id) { const client = await pool.connect();
     try { await client.query('SELECT pg_advisory_lock($1)', [id]); await work(); }
     finally { const { rows } = await client.query('SELECT pg_advisory_unlock($1) AS unlocked', [id]); if (!rows[0].unlocked) console.warn('lock was not held'); client.release(); } }`,
  // postgres.js rows.
  `import postgres from 'postgres'; const sql = postgres();
   async function run(id) { const [{ unlocked }] = await sql\`SELECT pg_advisory_unlock(\${id}) AS unlocked\`; return unlocked; }`,
  // One connection for lock and unlock (graphile-migrate, postgres-migrations): a session lock cannot
  // be lost while its connection lives, so the unlock cannot answer false.
  `import pg from 'pg'; const pool = new pg.Pool();
   async function withLock(client, fn) { await client.query('SELECT pg_advisory_lock($1)', [42]);
     try { return await fn(client); } finally { await client.query('SELECT pg_advisory_unlock($1)', [42]); } }`,
  // The lock out of sight (kysely's migrator releases in its own method, on the connection it keeps).
  `import { sql } from 'kysely';
   class Adapter { async releaseMigrationLock(db) { await sql\`select pg_advisory_unlock(\${sql.lit(1)})\`.execute(db); } }`,
  // Dedicated connections: a session lock lives as long as its session, and a dropped session makes
  // the unlock throw (no reconnect), so the answer on the connection that locked is always true.
  // pg Client, a checked-out client, postgres.js sql.reserve().
  `import pg from 'pg';
   async function run(id) { const client = new pg.Client(); await client.connect();
     await client.query('SELECT pg_advisory_lock($1)', [id]);
     try { await work(); } finally { await client.query('SELECT pg_advisory_unlock($1)', [id]); await client.end(); } }`,
  `import pg from 'pg'; const pool = new pg.Pool();
   async function run(id) { const client = await pool.connect();
     try { await client.query('SELECT pg_advisory_lock($1)', [id]); await work(); await client.query('SELECT pg_advisory_unlock($1)', [id]); } finally { client.release(); } }`,
  `import postgres from 'postgres'; const sql = postgres();
   async function run(id) { const reserved = await sql.reserve();
     try { await reserved\`SELECT pg_advisory_lock(\${id})\`; await work(); await reserved\`SELECT pg_advisory_unlock(\${id})\`; } finally { reserved.release(); } }`,
  // Inside a transaction callback the handle is the transaction's one connection.
  `import postgres from 'postgres'; const sql = postgres();
   async function run(id) { await sql.begin(async (tx) => { await tx\`SELECT pg_advisory_lock(\${id})\`; await work(tx); await tx\`SELECT pg_advisory_unlock(\${id})\`; }); }`,
  `import knex from 'knex'; const db = knex({ client: 'pg' });
   async function run(id) { await db.transaction(async (trx) => { await trx.raw('SELECT pg_advisory_lock(?)', [id]); await work(trx); await trx.raw('SELECT pg_advisory_unlock(?)', [id]); }); }`,
  `import { PrismaClient } from '@prisma/client'; const prisma = new PrismaClient();
   async function run(id) { await prisma.$transaction(async (tx) => { await tx.$queryRaw\`SELECT pg_advisory_lock(\${id})\`; await work(tx); await tx.$queryRaw\`SELECT pg_advisory_unlock(\${id})\`; }); }`,
  `import { DataSource } from 'typeorm'; const dataSource = new DataSource({ type: 'postgres' });
   async function run(id) { await dataSource.transaction(async (manager) => { await manager.query('SELECT pg_advisory_lock($1)', [id]); await work(manager); await manager.query('SELECT pg_advisory_unlock($1)', [id]); }); }`,
  `import { Kysely, sql } from 'kysely'; const db = new Kysely({ dialect });
   async function run(id) { await db.transaction().execute(async (trx) => { await sql\`SELECT pg_advisory_lock(\${id})\`.execute(trx); await sql\`SELECT pg_advisory_unlock(\${id})\`.execute(trx); }); }`,
  // Sequelize: a query bound to a transaction runs on that transaction's connection.
  `import { Sequelize } from 'sequelize'; const sequelize = new Sequelize('postgres://');
   async function run(id) { await sequelize.transaction(async (transaction) => {
     await sequelize.query('SELECT pg_advisory_lock(:id)', { replacements: { id }, transaction });
     await sequelize.query('SELECT pg_advisory_unlock(:id)', { replacements: { id }, transaction }); }); }`,
  // Through a pool, with the boolean read: checked.
  `import pg from 'pg'; const pool = new pg.Pool();
   async function unlock(id) { const { rows } = await pool.query('SELECT pg_advisory_unlock($1) AS unlocked', [id]); if (!rows[0].unlocked) console.warn('not held'); }`,
  // Lock and unlock in one text run on one connection, whatever the pool.
  `import pg from 'pg'; const pool = new pg.Pool();
   async function run(id) { await pool.query('SELECT pg_advisory_lock(1); UPDATE jobs SET done = true; SELECT pg_advisory_unlock(1)'); }`,
  // A one-connection pool on one path and a reserved connection (which does not reconnect) on another:
  // not known to reconnect.
  `import postgres from 'postgres'; const sql = postgres();
   let db = await sql.reserve();
   export function useOneConnection() { db = postgres(url, { max: 1 }); }
   async function unlock(id) { await db\`SELECT pg_advisory_unlock(\${id})\`; }`,
  // Two locks on two checked-out clients: the unlock of key 1 is paired with the lock of key 1 on its
  // own client, not with the latest lock of the function (key 2, on another client).
  `import pg from 'pg'; const pool = new pg.Pool();
   async function run() {
     const a = await pool.connect(); const b = await pool.connect();
     try { await a.query('SELECT pg_advisory_lock(1)'); await b.query('SELECT pg_advisory_lock(2)'); await work(); await a.query('SELECT pg_advisory_unlock(1)'); }
     finally { a.release(); b.release(); } }`,
  // Lookalikes: an in-process mutex's unlock, a pooled pg_advisory_unlock_all (it answers nothing).
  `import { Mutex } from 'async-mutex'; const mutex = new Mutex();
   async function run() { const release = await mutex.acquire(); try { await work(); } finally { release(); } }`,
  `import pg from 'pg'; const pool = new pg.Pool();
   async function reset() { await pool.query('SELECT pg_advisory_unlock_all()'); }`,
  // pg_advisory_unlock_all answers nothing; the xact lock frees itself.
  `import pg from 'pg'; async function run(client) { await client.query('SELECT pg_advisory_unlock_all()'); }`,
  // Lock table: the affected-row count is read.
  `import pg from 'pg'; const pool = new pg.Pool();
   async function release(name, owner) { const { rowCount } = await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]); if (rowCount === 0) throw new Error('lock lost'); }`,
  `import pg from 'pg'; const pool = new pg.Pool();
   async function heartbeat(name, owner) { const result = await pool.query("UPDATE job_locks SET expires_at = now() + interval '30 seconds' WHERE name = $1 AND owner = $2", [name, owner]); return result.rowCount === 1; }`,
  // A DELETE from an ordinary table, and a lock-table DELETE that does not compare the owner (no-unsafe-release's).
  `import pg from 'pg'; const pool = new pg.Pool();
   async function purge(period) { await pool.query('DELETE FROM invoices WHERE period = $1', [period]); }`,
  `import pg from 'pg'; const pool = new pg.Pool();
   async function release(name) { await pool.query('DELETE FROM job_locks WHERE name = $1', [name]); }`,
  // Test code releases to clean up.
  `import Redis from 'ioredis'; const redis = new Redis(); ${RELEASE}
   afterEach(async () => { await redis.eval(RELEASE, 1, 'lock:a', 't1'); });
   it('releases', async () => { await redis.set('lock:a', 't1', 'NX', 'PX', 1000); await redis.eval(RELEASE, 1, 'lock:a', 't1'); });`,
  // A Map or cache with a `delete` is no lock.
  `const locks = new Map(); function release(key, token) { if (locks.get(key) === token) locks.delete(key); }`,
];

const invalid = [
  {
    // ioredis: the compare-and-delete reply dropped in finally.
    code: `import Redis from 'ioredis';
const redis = new Redis();
${RELEASE}
export async function run(token: string) {
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  try {
    await work();
  } finally {
    await redis.eval(RELEASE, 1, 'lock:invoice', token);
  }
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 9, column: 11, data: { release: 'compare-and-delete script', failure: '0' } }],
  },
  {
    // The script kept in a class field: the release through \`this.releaseScript\` is the same compare-and-delete.
    code: `import Redis from 'ioredis';
export class Locks {
  private readonly redis = new Redis();
  private readonly releaseScript = \`
    if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end\`;
  async run(token: string) {
    if (!(await this.redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
    try {
      await work();
    } finally {
      await this.redis.eval(this.releaseScript, 1, 'lock:invoice', token);
    }
  }
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 11, column: 13, data: { release: 'compare-and-delete script', failure: '0' } }],
  },
  {
    // node-redis: a renewal in a heartbeat whose failure nobody hears.
    code: `import { createClient } from 'redis';
const client = createClient();
${EXTEND}
function keepAlive(token: string) {
  return setInterval(() => {
    void client.eval(EXTEND, { keys: ['lock:report'], arguments: [token, '30000'] });
  }, 10000);
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 6, data: { release: 'compare-and-pexpire script', failure: '0' } }],
  },
  {
    // Upstash: bound and never read.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
${RELEASE}
async function release(token: string) {
  const released = await redis.eval(RELEASE, ['lock:cron'], [token]);
}`,
    errors: [
      { messageId: 'resultNeverRead' as const, line: 5, data: { name: 'released', release: 'compare-and-delete script', failure: '0' } },
    ],
  },
  {
    // ioredis defineCommand: the release command's reply dropped.
    code: `import Redis from 'ioredis';
const redis = new Redis();
redis.defineCommand('releaseLock', { numberOfKeys: 1, lua: 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0' });
async function release(key: string, token: string) {
  await redis.releaseLock(key, token);
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 5 }],
  },
  {
    // pg: the unlock is sent on another client than the lock; its false is dropped.
    code: `import pg from 'pg';
const pool = new pg.Pool();
async function run(id: number) {
  const lockClient = await pool.connect();
  await lockClient.query('SELECT pg_advisory_lock($1)', [id]);
  await work();
  const client = await pool.connect();
  await client.query('SELECT pg_advisory_unlock($1)', [id]);
  client.release();
  lockClient.release();
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 8, data: { release: 'pg_advisory_unlock', failure: 'false' } }],
  },
  {
    // postgres.js: reserved connection; the unlock's rows bound but the boolean never read.
    code: `import postgres from 'postgres';
const sql = postgres();
async function run(id: number) {
  const locked = await sql.reserve();
  await locked\`SELECT pg_advisory_lock(\${id})\`;
  await work();
  const reserved = await sql.reserve();
  const rows = await reserved\`SELECT pg_advisory_unlock(\${id}) AS unlocked\`;
  reserved.release();
}`,
    errors: [{ messageId: 'resultNeverRead' as const, line: 8, data: { name: 'rows', release: 'pg_advisory_unlock', failure: 'false' } }],
  },
  // Through a pool, whichever library: the unlock may run on another pooled connection than the lock
  // and answer false (no-pooled-advisory-lock reports the same line for the pool itself).
  {
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function unlock(id: number) {
  await pool.query('SELECT pg_advisory_unlock($1)', [id]);
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 4, column: 9, data: { release: 'pg_advisory_unlock', failure: 'false' } }],
  },
  {
    // pg's Pool with max: 1 closes its idle client after 10 s: a pool like any other.
    code: `import { Pool } from 'pg';
const pool = new Pool({ max: 1 });
async function run(id: number) {
  const lockClient = await pool.connect();
  await lockClient.query('SELECT pg_advisory_lock($1)', [id]);
  await pool.query('SELECT pg_advisory_unlock($1)', [id]);
  lockClient.release();
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 6, column: 9 }],
  },
  {
    // postgres.js: the shared sql instance, unlock in finally (codebuff's usage lock).
    code: `import postgres from 'postgres';
const sql = postgres(process.env.DATABASE_URL!);
export async function withUsageLock<T>(userId: number, work: () => Promise<T>): Promise<T | null> {
  const [row] = await sql\`SELECT pg_try_advisory_lock(\${userId}) AS acquired\`;
  if (row?.acquired !== true) return null;
  try {
    return await work();
  } finally {
    await sql\`SELECT pg_advisory_unlock(\${userId})\`;
  }
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 9, column: 11 }],
  },
  {
    // knex (unleash's scheduler lock): the _shared variant too.
    code: `import type { Knex } from 'knex';
export class SchedulerLock {
  constructor(private readonly db: Knex) {}
  async unlock(id: number): Promise<void> {
    await this.db.raw('SELECT pg_advisory_unlock(?)', [id]);
  }
  async unlockShared(id: number): Promise<void> {
    const result = await this.db.raw('SELECT pg_advisory_unlock_shared(?) AS unlocked', [id]);
  }
}`,
    errors: [
      { messageId: 'resultDropped' as const, line: 5, column: 11, data: { release: 'pg_advisory_unlock', failure: 'false' } },
      {
        messageId: 'resultNeverRead' as const,
        line: 8,
        column: 26,
        data: { name: 'result', release: 'pg_advisory_unlock_shared', failure: 'false' },
      },
    ],
  },
  {
    // Prisma: a raw query through the client's pool.
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function releaseLeaderLock(key: number): Promise<void> {
  await prisma.$queryRawUnsafe(\`SELECT pg_advisory_unlock(\${key})\`);
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 4, column: 9 }],
  },
  {
    // TypeORM: the DataSource, and its EntityManager (\`dataSource.manager\`), both pooled.
    code: `import { DataSource } from 'typeorm';
export class DbLockService {
  constructor(private readonly dataSource: DataSource) {}
  async unlock(lockId: number) {
    await this.dataSource.query('SELECT pg_advisory_unlock($1)', [lockId]);
  }
  async unlockThroughManager(lockId: number) {
    await this.dataSource.manager.query('SELECT pg_advisory_unlock($1)', [lockId]);
  }
}`,
    errors: [
      { messageId: 'resultDropped' as const, line: 5, column: 11 },
      { messageId: 'resultDropped' as const, line: 8, column: 11 },
    ],
  },
  {
    // Sequelize, CommonJS (tamanu's scheduled task).
    code: `const { Sequelize } = require('sequelize');
const sequelize = new Sequelize('postgres://');
async function runIfFree(lockId) {
  const [[{ locked }]] = await sequelize.query('SELECT pg_try_advisory_lock(:id) AS locked', { replacements: { id: lockId } });
  if (!locked) return false;
  try {
    await work();
    return true;
  } finally {
    await sequelize.query('SELECT pg_advisory_unlock(:id)', { replacements: { id: lockId } });
  }
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 10, column: 11 }],
  },
  {
    // kysely: a builder template executed on the pooled instance (monolayer's migration lock).
    code: `import { sql, type Kysely } from 'kysely';
export class MigrationLock {
  constructor(private db: Kysely<Record<string, never>>) {}
  async release() {
    await sql\`select pg_advisory_unlock(\${sql.lit(42)})\`.execute(this.db);
  }
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 5, column: 11 }],
  },
  {
    // drizzle: db.execute on the pooled instance (clearcost's run lock).
    code: `import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const db = drizzle(process.env.DATABASE_URL!);
export async function releaseRunLock(key: string): Promise<void> {
  await db.execute(sql\`SELECT pg_advisory_unlock(hashtext(\${key}))\`);
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 5, column: 9 }],
  },
  // One-connection pools reconnect: when the connection drops, the next query opens a new session,
  // where the lock is not held, and the unlock answers false (test/proofs/unlock-after-reconnect.test.ts).
  {
    // postgres.js with max: 1 (codebuff's leader election): one session while it lives.
    code: `import postgres from 'postgres';
export async function tryAcquireAdvisoryLock(lockId: number) {
  const connection = postgres(process.env.DATABASE_URL!, { max: 1, idle_timeout: 0, max_lifetime: 0 });
  const [row] = await connection\`SELECT pg_try_advisory_lock(\${lockId}) AS acquired\`;
  if (row?.acquired !== true) return null;
  return {
    async release() {
      await connection\`SELECT pg_advisory_unlock(\${lockId})\`;
      await connection.end();
    },
  };
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 8, column: 13 }],
  },
  {
    // pg's Pool with max: 1 that never idles its client out.
    code: `import { Pool } from 'pg';
const pool = new Pool({ max: 1, idleTimeoutMillis: 0 });
async function run(id: number) {
  await pool.query('SELECT pg_advisory_lock($1)', [id]);
  try {
    await work();
  } finally {
    await pool.query('SELECT pg_advisory_unlock($1)', [id]);
  }
}`,
    errors: [{ messageId: 'resultDropped' as const, line: 8, column: 11 }],
  },
  {
    // Lock table: the owner-checked DELETE and heartbeat UPDATE whose affected rows are never read.
    code: `import pg from 'pg';
const pool = new pg.Pool();
async function release(name: string, owner: string) {
  await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);
}
async function heartbeat(name: string, owner: string) {
  await pool.query("UPDATE job_locks SET expires_at = now() + interval '30 seconds' WHERE name = $1 AND owner = $2", [name, owner]);
}`,
    errors: [
      { messageId: 'resultDropped' as const, line: 4, data: { release: 'DELETE FROM job_locks', failure: 'no row affected' } },
      { messageId: 'resultDropped' as const, line: 7, data: { release: 'UPDATE job_locks', failure: 'no row affected' } },
    ],
  },
];

ruleTester.run('require-release-check', rule, { valid, invalid });

// knex's builder: `del()` and `update()` resolve to the affected row count, the answer itself.
ruleTester.run('require-release-check (knex query builder)', rule, {
  valid: [
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function release(name: string, owner: string) { const count = await db('job_locks').where({ name, owner }).del(); if (count === 0) throw new Error('lock lost'); }
     async function purge(period: string) { await db('invoices').where({ period }).del(); }`,
  ],
  invalid: [
    {
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function release(name: string, owner: string) {
  await db('job_locks').where({ name, owner }).del();
}`,
      errors: [{ messageId: 'resultDropped' as const, line: 4, data: { release: 'DELETE FROM job_locks', failure: 'no row affected' } }],
    },
  ],
});

// A dropped unlock through a pool is reported by both rules: no-pooled-advisory-lock for the pool,
// this rule for the answer nobody reads. no-pooled-advisory-lock's suggestion moves lock, work and
// unlock onto one connection (a checked-out client, a reserved connection, or a transaction with the
// xact lock, which needs no unlock); applied through ESLint's Linter, both findings must be gone.
describe("require-release-check after no-pooled-advisory-lock's suggestion, per library", () => {
  const fixAndRelint: readonly { readonly library: string; readonly code: string }[] = [
    {
      library: 'pg',
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function run(id: number) {
  await pool.query('SELECT pg_advisory_lock($1)', [id]);
  await doWork(id);
  await pool.query('SELECT pg_advisory_unlock($1)', [id]);
}`,
    },
    {
      library: 'postgres.js',
      code: `import postgres from 'postgres';
const sql = postgres();
export async function run(id: number) {
  const [row] = await sql\`SELECT pg_try_advisory_lock(\${id}) AS acquired\`;
  if (row?.acquired !== true) return;
  try {
    await doWork(id);
  } finally {
    await sql\`SELECT pg_advisory_unlock(\${id})\`;
  }
}`,
    },
    {
      library: 'knex',
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function run(id: number) {
  await db.raw('SELECT pg_advisory_lock(?)', [id]);
  await doWork(id);
  await db.raw('SELECT pg_advisory_unlock(?)', [id]);
}`,
    },
    {
      library: 'Prisma',
      code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function run(id: number) {
  await prisma.$queryRaw\`SELECT pg_advisory_lock(\${id})\`;
  try {
    await doWork(id);
  } finally {
    await prisma.$queryRaw\`SELECT pg_advisory_unlock(\${id})\`;
  }
}`,
    },
    {
      library: 'TypeORM',
      code: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function run(id: number) {
  await dataSource.manager.query('SELECT pg_advisory_lock($1)', [id]);
  await doWork(id);
  await dataSource.manager.query('SELECT pg_advisory_unlock($1)', [id]);
}`,
    },
    {
      library: 'Sequelize',
      code: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function run(id: number) {
  await sequelize.query('SELECT pg_advisory_lock(:id)', { replacements: { id } });
  await doWork(id);
  await sequelize.query('SELECT pg_advisory_unlock(:id)', { replacements: { id } });
}`,
    },
    {
      library: 'kysely',
      code: `import { Kysely, sql } from 'kysely';
const db = new Kysely<Database>({ dialect });
export async function run(id: number) {
  await sql\`SELECT pg_advisory_lock(\${id})\`.execute(db);
  await doWork(id);
  await sql\`SELECT pg_advisory_unlock(\${id})\`.execute(db);
}`,
    },
    {
      library: 'drizzle',
      code: `import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
const db = drizzle(process.env.DATABASE_URL!);
export async function run(id: number) {
  await db.execute(sql\`SELECT pg_advisory_lock(\${id})\`);
  await doWork(id);
  await db.execute(sql\`SELECT pg_advisory_unlock(\${id})\`);
}`,
    },
  ];

  const lint = (code: string): Linter.LintMessage[] =>
    new Linter({ configType: 'flat' }).verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: typescriptParser as unknown as Linter.Parser },
          plugins: { locksmith: plugin as unknown as ESLint.Plugin },
          rules: { 'locksmith/require-release-check': 'error', 'locksmith/no-pooled-advisory-lock': 'error' },
        },
      ],
      'unlock.ts',
    );

  for (const { library, code } of fixAndRelint) {
    it(`${library}: both rules report the unlock, and neither does once the suggestion is applied`, () => {
      const before = lint(code);
      assert.deepEqual(
        before.filter((message) => message.fatal),
        [],
      );
      const unlockLine = code.split('\n').findIndex((line) => line.includes('pg_advisory_unlock')) + 1;
      const atUnlock = before
        .filter((message) => message.line === unlockLine)
        .map((message) => message.ruleId)
        .sort();
      assert.deepEqual(atUnlock, ['locksmith/no-pooled-advisory-lock', 'locksmith/require-release-check']);
      const suggestion = before.find((message) => message.messageId === 'pooledLock')?.suggestions?.[0];
      assert.ok(suggestion, `no-pooled-advisory-lock offers no suggestion:\n${code}`);
      const [from, to] = suggestion.fix.range;
      const fixed = code.slice(0, from) + suggestion.fix.text + code.slice(to);
      const after = lint(fixed);
      assert.deepEqual(
        after.map((message) => `${message.line}:${message.column} ${String(message.ruleId)}: ${message.message}`),
        [],
        fixed,
      );
    });
  }
});
