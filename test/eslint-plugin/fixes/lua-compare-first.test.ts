// fixes/lua-compare-first.ts: an unguarded DEL or PEXPIRE in a `.lua` file wrapped in the
// compare-first form, reading the token from the next free ARGV.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { luaCompareFirstEdit } from '../../../eslint-plugin/src/fixes/lua-compare-first.js';
import { analyzeLuaChunk } from '../../../eslint-plugin/src/lua/analyze-script.js';
import { luaLanguage } from '../../../eslint-plugin/src/lua/language.js';
import { parseRedisLua } from '../../../eslint-plugin/src/lua/parse-script.js';
import { applyEdit } from '../support/fix-probe.js';

/** The script with the edit for its first delete (or expiry) applied, and the ARGV it reads the token from. */
function fixFirst(script: string, kind: 'deletes' | 'expiries' = 'deletes'): { script: string; tokenArgument: string } | undefined {
  const parsed = luaLanguage.parse({ body: script, path: 'release.lua' });
  assert.ok(parsed.ok, 'the script should parse');
  const write = analyzeLuaChunk(parsed.ast)[kind][0];
  assert.ok(write, `no ${kind} in the script`);
  const edit = luaCompareFirstEdit(script, parsed.ast, write);
  if (!edit) return undefined;
  const fixed = applyEdit(script, edit);
  assert.ok(parseRedisLua(fixed), `the fixed script does not parse:\n${fixed}`);
  return { script: fixed, tokenArgument: edit.tokenArgument };
}

describe('fixes/lua-compare-first', () => {
  it('guards a returned DEL and returns 0 when the lock is not ours', () => {
    assert.deepEqual(fixFirst('return redis.call("DEL", KEYS[1])\n'), {
      script: 'if redis.call("GET", KEYS[1]) == ARGV[1] then\n    return redis.call("DEL", KEYS[1])\nelse\n    return 0\nend\n',
      tokenArgument: 'ARGV[1]',
    });
  });

  it("guards a DEL statement with no else, in the file's own indentation", () => {
    const script = 'local ttl = ARGV[1]\nif ttl then\n  redis.call("DEL", KEYS[1])\nend\n';
    assert.deepEqual(fixFirst(script), {
      script:
        'local ttl = ARGV[1]\nif ttl then\n  if redis.call("GET", KEYS[1]) == ARGV[2] then\n    redis.call("DEL", KEYS[1])\n  end\nend\n',
      tokenArgument: 'ARGV[2]',
    });
  });

  it('takes the ARGV after the highest one the script reads', () => {
    const fixed = fixFirst('local a = ARGV[ 3 ]\nredis.call("PEXPIRE", KEYS[1], ARGV[1])\n', 'expiries');
    assert.equal(fixed?.tokenArgument, 'ARGV[4]');
    assert.equal(
      fixed.script,
      'local a = ARGV[ 3 ]\nif redis.call("GET", KEYS[1]) == ARGV[4] then\n    redis.call("PEXPIRE", KEYS[1], ARGV[1])\nend\n',
    );
  });

  it('leaves a write inside an expression alone', () => {
    assert.equal(fixFirst('local removed = redis.call("DEL", KEYS[1])\nreturn removed\n'), undefined);
  });

  it('leaves a statement that shares its line with code before it alone', () => {
    assert.equal(fixFirst('local x = 1 redis.call("DEL", KEYS[1])\n'), undefined);
  });
});
