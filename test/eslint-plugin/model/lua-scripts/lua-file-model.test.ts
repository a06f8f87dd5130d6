// The lock model of a whole `.lua` file (lua-scripts/lua-file-model.ts): whether the file is a lock
// script (its name or folder says lock, or it compares the stored value with the caller's somewhere),
// a file of helpers other scripts include, or neither; its unguarded releases and renewals of KEYS
// keys; and the reply pitfalls that hold wherever it runs. A cache script that deletes a key, a
// `block.lua`, an acquisition's own PEXPIRE and a helper file's nil comparison stay silent.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { luaLanguage } from '../../../../eslint-plugin/src/lua/language.js';
import { DEFAULT_LOCK_KEY_PATTERN } from '../../../../eslint-plugin/src/model/facts/settings.js';
import { luaFileModel, type LuaFileModel } from '../../../../eslint-plugin/src/model/lua-scripts/lua-file-model.js';

const LOCK_PATTERN = new RegExp(DEFAULT_LOCK_KEY_PATTERN, 'iu');

function modelOf(file: string, text: string, pattern = LOCK_PATTERN): LuaFileModel {
  const parsed = luaLanguage.parse({ body: text, path: file });
  assert.ok(parsed.ok, `${file} should parse`);
  return luaFileModel(parsed.ast, file, pattern);
}

/** The unguarded releases and renewals, as `COMMAND KEYS[n]`, and the pitfalls as `kind COMMAND`. */
function brief(model: LuaFileModel): { include: boolean; releases: string[]; renewals: string[]; pitfalls: string[] } {
  return {
    include: model.include,
    releases: model.unguardedReleases.map((write) => `${write.command} ${write.keyRef}`),
    renewals: model.unguardedRenewals.map((write) => `${write.command} ${write.keyRef}`),
    pitfalls: model.pitfalls.map((pitfall) => `${pitfall.kind} ${pitfall.command}`),
  };
}

const BARE_DEL = 'return redis.call("DEL", KEYS[1])\n';
const BARE_PEXPIRE = 'return redis.call("PEXPIRE", KEYS[1], ARGV[1])\n';

describe('lua-file-model', () => {
  it('a file named for a lock, word by word, is a lock script: its bare DEL or PEXPIRE is unguarded', () => {
    const released = (file: string, text = BARE_DEL) => {
      const model = modelOf(file, text);
      return [...model.unguardedReleases, ...model.unguardedRenewals].map((write) => write.command);
    };
    assert.deepEqual(released('scripts/release_lock.lua'), ['DEL']);
    assert.deepEqual(released('scripts/unlock.lua'), ['DEL']);
    assert.deepEqual(released('lock/renew.lua', BARE_PEXPIRE), ['PEXPIRE']);
    assert.deepEqual(released('scripts/jobLock.lua', BARE_PEXPIRE), ['PEXPIRE']);
    // Names that hold no lock word: a cache script, a block or a clock, a release of anything.
    assert.deepEqual(released('scripts/cache.lua'), []);
    assert.deepEqual(released('scripts/block.lua'), []);
    assert.deepEqual(released('scripts/clock.lua'), []);
    assert.deepEqual(released('scripts/release.lua'), []);
  });

  it('reads the name with the project’s lock pattern, and `unlock` as a camelCase hump', () => {
    assert.deepEqual(brief(modelOf('scripts/mutexRelease.lua', BARE_DEL)).releases, []);
    assert.deepEqual(brief(modelOf('scripts/mutexRelease.lua', BARE_DEL, /lock|mutex/iu)).releases, ['DEL KEYS[1]']);
    // The default pattern leaves `unlock` inside a word alone; the hump is read on its own.
    assert.deepEqual(brief(modelOf('scripts/unlockJob.lua', BARE_DEL)).releases, ['DEL KEYS[1]']);
    assert.deepEqual(brief(modelOf('scripts/deadlock.lua', BARE_DEL)).releases, []);
  });

  it('a script that compares the owner somewhere is a lock script whatever its name; only KEYS keys count', () => {
    assert.deepEqual(
      brief(
        modelOf(
          'scripts/cleanup.lua',
          'if redis.call("get", KEYS[1]) == ARGV[1] then\n  redis.call("del", KEYS[1])\nend\nredis.call("del", KEYS[2])\nredis.call("del", "lock:global")\n',
        ),
      ),
      // The guarded DEL and the literal key's DEL are not unguarded releases of a passed key; the literal key is a pitfall.
      { include: false, releases: ['DEL KEYS[2]'], renewals: [], pitfalls: ['builtKey DEL'] },
    );
  });

  it('a script that takes the key renews nothing: its PEXPIRE is part of the acquisition', () => {
    assert.deepEqual(
      brief(
        modelOf(
          'lock/acquire.lua',
          'if redis.call("set", KEYS[1], ARGV[1], "NX") then\n  return redis.call("pexpire", KEYS[1], ARGV[2])\nend\nreturn 0\n',
        ),
      ),
      { include: false, releases: [], renewals: [], pitfalls: [] },
    );
  });

  it('a file of helper functions is an include: no unguarded writes, and no nil pitfall (its includer may use RESP3)', () => {
    const helpers =
      'local call = redis.call\nlocal function release(key)\n  return call("del", key)\nend\nlocal function held(key) return redis.call("get", key) == nil end\n';
    assert.deepEqual(brief(modelOf('lock/helpers.lua', helpers)), { include: true, releases: [], renewals: [], pitfalls: [] });
    // The same comparison at the top level of a script is a pitfall.
    assert.deepEqual(brief(modelOf('lock/check.lua', 'if redis.call("get", KEYS[1]) == nil then return 0 end\nreturn 1\n')).pitfalls, [
      'nilComparison GET',
    ]);
  });

  it('reports a key built of literals only, not one built on a passed key or argument', () => {
    assert.deepEqual(
      brief(
        modelOf(
          'scripts/counter.lua',
          'if redis.call("exists", KEYS[1]) then return 1 end\nlocal prefix = "lock:"\nredis.call("set", prefix .. "global", ARGV[1])\nredis.call("set", KEYS[1] .. ARGV[1], 1)\n',
        ),
      ).pitfalls,
      ['integerTruthiness EXISTS', 'builtKey SET'],
    );
  });

  it('is computed once per chunk', () => {
    const parsed = luaLanguage.parse({ body: BARE_DEL, path: 'unlock.lua' });
    assert.ok(parsed.ok);
    assert.equal(luaFileModel(parsed.ast, 'unlock.lua', LOCK_PATTERN), luaFileModel(parsed.ast, 'unlock.lua', LOCK_PATTERN));
  });
});
