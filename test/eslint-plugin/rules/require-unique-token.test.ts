import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../support/rule-tester.js';
import { DEBOUNCE_LATCH, IDEMPOTENCY_INTERCEPTOR, IDEMPOTENCY_SERVICE } from '../support/lookalikes.js';
import { createTypedRuleTester } from '../support/typed-rule-tester.js';
import rule, { type MessageId, type Options } from '../../../eslint-plugin/src/rules/require-unique-token.js';
import { suggestionsClearFindings } from '../support/suggestions-clear-findings.js';

const ruleTester = new RuleTester();

// With type information a receiver is Redis because its type says so: an in-process Map subclass
// with Redis-like method names stays silent, a client whose origin only the checker sees is found.
const typed = createTypedRuleTester();

const RELEASE = `'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end'`;

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // ioredis, a literal value; the release sends the same literal and is switched to the token.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const RELEASE = ${RELEASE};
async function runInvoicing() {
  if (!(await redis.set('lock:invoice', '1', 'NX', 'PX', 30000))) return;
  try {
    await doWork();
  } finally {
    await redis.eval(RELEASE, 1, 'lock:invoice', '1');
  }
}`,
    errors: [
      {
        messageId: 'sharedValue',
        data: { value: `'1'` },
        line: 5,
        column: 41,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
const redis = new Redis();
const RELEASE = ${RELEASE};
async function runInvoicing() {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  try {
    await doWork();
  } finally {
    await redis.eval(RELEASE, 1, 'lock:invoice', token);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // An ES module that declares a \`crypto\` of its own: the global Web Crypto is named through globalThis.
    code: `import Redis from 'ioredis';
import { crypto } from './ciphers';
const redis = new Redis();
const RELEASE = ${RELEASE};
async function runInvoicing() {
  if (!(await redis.set('lock:invoice', '1', 'NX', 'PX', 30000))) return;
  try {
    await doWork(crypto);
  } finally {
    await redis.eval(RELEASE, 1, 'lock:invoice', '1');
  }
}`,
    errors: [
      {
        messageId: 'sharedValue',
        data: { value: `'1'` },
        line: 6,
        column: 41,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
import { crypto } from './ciphers';
const redis = new Redis();
const RELEASE = ${RELEASE};
async function runInvoicing() {
  const token = globalThis.crypto.randomUUID();
  if (!(await redis.set('lock:invoice', token, 'NX', 'PX', 30000))) return;
  try {
    await doWork(crypto);
  } finally {
    await redis.eval(RELEASE, 1, 'lock:invoice', token);
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis SETNX with `true`, a plain DEL (no-unsafe-release's finding), an existing crypto import.
    code: `import Redis from 'ioredis';
import * as crypto from 'node:crypto';
const redis = new Redis();
export async function sync() {
  if (!(await redis.set('lock:sync', true, 'EX', 30, 'NX'))) return;
  await work();
  await redis.del('lock:sync');
}`,
    errors: [
      {
        messageId: 'sharedValue',
        line: 5,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
import * as crypto from 'node:crypto';
const redis = new Redis();
export async function sync() {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:sync', token, 'EX', 30, 'NX'))) return;
  await work();
  await redis.del('lock:sync');
}`,
          },
        ],
      },
    ],
  },
  {
    // A module constant used by the acquisition and by the release in the same function.
    code: `import Redis from 'ioredis';
import { randomUUID } from 'crypto';
const redis = new Redis();
const LOCK_VALUE = 'locked';
const RELEASE = ${RELEASE};
export async function run() {
  const acquired = await redis.set('lock:report', LOCK_VALUE, 'PX', 10000, 'NX');
  if (!acquired) return;
  try { await work(); } finally { await redis.eval(RELEASE, 1, 'lock:report', LOCK_VALUE); }
}`,
    errors: [
      {
        messageId: 'sharedValue',
        data: { value: 'LOCK_VALUE' },
        line: 7,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
import { randomUUID } from 'crypto';
const redis = new Redis();
const LOCK_VALUE = 'locked';
const RELEASE = ${RELEASE};
export async function run() {
  const token = randomUUID();
  const acquired = await redis.set('lock:report', token, 'PX', 10000, 'NX');
  if (!acquired) return;
  try { await work(); } finally { await redis.eval(RELEASE, 1, 'lock:report', token); }
}`,
          },
        ],
      },
    ],
  },
  {
    // A token minted once per process at module scope, released from another function: reported,
    // no suggestion (the release could not see a per-acquisition token).
    code: `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
const INSTANCE_TOKEN = randomUUID();
const RELEASE = ${RELEASE};
export async function acquire() { return redis.set('lock:report', INSTANCE_TOKEN, 'PX', 10000, 'NX'); }
export async function release() { return redis.eval(RELEASE, 1, 'lock:report', INSTANCE_TOKEN); }`,
    errors: [{ messageId: 'processToken', line: 6, suggestions: [] }],
  },
  {
    // hostname:pid, the classic per-process owner id, in a template-literal key.
    code: `import Redis from 'ioredis';
import os from 'node:os';
const redis = new Redis();
const RELEASE = ${RELEASE};
export async function runJob(jobId: string) {
  const owner = \`\${os.hostname()}:\${process.pid}\`;
  const key = \`lock:job:\${jobId}\`;
  if (!(await redis.set(key, owner, 'NX', 'PX', 30000))) return;
  try { await work(); } finally { await redis.eval(RELEASE, 1, key, owner); }
}`,
    errors: [
      {
        messageId: 'processToken',
        line: 8,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
import os from 'node:os';
const redis = new Redis();
const RELEASE = ${RELEASE};
export async function runJob(jobId: string) {
  const owner = crypto.randomUUID();
  const key = \`lock:job:\${jobId}\`;
  if (!(await redis.set(key, owner, 'NX', 'PX', 30000))) return;
  try { await work(); } finally { await redis.eval(RELEASE, 1, key, owner); }
}`,
          },
        ],
      },
    ],
  },
  {
    // The hostname alone.
    code: `import Redis from 'ioredis';
import { hostname } from 'node:os';
const redis = new Redis();
export async function leader() {
  const ok = await redis.set('lock:leader', hostname(), 'NX', 'PX', 15000);
  if (ok) await redis.pexpire('lock:leader', 15000);
}`,
    errors: [
      {
        messageId: 'hostValue',
        data: { value: 'hostname()' },
        line: 5,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
import { hostname } from 'node:os';
const redis = new Redis();
export async function leader() {
  const token = crypto.randomUUID();
  const ok = await redis.set('lock:leader', token, 'NX', 'PX', 15000);
  if (ok) await redis.pexpire('lock:leader', 15000);
}`,
          },
        ],
      },
    ],
  },
  {
    // A host read with a default (\`process.env.HOSTNAME || 'local'\`) and a timestamp: two jobs of one process in one millisecond collide.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function run() {
  const token = \`\${process.env.HOSTNAME || 'local'}:\${Date.now()}\`;
  if (!(await redis.set('lock:report', token, 'PX', 30000, 'NX'))) return;
  await work();
  await redis.del('lock:report');
}`,
    errors: [
      {
        messageId: 'timestampValue',
        line: 5,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
const redis = new Redis();
export async function run() {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:report', token, 'PX', 30000, 'NX'))) return;
  await work();
  await redis.del('lock:report');
}`,
          },
        ],
      },
    ],
  },
  {
    // A timestamp, node-redis v4.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function run() {
  const acquired = await client.set('lock:report', Date.now().toString(), { NX: true, PX: 30000 });
  if (!acquired) return;
  await work();
  await client.del('lock:report');
}`,
    errors: [
      {
        messageId: 'timestampValue',
        line: 4,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import { createClient } from 'redis';
const client = createClient();
export async function run() {
  const token = crypto.randomUUID();
  const acquired = await client.set('lock:report', token, { NX: true, PX: 30000 });
  if (!acquired) return;
  await work();
  await client.del('lock:report');
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis v5 spelling, process.pid alone.
    code: `import { createClient } from 'redis';
const client = createClient();
const RELEASE = ${RELEASE};
export async function run() {
  if (!(await client.set('lock:sync', String(process.pid), { condition: 'NX', expiration: { type: 'PX', value: 5000 } }))) return;
  await client.eval(RELEASE, { keys: ['lock:sync'], arguments: [String(process.pid)] });
}`,
    errors: [
      {
        messageId: 'hostValue',
        line: 5,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import { createClient } from 'redis';
const client = createClient();
const RELEASE = ${RELEASE};
export async function run() {
  const token = crypto.randomUUID();
  if (!(await client.set('lock:sync', token, { condition: 'NX', expiration: { type: 'PX', value: 5000 } }))) return;
  await client.eval(RELEASE, { keys: ['lock:sync'], arguments: [token] });
}`,
          },
        ],
      },
    ],
  },
  {
    // node-redis sendCommand.
    code: `import { createClient } from 'redis';
const client = createClient();
export async function run() {
  await client.sendCommand(['SET', 'lock:a', 'locked', 'NX', 'PX', '5000']);
  await client.sendCommand(['DEL', 'lock:a']);
}`,
    errors: [
      {
        messageId: 'sharedValue',
        line: 4,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import { createClient } from 'redis';
const client = createClient();
export async function run() {
  const token = crypto.randomUUID();
  await client.sendCommand(['SET', 'lock:a', token, 'NX', 'PX', '5000']);
  await client.sendCommand(['DEL', 'lock:a']);
}`,
          },
        ],
      },
    ],
  },
  {
    // node_redis v3 callbacks in a CommonJS file: the import is a require.
    code: `const redis = require('redis');
const client = redis.createClient();
function acquire(done) {
  client.set('lock:cron', 'locked', 'NX', 'PX', 60000, (err, ok) => {
    if (err || !ok) return done(false);
    client.del('lock:cron', () => done(true));
  });
}`,
    errors: [
      {
        messageId: 'sharedValue',
        line: 4,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `const redis = require('redis');
const client = redis.createClient();
function acquire(done) {
  const token = require('node:crypto').randomUUID();
  client.set('lock:cron', token, 'NX', 'PX', 60000, (err, ok) => {
    if (err || !ok) return done(false);
    client.del('lock:cron', () => done(true));
  });
}`,
          },
        ],
      },
    ],
  },
  {
    // Upstash, a number.
    code: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function run() {
  if (!(await redis.set('lock:sync', 1, { nx: true, px: 20000 }))) return;
  await redis.del('lock:sync');
}`,
    errors: [
      {
        messageId: 'sharedValue',
        line: 4,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function run() {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:sync', token, { nx: true, px: 20000 }))) return;
  await redis.del('lock:sync');
}`,
          },
        ],
      },
    ],
  },
  {
    // An acquire script's token argument, in a MULTI-free eval.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const ACQUIRE = 'if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return redis.call("INCR", KEYS[2]) else return 0 end';
const RELEASE = ${RELEASE};
export async function run() {
  const fence = await redis.eval(ACQUIRE, 2, '{invoice}:lock', '{invoice}:fence', 'worker', 30000);
  if (!fence) return;
  await redis.eval(RELEASE, 1, '{invoice}:lock', 'worker');
}`,
    errors: [
      {
        messageId: 'sharedValue',
        line: 6,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
const redis = new Redis();
const ACQUIRE = 'if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return redis.call("INCR", KEYS[2]) else return 0 end';
const RELEASE = ${RELEASE};
export async function run() {
  const token = crypto.randomUUID();
  const fence = await redis.eval(ACQUIRE, 2, '{invoice}:lock', '{invoice}:fence', token, 30000);
  if (!fence) return;
  await redis.eval(RELEASE, 1, '{invoice}:lock', token);
}`,
          },
        ],
      },
    ],
  },
  {
    // A leader lease that re-enters its own lock by comparing the stored value: reported (hostname:pid
    // is shared by every job of the process), but a per-call token would break the re-entry.
    code: `import Redis from 'ioredis';
import os from 'node:os';
const redis = new Redis();
const WORKER_ID = \`\${os.hostname()}-\${process.pid}\`;
export async function lead() {
  if (await redis.set('leader-lock', WORKER_ID, 'NX', 'EX', 30)) return true;
  return (await redis.get('leader-lock')) === WORKER_ID && (await redis.expire('leader-lock', 30)) === 1;
}`,
    errors: [{ messageId: 'processToken', line: 6, suggestions: [] }],
  },
  {
    // A singleton lock service: the token is minted once, in the constructor, and release() is
    // another method: reported without a suggestion.
    code: `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
class LockService {
  private readonly redis = new Redis();
  private readonly owner: string;
  constructor() { this.owner = randomUUID(); }
  acquire(name: string) { return this.redis.set(\`lock:\${name}\`, this.owner, 'NX', 'PX', 30000); }
  release(name: string) { return this.redis.eval(${RELEASE}, 1, \`lock:\${name}\`, this.owner); }
}
export const locks = new LockService();`,
    errors: [{ messageId: 'processToken', line: 7, suggestions: [] }],
  },
  {
    // A class whose field is hostname:pid, acquire and release in one method.
    code: `import Redis from 'ioredis';
import { hostname } from 'node:os';
const RELEASE = ${RELEASE};
export class Worker {
  private readonly redis = new Redis();
  private readonly id = hostname() + ':' + process.pid;
  async runExclusive(work: () => Promise<void>) {
    if (!(await this.redis.set('lock:worker', this.id, 'NX', 'PX', 30000))) return;
    try { await work(); } finally { await this.redis.eval(RELEASE, 1, 'lock:worker', this.id); }
  }
}`,
    errors: [
      {
        messageId: 'processToken',
        line: 8,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
import { hostname } from 'node:os';
const RELEASE = ${RELEASE};
export class Worker {
  private readonly redis = new Redis();
  private readonly id = hostname() + ':' + process.pid;
  async runExclusive(work: () => Promise<void>) {
    const token = crypto.randomUUID();
    if (!(await this.redis.set('lock:worker', token, 'NX', 'PX', 30000))) return;
    try { await work(); } finally { await this.redis.eval(RELEASE, 1, 'lock:worker', token); }
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // ioredis MULTI, the pid and a timestamp minted once before a retry loop.
    code: `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function run() {
  const value = \`\${process.pid}-\${Date.now()}\`;
  while (!(await redis.multi().set('lock:a', value, 'NX', 'PX', 5000).incr('lock:a:fence').exec())) await sleep(10);
  await redis.del('lock:a');
}`,
    errors: [
      {
        messageId: 'timestampValue',
        line: 6,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function run() {
  const value = randomUUID();
  while (!(await redis.multi().set('lock:a', value, 'NX', 'PX', 5000).incr('lock:a:fence').exec())) await sleep(10);
  await redis.del('lock:a');
}`,
          },
        ],
      },
    ],
  },
  {
    // Lock helpers whose key is a parameter: the function names say "lock". The release is in
    // another function, so a token minted in acquireLock could not reach it: no suggestion.
    code: `import Redis from 'ioredis';
const redis = new Redis();
export async function acquireLock(key: string, ttl = 5000) {
  return redis.set(key, 'locked', 'PX', ttl, 'NX');
}
export async function releaseLock(key: string) {
  await redis.del(key);
}`,
    errors: [{ messageId: 'sharedValue', line: 4, suggestions: [] }],
  },
  {
    // An unknown client: shape and lock key are enough.
    code: `export async function f(redis) {
  if (!(await redis.set('lock:a', 'x', 'NX', 'PX', 1000))) return;
  await redis.del('lock:a');
}`,
    errors: [
      {
        messageId: 'sharedValue',
        line: 2,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `export async function f(redis) {
  const token = crypto.randomUUID();
  if (!(await redis.set('lock:a', token, 'NX', 'PX', 1000))) return;
  await redis.del('lock:a');
}`,
          },
        ],
      },
    ],
  },
  // Values computed from a clock read, through arithmetic, rounding and conversion: timestamps.
  // Shapes from public helpers read through the code search: `String(Date.now())` and
  // `Date.now().toString()` values (jsscoder/FarmLokal_backend_assignment-style acquire/release
  // pairs), epoch seconds, `+new Date()` (a Nuxt store's obtainLock), `process.hrtime`.
  ...(
    [
      ['Math.floor(Date.now() / 1000)', 'Math.floor(Date.now() / 1000)'],
      ['(Date.now() + ttl).toString()', '(Date.now() + ttl).toString()'],
      ['+new Date()', '+new Date()'],
      ['`${Date.now()}`', '`${Date.now()}`'],
      ['process.hrtime.bigint().toString()', 'process.hrtime.bigint().toString()'],
      ['new Date(Date.now() + ttl).toISOString()', 'new Date(Date.now() + ttl).toISOString()'],
      ['String(performance.now() * 1000)', 'String(performance.now() * 1000)'],
    ] as const
  ).map(([value]): InvalidTestCase<MessageId, Options> => ({
    code: `import Redis from 'ioredis';
const redis = new Redis();
const RELEASE = ${RELEASE};
export async function runReport(ttl: number) {
  const stamp = ${value};
  if (!(await redis.set('lock:report', stamp, 'NX', 'PX', ttl))) return;
  try { await work(); } finally { await redis.eval(RELEASE, 1, 'lock:report', stamp); }
}`,
    errors: [
      {
        messageId: 'timestampValue',
        line: 6,
        suggestions: [
          {
            messageId: 'useRandomToken',
            output: `import Redis from 'ioredis';
const redis = new Redis();
const RELEASE = ${RELEASE};
export async function runReport(ttl: number) {
  const stamp = crypto.randomUUID();
  if (!(await redis.set('lock:report', stamp, 'NX', 'PX', ttl))) return;
  try { await work(); } finally { await redis.eval(RELEASE, 1, 'lock:report', stamp); }
}`,
          },
        ],
      },
    ],
  })),
  {
    // A module-level id computed once, from whatever (here a helper of the module's own): one value
    // for every acquisition of the process.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const WORKER_ID = makeWorkerId();
export async function acquire() { return redis.set('lock:sync', WORKER_ID, 'NX', 'PX', 10000); }
export async function release() { return redis.eval(${RELEASE}, 1, 'lock:sync', WORKER_ID); }`,
    errors: [{ messageId: 'processToken', line: 4, suggestions: [] }],
  },
  {
    // A timestamp taken once at module load is a once-per-process token, not a fresh timestamp.
    code: `import Redis from 'ioredis';
const redis = new Redis();
const STARTED = String(Date.now());
export async function acquire() { return redis.set('lock:sync', STARTED, 'NX', 'PX', 10000); }
export async function release() { return redis.eval(${RELEASE}, 1, 'lock:sync', STARTED); }`,
    errors: [{ messageId: 'processToken', line: 4, suggestions: [] }],
  },
  {
    // A singleton whose owner id is set once in its constructor from the clock and the pid.
    code: `import Redis from 'ioredis';
class Scheduler {
  private readonly redis = new Redis();
  private readonly owner: string;
  constructor() { this.owner = \`\${process.pid}-\${Date.now()}\`; }
  acquire() { return this.redis.set('lock:scheduler', this.owner, 'NX', 'PX', 30000); }
  release() { return this.redis.eval(${RELEASE}, 1, 'lock:scheduler', this.owner); }
}
export default new Scheduler();`,
    errors: [{ messageId: 'processToken', line: 6, suggestions: [] }],
  },
  {
    // A singleton whose owner id comes from a call of its own, once, in a field initialiser.
    code: `import Redis from 'ioredis';
class Scheduler {
  static instance = new Scheduler();
  private readonly redis = new Redis();
  private readonly owner = buildOwnerId();
  acquire() { return this.redis.set('lock:scheduler', this.owner, 'NX', 'PX', 30000); }
  release() { return this.redis.eval(${RELEASE}, 1, 'lock:scheduler', this.owner); }
}`,
    errors: [{ messageId: 'processToken', line: 6, suggestions: [] }],
  },
  // An exported lock helper whose callers choose the key but not the value: the module releases
  // nothing, its callers do, elsewhere, and cannot tell holders apart. No suggestion: a token
  // minted in the helper would not reach their release.
  {
    code: `import Redis from 'ioredis';
const client = new Redis();
export const acquireLock = async (lockKey, timeOut = 30) => {
  try {
    const result = await client.set(lockKey, '1', 'PX', timeOut * 1000, 'NX');
    return result === 'OK';
  } catch {
    return false;
  }
};`,
    errors: [{ messageId: 'sharedValue', line: 5, suggestions: [] }],
  },
  {
    // CommonJS, node-redis v4: the helper exported by name, the key built from the parameter.
    code: `const { createClient } = require('redis');
const client = createClient();
async function tryLock(name, ttlMs) {
  const key = \`locks:\${name}\`;
  return (await client.set(key, 'locked', { NX: true, PX: ttlMs })) === 'OK';
}
module.exports = { tryLock };`,
    errors: [{ messageId: 'sharedValue', line: 5, suggestions: [] }],
  },
  {
    // \`exports.name = function\`, a timestamp for the value.
    code: `const Redis = require('ioredis');
const redis = new Redis();
exports.acquireJobLock = async function (jobId) {
  return redis.set('job-lock:' + jobId, Date.now(), 'NX', 'EX', 60);
};`,
    errors: [{ messageId: 'timestampValue', line: 4, suggestions: [] }],
  },
  {
    // \`export { lock }\` after the declaration, the hostname for the value.
    code: `import Redis from 'ioredis';
import os from 'node:os';
const redis = new Redis();
async function lock(resource: string) {
  return redis.set(\`lock:\${resource}\`, os.hostname(), 'PX', 30000, 'NX');
}
export { lock };`,
    errors: [{ messageId: 'hostValue', line: 5, suggestions: [] }],
  },
  {
    // node-redis, a private method whose two callers both pass a clock read: the parameter is followed
    // to them. No suggestion: the callers choose the value.
    code: `import { createClient } from 'redis';
export class Lock {
  private client = createClient();
  private key(name: string) { return \`lock:\${name}\`; }
  private async applyLock(key: string, payload: string) { return this.client.setNX(key, payload); }
  async acquireLock(name: string) {
    const key = this.key(name);
    const payload = JSON.stringify({ lockedSince: new Date().toISOString() });
    return (await this.applyLock(key, payload)) || this.applyLock(key, payload);
  }
  async releaseLock(name: string) { await this.client.del(this.key(name)); }
}`,
    errors: [{ messageId: 'timestampValue', line: 5, column: 89, suggestions: [] }],
  },
  {
    // ioredis, a module-private function whose callers pass a constant and a literal; the locks are
    // released by key names written out.
    code: `const Redis = require('ioredis');
const redis = new Redis();
const OWNER = 'worker';
function applyLock(key, value) { return redis.set(key, value, 'NX', 'PX', 30000); }
async function lockReport(id) { return applyLock(\`report:\${id}\`, OWNER); }
async function lockExport(id) { return applyLock(\`export:\${id}\`, '1'); }
async function unlockReport(id) { await redis.del(\`report:\${id}\`); }
module.exports = { lockReport, lockExport, unlockReport };`,
    errors: [{ messageId: 'sharedValue', line: 4, column: 56, suggestions: [] }],
  },
  {
    // A \`#private\` method called on \`this\` with the pid, through an arrow that keeps \`this\`.
    code: `import Redis from 'ioredis';
export class LeaseLock {
  redis = new Redis();
  #applyLock(key, value) { return this.redis.set(key, value, 'NX', 'PX', 30000); }
  acquire(name) { return [name].map((each) => this.#applyLock(\`lease:\${each}\`, process.pid)); }
  release(name) { return this.redis.del(\`lease:\${name}\`); }
}`,
    errors: [{ messageId: 'hostValue', line: 4, suggestions: [] }],
  },
];

ruleTester.run('require-unique-token', rule, {
  valid: [
    // A token minted per acquisition, in every dialect.
    `import Redis from 'ioredis'; import { randomUUID } from 'node:crypto'; const redis = new Redis();
     async function f() { const token = randomUUID(); await redis.set('lock:a', token, 'NX', 'PX', 30000); await redis.del('lock:a'); }`,
    `import { createClient } from 'redis'; const client = createClient();
     async function f() { const token = crypto.randomUUID(); await client.set('lock:a', token, { NX: true, PX: 30000 }); await client.del('lock:a'); }`,
    `import { Redis } from '@upstash/redis'; import { nanoid } from 'nanoid'; const redis = Redis.fromEnv();
     async function f() { await redis.set('lock:a', nanoid(), { nx: true, px: 1000 }); await redis.del('lock:a'); }`,
    `const redis = require('redis'); const crypto = require('crypto'); const client = redis.createClient();
     function f(cb) { const token = crypto.randomBytes(16).toString('hex'); client.set('lock:a', token, 'NX', 'PX', 1000, cb); client.del('lock:a'); }`,
    // hostname:pid plus a random or per-acquisition part.
    `import Redis from 'ioredis'; import os from 'node:os'; import { randomUUID } from 'node:crypto'; const redis = new Redis();
     async function f() { await redis.set('lock:a', \`\${os.hostname()}:\${process.pid}:\${randomUUID()}\`, 'NX', 'PX', 1000); await redis.del('lock:a'); }`,
    // A host read with a default plus a random part.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f() { await redis.set('lock:a', \`\${process.env.HOSTNAME || 'local'}:\${Date.now()}:\${Math.random()}\`, 'NX', 'PX', 1000); await redis.del('lock:a'); }`,
    // A token passed in by the caller.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function acquire(key, token) { return redis.set(key, token, 'NX', 'PX', 1000); }
     export async function release(key, token) { return redis.eval('if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0', 1, key, token); }`,
    // A lock class that mints a token per acquisition into a field.
    `import Redis from 'ioredis'; import { randomUUID } from 'node:crypto';
     class Lock { redis = new Redis(); token = '';
       async acquire() { this.token = randomUUID(); return this.redis.set('lock:a', this.token, 'NX', 'PX', 1000); }
       async release() { return this.redis.del('lock:a'); } }`,
    // A per-instance token in a class that is not a singleton (redis-semaphore's own design).
    `import Redis from 'ioredis'; import { randomUUID } from 'node:crypto';
     export class Lock { private readonly redis = new Redis(); private readonly token = randomUUID();
       constructor(private readonly key: string) {}
       acquire() { return this.redis.set(this.key, this.token, 'NX', 'PX', 1000); }
       release() { return this.redis.eval('x', 1, this.key, this.token); } }`,
    // A self-expiring throttle lock never released or renewed here: its value is never compared.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function cron() { if (!(await redis.set('lock:cron:hourly', '1', 'NX', 'EX', 3600))) return; await runHourly(); }`,
    // Idempotency markers and caches: not locks.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function handle(event) { if (!(await redis.set('processed:' + event.id, '1', 'NX', 'EX', 86400))) return; await apply(event); }`,
    `import Redis from 'ioredis'; const redis = new Redis();
     async function load(id) { const hit = await redis.get('cache:' + id); if (hit) return hit; await redis.set('cache:' + id, '1', 'EX', 60); await redis.del('cache:x'); }`,
    // A session store: SET without NX is not an acquisition.
    `import { createClient } from 'redis'; const client = createClient();
     async function save(id) { await client.set(\`sess:\${id}\`, 'active', { EX: 3600 }); await client.del(\`sess:\${id}\`); }`,
    // Redlock and redis-semaphore generate their own tokens.
    `import Redlock from 'redlock'; const redlock = new Redlock([client]);
     async function f() { const lock = await redlock.acquire(['lock:a'], 5000); try { await work(); } finally { await lock.release(); } }`,
    `import { Mutex } from 'redis-semaphore'; import Redis from 'ioredis';
     const mutex = new Mutex(new Redis(), 'lock:a', { identifier: 'x' });
     async function f() { await mutex.acquire(); try { await work(); } finally { await mutex.release(); } }`,
    // A Map is not Redis.
    `const locks = new Map(); function f() { locks.set('lock:a', '1', 'NX'); locks.delete('lock:a'); }`,
    // A clock read joined with a random part, or with a per-call value: unique per acquisition.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f() { const v = \`\${Date.now()}-\${Math.random()}\`; await redis.set('lock:a', v, 'NX', 'PX', 1000); await redis.eval('x', 1, 'lock:a', v); }`,
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f() { const v = Date.now() + Math.random(); await redis.set('lock:a', v, 'NX', 'PX', 1000); await redis.eval('x', 1, 'lock:a', v); }`,
    `import Redis from 'ioredis'; const redis = new Redis();
     async function f(jobId: string) { const v = Date.now() + '-' + jobId; await redis.set('lock:a', v, 'NX', 'PX', 1000); await redis.eval('x', 1, 'lock:a', v); }`,
    // An owner id a constructor is given: the caller decides, even in a singleton.
    `import Redis from 'ioredis';
     class Scheduler { private readonly redis = new Redis(); private readonly owner: string;
       constructor(id: string) { this.owner = \`\${id}:\${process.pid}\`; }
       acquire() { return this.redis.set('lock:s', this.owner, 'NX', 'PX', 1000); }
       release() { return this.redis.eval('x', 1, 'lock:s', this.owner); } }
     export default new Scheduler(randomUUID());`,
    // A lock helper that no other module can call, in a module that releases nothing: the lock
    // only expires, and nothing compares its value.
    `import Redis from 'ioredis'; const redis = new Redis();
     async function acquireLock(key) { return redis.set(key, '1', 'NX', 'PX', 1000); }
     export async function sync() { if (!(await acquireLock('sync'))) return; await run(); }`,
    // An exported lock helper for one fixed key ("at most once an hour"): no caller chooses a lock
    // to release, so a release elsewhere is not implied.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function acquireHourlyLock() { return redis.set('lock:cron:hourly', '1', 'NX', 'EX', 3600); }`,
    // An exported helper not named like a lock: an idempotency marker.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function markProcessed(eventId) { return redis.set(\`processed:\${eventId}\`, '1', 'NX', 'EX', 86400); }`,
    // An exported lock helper whose caller hands in the value too.
    `import Redis from 'ioredis'; const redis = new Redis();
     export const acquireLock = (key, owner) => redis.set(key, owner, 'NX', 'PX', 1000);`,
    // The key is a parameter of a callback inside the helper, not of the helper.
    `import Redis from 'ioredis'; const redis = new Redis();
     export async function lockAll() { await Promise.all(['a', 'b'].map((name) => redis.set('lock:' + name, '1', 'NX', 'PX', 1000))); }`,
    // A private method one of whose callers mints a token: the parameter is not always shared.
    `import { createClient } from 'redis';
     export class Lock { private client = createClient();
       private key(name: string) { return \`lock:\${name}\`; }
       private async applyLock(key: string, payload: string) { return this.client.setNX(key, payload); }
       async acquireLock(name: string) { const key = this.key(name); return (await this.applyLock(key, String(Date.now()))) || this.applyLock(key, crypto.randomUUID()); }
       async releaseLock(name: string) { await this.client.del(this.key(name)); } }`,
    // The same lock helper whose only release takes its key as a parameter: that release frees whatever
    // its callers (in other modules) name, so which lock it is, and whether its value matters, is theirs.
    `const Redis = require('ioredis');
     const redis = new Redis(); const OWNER = 'worker';
     function applyLock(key, value) { return redis.set(key, value, 'NX', 'PX', 30000); }
     async function lockReport(id) { return applyLock(\`report:\${id}\`, OWNER); }
     async function lockExport(id) { return applyLock(\`export:\${id}\`, '1'); }
     async function unlock(key) { await redis.del(key); }
     module.exports = { lockReport, lockExport, unlock };`,
    // A public method: callers in other modules may pass a token.
    `import { createClient } from 'redis';
     export class Lock { private client = createClient();
       private key(name: string) { return \`lock:\${name}\`; }
       async applyLock(key: string, payload: string) { return this.client.setNX(key, payload); }
       async acquireLock(name: string) { const key = this.key(name); return (await this.applyLock(key, String(Date.now()))) || this.applyLock(key, String(Date.now())); }
       async releaseLock(name: string) { await this.client.del(this.key(name)); } }`,
    // A private method read other than as a call on \`this\` (bound and handed out): its other callers are unseen.
    `import { createClient } from 'redis';
     export class Lock { private client = createClient();
       private key(name: string) { return \`lock:\${name}\`; }
       private async applyLock(key: string, payload: string) { return this.client.setNX(key, payload); }
       async acquireLock(name: string) { const key = this.key(name); return (await this.applyLock(key, String(Date.now()))) || this.applyLock(key, String(Date.now())); }
       handler() { return this.applyLock.bind(this); }
       async releaseLock(name: string) { await this.client.del(this.key(name)); } }`,
    // A module-private function that escapes (exported by name): its other callers are unseen.
    `const Redis = require('ioredis'); const redis = new Redis();
     function applyLock(key, value) { return redis.set(key, value, 'NX', 'PX', 30000); }
     async function lockReport(id) { return applyLock(\`report:\${id}\`, '1'); }
     async function unlock(key) { await redis.del(key); }
     module.exports = { applyLock, lockReport, unlock };`,
    // An exported function.
    `import Redis from 'ioredis'; const redis = new Redis();
     export function applyLock(key, value) { return redis.set(key, value, 'NX', 'PX', 30000); }
     export async function lockReport(id) { return applyLock(\`report:\${id}\`, '1'); }
     export async function unlock(key) { await redis.del(key); }`,
    // More callers than followed (9 > 8): the parameter is not followed.
    `import Redis from 'ioredis'; const redis = new Redis();
     function applyLock(key, value) { return redis.set(key, value, 'NX', 'PX', 30000); }
     export async function unlock(key) { await redis.del(key); }
     export function run(id) { ${Array.from({ length: 9 }, (_, index) => `applyLock(\`report:\${id}\`, '${index}');`).join(' ')} }`,
    // A debounce latch: the DEL on the branch that returns before the SET NX PX re-arms it.
    DEBOUNCE_LATCH,
    // An idempotency record: claimed with SET NX, overwritten with the result (or marked done) by a
    // plain SET, deleted when the work failed so that a retry can run. Not a lock.
    IDEMPOTENCY_INTERCEPTOR,
    IDEMPOTENCY_SERVICE,
    // The same through a service whose set(key, value, ttl) the analysis cannot read the options of.
    `import { RedisService } from './redis.service';
     export class Idempotent {
       constructor(private readonly redisService: RedisService) {}
       async run(id: string, ttl: number, work: () => Promise<{ ok: boolean }>) {
         const key = \`idempotent:\${id}\`;
         if (!(await this.redisService.setnx(key, 'PROCESSING'))) throw new Error('busy');
         const response = await work();
         if (response.ok) await this.redisService.set(key, JSON.stringify(response), ttl);
         else await this.redisService.del(key);
       }
     }`,
    // A hook stages a lock held by someone else with a fixed token, and the teardown clears it:
    // the value is the scenario, not a holder's token.
    `import Redis from 'ioredis';
     const redis = new Redis();
     describe('report lock', () => {
       beforeEach(async () => { await redis.set('lock:report', 'other-holder', 'NX', 'PX', 10000); });
       afterEach(async () => { await redis.del('lock:report'); });
       it('waits for the holder', async () => { await runReport(); });
     });`,
    // The same through a helper only test hooks call.
    `import Redis from 'ioredis';
     const redis = new Redis();
     async function holdLock(name) { await redis.set(\`lock:\${name}\`, 'stale-holder', 'NX', 'PX', 10000); }
     async function dropLock(name) { await redis.del(\`lock:\${name}\`); }
     describe('report lock', () => {
       beforeEach(() => holdLock('report'));
       afterEach(() => dropLock('report'));
       it('waits for the holder', async () => { await runReport(); });
     });`,
  ],
  invalid,
});

suggestionsClearFindings('require-unique-token', rule, invalid);

typed.run('require-unique-token (type-aware)', rule, {
  valid: [
    {
      code: `import { LocalLocks } from './local-locks';
export function run(redis: LocalLocks) {
  if (!redis.setnx('lock:invoice', '1')) return;
  redis.del('lock:invoice');
}`,
      filename: 'file.ts',
    },
  ],
  invalid: [
    {
      code: `import { getStore } from './store';
const store = getStore();
export async function run() {
  if (!(await store.set('lock:invoice', 'locked', 'NX', 'PX', 1000))) return;
  await store.del('lock:invoice');
}`,
      filename: 'file.ts',
      errors: [
        {
          messageId: 'sharedValue',
          line: 4,
          suggestions: [
            {
              messageId: 'useRandomToken',
              output: `import { getStore } from './store';
const store = getStore();
export async function run() {
  const token = crypto.randomUUID();
  if (!(await store.set('lock:invoice', token, 'NX', 'PX', 1000))) return;
  await store.del('lock:invoice');
}`,
            },
          ],
        },
      ],
    },
  ],
});
