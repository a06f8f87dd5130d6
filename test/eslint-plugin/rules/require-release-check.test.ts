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
  // Through a pool: no-pooled-advisory-lock reports it, and its fix makes the answer always true.
  `import pg from 'pg'; const pool = new pg.Pool();
   async function run(id) { const c = await pool.connect(); await c.query('SELECT pg_advisory_lock($1)', [id]); await pool.query('SELECT pg_advisory_unlock($1)', [id]); c.release(); }`,
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
    errors: [{ messageId: 'resultNeverRead' as const, line: 5, data: { name: 'released', release: 'compare-and-delete script', failure: '0' } }],
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
