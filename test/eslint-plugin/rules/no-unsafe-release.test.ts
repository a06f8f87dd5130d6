import * as path from 'node:path';
import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/no-unsafe-release.js';
import { proveSuggestions } from '../support/sql-suggestions.js';
import { suggestionsClearFindings } from '../support/suggestions-clear-findings.js';

const ruleTester = new RuleTester();
const fixtureFile = path.join(__dirname, '..', 'fixtures', 'lua', 'worker.ts');

/** The script as the suggestion passes it, a literal at the call. */
const RELEASE_LITERAL = `'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end'`;

const cases = {
  valid: [
    // The article's compare-and-delete script, ioredis.
    `import Redis from 'ioredis'; const redis = new Redis();
     const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';
     async function release(key, token) { await redis.eval(RELEASE, 1, key, token); }`,
    // node-redis eval with keys/arguments, an aliased redis.call and an early return.
    `import { createClient } from 'redis'; const client = createClient();
     const SCRIPT = \`local rcall = redis.call
       if rcall('get', KEYS[1]) ~= ARGV[1] then return 0 end
       return rcall('del', KEYS[1])\`;
     async function release(token) { await client.eval(SCRIPT, { keys: ['lock:report'], arguments: [token] }); }`,
    // Upstash eval(script, keys, args), owner decoded from JSON with cjson.
    `import { Redis } from '@upstash/redis'; const redis = Redis.fromEnv();
     const SCRIPT = [
       'local lock = cjson.decode(redis.call("GET", KEYS[1]) or "{}")',
       'if lock.owner == ARGV[1] then return redis.call("DEL", KEYS[1]) end',
       'return 0',
     ].join('\\n');
     export async function release(token: string) { await redis.eval(SCRIPT, ['lock:sync'], [token]); }`,
    // A script read from a .lua file at start-up.
    {
      code: `import Redis from 'ioredis'; import fs from 'node:fs'; import path from 'node:path';
        const redis = new Redis();
        const RELEASE = fs.readFileSync(path.join(__dirname, 'release.lua'), 'utf8');
        async function release(token) { await redis.eval(RELEASE, 1, 'lock:a', token); }`,
      filename: fixtureFile,
    },
    // defineCommand (ioredis), as bullmq and others register scripts.
    `import Redis from 'ioredis'; const redis = new Redis();
     redis.defineCommand('releaseLock', { numberOfKeys: 1, lua: 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0' });
     async function release(key, token) { await redis.releaseLock(key, token); }`,
    // Redlock v5 and v3/v4 releases, redis-semaphore.
    `import Redlock from 'redlock'; const redlock = new Redlock([client]);
     async function f() { const lock = await redlock.acquire(['lock:a'], 5000); try { await work(); } finally { await lock.release(); } }`,
    `const Redlock = require('redlock'); const redlock = new Redlock([client]);
     async function f() { const lock = await redlock.lock('lock:a', 5000); await work(); await lock.unlock(); }`,
    `import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis';
     const mutex = new Mutex(new Redis(), 'lock:a');
     async function f() { await mutex.acquire(); try { await work(); } finally { await mutex.release(); } }`,
    // Lookalikes: cache invalidation, logout, a Map.
    `import Redis from 'ioredis'; const cache = new Redis();
     async function invalidate(userId) { const userKey = 'user:' + userId; await cache.del(userKey); }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function logout(sessionId) { await client.del(\`sess:\${sessionId}\`); }`,
    `const locks = new Map(); function release(name) { locks.delete(name); }`,
    `const locks = new Map(); function release(name) { locks.del('lock:' + name); }`,
    // A script that deletes a cache key, not a lock.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function evict(id) { await redis.eval('return redis.call("DEL", KEYS[1])', 1, 'cache:' + id); }`,
  ],
  invalid: [
    {
      // iovalkey (Valkey's ioredis fork): a client named `store` is known by its constructor alone.
      code: `import Valkey from 'iovalkey';
const store = new Valkey();
async function runExclusive(work, token) {
  if (!(await store.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  try {
    await work();
  } finally {
    await store.del('lock:invoice');
  }
}`,
      errors: [{
        messageId: 'plainDelete', line: 8, column: 11,
        suggestions: [{
          messageId: 'useCompareAndDelete',
          output: `import Valkey from 'iovalkey';
const store = new Valkey();
async function runExclusive(work, token) {
  if (!(await store.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  try {
    await work();
  } finally {
    await store.eval(${RELEASE_LITERAL}, 1, 'lock:invoice', token);
  }
}`,
        }],
      }],
    },
    {
      // ioredis: the article's plain DEL, token from the acquisition.
      code: `import Redis from 'ioredis';
const redis = new Redis();
async function runExclusive(work) {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  try {
    await work();
  } finally {
    await redis.del('lock:invoice');
  }
}`,
      errors: [{
        messageId: 'plainDelete', line: 9, column: 11,
        suggestions: [{
          messageId: 'useCompareAndDelete',
          output: `import Redis from 'ioredis';
const redis = new Redis();
async function runExclusive(work) {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  try {
    await work();
  } finally {
    await redis.eval(${RELEASE_LITERAL}, 1, 'lock:invoice', token);
  }
}`,
        }],
      }],
    },
    {
      // ioredis: check-then-delete in JavaScript; the script already exists and is reused.
      code: `import Redis from 'ioredis';
const redis = new Redis();
const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';
export async function release(key: string, token: string) {
  if ((await redis.get(key)) === token) {
    await redis.unlink(key);
  }
}
export async function acquire(key: string, token: string) { return redis.set(key, token, 'PX', 10000, 'NX'); }`,
      errors: [{
        messageId: 'checkThenDelete', line: 6,
        suggestions: [{
          messageId: 'useCompareAndDelete',
          output: `import Redis from 'ioredis';
const redis = new Redis();
const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';
export async function release(key: string, token: string) {
  if ((await redis.get(key)) === token) {
    await redis.eval(RELEASE, 1, key, token);
  }
}
export async function acquire(key: string, token: string) { return redis.set(key, token, 'PX', 10000, 'NX'); }`,
        }],
      }],
    },
    {
      // node-redis v4: options object acquisition, DEL in a lock class.
      code: `import { createClient } from 'redis';
class ReportLock {
  private readonly client = createClient();
  private readonly key = 'lock:report';
  private token = '';
  async acquire() {
    this.token = crypto.randomUUID();
    return this.client.set(this.key, this.token, { NX: true, PX: 30000 });
  }
  async release() {
    await this.client.del(this.key);
  }
}`,
      errors: [{
        messageId: 'plainDelete', line: 11,
        suggestions: [{
          messageId: 'useCompareAndDelete',
          output: `import { createClient } from 'redis';
class ReportLock {
  private readonly client = createClient();
  private readonly key = 'lock:report';
  private token = '';
  async acquire() {
    this.token = crypto.randomUUID();
    return this.client.set(this.key, this.token, { NX: true, PX: 30000 });
  }
  async release() {
    await this.client.eval(${RELEASE_LITERAL}, { keys: [this.key], arguments: [this.token] });
  }
}`,
        }],
      }],
    },
    {
      // node-redis v5 spelling, DEL via sendCommand.
      code: `import { createClient } from 'redis';
const client = createClient();
export async function withLock(token: string, work: () => Promise<void>) {
  const ok = await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } });
  if (!ok) return;
  await work();
  await client.sendCommand(['DEL', 'lock:sync']);
}`,
      errors: [{ messageId: 'plainDelete', line: 7, suggestions: [{ messageId: 'useCompareAndDelete', output: `import { createClient } from 'redis';
const client = createClient();
export async function withLock(token: string, work: () => Promise<void>) {
  const ok = await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } });
  if (!ok) return;
  await work();
  await client.eval(${RELEASE_LITERAL}, { keys: ['lock:sync'], arguments: [token] });
}` }] }],
    },
    {
      // node_redis v3 callbacks.
      code: `const redis = require('redis');
const client = redis.createClient();
function release(lockToken, cb) {
  client.del('lock:cron', cb);
}`,
      errors: [{ messageId: 'plainDelete', line: 4, suggestions: [{ messageId: 'useCompareAndDelete', output: `const redis = require('redis');
const client = redis.createClient();
function release(lockToken, cb) {
  client.eval(${RELEASE_LITERAL}, 1, 'lock:cron', lockToken, cb);
}` }] }],
    },
    {
      // Upstash.
      code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function release(id: string, token: string) {
  await redis.del(\`locks:\${id}\`);
}`,
      errors: [{ messageId: 'plainDelete', line: 4, suggestions: [{ messageId: 'useCompareAndDelete', output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function release(id: string, token: string) {
  await redis.eval(${RELEASE_LITERAL}, [\`locks:\${id}\`], [token]);
}` }] }],
    },
    {
      // A Lua script that deletes without comparing the token.
      code: `import Redis from 'ioredis';
const redis = new Redis();
const FORCE = 'redis.call("DEL", KEYS[1]) return 1';
export async function release(token: string) {
  await redis.eval(FORCE, 1, 'lock:a', token);
}`,
      errors: [{ messageId: 'uncheckedScript', line: 5, suggestions: [{ messageId: 'useCompareAndDelete', output: `import Redis from 'ioredis';
const redis = new Redis();
const FORCE = 'redis.call("DEL", KEYS[1]) return 1';
export async function release(token: string) {
  await redis.eval(${RELEASE_LITERAL}, 1, 'lock:a', token);
}` }] }],
    },
    {
      // The same unchecked script, loaded from a .lua file.
      code: `import Redis from 'ioredis';
import { readFileSync } from 'node:fs';
const redis = new Redis();
const FORCE = readFileSync(__dirname + '/force-release.lua', 'utf8');
export async function release() {
  await redis.eval(FORCE, 1, 'lock:a');
}`,
      filename: fixtureFile,
      errors: [{ messageId: 'uncheckedScript', line: 6, suggestions: [] }],
    },
    {
      // DEL inside MULTI: no in-place fix (the exec() reply shape would change).
      code: `import Redis from 'ioredis';
const redis = new Redis();
export async function release(token: string) {
  await redis.multi().del('lock:a').exec();
}`,
      errors: [{ messageId: 'plainDelete', line: 4, suggestions: [] }],
    },
    {
      // The article's attempt 1: a check that the lock is free is no owner check.
      code: `export async function run(redis) {
  if ((await redis.get('lock:invoice')) === null) {
    await redis.set('lock:invoice', '1');
    await redis.del('lock:invoice');
  }
}`,
      errors: [{ messageId: 'plainDelete', line: 4, suggestions: [] }],
    },
    {
      // The key alone says "lock"; the token cannot be found: report without a suggestion.
      code: `export async function cleanup(redis, jobId) {
  await redis.del('lock:job:' + jobId);
}`,
      errors: [{ messageId: 'plainDelete', line: 2, suggestions: [] }],
    },
  ],
} satisfies Parameters<typeof ruleTester.run<MessageId, []>>[2];

ruleTester.run('no-unsafe-release', rule, cases);
suggestionsClearFindings('no-unsafe-release', rule, cases.invalid);

// The lock-table form: a DELETE (or an UPDATE clearing the owner) whose WHERE does not compare the owner.
const pgInvalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // pg: the owner value is the acquisition's parameter; `$3` appended.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval \\'30 seconds\\')', [name, owner]);
  try {
    await doJob(name);
  } finally {
    await pool.query('DELETE FROM job_locks WHERE name = $1', [name]);
  }
}`,
    errors: [{
      messageId: 'unownedRowRelease', line: 8, column: 11,
      suggestions: [{
        messageId: 'compareOwner',
        output: `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval \\'30 seconds\\')', [name, owner]);
  try {
    await doJob(name);
  } finally {
    await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);
  }
}`,
      }],
    }],
  },
  {
    // pg PoolClient, an owner check in JavaScript first: still two statements.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export class JobLock {
  constructor(private readonly name: string, private readonly owner: string) {}
  async acquire() {
    await pool.query('INSERT INTO job_locks (name, owner) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner WHERE job_locks.expires_at < now()', [this.name, this.owner]);
  }
  async release() {
    const client = await pool.connect();
    try {
      const { rows } = await client.query('SELECT owner FROM job_locks WHERE name = $1', [this.name]);
      if (rows[0]?.owner === this.owner) await client.query('DELETE FROM job_locks WHERE name = $1', [this.name]);
    } finally {
      client.release();
    }
  }
}`,
    errors: [{
      messageId: 'unownedRowRelease', line: 12, column: 48,
      suggestions: [{
        messageId: 'compareOwner',
        output: `import { Pool } from 'pg';
const pool = new Pool();
export class JobLock {
  constructor(private readonly name: string, private readonly owner: string) {}
  async acquire() {
    await pool.query('INSERT INTO job_locks (name, owner) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner WHERE job_locks.expires_at < now()', [this.name, this.owner]);
  }
  async release() {
    const client = await pool.connect();
    try {
      const { rows } = await client.query('SELECT owner FROM job_locks WHERE name = $1', [this.name]);
      if (rows[0]?.owner === this.owner) await client.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [this.name, this.owner]);
    } finally {
      client.release();
    }
  }
}`,
      }],
    }],
  },
  {
    // postgres.js: the owner interpolated; acquire and release in two functions with a parameter of the same name.
    code: `import postgres from 'postgres';
const sql = postgres();
export async function acquire(name: string, owner: string) {
  await sql\`INSERT INTO app_lock (name, owner) VALUES (\${name}, \${owner}) ON CONFLICT DO NOTHING\`;
}
export async function release(name: string, owner: string) {
  await sql\`DELETE FROM app_lock WHERE name = \${name}\`;
}`,
    errors: [{
      messageId: 'unownedRowRelease', line: 7, column: 9,
      suggestions: [{
        messageId: 'compareOwner',
        output: `import postgres from 'postgres';
const sql = postgres();
export async function acquire(name: string, owner: string) {
  await sql\`INSERT INTO app_lock (name, owner) VALUES (\${name}, \${owner}) ON CONFLICT DO NOTHING\`;
}
export async function release(name: string, owner: string) {
  await sql\`DELETE FROM app_lock WHERE name = \${name} AND owner = \${owner}\`;
}`,
      }],
    }],
  },
  {
    // knex raw: `?` placeholders, the owner bound where its placeholder falls.
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, workerId: string) {
  await db.raw('INSERT INTO job_locks (name, locked_by) VALUES (?, ?)', [name, workerId]);
  await doJob(name);
  await db.raw('DELETE FROM job_locks WHERE name = ?', [name]);
}`,
    errors: [{
      messageId: 'unownedRowRelease', line: 6, column: 9,
      suggestions: [{
        messageId: 'compareOwner',
        output: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, workerId: string) {
  await db.raw('INSERT INTO job_locks (name, locked_by) VALUES (?, ?)', [name, workerId]);
  await doJob(name);
  await db.raw('DELETE FROM job_locks WHERE name = ? AND locked_by = ?', [name, workerId]);
}`,
      }],
    }],
  },
  {
    // Prisma: an UPDATE that clears the owner.
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function runJob(name: string, owner: string) {
  await prisma.$executeRaw\`INSERT INTO job_locks (name, owner, expires_at) VALUES (\${name}, \${owner}, now() + interval '1 minute')\`;
  await doJob(name);
  await prisma.$executeRaw\`UPDATE job_locks SET owner = NULL, expires_at = NULL WHERE name = \${name}\`;
}`,
    errors: [{
      messageId: 'unownedRowRelease', line: 6, column: 9,
      suggestions: [{
        messageId: 'compareOwner',
        output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function runJob(name: string, owner: string) {
  await prisma.$executeRaw\`INSERT INTO job_locks (name, owner, expires_at) VALUES (\${name}, \${owner}, now() + interval '1 minute')\`;
  await doJob(name);
  await prisma.$executeRaw\`UPDATE job_locks SET owner = NULL, expires_at = NULL WHERE name = \${name} AND owner = \${owner}\`;
}`,
      }],
    }],
  },
  {
    // The owner is not a bound value: reported without a suggestion.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function acquire(name: string) {
  await pool.query("INSERT INTO job_locks (name, owner) VALUES ($1, 'singleton')", [name]);
}
export async function release(name: string) {
  await pool.query('DELETE FROM job_locks WHERE name = $1', [name]);
}`,
    errors: [{ messageId: 'unownedRowRelease', line: 7, column: 9, suggestions: [] }],
  },
  {
    // No acquisition in the file, but the table has an owner: reported without a suggestion.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function takeOver(name: string) {
  await pool.query('UPDATE job_locks SET owner = $2 WHERE name = $1 AND expires_at < now()', [name, 'me']);
}
export async function release(name: string) {
  await pool.query('DELETE FROM job_locks WHERE name = $1', [name]);
}`,
    errors: [{ messageId: 'unownedRowRelease', line: 7, column: 9, suggestions: [] }],
  },
];

ruleTester.run('no-unsafe-release (lock tables)', rule, {
  valid: [
    // The owner compared in the WHERE: pg, postgres.js, knex.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function release(name: string, owner: string) { await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]); }`,
    `import postgres from 'postgres'; const sql = postgres();
     async function release(name: string, owner: string) { await sql\`UPDATE app_lock SET owner = NULL WHERE name = \${name} AND owner = \${owner}\`; }`,
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function release(name: string, token: string) { await db.raw('DELETE FROM shedlock WHERE name = ? AND lock_token = ?', [name, token]); }`,
    // Not lock tables: an ordinary DELETE; a table named like one that nothing in the file takes as a lock.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function logout(id: string) { await pool.query('DELETE FROM sessions WHERE id = $1', [id]); }
     async function unlockAccount(userId: string) { await pool.query('DELETE FROM account_locks WHERE user_id = $1', [userId]); }`,
    // A sweep of expired rows, a renewal that keeps the owner, a reset with no WHERE.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function sweep() { await pool.query('DELETE FROM job_locks WHERE expires_at < now()'); }
     async function renew(name: string, owner: string) { await pool.query("UPDATE job_locks SET expires_at = now() + interval '30 seconds' WHERE name = $1 AND owner = $2", [name, owner]); }
     async function reset() { await pool.query('DELETE FROM job_locks'); }`,
    // The row named by the handle its own acquisition returned.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function run(name: string, owner: string) { const { rows } = await pool.query('INSERT INTO job_locks (name, owner) VALUES ($1, $2) RETURNING id', [name, owner]); try { await work(); } finally { await pool.query('DELETE FROM job_locks WHERE id = $1', [rows[0].id]); } }`,
    // An UPDATE that hands the row to a new owner is an acquisition's business (no-lock-takeover), not a release.
    `import { Pool } from 'pg'; const pool = new Pool();
     async function take(name: string, owner: string) { await pool.query('UPDATE job_locks SET owner = $2 WHERE name = $1 AND expires_at < now()', [name, owner]); }`,
  ],
  invalid: pgInvalid,
});

suggestionsClearFindings('no-unsafe-release', rule, pgInvalid);
proveSuggestions('no-unsafe-release', rule, pgInvalid);
