import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { analyzeLuaScript, isCompareAndDelete, isCompareAndExpire } from '../../../eslint-plugin/src/lua/analyze-script.js';
import { EXTEND_SCRIPT, FENCED_ACQUIRE_SCRIPT, RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';

function summary(source: string) {
  const result = analyzeLuaScript(source);
  assert.ok(result, `expected the script to parse:\n${source}`);
  return result;
}

describe('analyzeLuaScript', () => {
  it('recognises the scripts Locksmith inserts', () => {
    assert.equal(isCompareAndDelete(summary(RELEASE_SCRIPT)), true);
    assert.equal(isCompareAndExpire(summary(EXTEND_SCRIPT)), true);
    const acquire = summary(FENCED_ACQUIRE_SCRIPT);
    assert.deepEqual(
      acquire.sets.map((set) => [set.keyRef, set.nx, set.hasExpiry]),
      [['KEYS[1]', true, true]],
    );
    assert.deepEqual(
      acquire.increments.map((write) => write.keyRef),
      ['KEYS[2]'],
    );
  });

  const safeReleases: Record<string, string> = {
    'redis.pcall': 'if redis.pcall("get", KEYS[1]) == ARGV[1] then return redis.pcall("del", KEYS[1]) end return 0',
    'a local alias': 'local rcall = redis.call\nif rcall("GET", KEYS[1]) == ARGV[1] then return rcall("DEL", KEYS[1]) end\nreturn 0',
    'an early return on ~=':
      'local v = redis.call("GET", KEYS[1])\nif v ~= ARGV[1] then return 0 end\nredis.call("UNLINK", KEYS[1])\nreturn 1',
    'the token on the left': 'if ARGV[1] == redis.call("GET", KEYS[1]) then return redis.call("DEL", KEYS[1]) else return 0 end',
    'a cjson owner field':
      'local lock = cjson.decode(redis.call("GET", KEYS[1]))\nif lock.owner ~= ARGV[1] then return 0 end\nreturn redis.call("DEL", KEYS[1])',
    'a token passed in KEYS': 'if redis.call("GET", KEYS[1]) == KEYS[2] then return redis.call("DEL", KEYS[1]) end return 0',
    'an else branch of a mismatch': 'if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 else return redis.call("DEL", KEYS[1]) end',
    'a not-equal inside not': 'if not (redis.call("GET", KEYS[1]) ~= ARGV[1]) then return redis.call("DEL", KEYS[1]) end return 0',
    'a missing-or-foreign early error':
      'local v = redis.call("GET", KEYS[1])\nif not v or v ~= ARGV[1] then error("not owner") end\nredis.call("DEL", KEYS[1])',
    'a hash owner field': 'if redis.call("HGET", KEYS[1], "owner") == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0',
    "a local function's parameter that every call fills from ARGV":
      'local key = KEYS[1]\nlocal function unlock(token)\n  if redis.call("get", key) == token then\n    redis.call("del", key)\n    return true\n  end\n  return false\nend\nif ARGV[1] == "unlock" then return unlock(ARGV[2]) end',
  };
  for (const [form, script] of Object.entries(safeReleases)) {
    it(`counts ${form} as an owner check`, () => {
      assert.equal(isCompareAndDelete(summary(script)), true);
    });
  }

  const unsafeReleases: Record<string, string> = {
    'a bare delete': 'return redis.call("DEL", KEYS[1])',
    'a check that only tests existence': 'if redis.call("EXISTS", KEYS[1]) == 1 then return redis.call("DEL", KEYS[1]) end return 0',
    'a comparison with a constant': 'if redis.call("GET", KEYS[1]) == "locked" then return redis.call("DEL", KEYS[1]) end return 0',
    'a delete before the check': 'redis.call("DEL", KEYS[1])\nif redis.call("GET", KEYS[1]) == ARGV[1] then return 1 end\nreturn 0',
    'a delete in the mismatch branch': 'if redis.call("GET", KEYS[1]) ~= ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0',
    'an early return that does not return':
      'if redis.call("GET", KEYS[1]) ~= ARGV[1] then redis.log(redis.LOG_WARNING, "x") end\nreturn redis.call("DEL", KEYS[1])',
    'an or-ed match': 'if redis.call("GET", KEYS[1]) == ARGV[1] or ARGV[2] == "force" then return redis.call("DEL", KEYS[1]) end return 0',
    "a local function's parameter that a call fills with a constant":
      'local function drop(token)\n  if redis.call("GET", KEYS[1]) == token then return redis.call("DEL", KEYS[1]) end\n  return 0\nend\nreturn drop("locked")',
    "a local function's parameter that nothing calls":
      'local function drop(token)\n  if redis.call("GET", KEYS[1]) == token then return redis.call("DEL", KEYS[1]) end\n  return 0\nend\nreturn 0',
  };
  for (const [form, script] of Object.entries(unsafeReleases)) {
    it(`does not count ${form} as an owner check`, () => {
      assert.equal(isCompareAndDelete(summary(script)), false);
    });
  }

  it('sees an unchecked renewal', () => {
    const result = summary('return redis.call("PEXPIRE", KEYS[1], ARGV[1])');
    assert.equal(isCompareAndExpire(result), false);
    assert.equal(result.expiries[0]?.command, 'PEXPIRE');
  });

  it('answers undefined for text that is not Lua', () => {
    assert.equal(analyzeLuaScript('SELECT 1 FROM locks WHERE'), undefined);
    assert.equal(analyzeLuaScript('if then end end'), undefined);
  });
});

describe("analyzeLuaScript: the servers' compare-first commands", () => {
  it('counts DELEX IFEQ/IFDEQ and DELIFEQ as owner-checked deletes', () => {
    for (const source of [
      'return redis.call("DELEX", KEYS[1], "IFEQ", ARGV[1])',
      'return redis.call("delex", KEYS[1], "ifdeq", ARGV[1])',
      'return redis.pcall("DELIFEQ", KEYS[1], ARGV[1])',
    ])
      assert.equal(isCompareAndDelete(summary(source)), true, source);
  });

  it('counts a bare DELEX and the IFNE forms as unchecked deletes', () => {
    for (const source of [
      'return redis.call("DELEX", KEYS[1])',
      'return redis.call("DELEX", KEYS[1], "IFNE", ARGV[1])',
      'return redis.call("DELEX", KEYS[1], "IFDNE", ARGV[1])',
    ]) {
      const result = summary(source);
      assert.equal(result.deletes.length, 1, source);
      assert.equal(isCompareAndDelete(result), false, source);
    }
  });

  it('counts SET … IFEQ … PX as an owner-checked renewal, and SET … IFEQ without expiry as a plain write', () => {
    const renew = summary('return redis.call("SET", KEYS[1], ARGV[1], "IFEQ", ARGV[1], "PX", ARGV[2])');
    assert.equal(isCompareAndExpire(renew), true);
    assert.equal(renew.sets.length, 0);
    const swap = summary('return redis.call("SET", KEYS[1], ARGV[1], "IFEQ", ARGV[1])');
    assert.equal(swap.expiries.length, 0);
    assert.equal(swap.sets.length, 1);
  });
});
