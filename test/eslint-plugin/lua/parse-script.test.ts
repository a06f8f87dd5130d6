import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { parseRedisLua } from '../../../eslint-plugin/src/lua/parse-script.js';

describe('parseRedisLua', () => {
  it('parses a script once for both readings of it, and gives undefined for text that is not Lua', () => {
    const release = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0';
    const chunk = parseRedisLua(release);
    assert.ok(chunk);
    assert.equal(parseRedisLua(release), chunk, 'the lock analysis and the pitfall scan share one syntax tree');
    assert.equal(parseRedisLua('if redis.call("get" then'), undefined);
    assert.equal(parseRedisLua('if redis.call("get" then'), undefined);
  });

  it('keeps only recent scripts: a script parsed long ago is parsed again, to the same result', () => {
    const first = 'return redis.call("pttl", KEYS[1])';
    const chunk = parseRedisLua(first);
    for (let index = 0; index < 40; index++) parseRedisLua(`return ${index}`);
    const again = parseRedisLua(first);
    assert.notEqual(again, chunk);
    assert.deepEqual(again, chunk);
  });
});
