import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { parseRedisLua } from '../../../eslint-plugin/src/lua/parse-script.js';
import { findLuaReplyPitfalls, luaReplyPitfalls } from '../../../eslint-plugin/src/lua/reply-pitfalls.js';

// The analysis the Lua language calls on a whole file: ranges are offsets into the script text.
describe('findLuaReplyPitfalls', () => {
  it('reports each pitfall with its range in the script', () => {
    const source = 'if redis.call("EXISTS", KEYS[1]) then\n  return redis.call("GET", "lock:" .. ARGV[1]) == nil\nend';
    const chunk = parseRedisLua(source);
    assert.ok(chunk);
    const found = findLuaReplyPitfalls(chunk).map((pitfall) => [pitfall.kind, pitfall.command, source.slice(...pitfall.range)]);
    assert.deepEqual(found, [
      ['integerTruthiness', 'EXISTS', 'redis.call("EXISTS", KEYS[1])'],
      ['nilComparison', 'GET', 'redis.call("GET", "lock:" .. ARGV[1]) == nil'],
      ['builtKey', 'GET', '"lock:" .. ARGV[1]'],
    ]);
  });

  it('is undefined for text that is not Lua, and empty for Lua without Redis', () => {
    assert.equal(luaReplyPitfalls('if redis.call( then'), undefined);
    assert.deepEqual(luaReplyPitfalls('if vim.fn.exists("g:x") then return end'), []);
  });
});
