// The `locksmith/lua` language on ESLint 10: the Lua rules report inside `.lua` files, with the
// compare-first suggestion; directives in Lua comments work; files that are not Redis scripts
// stay silent whatever their dialect; a Redis script that does not parse gets one parse error.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { ESLint, RuleTester, type Linter } from 'eslint';
import plugin from '../../../eslint-plugin/src/index.js';
import noUnsafeRelease from '../../../eslint-plugin/src/rules/no-unsafe-release.js';
import noUnsafeExtend from '../../../eslint-plugin/src/rules/no-unsafe-extend.js';
import noLuaReplyPitfalls from '../../../eslint-plugin/src/rules/no-lua-reply-pitfalls.js';
import { EXTEND_SCRIPT, RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';

type AnyRule = Parameters<RuleTester['run']>[1];

const ruleTester = new RuleTester({ plugins: { locksmith: plugin as unknown as ESLint.Plugin }, language: 'locksmith/lua' });
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'lua-scripts');
const fixture = (relative: string) => ({
  code: fs.readFileSync(path.join(FIXTURES, relative), 'utf8'),
  filename: path.join(FIXTURES, relative),
});

// The compare-first scripts, in the spellings real lock libraries use (see fixtures/lua-scripts/locks).
const COMPARE_FIRST = [
  'locks/unlock.lua',
  'locks/release_reversed.lua',
  'locks/release_pcall.lua',
  'locks/unlock_alias.lua',
  'locks/unlock_nested.lua',
  'locks/release_json.lua',
  'locks/extend_lock.lua',
  'locks/renew_hash.lua',
  'locks/acquire_lock.lua',
  'functions/dislock.lua',
];
const NOT_REDIS = ['nvim/lua/config/keymaps.lua', 'game/main.lua', 'roblox/Inventory.lua'];

ruleTester.run('no-unsafe-release', noUnsafeRelease as unknown as AnyRule, {
  valid: [
    ...COMPARE_FIRST.map(fixture),
    ...NOT_REDIS.map(fixture),
    { code: RELEASE_SCRIPT, filename: 'lock/release.lua' },
    // No sign of a lock: a cache eviction deletes whatever the key holds, as it should.
    fixture('cache_evict.lua'),
    // An include: the scripts that include it may compare the owner before calling it.
    fixture('includes/removeLock.lua'),
    // A key the script builds is no-lua-reply-pitfalls' business, not a release of a KEYS lock.
    { code: "return redis.call('DEL', 'lock:' .. ARGV[1])", filename: 'unlock.lua' },
    // The server's own compare-and-delete.
    { code: "return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])", filename: 'unlock.lua' },
    // One script for lock, unlock and refresh, dispatched on ARGV[1]: the helpers compare the stored
    // value with the token their callers pass from ARGV.
    {
      code: [
        'local key_lock = KEYS[1]',
        'local function lock(token, expire)',
        '  return redis.call("set", key_lock, token, "NX", "PX", expire)',
        'end',
        'local function unlock(token)',
        '  if redis.call("get", key_lock) == token then',
        '    redis.call("del", key_lock)',
        '    return true',
        '  end',
        '  return false',
        'end',
        'if ARGV[1] == "lock" then',
        '  return lock(ARGV[2], ARGV[3])',
        'elseif ARGV[1] == "unlock" then',
        '  return unlock(ARGV[2])',
        'end',
        '',
      ].join('\n'),
      filename: 'redis/scripts/lock.lua',
    },
  ],
  invalid: [
    {
      ...fixture('locks/force_unlock.lua'),
      errors: [
        {
          messageId: 'plainDelete',
          line: 2,
          column: 8,
          endLine: 2,
          endColumn: 34,
          suggestions: [
            {
              messageId: 'compareInScript',
              output:
                '-- Deletes the lock whoever holds it.\nif redis.call("GET", KEYS[1]) == ARGV[1] then\n    return redis.call(\'DEL\', KEYS[1])\nelse\n    return 0\nend\n',
            },
          ],
        },
      ],
    },
    {
      // A call statement inside a block: wrapped at its indentation; the token takes the next ARGV.
      code: "local ttl = ARGV[1]\nif ttl then\n  redis.call('UNLINK', KEYS[1])\nend\nreturn 1\n",
      filename: 'locks/release.lua',
      errors: [
        {
          messageId: 'plainDelete',
          line: 3,
          column: 3,
          suggestions: [
            {
              messageId: 'compareInScript',
              output:
                'local ttl = ARGV[1]\nif ttl then\n  if redis.call("GET", KEYS[1]) == ARGV[2] then\n    redis.call(\'UNLINK\', KEYS[1])\n  end\nend\nreturn 1\n',
            },
          ],
        },
      ],
    },
    {
      // The script compares the owner before its renewal, not before its delete: that comparison marks a lock.
      code: "if redis.call('GET', KEYS[1]) == ARGV[1] then\n  redis.call('PEXPIRE', KEYS[1], ARGV[2])\nend\nlocal n = redis.call('DEL', KEYS[1])\nreturn n\n",
      filename: 'scripts/touch.lua',
      errors: [{ messageId: 'plainDelete', line: 4, column: 11, suggestions: [] }],
    },
  ],
});

ruleTester.run('no-unsafe-extend', noUnsafeExtend as unknown as AnyRule, {
  valid: [
    ...COMPARE_FIRST.map(fixture),
    ...NOT_REDIS.map(fixture),
    { code: EXTEND_SCRIPT, filename: 'lock/extend.lua' },
    fixture('includes/removeLock.lua'),
    // An acquire script sets the key, then gives it a TTL: no renewal.
    {
      code: "if redis.call('SET', KEYS[1], ARGV[1], 'NX') then\n  redis.call('PEXPIRE', KEYS[1], ARGV[2])\n  return 1\nend\nreturn 0\n",
      filename: 'lock.lua',
    },
  ],
  invalid: [
    {
      ...fixture('locks/renew_lock.lua'),
      errors: [
        {
          messageId: 'plainExtend',
          line: 3,
          column: 1,
          suggestions: [
            {
              messageId: 'compareInScript',
              output:
                "-- Pushes the lock's expiry out, whoever holds it.\nlocal ttl = ARGV[1]\nif redis.call(\"GET\", KEYS[1]) == ARGV[2] then\n    redis.call('PEXPIRE', KEYS[1], ttl)\nend\nreturn 1\n",
            },
          ],
        },
      ],
    },
    {
      code: "return redis.call('EXPIRE', KEYS[1], 30)",
      filename: 'mutex/extendLock.lua',
      errors: [
        {
          messageId: 'plainExtend',
          line: 1,
          column: 8,
          suggestions: [
            {
              messageId: 'compareInScript',
              output:
                'if redis.call("GET", KEYS[1]) == ARGV[1] then\n    return redis.call(\'EXPIRE\', KEYS[1], 30)\nelse\n    return 0\nend',
            },
          ],
        },
      ],
    },
  ],
});

ruleTester.run('no-lua-reply-pitfalls', noLuaReplyPitfalls as unknown as AnyRule, {
  valid: [
    ...COMPARE_FIRST.map(fixture),
    ...NOT_REDIS.map(fixture),
    // In an include, a `nil` comparison may be right: the including script may have switched to RESP3.
    {
      code: "local function owner(key)\n  local value = redis.call('GET', key)\n  if value == nil then return nil end\n  return value\nend\n",
      filename: 'includes/owner.lua',
    },
    // Keys built on a passed key, an argument or a helper's parameter may carry the caller's hash
    // tag (BullMQ's `prefix .. jobId`): only the call site could tell, and a .lua file does not show it.
    {
      code: "local rcall = redis.call\nlocal jobKey = KEYS[1] .. ARGV[1]\nrcall('HSET', jobKey, 'state', 'done')\nreturn rcall('EXISTS', ARGV[2] .. ':lock')\n",
      filename: 'moveToFinished-3.lua',
    },
    {
      code: "local function removeLock(prefix, jobId)\n  redis.call('DEL', prefix .. jobId .. ':lock')\nend\n",
      filename: 'includes/removeLock.lua',
    },
  ],
  invalid: [
    {
      code: "if redis.call('EXISTS', KEYS[1]) then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0\n",
      filename: 'cleanup.lua',
      errors: [{ messageId: 'integerTruthiness', line: 1, column: 4, endLine: 1, endColumn: 33 }],
    },
    {
      code: "local v = redis.call('GET', KEYS[1])\nif v == nil then\n  return 0\nend\nreturn v\n",
      filename: 'read.lua',
      errors: [{ messageId: 'nilComparison', line: 2, column: 4 }],
    },
    {
      // A key made of literals only is on whatever slot its text hashes to.
      code: "local key = 'lock:' .. 'reports'\nreturn redis.call('SET', key, ARGV[1], 'NX', 'PX', 30000)\n",
      filename: 'acquire.lua',
      errors: [{ messageId: 'builtKey', line: 2, column: 26 }],
    },
    {
      // Integer truthiness holds wherever an include's function runs.
      code: "local function taken(key)\n  if redis.call('SETNX', key, 1) then return true end\n  return false\nend\n",
      filename: 'includes/taken.lua',
      errors: [{ messageId: 'integerTruthiness', line: 2, column: 6 }],
    },
  ],
});

describe('the Lua language', () => {
  const eslint = new ESLint({
    overrideConfigFile: true,
    overrideConfig: [plugin.configs.recommended, plugin.configs.lua] as Linter.Config[],
  });
  const lint = async (code: string, filePath: string) => (await eslint.lintText(code, { filePath: path.join(FIXTURES, filePath) }))[0]!;

  it('honours `-- eslint-disable-next-line` and `--[[ eslint-disable ]]` in Lua comments', async () => {
    const script = "return redis.call('DEL', KEYS[1])\n";
    assert.equal((await lint(script, 'locks/x.lua')).messages.length, 1);
    const nextLine = await lint(
      `-- eslint-disable-next-line locksmith/no-unsafe-release -- an admin's force unlock\n${script}`,
      'locks/x.lua',
    );
    assert.deepEqual(nextLine.messages, []);
    assert.equal(nextLine.suppressedMessages.length, 1);
    const block = await lint(`--[[ eslint-disable locksmith/no-unsafe-release ]]\n${script}`, 'locks/x.lua');
    assert.deepEqual(block.messages, []);
    const inline = await lint(`${script.trimEnd()} -- eslint-disable-line locksmith/no-unsafe-release\n`, 'locks/x.lua');
    assert.deepEqual(inline.messages, []);
    const config = await lint(`-- eslint locksmith/no-unsafe-release: off\n${script}`, 'locks/x.lua');
    assert.deepEqual(config.messages, []);
  });

  it('gives a Redis script that does not parse one parse error, and other Lua none', async () => {
    const broken = await lint("if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\n", 'locks/unlock.lua');
    assert.deepEqual(
      broken.messages.map((message) => [message.fatal, message.line]),
      [[true, 3]],
    );
    assert.match(broken.messages[0]!.message, /^Parsing error: /u);
    for (const file of NOT_REDIS) assert.deepEqual((await lint(fixture(file).code, file)).messages, [], file);
  });

  it('leaves .lua files to the Lua config: recommended ignores them, so its JavaScript rules never meet Lua', async () => {
    const only = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [plugin.configs.strict, plugin.configs.lua, { rules: {} }] as Linter.Config[],
    });
    const [result] = await only.lintText("return redis.call('DEL', KEYS[1])\n", { filePath: path.join(FIXTURES, 'locks/x.lua') });
    assert.deepEqual(
      result!.messages.map((message) => message.ruleId),
      ['locksmith/no-unsafe-release'],
    );
  });

  it('adds the Lua config to configs.project() where ESLint has languages (ESLint 10 here)', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-lua-project-'));
    try {
      assert.deepEqual(
        plugin.configs.project({ cwd: empty }).map((config) => config.name),
        ['locksmith/recommended', 'locksmith/lua', 'locksmith/lua-rules'],
      );
      assert.deepEqual(
        plugin.configs.project({ cwd: empty, preset: 'strict' }).map((config) => config.name),
        ['locksmith/strict', 'locksmith/lua', 'locksmith/lua-rules'],
      );
      assert.deepEqual(plugin.configs.project({ cwd: empty, preset: 'none' }), []);
      // A locksmith.json turning on a rule that reads only JavaScript: still linted, and .lua files still lint.
      fs.writeFileSync(
        path.join(empty, 'locksmith.json'),
        JSON.stringify({ rules: { 'require-lock-ttl': 'error', 'no-unsafe-release': 'warn' } }),
      );
      fs.mkdirSync(path.join(empty, 'lock'));
      fs.writeFileSync(path.join(empty, 'lock', 'unlock.lua'), "return redis.call('DEL', KEYS[1])\n");
      const eslint = new ESLint({
        cwd: empty,
        overrideConfigFile: true,
        overrideConfig: plugin.configs.project({ cwd: empty }) as Linter.Config[],
      });
      const [result] = await eslint.lintFiles(['lock/unlock.lua']);
      assert.deepEqual(
        result!.messages.map((message) => [message.ruleId, message.severity]),
        [['locksmith/no-unsafe-release', 1]],
      );
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('declares which languages each rule reads', () => {
    const lua = Object.entries(plugin.rules)
      .filter(([, rule]) => (rule.meta as { languages?: string[] }).languages?.includes('locksmith/lua'))
      .map(([id]) => id);
    assert.deepEqual(lua.sort(), ['no-lua-reply-pitfalls', 'no-unsafe-extend', 'no-unsafe-release']);
    for (const rule of Object.values(plugin.rules)) assert.ok((rule.meta as { languages?: string[] }).languages?.includes('js/js'));
  });
});
