import * as path from 'node:path';
import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import { DEBOUNCE_LATCH, IDEMPOTENCY_INTERCEPTOR, IDEMPOTENCY_SERVICE } from '../support/lookalikes.js';
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
      errors: [
        {
          messageId: 'plainDelete',
          line: 8,
          column: 11,
          suggestions: [
            {
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
            },
          ],
        },
      ],
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
      errors: [
        {
          messageId: 'plainDelete',
          line: 9,
          column: 11,
          suggestions: [
            {
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
            },
          ],
        },
      ],
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
      errors: [
        {
          messageId: 'checkThenDelete',
          line: 6,
          suggestions: [
            {
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
            },
          ],
        },
      ],
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
      errors: [
        {
          messageId: 'plainDelete',
          line: 11,
          suggestions: [
            {
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
            },
          ],
        },
      ],
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
      errors: [
        {
          messageId: 'plainDelete',
          line: 7,
          suggestions: [
            {
              messageId: 'useCompareAndDelete',
              output: `import { createClient } from 'redis';
const client = createClient();
export async function withLock(token: string, work: () => Promise<void>) {
  const ok = await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } });
  if (!ok) return;
  await work();
  await client.eval(${RELEASE_LITERAL}, { keys: ['lock:sync'], arguments: [token] });
}`,
            },
          ],
        },
      ],
    },
    {
      // node_redis v3 callbacks.
      code: `const redis = require('redis');
const client = redis.createClient();
function release(lockToken, cb) {
  client.del('lock:cron', cb);
}`,
      errors: [
        {
          messageId: 'plainDelete',
          line: 4,
          suggestions: [
            {
              messageId: 'useCompareAndDelete',
              output: `const redis = require('redis');
const client = redis.createClient();
function release(lockToken, cb) {
  client.eval(${RELEASE_LITERAL}, 1, 'lock:cron', lockToken, cb);
}`,
            },
          ],
        },
      ],
    },
    {
      // Upstash.
      code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function release(id: string, token: string) {
  await redis.del(\`locks:\${id}\`);
}`,
      errors: [
        {
          messageId: 'plainDelete',
          line: 4,
          suggestions: [
            {
              messageId: 'useCompareAndDelete',
              output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function release(id: string, token: string) {
  await redis.eval(${RELEASE_LITERAL}, [\`locks:\${id}\`], [token]);
}`,
            },
          ],
        },
      ],
    },
    {
      // A Lua script that deletes without comparing the token.
      code: `import Redis from 'ioredis';
const redis = new Redis();
const FORCE = 'redis.call("DEL", KEYS[1]) return 1';
export async function release(token: string) {
  await redis.eval(FORCE, 1, 'lock:a', token);
}`,
      errors: [
        {
          messageId: 'uncheckedScript',
          line: 5,
          suggestions: [
            {
              messageId: 'useCompareAndDelete',
              output: `import Redis from 'ioredis';
const redis = new Redis();
const FORCE = 'redis.call("DEL", KEYS[1]) return 1';
export async function release(token: string) {
  await redis.eval(${RELEASE_LITERAL}, 1, 'lock:a', token);
}`,
            },
          ],
        },
      ],
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
    // An upsert that returns the lock's own name (the conflict target, the same for every holder):
    // no per-acquisition handle, so the DELETE by name still frees whoever holds the row now.
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query(\`INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval '30 seconds')
    ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at WHERE job_locks.expires_at < now()
    RETURNING name\`, [name, owner]);
  try {
    await doJob(name);
  } finally {
    await pool.query('DELETE FROM job_locks WHERE name = $1', [name]);
  }
}`,
    errors: [
      {
        messageId: 'unownedRowRelease',
        line: 10,
        column: 11,
        suggestions: [
          {
            messageId: 'compareOwner',
            output: `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query(\`INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now() + interval '30 seconds')
    ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at WHERE job_locks.expires_at < now()
    RETURNING name\`, [name, owner]);
  try {
    await doJob(name);
  } finally {
    await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);
  }
}`,
          },
        ],
      },
    ],
  },
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
    errors: [
      {
        messageId: 'unownedRowRelease',
        line: 8,
        column: 11,
        suggestions: [
          {
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
          },
        ],
      },
    ],
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
    errors: [
      {
        messageId: 'unownedRowRelease',
        line: 12,
        column: 48,
        suggestions: [
          {
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
          },
        ],
      },
    ],
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
    errors: [
      {
        messageId: 'unownedRowRelease',
        line: 7,
        column: 9,
        suggestions: [
          {
            messageId: 'compareOwner',
            output: `import postgres from 'postgres';
const sql = postgres();
export async function acquire(name: string, owner: string) {
  await sql\`INSERT INTO app_lock (name, owner) VALUES (\${name}, \${owner}) ON CONFLICT DO NOTHING\`;
}
export async function release(name: string, owner: string) {
  await sql\`DELETE FROM app_lock WHERE name = \${name} AND owner = \${owner}\`;
}`,
          },
        ],
      },
    ],
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
    errors: [
      {
        messageId: 'unownedRowRelease',
        line: 6,
        column: 9,
        suggestions: [
          {
            messageId: 'compareOwner',
            output: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, workerId: string) {
  await db.raw('INSERT INTO job_locks (name, locked_by) VALUES (?, ?)', [name, workerId]);
  await doJob(name);
  await db.raw('DELETE FROM job_locks WHERE name = ? AND locked_by = ?', [name, workerId]);
}`,
          },
        ],
      },
    ],
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
    errors: [
      {
        messageId: 'unownedRowRelease',
        line: 6,
        column: 9,
        suggestions: [
          {
            messageId: 'compareOwner',
            output: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function runJob(name: string, owner: string) {
  await prisma.$executeRaw\`INSERT INTO job_locks (name, owner, expires_at) VALUES (\${name}, \${owner}, now() + interval '1 minute')\`;
  await doJob(name);
  await prisma.$executeRaw\`UPDATE job_locks SET owner = NULL, expires_at = NULL WHERE name = \${name} AND owner = \${owner}\`;
}`,
          },
        ],
      },
    ],
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

// The lock-table form written with knex's query builder: the same facts, read from the chain. No
// suggestion: the owner comparison would be a builder call, and only SQL text is edited.
ruleTester.run('no-unsafe-release (knex query builder)', rule, {
  valid: [
    // The owner compared: an object where, a chained where, an UPDATE clearing the owner of this holder's row.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function take(name: string, owner: string) { await db('locks').insert({ name, owner, expires_at: new Date(Date.now() + 30000) }); }
     async function release(name: string, owner: string) { await db('locks').where({ name, owner }).del(); }
     async function release2(name: string, owner: string) { await db('locks').where('name', name).andWhere('owner', owner).delete(); }
     async function release3(name: string, owner: string) { await db('locks').update({ owner: null }).where({ name, owner }); }`,
    // A sweep of expired rows; a release the reader cannot follow (whereRaw) is no finding.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function take(name: string, owner: string) { await db('locks').insert({ name, owner }); }
     async function sweep() { await db('locks').where('expires_at', '<', db.fn.now()).del(); }
     async function release(name: string, owner: string) { await db('locks').whereRaw('name = ? and owner = ?', [name, owner]).del(); }`,
    // Lookalikes: sessions with an expiry but no owner, a cache, a queue, each freed by key.
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function login(id: string, userId: string) { await db('sessions').insert({ id, user_id: userId, expires_at: new Date() }); }
     async function logout(id: string) { await db('sessions').where({ id }).del(); }
     async function put(key: string, value: string) { await db('cache').insert({ key, value, expires_at: new Date() }).onConflict('key').merge(); }
     async function evict(key: string) { await db('cache').where('key', key).del(); }
     async function enqueue(id: string) { await db('queue').insert({ id, status: 'pending' }); }
     async function done(id: string) { await db('queue').where({ id }).del(); }`,
    // A table named like a lock table that nothing in the file takes as a lock (an account lockout).
    `import knex from 'knex'; const db = knex({ client: 'pg' });
     async function unlockAccount(userId: string) { await db('account_locks').where({ user_id: userId }).del(); }`,
  ],
  invalid: [
    {
      // The row has no owner column: whoever holds the row now loses it.
      code: `const knex = require('knex');
class Channels {
  constructor(config) { this.knex = knex(config); }
  async lock(channel) { await this.knex('locks').insert({ key: channel, expired_at: Date.now() + 60000 }); }
  async unlock(channel) { await this.knex('locks').where('key', channel).delete(); }
}`,
      errors: [{ messageId: 'unownedRowRelease', line: 5, column: 33, suggestions: [] }],
    },
    {
      // An owner is written but not compared; the UPDATE that clears it is a release too.
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, owner: string) {
  await db('job_locks').insert({ name, owner, expires_at: db.raw("now() + interval '30 seconds'") }).onConflict('name').ignore();
  await doJob(name);
  await db('job_locks').where({ name }).update({ owner: null });
}`,
      errors: [{ messageId: 'unownedRowRelease', line: 6, column: 9, suggestions: [] }],
    },
  ],
});

// Test code and data keys: what a DEL deletes when it is not a held lock. Each real shape is
// rewritten here, with the repository and file it comes from.
const housekeeping = {
  valid: [
    // mike-marcacci/node-redlock src/multi.test.ts: the test seeds a competing value with a plain SET
    // on one instance so that the Redlock acquisition loses there, then deletes that value.
    `import test from 'ava';
     import Redis from 'ioredis';
     import Redlock from './index.js';
     function suite(name, redisA, redisB, redisC) {
       test(name + ' - a minority of instances refuse', async (t) => {
         const redlock = new Redlock([redisA, redisB, redisC]);
         await redisC.set('{redlock}seeded', 'someone-else');
         const lock = await redlock.acquire(['{redlock}seeded'], 10000);
         t.is(await redisC.get('{redlock}seeded'), 'someone-else');
         await lock.release();
         await redisC.del('{redlock}seeded');
       });
       test(name + ' - a majority of instances refuse', async (t) => {
         await redisB.set('{redlock}taken', 'other-1');
         await redisC.set('{redlock}taken', 'other-2');
         try { await new Redlock([redisA, redisB, redisC]).acquire(['{redlock}taken'], 10000); } catch { t.pass(); }
         await redisB.del('{redlock}taken');
         await redisC.del('{redlock}taken');
       });
     }
     suite('instance', new Redis(), new Redis(), new Redis());`,
    // The same test against the published package: the acquisition is seen, and the DEL still
    // deletes the value its own test wrote with a plain SET.
    `import test from 'ava';
     import Redis from 'ioredis';
     import Redlock from 'redlock';
     const a = new Redis(); const b = new Redis();
     test('the lock survives one refusing instance', async (t) => {
       await b.set('lock:report', 'other');
       const lock = await new Redlock([a, b]).acquire(['lock:report'], 5000);
       t.truthy(lock);
       await lock.release();
       await b.del('lock:report');
     });`,
    // mocha teardown of a key the module's own helper takes with SET NX: between tests nothing holds it.
    `import Redis from 'ioredis';
     const redis = new Redis();
     async function takeLock(token) { return redis.set('lock:billing', token, 'NX', 'PX', 5000); }
     describe('billing', () => {
       afterEach(() => redis.del('lock:billing'));
       it('takes the lock', async () => { await takeLock('t1'); });
     });`,
    // jest: beforeEach seeds the keys, afterAll deletes them, flushall resets the instance.
    `import { beforeEach, afterAll, test, expect } from '@jest/globals';
     import Redis from 'ioredis';
     const redis = new Redis();
     beforeEach(async () => { await redis.set('lock:seed', 'holder'); });
     afterAll(async () => { await redis.del('lock:seed'); await redis.flushall(); });
     test('reads the seed', async () => { expect(await redis.get('lock:seed')).toBe('holder'); });`,
    // mike-marcacci/node-redlock test.js (v4): a local \`test(name, clients)\` around mocha's globals;
    // the hooks delete the resource on every client, and a hook passed by name does the same.
    `const redis = require('redis');
     const Redlock = require('redlock');
     function test(name, client) {
       const redlock = new Redlock([client]);
       const resource = 'Redlock:test:resource';
       function clearResource(done) { client.del(resource, done); }
       describe('Redlock: ' + name, function () {
         before(function (done) { client.del(resource, done); });
         after(clearResource);
         it('locks a resource', function (done) { redlock.lock(resource, 200, done); });
       });
     }
     test('node_redis', redis.createClient());`,
    // swarthy/redis-semaphore test/src/RedisMutex.test.ts, with a project that counts \`mutex\` as a
    // lock word: the test deletes the library's key to simulate an expiry between refreshes.
    {
      code: `import { Mutex } from 'redis-semaphore';
        import Redis from 'ioredis';
        const client = new Redis();
        describe('Mutex', () => {
          it('re-acquires a lock that expired between refreshes', async () => {
            const mutex = new Mutex(client, 'key', { lockTimeout: 300, refreshInterval: 80 });
            await mutex.acquire();
            await client.del('mutex:key');
            await mutex.release();
          });
        });`,
      settings: { locksmith: { lockKeyPattern: 'lock|mutex' } },
    },
    // node:test: t.after on the test's context.
    `import { test } from 'node:test';
     import Redis from 'ioredis';
     const redis = new Redis();
     test('reports the holder', async (t) => {
       t.after(() => redis.del('lock:holder'));
       await redis.set('lock:holder', 'me', 'NX', 'PX', 1000);
     });`,
    // maianhvan04-coder/SHOPHOAQUAHEHBEHEHE backend/src/scripts/unblock-localhost.js: "block", not "lock".
    `const redis = require('../infra/redis/redis.client');
     async function run() {
       await redis.del('login:block:ip:127.0.0.1');
       await redis.del('login:block:ip:::1');
     }
     run();`,
    // A login-lockout helper (backend/utils/loginLockout.js, found through the code search): a
    // lockout is an account state, and resetting it is no release.
    `import { getRedisClient } from '../config/redis.js';
     function lockoutKey(id) { return \`login:lockout:\${id}\`; }
     export async function lockOut(id) { const client = await getRedisClient(); await client.set(lockoutKey(id), '1', { PX: 300000 }); }
     export async function resetLoginAttempts(id) { const client = await getRedisClient(); await client.del(lockoutKey(id)); }`,
    // A failed-login counter that marks the account with SET lockKey "locked" EX (the shape of a
    // public incrementFailedAttempts helper), and a sibling that clears it: the module stores data
    // under that key with a plain SET, each function with its own \`lockKey\` parameter.
    `import { createClient } from 'redis';
     const redisClient = createClient();
     export async function incrementFailedAttempts(attemptsKey: string, lockKey: string) {
       const attempts = await redisClient.incr(attemptsKey);
       if (attempts >= 5) await redisClient.set(lockKey, 'locked', { EX: 600 });
     }
     export async function clearFailedAttempts(attemptsKey: string, lockKey: string) {
       await redisClient.del(attemptsKey);
       await redisClient.del(lockKey);
     }`,
    // Flags and clocks named with "lock" inside another word.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function unlockAccount(id) { await redis.del(\`user:\${id}:locked\`); await redis.del('clock:skew'); await redis.del(\`deadlock:count:\${id}\`); }`,
    // A presence hash named "locks": written with HSET, cleared with DEL.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function join(room, user) { await redis.hset(\`locks:\${room}\`, user, Date.now()); }
     export async function closeRoom(room) { await redis.del(\`locks:\${room}\`); }`,
    // A ticket hold cached under a key named "lock:…", stored through the client service's own JSON
    // setter and deleted when the order is confirmed: data, not a lock.
    `import { RedisService } from '../redis/redis.service';
     export class InventoryService {
       constructor(private readonly redisService: RedisService) {}
       private getLockCacheKey(lockBatchNo: string) { return \`lock:batch:\${lockBatchNo}\`; }
       async hold(hold: object, ttl: number) {
         const lockBatchNo = \`LK\${Date.now()}\`;
         await this.redisService.setJson(this.getLockCacheKey(lockBatchNo), hold, ttl);
         return lockBatchNo;
       }
       async confirm(lockBatchNo: string) { await this.redisService.del(this.getLockCacheKey(lockBatchNo)); }
     }`,
    // A lock service that doubles as a key-value store (plain writes of caller-chosen keys): only its
    // methods named for locking take or free a lock; deleteKey(key) deletes whatever the caller stored.
    `import Redis from 'ioredis';
     const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
     export class RedisLockService {
       constructor(private readonly redis: Redis) {}
       async acquire(key: string, value: string, ttlMs: number) { return (await this.redis.set(key, value, 'PX', ttlMs, 'NX')) === 'OK'; }
       async release(key: string, value: string) { return (await this.redis.eval(RELEASE, 1, key, value)) === 1; }
       async set(key: string, value: unknown, ttlMs: number) { await this.redis.set(key, JSON.stringify(value), 'PX', ttlMs); }
       async deleteKey(key: string) { await this.redis.del(key); }
     }`,
    // A debounce latch: the DEL on the branch that returns before the SET NX PX re-arms it.
    DEBOUNCE_LATCH,
    // An idempotency record: claimed with SET NX, overwritten with the result (or marked done) by a
    // plain SET, deleted when the work failed so that a retry can run. Not a lock.
    IDEMPOTENCY_INTERCEPTOR,
    IDEMPOTENCY_SERVICE,
    // A test helper that deletes a job's lock key to simulate a stall, called from a hook and from
    // a test body: staging the scenario, not freeing a lock it holds.
    `import Redis from 'ioredis';
     const redis = new Redis();
     async function simulateStall(jobId) { await redis.del(\`jobs:\${jobId}:lock\`); }
     describe('stalled jobs', () => {
       beforeEach(async () => { await simulateStall('1'); });
       it('picks the job up again', async () => { await simulateStall('2'); });
     });`,
  ],
  invalid: [
    {
      // A test case that takes the lock itself with SET NX and frees it with a plain DEL exercises
      // that unsafe release: it stays a finding (it is the code a holder would copy).
      code: `import Redis from 'ioredis';
const redis = new Redis();
describe('report lock', () => {
  it('runs once', async () => {
    const token = crypto.randomUUID();
    await redis.set('lock:report', token, 'NX', 'PX', 1000);
    await redis.del('lock:report');
  });
});`,
      errors: [
        {
          messageId: 'plainDelete',
          line: 7,
          suggestions: [
            {
              messageId: 'useCompareAndDelete',
              output: `import Redis from 'ioredis';
const redis = new Redis();
describe('report lock', () => {
  it('runs once', async () => {
    const token = crypto.randomUUID();
    await redis.set('lock:report', token, 'NX', 'PX', 1000);
    await redis.eval(${RELEASE_LITERAL}, 1, 'lock:report', token);
  });
});`,
            },
          ],
        },
      ],
    },
    {
      // lodash's after(n, fn) is not a test hook: the release in it is production code.
      code: `import Redis from 'ioredis';
import { after } from 'lodash';
const redis = new Redis();
export async function runBatch(jobs, token) {
  if (!(await redis.set('lock:batch', token, 'NX', 'PX', 30000))) return;
  const done = after(jobs.length, async () => { await redis.del('lock:batch'); });
  for (const job of jobs) job.run().then(done);
}`,
      errors: [
        {
          messageId: 'plainDelete',
          line: 6,
          suggestions: [
            {
              messageId: 'useCompareAndDelete',
              output: `import Redis from 'ioredis';
import { after } from 'lodash';
const redis = new Redis();
export async function runBatch(jobs, token) {
  if (!(await redis.set('lock:batch', token, 'NX', 'PX', 30000))) return;
  const done = after(jobs.length, async () => { await redis.eval(${RELEASE_LITERAL}, 1, 'lock:batch', token); });
  for (const job of jobs) job.run().then(done);
}`,
            },
          ],
        },
      ],
    },
    {
      // The naive lock: a GET decides the plain SET, so the SET takes the lock (however badly),
      // and the DEL after it still frees a lock.
      code: `import Redis from 'ioredis';
const redis = new Redis();
export async function nightly() {
  if (await redis.get('lock:nightly')) return;
  await redis.set('lock:nightly', '1');
  try { await work(); } finally { await redis.del('lock:nightly'); }
}`,
      errors: [{ messageId: 'plainDelete', line: 6, suggestions: [] }],
    },
    {
      // Lock helpers beside a cache helper whose key parameter has the same name: the cache's plain
      // SET says nothing of the lock's key.
      code: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquireLock(key: string, token: string) { return redis.set(key, token, 'NX', 'PX', 30000); }
export async function cacheSet(key: string, value: unknown) { await redis.set(key, JSON.stringify(value), 'EX', 60); }
export async function releaseLock(key: string) { await redis.del(key); }`,
      errors: [{ messageId: 'plainDelete', line: 5, suggestions: [] }],
    },
    {
      // The "lock:batch:…" key deleted through the same service, with nothing storing a value under it.
      code: `import { RedisService } from '../redis/redis.service';
export class InventoryService {
  constructor(private readonly redisService: RedisService) {}
  private getLockCacheKey(lockBatchNo: string) { return \`lock:batch:\${lockBatchNo}\`; }
  async confirm(lockBatchNo: string) { await this.redisService.del(this.getLockCacheKey(lockBatchNo)); }
}`,
      errors: [{ messageId: 'plainDelete', line: 5, suggestions: [] }],
    },
    {
      // The same service storing nothing else: its generic delete frees the locks it takes.
      code: `import Redis from 'ioredis';
export class RedisLockService {
  constructor(private readonly redis: Redis) {}
  async acquire(key: string, value: string, ttlMs: number) { return (await this.redis.set(key, value, 'PX', ttlMs, 'NX')) === 'OK'; }
  async deleteKey(key: string) { await this.redis.del(key); }
}`,
      errors: [{ messageId: 'plainDelete', line: 5, suggestions: [] }],
    },
    {
      // A lock's key deleted on a branch that returns before the function takes it frees whoever
      // holds it now: not a latch re-armed.
      code: `import Redis from 'ioredis';
const redis = new Redis();
export async function nightly(token: string, force: boolean) {
  if (force) { await redis.del('lock:nightly'); return; }
  if (!(await redis.set('lock:nightly', token, 'NX', 'PX', 30000))) return;
  await work();
}`,
      errors: [
        {
          messageId: 'plainDelete',
          line: 4,
          suggestions: [
            {
              messageId: 'useCompareAndDelete',
              output: `import Redis from 'ioredis';
const redis = new Redis();
export async function nightly(token: string, force: boolean) {
  if (force) { await redis.eval(${RELEASE_LITERAL}, 1, 'lock:nightly', token); return; }
  if (!(await redis.set('lock:nightly', token, 'NX', 'PX', 30000))) return;
  await work();
}`,
            },
          ],
        },
      ],
    },
  ],
} satisfies Parameters<typeof ruleTester.run<MessageId, []>>[2];

ruleTester.run('no-unsafe-release (test code and data keys)', rule, housekeeping);

// WATCH, GET, compare, then DEL: atomic only on a connection of its own, inside MULTI/EXEC, with
// EXEC's null reply read. A shared client carries other callers' commands between WATCH and EXEC.
const watchInvalid = [
  {
    // ioredis: WATCH on the module's shared client, DEL in MULTI/EXEC, the reply read.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function release(token: string) {
  await redis.watch('lock:invoice');
  if ((await redis.get('lock:invoice')) !== token) { await redis.unwatch(); return false; }
  const reply = await redis.multi().del('lock:invoice').exec();
  return reply !== null;
}`,
    errors: [{ messageId: 'watchOnSharedClient' as const, line: 6, suggestions: [] }],
  },
  {
    // ioredis: WATCH on the shared client and a plain DEL under a JavaScript owner check.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function release(token: string) {
  await redis.watch('lock:invoice');
  if ((await redis.get('lock:invoice')) === token) await redis.del('lock:invoice');
}`,
    errors: [
      {
        messageId: 'watchOnSharedClient' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'useCompareAndDelete' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function release(token: string) {
  await redis.watch('lock:invoice');
  if ((await redis.get('lock:invoice')) === token) await redis.eval(${RELEASE_LITERAL}, 1, 'lock:invoice', token);
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis: the shared client; its commands from concurrent callers share one connection.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function release(token: string) {
  await client.watch('lock:report');
  if ((await client.get('lock:report')) === token) {
    const reply = await client.multi().del('lock:report').exec();
    return reply !== null;
  }
  return false;
}`,
    errors: [{ messageId: 'watchOnSharedClient' as const, line: 6, suggestions: [] }],
  },
  {
    // ioredis duplicate(): a connection of its own, but EXEC's reply is dropped, so an aborted
    // transaction (the key changed after WATCH) passes for a release.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function release(token: string) {
  const connection = redis.duplicate();
  await connection.watch('lock:invoice');
  if ((await connection.get('lock:invoice')) === token) await connection.multi().del('lock:invoice').exec();
  connection.disconnect();
}`,
    errors: [{ messageId: 'watchUnchecked' as const, line: 6, suggestions: [] }],
  },
];

ruleTester.run('no-unsafe-release (WATCH)', rule, {
  valid: [
    // ioredis duplicate(): WATCH, GET, compare, MULTI/DEL/EXEC, null reply read.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function release(token: string) {
       const connection = redis.duplicate();
       try {
         await connection.watch('lock:invoice');
         if ((await connection.get('lock:invoice')) !== token) return false;
         const reply = await connection.multi().del('lock:invoice').exec();
         return reply !== null;
       } finally { connection.disconnect(); }
     }`,
    // A client checked out of a pool (generic-pool), the transaction held in a variable.
    `import Redis from 'ioredis'; import { createPool } from 'generic-pool';
     const pool = createPool({ create: async () => new Redis(), destroy: async (c) => { c.disconnect(); } });
     export async function release(key: string, token: string) {
       const conn = await pool.acquire();
       try {
         await conn.watch(key);
         if ((await conn.get(key)) !== token) return false;
         const tx = conn.multi();
         tx.del(key);
         const reply = await tx.exec();
         return reply !== null;
       } finally { await pool.release(conn); }
     }`,
    // node-redis 4: executeIsolated runs the callback on a connection of its own.
    `import { createClient } from 'redis'; const client = createClient();
     export async function release(token: string) {
       return client.executeIsolated(async (isolated) => {
         await isolated.watch('lock:report');
         if ((await isolated.get('lock:report')) !== token) return false;
         const reply = await isolated.multi().del('lock:report').exec();
         return reply !== null;
       });
     }`,
    // A watch of something else (a file watcher) beside a compare-and-delete release.
    `import Redis from 'ioredis'; import { watch } from 'node:fs'; const redis = new Redis();
     const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';
     export function follow(file: string, token: string) { watch(file, () => { void redis.eval(RELEASE, 1, 'lock:file', token); }); }`,
  ],
  invalid: watchInvalid,
});
suggestionsClearFindings('no-unsafe-release (WATCH)', rule, watchInvalid);

// The owner read in a pipeline or transaction (`exec()`'s reply array), the delete in a later
// command or pipeline: two round trips, so still check-then-delete.
const pipelineInvalid = [
  {
    // ioredis: GET and PTTL in one pipeline, the GET's reply read as `results[0][1]`.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function release(key: string, token: string) {
  const results = await redis.pipeline().get(key).pttl(key).exec();
  if (results?.[0]?.[1] === token) await redis.del(key);
}`,
    errors: [
      {
        messageId: 'checkThenDelete' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'useCompareAndDelete' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function release(key: string, token: string) {
  const results = await redis.pipeline().get(key).pttl(key).exec();
  if (results?.[0]?.[1] === token) await redis.eval(${RELEASE_LITERAL}, 1, key, token);
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: the reply destructured from a MULTI's `[error, reply]` pairs.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function release(key: string, token: string) {
  const [[, owner]] = (await redis.multi().get(key).exec())!;
  if (owner === token) await redis.unlink(key);
}`,
    errors: [
      {
        messageId: 'checkThenDelete' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'useCompareAndDelete' as const,
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function release(key: string, token: string) {
  const [[, owner]] = (await redis.multi().get(key).exec())!;
  if (owner === token) await redis.eval(${RELEASE_LITERAL}, 1, key, token);
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis: exec() resolves to the replies themselves, the GET's is \`replies[0]\`.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function release(key: string, token: string) {
  const replies = await client.multi().get(key).pTTL(key).exec();
  if (replies[0] === token) await client.del(key);
}`,
    errors: [
      {
        messageId: 'checkThenDelete' as const,
        line: 5,
        suggestions: [
          {
            messageId: 'useCompareAndDelete' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function release(key: string, token: string) {
  const replies = await client.multi().get(key).pTTL(key).exec();
  if (replies[0] === token) await client.eval(${RELEASE_LITERAL}, { keys: [key], arguments: [token] });
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis: the transaction in a variable, the reply destructured.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function release(key: string, token: string) {
  const transaction = client.multi();
  transaction.get(key);
  const [owner] = await transaction.exec();
  if (owner === token) await client.del(key);
}`,
    errors: [
      {
        messageId: 'checkThenDelete' as const,
        line: 7,
        suggestions: [
          {
            messageId: 'useCompareAndDelete' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function release(key: string, token: string) {
  const transaction = client.multi();
  transaction.get(key);
  const [owner] = await transaction.exec();
  if (owner === token) await client.eval(${RELEASE_LITERAL}, { keys: [key], arguments: [token] });
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis: every owner read in one pipeline, the matching keys unlinked in another.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function releaseAll(keys: string[], ownerId: string) {
  const reads = redis.pipeline();
  for (const key of keys) reads.get(key);
  const owners = await reads.exec();
  const deletes = redis.pipeline();
  keys.forEach((key, index) => {
    if (owners?.[index]?.[1] === ownerId) deletes.unlink(key);
  });
  await deletes.exec();
}`,
    errors: [{ messageId: 'checkThenDelete' as const, line: 9, suggestions: [] }],
  },
  {
    // node-redis: the same over counting loops, the key read back as \`keys[i]\`.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function releaseAll(keys: string[], ownerId: string) {
  const reads = client.multi();
  for (let i = 0; i < keys.length; i++) reads.get(keys[i]);
  const owners = await reads.exec();
  for (let i = 0; i < keys.length; i++) {
    if (owners[i] === ownerId) await client.del(keys[i]);
  }
}`,
    errors: [
      {
        messageId: 'checkThenDelete' as const,
        line: 8,
        suggestions: [
          {
            messageId: 'useCompareAndDelete' as const,
            output: `import { createClient } from 'redis';
const client = createClient();
export async function releaseAll(keys: string[], ownerId: string) {
  const reads = client.multi();
  for (let i = 0; i < keys.length; i++) reads.get(keys[i]);
  const owners = await reads.exec();
  for (let i = 0; i < keys.length; i++) {
    if (owners[i] === ownerId) await client.eval(${RELEASE_LITERAL}, { keys: [keys[i]], arguments: [ownerId] });
  }
}`,
          },
        ],
      },
    ],
  },
];

ruleTester.run('no-unsafe-release (owner read in a pipeline)', rule, {
  valid: [
    // The pipeline's reply compared with null asks whether the key is free, not who holds it.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function clear(id: string, token: string) {
       const results = await redis.pipeline().get(\`cache:\${id}\`).exec();
       if (results?.[0]?.[1] === null) await redis.del(\`cache:\${id}\`);
     }`,
    // The reply is another key's (a session's user), the delete a key of its own.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function logout(id: string, userId: string) {
       const [[, sessionUser]] = (await redis.pipeline().get(\`session:\${id}\`).exec())!;
       if (sessionUser === userId) await redis.del(\`csrf:\${id}\`);
     }`,
    // Index 0 is the PTTL's reply, not the GET's.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function sweep(key: string, limit: number) {
       const results = await redis.pipeline().pttl(key).get(key).exec();
       if (results?.[0]?.[1] === limit) await redis.del(key);
     }`,
    // An ioredis-shaped read in a node-redis file: \`replies[0][1]\` is a character, no owner.
    `import { createClient } from 'redis'; const client = createClient();
     export async function clear(key: string, token: string) {
       const replies = await client.multi().get(key).exec();
       if (replies[0][1] === token) await client.del(key);
     }`,
    // The loop reads one list and deletes the elements of another.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function prune(keys: string[], others: string[], ownerId: string) {
       const reads = redis.pipeline();
       for (const key of keys) reads.get(key);
       const owners = await reads.exec();
       others.forEach((other, index) => { if (owners?.[index]?.[1] === ownerId) void redis.del(other); });
     }`,
    // A GET queued only for some keys: the reply's index no longer follows the list.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function prune(keys: string[], ownerId: string) {
       const reads = redis.pipeline();
       for (const key of keys) if (key.startsWith('job:')) reads.get(key);
       const owners = await reads.exec();
       keys.forEach((key, index) => { if (owners?.[index]?.[1] === ownerId) void redis.del(key); });
     }`,
    // A queued command the analysis does not read still takes a place: index 0 is its reply, not the GET's.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function sweep(key: string, marker: string) {
       const results = await redis.pipeline().fooBar(key).get(key).exec();
       if (results?.[0]?.[1] === marker) await redis.del(key);
     }`,
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function sweep(key: string, marker: string) {
       const reads = redis.pipeline();
       reads.fooBar(key);
       reads.get(key);
       const results = await reads.exec();
       if (results?.[0]?.[1] === marker) await redis.del(key);
     }`,
    // The pipeline goes to a function that may queue more before the GET.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function sweep(key: string, marker: string) {
       const reads = redis.pipeline();
       queueStats(reads, key);
       reads.get(key);
       const results = await reads.exec();
       if (results?.[0]?.[1] === marker) await redis.del(key);
     }`,
    // The owner read in a pipeline, then the release by the compare-and-delete script.
    `import Redis from 'ioredis'; const redis = new Redis();
     const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';
     export async function release(key: string, token: string) {
       const [[, owner]] = (await redis.pipeline().get(key).exec())!;
       if (owner === token) await redis.eval(RELEASE, 1, key, token);
     }`,
    // WATCH on a connection of its own, the owner read in a pipeline, DEL in MULTI/EXEC with the reply read.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function release(key: string, token: string) {
       const connection = redis.duplicate();
       try {
         await connection.watch(key);
         const [[, owner]] = (await connection.pipeline().get(key).exec())!;
         if (owner === token) {
           const reply = await connection.multi().del(key).exec();
           return reply !== null;
         }
         return false;
       } finally { connection.disconnect(); }
     }`,
  ],
  invalid: pipelineInvalid,
});
suggestionsClearFindings('no-unsafe-release (owner read in a pipeline)', rule, pipelineInvalid);
