// The servers' own compare-first commands (Redis 8.4 DELEX and SET IFEQ, Valkey DELIFEQ): safe
// releases and renewals in every client dialect and inside Lua, the unsafe forms still flagged, and
// the suggestions that use them only when settings.locksmith.redis names a server that has them.

import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { RuleTester } from '../../support/rule-tester.js';
import releaseRule, { type MessageId as ReleaseMessageId } from '../../../../eslint-plugin/src/rules/no-unsafe-release.js';
import extendRule, { type MessageId as ExtendMessageId } from '../../../../eslint-plugin/src/rules/no-unsafe-extend.js';
import finallyRule from '../../../../eslint-plugin/src/rules/require-release-in-finally.js';
import { suggestionsClearFindings } from '../../support/suggestions-clear-findings.js';

const ruleTester = new RuleTester();

const RELEASE_LITERAL = `'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end'`;
const EXTEND_LITERAL = `'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end'`;

const REDIS_84 = { locksmith: { redis: { server: 'redis', version: '8.4' } } };
const REDIS_80 = { locksmith: { redis: { server: 'redis', version: '8.0.2' } } };
const VALKEY_90 = { locksmith: { redis: { server: 'valkey', version: '9.0' } } };
const VALKEY_92 = { locksmith: { redis: { server: 'valkey', version: '9.2.0' } } };
const VALKEY_81 = { locksmith: { redis: { server: 'valkey', version: '8.1' } } };
const DRAGONFLY = { locksmith: { redis: { server: 'dragonfly', version: '1.37' } } };

const IOREDIS_HEAD = `import Redis from 'ioredis';
const redis = new Redis();
`;
const NODE_REDIS_HEAD = `import { createClient } from 'redis';
const client = createClient();
`;
const UPSTASH_HEAD = `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
`;

/** The safe primitives, silent in each client's spelling and inside Lua. */
const safeReleases = [
  // ioredis / iovalkey method and raw forms.
  `${IOREDIS_HEAD}export async function release(token) { await redis.delex('lock:job', 'IFEQ', token); }`,
  `${IOREDIS_HEAD}export async function release(token) { await redis.call('DELEX', 'lock:job', 'IFEQ', token); }`,
  `${IOREDIS_HEAD}export async function release(digest) { await redis.call('DELEX', 'lock:job', 'IFDEQ', digest); }`,
  `import Valkey from 'iovalkey';
const valkey = new Valkey();
export async function release(token) { await valkey.delifeq('lock:job', token); }`,
  `import Valkey from 'iovalkey';
const valkey = new Valkey();
export async function release(token) { await valkey.call('DELIFEQ', 'lock:job', token); }`,
  // node-redis 5's typed method, its condition constant, and sendCommand.
  `${NODE_REDIS_HEAD}export async function release(token) { await client.delEx('lock:job', { condition: 'IFEQ', matchValue: token }); }`,
  `import { createClient, DelexCondition } from 'redis';
const client = createClient();
export async function release(token) { await client.delEx('lock:job', { condition: DelexCondition.IFEQ, matchValue: token }); }`,
  `${NODE_REDIS_HEAD}export async function release(token) { await client.sendCommand(['DELEX', 'lock:job', 'IFEQ', token]); }`,
  `${NODE_REDIS_HEAD}export async function release(token) { await client.sendCommand(['DELIFEQ', 'lock:job', token]); }`,
  // node_redis v3 send_command, Upstash exec.
  `const redis = require('redis'); const client = redis.createClient();
function release(token, cb) { client.send_command('DELEX', ['lock:job', 'IFEQ', token], cb); }`,
  `${UPSTASH_HEAD}export async function release(token: string) { await redis.exec(['DELEX', 'lock:job', 'IFEQ', token]); }`,
  // Inside Lua.
  `${IOREDIS_HEAD}const RELEASE = "return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])";
export async function release(token) { await redis.eval(RELEASE, 1, 'lock:job', token); }`,
  `${IOREDIS_HEAD}const RELEASE = "return redis.call('DELIFEQ', KEYS[1], ARGV[1])";
export async function release(token) { await redis.eval(RELEASE, 1, 'lock:job', token); }`,
];

const safeRenewals = [
  `${IOREDIS_HEAD}export async function renew(token) { await redis.set('lock:job', token, 'IFEQ', token, 'PX', 30000); }`,
  `${IOREDIS_HEAD}export async function renew(token) { await redis.call('SET', 'lock:job', token, 'IFEQ', token, 'EX', 30); }`,
  `${NODE_REDIS_HEAD}export async function renew(token) { await client.set('lock:job', token, { condition: 'IFEQ', matchValue: token, expiration: { type: 'PX', value: 30000 } }); }`,
  `${NODE_REDIS_HEAD}export async function renew(token) { await client.sendCommand(['SET', 'lock:job', token, 'IFEQ', token, 'PX', '30000']); }`,
  `${UPSTASH_HEAD}export async function renew(token: string) { await redis.exec(['SET', 'lock:job', token, 'IFEQ', token, 'PX', 30000]); }`,
  `${IOREDIS_HEAD}const RENEW = "return redis.call('SET', KEYS[1], ARGV[1], 'IFEQ', ARGV[1], 'PX', ARGV[2])";
export async function renew(token) { await redis.eval(RENEW, 1, 'lock:job', token, 30000); }`,
  // KEEPTTL keeps the expiry: a value swap that compares, not a renewal.
  `${IOREDIS_HEAD}export async function swap(token, next) { await redis.set('lock:job', next, 'IFEQ', token, 'KEEPTTL'); }`,
];

/** Lookalikes: `exec` of a regex, of a child process, of a transaction. */
const lookalikes = [
  `import { exec } from 'node:child_process';
const lockPattern = /lock:(\\w+)/;
export function run(text) { exec('DEL lock:a'); return lockPattern.exec(text); }`,
  `${IOREDIS_HEAD}export async function f(token) { await redis.multi().set('lock:a', token, 'NX', 'PX', 1000).exec(); }`,
];

ruleTester.run('no-unsafe-release (server primitives)', releaseRule, {
  valid: [...safeReleases, ...safeRenewals, ...lookalikes],
  invalid: [],
});

ruleTester.run('no-unsafe-extend (server primitives)', extendRule, {
  valid: [...safeReleases, ...safeRenewals, ...lookalikes],
  invalid: [],
});

// The acquire-release pair is seen through DELEX/DELIFEQ as through the script.
ruleTester.run('require-release-in-finally (server primitives)', finallyRule, {
  valid: [
    `${IOREDIS_HEAD}export async function run(token) {
  if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return;
  try { await work(); } finally { await redis.call('DELEX', 'lock:job', 'IFEQ', token); }
}`,
  ],
  invalid: [
    {
      code: `${IOREDIS_HEAD}export async function run(token) {
  if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return;
  await work();
  await redis.call('DELEX', 'lock:job', 'IFEQ', token);
}`,
      errors: [
        {
          messageId: 'releaseNotInFinally',
          suggestions: [
            {
              messageId: 'moveReleaseToFinally',
              output: `${IOREDIS_HEAD}export async function run(token) {
  if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return;
  try {
    await work();
  } finally {
    await redis.call('DELEX', 'lock:job', 'IFEQ', token);
  }
}`,
            },
          ],
        },
      ],
    },
  ],
});

const releaseInvalid: InvalidTestCase<ReleaseMessageId, []>[] = [
  // A bare DELEX deletes as DEL does; no server configured: the Lua script only.
  {
    code: `${IOREDIS_HEAD}export async function release(token) { await redis.delex('lock:job'); }`,
    errors: [
      {
        messageId: 'plainDelete',
        data: { command: 'DELEX' },
        suggestions: [
          {
            messageId: 'useCompareAndDelete',
            output: `${IOREDIS_HEAD}export async function release(token) { await redis.eval(${RELEASE_LITERAL}, 1, 'lock:job', token); }`,
          },
        ],
      },
    ],
  },
  // IFNE deletes exactly when another holder owns the lock.
  {
    code: `${IOREDIS_HEAD}export async function release(token) { await redis.call('DELEX', 'lock:job', 'IFNE', token); }`,
    errors: [
      {
        messageId: 'plainDelete',
        suggestions: [
          {
            messageId: 'useCompareAndDelete',
            output: `${IOREDIS_HEAD}export async function release(token) { await redis.eval(${RELEASE_LITERAL}, 1, 'lock:job', token); }`,
          },
        ],
      },
    ],
  },
  {
    code: `${NODE_REDIS_HEAD}export async function release(digest) { await client.delEx('lock:job', { condition: 'IFDNE', matchValue: digest }); }`,
    errors: [{ messageId: 'plainDelete' }],
  },
  // Inside Lua: a bare DELEX is an unchecked delete.
  {
    code: `${IOREDIS_HEAD}const RELEASE = "return redis.call('DELEX', KEYS[1])";
export async function release(token) { await redis.eval(RELEASE, 1, 'lock:job', token); }`,
    errors: [
      {
        messageId: 'uncheckedScript',
        suggestions: [
          {
            messageId: 'useCompareAndDelete',
            output: `${IOREDIS_HEAD}const RELEASE = "return redis.call('DELEX', KEYS[1])";
export async function release(token) { await redis.eval(${RELEASE_LITERAL}, 1, 'lock:job', token); }`,
          },
        ],
      },
    ],
  },
  // A server older than 8.4 is configured: the Lua script only.
  {
    code: `${IOREDIS_HEAD}export async function release(token) { await redis.del('lock:job'); }`,
    settings: REDIS_80,
    errors: [
      {
        messageId: 'plainDelete',
        suggestions: [
          {
            messageId: 'useCompareAndDelete',
            output: `${IOREDIS_HEAD}export async function release(token) { await redis.eval(${RELEASE_LITERAL}, 1, 'lock:job', token); }`,
          },
        ],
      },
    ],
  },
  // Redis 8.4: DELEX first, the script second, in each dialect.
  {
    code: `${IOREDIS_HEAD}export async function release(token) { await redis.del('lock:job'); }`,
    settings: REDIS_84,
    errors: [
      {
        messageId: 'plainDelete',
        suggestions: [
          {
            messageId: 'useServerCompareAndDelete',
            data: { primitive: 'DELEX … IFEQ' },
            output: `${IOREDIS_HEAD}export async function release(token) { await redis.call('DELEX', 'lock:job', 'IFEQ', token); }`,
          },
          {
            messageId: 'useCompareAndDelete',
            output: `${IOREDIS_HEAD}export async function release(token) { await redis.eval(${RELEASE_LITERAL}, 1, 'lock:job', token); }`,
          },
        ],
      },
    ],
  },
  {
    code: `${NODE_REDIS_HEAD}export async function release(token: string) { await client.del('lock:job'); }`,
    settings: REDIS_84,
    errors: [
      {
        messageId: 'plainDelete',
        suggestions: [
          {
            messageId: 'useServerCompareAndDelete',
            output: `${NODE_REDIS_HEAD}export async function release(token: string) { await client.sendCommand(['DELEX', 'lock:job', 'IFEQ', token]); }`,
          },
          {
            messageId: 'useCompareAndDelete',
            output: `${NODE_REDIS_HEAD}export async function release(token: string) { await client.eval(${RELEASE_LITERAL}, { keys: ['lock:job'], arguments: [token] }); }`,
          },
        ],
      },
    ],
  },
  {
    code: `${NODE_REDIS_HEAD}export async function run(token: string) {
  await client.set('lock:job', token, { condition: 'NX', expiration: { type: 'PX', value: 30000 } });
  await client.del('lock:job');
}`,
    settings: DRAGONFLY,
    errors: [
      {
        messageId: 'plainDelete',
        suggestions: [
          {
            messageId: 'useServerCompareAndDelete',
            output: `${NODE_REDIS_HEAD}export async function run(token: string) {
  await client.set('lock:job', token, { condition: 'NX', expiration: { type: 'PX', value: 30000 } });
  await client.delEx('lock:job', { condition: 'IFEQ', matchValue: token });
}`,
          },
          {
            messageId: 'useCompareAndDelete',
            output: `${NODE_REDIS_HEAD}export async function run(token: string) {
  await client.set('lock:job', token, { condition: 'NX', expiration: { type: 'PX', value: 30000 } });
  await client.eval(${RELEASE_LITERAL}, { keys: ['lock:job'], arguments: [token] });
}`,
          },
        ],
      },
    ],
  },
  // Upstash has no DELEX method: its raw exec form.
  {
    code: `${UPSTASH_HEAD}export async function release(token: string) { await redis.del('lock:job'); }`,
    settings: VALKEY_92,
    errors: [
      {
        messageId: 'plainDelete',
        suggestions: [
          {
            messageId: 'useServerCompareAndDelete',
            output: `${UPSTASH_HEAD}export async function release(token: string) { await redis.exec(['DELEX', 'lock:job', 'IFEQ', token]); }`,
          },
          {
            messageId: 'useCompareAndDelete',
            output: `${UPSTASH_HEAD}export async function release(token: string) { await redis.eval(${RELEASE_LITERAL}, ['lock:job'], [token]); }`,
          },
        ],
      },
    ],
  },
  // Valkey 9.0 has DELIFEQ, not yet DELEX; node_redis v3 keeps its callback.
  {
    code: `const redis = require('redis'); const client = redis.createClient();
function release(token, cb) { client.del('lock:job', cb); }`,
    settings: VALKEY_90,
    errors: [
      {
        messageId: 'plainDelete',
        suggestions: [
          {
            messageId: 'useServerCompareAndDelete',
            data: { primitive: 'DELIFEQ' },
            output: `const redis = require('redis'); const client = redis.createClient();
function release(token, cb) { client.send_command('DELIFEQ', ['lock:job', token], cb); }`,
          },
          {
            messageId: 'useCompareAndDelete',
            output: `const redis = require('redis'); const client = redis.createClient();
function release(token, cb) { client.eval(${RELEASE_LITERAL}, 1, 'lock:job', token, cb); }`,
          },
        ],
      },
    ],
  },
  // Valkey 8.1 has SET IFEQ but no compare-and-delete: the script only.
  {
    code: `${IOREDIS_HEAD}export async function release(token) { await redis.del('lock:job'); }`,
    settings: VALKEY_81,
    errors: [
      {
        messageId: 'plainDelete',
        suggestions: [
          {
            messageId: 'useCompareAndDelete',
            output: `${IOREDIS_HEAD}export async function release(token) { await redis.eval(${RELEASE_LITERAL}, 1, 'lock:job', token); }`,
          },
        ],
      },
    ],
  },
];

const extendInvalid: InvalidTestCase<ExtendMessageId, []>[] = [
  // SET … IFEQ without PX/EX drops the TTL.
  {
    code: `${IOREDIS_HEAD}export async function renew(token) { await redis.set('lock:job', token, 'IFEQ', token); }`,
    errors: [{ messageId: 'compareSetDropsTtl', suggestions: [] }],
  },
  {
    code: `${NODE_REDIS_HEAD}export async function renew(token: string) { await client.set('lock:job', token, { condition: 'IFEQ', matchValue: token }); }`,
    errors: [{ messageId: 'compareSetDropsTtl', suggestions: [] }],
  },
  // No server configured: the Lua script only.
  {
    code: `${IOREDIS_HEAD}export async function renew(token) { await redis.pexpire('lock:job', 30000); }`,
    errors: [
      {
        messageId: 'plainExtend',
        suggestions: [
          {
            messageId: 'useCompareAndExpire',
            output: `${IOREDIS_HEAD}export async function renew(token) { await redis.eval(${EXTEND_LITERAL}, 1, 'lock:job', token, 30000); }`,
          },
        ],
      },
    ],
  },
  // Redis 8.4 / Valkey 8.1: SET … IFEQ … PX first.
  {
    code: `${IOREDIS_HEAD}export async function renew(token) { await redis.pexpire('lock:job', 30000); }`,
    settings: REDIS_84,
    errors: [
      {
        messageId: 'plainExtend',
        suggestions: [
          {
            messageId: 'useCompareAndSet',
            output: `${IOREDIS_HEAD}export async function renew(token) { await redis.call('SET', 'lock:job', token, 'IFEQ', token, 'PX', 30000); }`,
          },
          {
            messageId: 'useCompareAndExpire',
            output: `${IOREDIS_HEAD}export async function renew(token) { await redis.eval(${EXTEND_LITERAL}, 1, 'lock:job', token, 30000); }`,
          },
        ],
      },
    ],
  },
  {
    code: `${NODE_REDIS_HEAD}export async function renew(token: string) { await client.expire('lock:job', 30); }`,
    settings: VALKEY_81,
    errors: [
      {
        messageId: 'plainExtend',
        suggestions: [
          {
            messageId: 'useCompareAndSet',
            output: `${NODE_REDIS_HEAD}export async function renew(token: string) { await client.sendCommand(['SET', 'lock:job', token, 'IFEQ', token, 'PX', '30000']); }`,
          },
          {
            messageId: 'useCompareAndExpire',
            output: `${NODE_REDIS_HEAD}export async function renew(token: string) { await client.eval(${EXTEND_LITERAL}, { keys: ['lock:job'], arguments: [token, '30000'] }); }`,
          },
        ],
      },
    ],
  },
  {
    code: `${NODE_REDIS_HEAD}export async function run(token: string, ttl: number) {
  await client.set('lock:job', token, { condition: 'NX', expiration: { type: 'PX', value: ttl } });
  await client.pExpire('lock:job', ttl);
}`,
    settings: REDIS_84,
    errors: [
      {
        messageId: 'plainExtend',
        suggestions: [
          {
            messageId: 'useCompareAndSet',
            output: `${NODE_REDIS_HEAD}export async function run(token: string, ttl: number) {
  await client.set('lock:job', token, { condition: 'NX', expiration: { type: 'PX', value: ttl } });
  await client.set('lock:job', token, { condition: 'IFEQ', matchValue: token, expiration: { type: 'PX', value: ttl } });
}`,
          },
          {
            messageId: 'useCompareAndExpire',
            output: `${NODE_REDIS_HEAD}export async function run(token: string, ttl: number) {
  await client.set('lock:job', token, { condition: 'NX', expiration: { type: 'PX', value: ttl } });
  await client.eval(${EXTEND_LITERAL}, { keys: ['lock:job'], arguments: [token, String(ttl)] });
}`,
          },
        ],
      },
    ],
  },
  {
    code: `${UPSTASH_HEAD}export async function renew(token: string) { await redis.pexpire('lock:job', 30000); }`,
    settings: REDIS_84,
    errors: [
      {
        messageId: 'plainExtend',
        suggestions: [
          {
            messageId: 'useCompareAndSet',
            output: `${UPSTASH_HEAD}export async function renew(token: string) { await redis.exec(['SET', 'lock:job', token, 'IFEQ', token, 'PX', 30000]); }`,
          },
          {
            messageId: 'useCompareAndExpire',
            output: `${UPSTASH_HEAD}export async function renew(token: string) { await redis.eval(${EXTEND_LITERAL}, ['lock:job'], [token, 30000]); }`,
          },
        ],
      },
    ],
  },
  // Dragonfly has DELEX but no SET IFEQ: the script only.
  {
    code: `${IOREDIS_HEAD}export async function renew(token) { await redis.pexpire('lock:job', 30000); }`,
    settings: DRAGONFLY,
    errors: [
      {
        messageId: 'plainExtend',
        suggestions: [
          {
            messageId: 'useCompareAndExpire',
            output: `${IOREDIS_HEAD}export async function renew(token) { await redis.eval(${EXTEND_LITERAL}, 1, 'lock:job', token, 30000); }`,
          },
        ],
      },
    ],
  },
];

ruleTester.run('no-unsafe-release (server primitives, flagged)', releaseRule, { valid: [], invalid: releaseInvalid });
ruleTester.run('no-unsafe-extend (server primitives, flagged)', extendRule, { valid: [], invalid: extendInvalid });

suggestionsClearFindings('no-unsafe-release', releaseRule, releaseInvalid);
suggestionsClearFindings('no-unsafe-extend', extendRule, extendInvalid);
