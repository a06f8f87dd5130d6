import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RuleTester } from '../support/rule-tester.js';
import rule from '../../../eslint-plugin/src/rules/no-lua-reply-pitfalls.js';
import { EXTEND_SCRIPT, FENCED_ACQUIRE_SCRIPT, RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';

const ruleTester = new RuleTester();

// A folder with `.lua` files the JavaScript below reads with readFileSync.
const luaDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-lua-reply-'));
fs.writeFileSync(
  path.join(luaDirectory, 'acquire.lua'),
  [
    '-- KEYS[1] lock key, ARGV[1] token, ARGV[2] ttl ms',
    'if redis.call("SETNX", KEYS[1], ARGV[1]) then',
    '  redis.call("PEXPIRE", KEYS[1], ARGV[2])',
    '  return 1',
    'end',
    'return 0',
    '',
  ].join('\n'),
);
fs.writeFileSync(path.join(luaDirectory, 'release.lua'), RELEASE_SCRIPT);
const inLuaDirectory = path.join(luaDirectory, 'locks.js');

const json = (value: unknown) => JSON.stringify(value);

ruleTester.run('no-lua-reply-pitfalls', rule, {
  valid: [
    // The scripts Locksmith's own fixes insert.
    `import Redis from 'ioredis';\nconst redis = new Redis();\nconst RELEASE = ${json(RELEASE_SCRIPT)};\nconst EXTEND = ${json(EXTEND_SCRIPT)};\nexport const release = (k, t) => redis.eval(RELEASE, 1, k, t);`,
    `import Redis from 'ioredis';\nconst redis = new Redis();\nconst FENCED = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (t) => redis.eval(FENCED, 2, '{invoice}:lock', '{invoice}:fence', t, 30000);`,
    // Integer replies compared with a number, as real lock scripts do.
    `import Redis from 'ioredis';
const redis = new Redis();
const ACQUIRE = \`
if redis.call('setnx', KEYS[1], ARGV[1]) == 1 then
  return redis.call('pexpire', KEYS[1], ARGV[2])
else
  return 0
end\`;
export const acquire = (k, t) => redis.eval(ACQUIRE, 1, k, t, 30000);`,
    `const redis = require('redis').createClient();
const SCRIPT = "if (redis.call('exists', KEYS[1]) == 0) then redis.call('set', KEYS[1], ARGV[1]); redis.call('expire', KEYS[1], ARGV[2]); return 1; end; return 0;";
module.exports = (k, t) => redis.eval(SCRIPT, { keys: [k], arguments: [t, '30'] });`,
    // A reply bound to a local and compared with a number.
    `const S = "local existed = redis.call('EXISTS', KEYS[1])\\nif existed == 1 then return 0 end\\nredis.call('SET', KEYS[1], ARGV[1])\\nreturn 1";`,
    // GET tested for truth (false when missing) or compared with false: right.
    `const S = "local v = redis.call('GET', KEYS[1])\\nif v == false then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) elseif v == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return false";`,
    `const S = "local lock = redis.call('GET', KEYS[1])\\nif not lock then return redis.call('PSETEX', KEYS[1], ARGV[1], 'locked') end return 'BUSY'";`,
    // SET NX replies OK or nil: a truth test reads it right.
    `const S = 'if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return 1 end return 0';`,
    // The compare-and-delete spellings: GET equal to the token, either side.
    `const S = 'if ARGV[1] == redis.call("get", KEYS[1]) then return redis.call("del", KEYS[1]) end return 0';`,
    // tonumber(false) is nil: comparing that with nil is right.
    `const S = "if tonumber(redis.call('GET', KEYS[1])) == nil then return 0 end return 1";`,
    `const S = "local expires = tonumber(redis.call('GET', KEYS[1]) or 0) if expires < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[2]) end";`,
    // An integer reply with a dead default is harmless.
    `const S = "local n = redis.call('DEL', KEYS[1]) or 0 return n";`,
    // A pcall's error table read through its field.
    `const S = "local r = redis.pcall('DEL', KEYS[1]) if type(r) == 'table' and r.err then return 0 end return r";`,
    // RESP3: a missing value is nil there.
    `const S = "redis.setresp(3)\\nlocal v = redis.call('GET', KEYS[1])\\nif v == nil then return 0 end return v";`,
    // Keys from KEYS, looped over, or a key list from a KEYS entry guarded with and.
    `const S = "for _, k in ipairs(KEYS) do redis.call('PEXPIRE', k, ARGV[1]) end return {1, KEYS[2] and redis.call('GET', KEYS[2]) or false}";`,
    // A local redefining the name: not the Redis API any more.
    `const S = "local redis = { call = function() return 0 end }\\nif redis.call('EXISTS', 'x') then return 1 end";`,
    // Not Redis: Neovim and LÖVE Lua in strings, and text that is not Lua.
    `const NVIM = "if vim.fn.exists('g:loaded') then return end\\nvim.api.nvim_set_keymap('n', '<leader>x', ':q<CR>', {})";`,
    `const TEXT = 'Call redis.call("EXISTS", key) then check the reply';`,
    `const DOC = "-- in Lua: if redis.call('EXISTS', k) then -- is always true";`,
    // A loaded compare-and-delete file.
    {
      code: `import * as fs from 'node:fs';\nimport Redis from 'ioredis';\nconst redis = new Redis();\nredis.defineCommand('release', { numberOfKeys: 1, lua: fs.readFileSync(__dirname + '/release.lua', 'utf8') });`,
      filename: inLuaDirectory,
    },
    // Cluster: keys with one hash tag, or keys the source cannot read, or a standalone client.
    `import { Cluster } from 'ioredis';\nconst cluster = new Cluster([{ host: 'a', port: 6379 }]);\nconst S = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (id, t) => cluster.eval(S, 2, \`{lock:\${id}}\`, \`{lock:\${id}}:fence\`, t, 30000);`,
    `import { Cluster } from 'ioredis';\nconst cluster = new Cluster([]);\nconst S = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (a, b, t) => cluster.eval(S, 2, a, b, t, 30000);`,
    `import { Cluster } from 'ioredis';\nconst cluster = new Cluster([]);\nconst S = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (prefix, t) => cluster.eval(S, 2, \`\${prefix}:lock\`, \`\${prefix}:fence\`, t, 30000);`,
    `import Redis from 'ioredis';\nconst redis = new Redis();\nconst S = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (id, t) => redis.eval(S, 2, \`lock:\${id}\`, \`fence:\${id}\`, t, 30000);`,
    // Keys built in the script from what the caller passes (a prefix in ARGV, a key in KEYS) are
    // judged as in a \`.lua\` file: they may carry the caller's hash tag, and the client is no cluster.
    `const S = 'local owner = redis.call("GET", "lock:" .. ARGV[1]) ' +
  'if owner == ARGV[2] then return redis.call("DEL", "lock:" .. ARGV[1]) end return 0';`,
    `const S = "local fence = KEYS[1] .. ':fence'\\nreturn redis.call('INCR', fence)";`,
    `import Redis from 'ioredis';
const redis = new Redis();
const FETCH = \`
  local session = redis.call('HGETALL', KEYS[1])
  local game = redis.call('HGETALL', ARGV[1] .. session[2])
  return game\`;
export const fetch = (key, prefix) => redis.eval(FETCH, 1, key, prefix);`,
    // Two literal keys that hash to the same slot ({a} tags).
    {
      code: `import Redis from 'ioredis';\nconst redis = new Redis();\nconst S = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (t) => redis.eval(S, 2, '{a}lock', '{a}fence', t, 30000);`,
      settings: { locksmith: { redis: { cluster: true } } },
    },
  ],
  invalid: [
    {
      // An integer reply tested for truth: always taken, even when the key was already held.
      code: `import Redis from 'ioredis';
const redis = new Redis();
const ACQUIRE = \`if redis.call('SETNX', KEYS[1], ARGV[1]) then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0\`;
export const acquire = (k, t) => redis.eval(ACQUIRE, 1, k, t, 30000);`,
      errors: [{ messageId: 'integerTruthiness', data: { command: 'SETNX', where: '' }, line: 3, column: 21, endLine: 3, endColumn: 58 }],
    },
    {
      code: `const S = "if not redis.call('EXISTS', KEYS[1]) then return redis.call('SET', KEYS[1], ARGV[1]) end return 0";`,
      errors: [{ messageId: 'integerTruthiness', data: { command: 'EXISTS', where: '' }, line: 1, column: 19 }],
    },
    {
      // Through a local, and through an alias of redis.call.
      code: `import Redis from 'ioredis';\nconst S = "local rcall = redis.call\\nlocal ok = rcall('DEL', KEYS[1])\\nif ok then return 1 end return 0";`,
      errors: [{ messageId: 'integerTruthiness', data: { command: 'DEL', where: '' } }],
    },
    {
      // The a-and-b-or-c idiom on an integer: always b.
      code: `const S = 'return redis.call("EXPIRE", KEYS[1], ARGV[1]) and "renewed" or "lost"';`,
      errors: [{ messageId: 'integerTruthiness', data: { command: 'EXPIRE', where: '' }, column: 19 }],
    },
    {
      // A reply compared with nil never matches.
      code: `const S = 'local v = redis.call("GET", KEYS[1])\\nif v == nil then return redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2]) end\\nreturn 0';`,
      errors: [{ messageId: 'nilComparison', data: { command: 'GET', where: '' } }],
    },
    {
      // A key made in the script from literals alone: no caller can give it a hash tag. A string
      // concatenation of pieces keeps the position.
      code: `const S = 'local owner = redis.call("GET", "lock:" .. "nightly") ' +
  'if owner == ARGV[1] then return redis.call("DEL", "lock:" .. "nightly") end return 0';`,
      errors: [
        { messageId: 'builtKey', data: { command: 'GET', where: '' }, line: 1, column: 44 },
        { messageId: 'builtKey', data: { command: 'DEL', where: '' }, line: 2, column: 54 },
      ],
    },
    {
      code: `const S = "local fence = 'invoice:fence'\\nreturn redis.call('INCR', fence)";`,
      errors: [{ messageId: 'builtKey', data: { command: 'INCR', where: '' } }],
    },
    {
      // On a cluster client any key the script builds may live on another node, whatever it is built from.
      code: `import { Cluster } from 'ioredis';
const cluster = new Cluster([]);
const S = "local owner = redis.call('GET', ARGV[1] .. ':lock') if owner == ARGV[2] then return redis.call('DEL', ARGV[1] .. ':lock') end return 0";
export const release = (prefix, token) => cluster.eval(S, 0, prefix, token);`,
      errors: [
        { messageId: 'builtKey', data: { command: 'GET', where: '' } },
        { messageId: 'builtKey', data: { command: 'DEL', where: '' } },
      ],
    },
    {
      code: `const S = "local fence = KEYS[1] .. ':fence'\\nreturn redis.call('INCR', fence)";`,
      settings: { locksmith: { redis: { cluster: true } } },
      errors: [{ messageId: 'builtKey', data: { command: 'INCR', where: '' } }],
    },
    {
      // A .lua file read at start-up: reported at the read, naming the file's line.
      code: `import * as fs from 'node:fs';\nimport * as path from 'node:path';\nimport Redis from 'ioredis';\nconst redis = new Redis();\nredis.defineCommand('acquire', { numberOfKeys: 1, lua: fs.readFileSync(path.join(__dirname, 'acquire.lua'), 'utf8') });`,
      filename: inLuaDirectory,
      errors: [{ messageId: 'integerTruthiness', data: { command: 'SETNX', where: ' (acquire.lua, line 2)' }, line: 5, column: 56 }],
    },
    {
      // Cluster clients: keys without a common hash tag, in each client's layout.
      code: `import { Cluster } from 'ioredis';\nconst cluster = new Cluster([]);\nconst S = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (id, t) => cluster.eval(S, 2, \`lock:\${id}\`, \`fence:\${id}\`, t, 30000);`,
      errors: [{ messageId: 'crossSlot', data: { count: '2' }, line: 4 }],
    },
    {
      code: `import Redis from 'ioredis';\nconst cluster = new Redis.Cluster([]);\nconst S = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (t) => cluster.eval(S, 2, 'invoice:lock', 'invoice:fence', t, 30000);`,
      errors: [{ messageId: 'crossSlot', data: { count: '2' } }],
    },
    {
      code: `import { createCluster } from 'redis';\nconst cluster = createCluster({ rootNodes: [] });\nconst S = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (id, t) => cluster.eval(S, { keys: [\`{a}\${id}\`, \`{b}\${id}\`], arguments: [t, '30000'] });`,
      errors: [{ messageId: 'crossSlot', data: { count: '2' } }],
    },
    {
      // The setting says every client is a cluster client.
      code: `import Redis from 'ioredis';\nconst redis = new Redis();\nconst S = ${json(FENCED_ACQUIRE_SCRIPT)};\nexport const take = (t) => redis.eval(S, 2, 'invoice:lock', 'invoice:fence', t, 30000);`,
      settings: { locksmith: { redis: { cluster: true } } },
      errors: [{ messageId: 'crossSlot', data: { count: '2' } }],
    },
  ],
});
