// The Redis Lua scripts a file holds (luaTextsOf): literals and `+`/`join` chains whose text calls
// `redis.call`, `.lua` files read with `readFileSync`, and the map from a script offset back to the
// source; not strings that merely mention Redis.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { luaTextsOf } from '../../../../eslint-plugin/src/model/lua-scripts/lua-texts.js';
import { readAtEnd } from '../../../support/probe-rule.js';

interface Seen {
  readonly text: string;
  readonly line: number;
  /** The source text at the script offset of `DEL`, when offsets map. */
  readonly atDel: string | undefined;
}

function texts(code: string): Seen[] {
  return readAtEnd(
    code,
    (context) =>
      luaTextsOf(context.sourceCode, context.filename).map((lua) => {
        const offset = lua.text.indexOf('DEL');
        const mapped = lua.sourceOffset && offset >= 0 ? lua.sourceOffset(offset) : undefined;
        return {
          text: lua.text,
          line: lua.node.loc.start.line,
          atDel: mapped === undefined ? undefined : context.sourceCode.text.slice(mapped, mapped + 3),
        };
      }),
    { typescript: true },
  );
}

describe('luaTextsOf', () => {
  it('finds a script literal and maps its offsets back to the source', () => {
    assert.deepEqual(
      texts(`const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end";
const NOTE = 'redis is a server; call it later';
const NOT_LUA = 'see redis.io for DEL';`),
      [
        {
          text: "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end",
          line: 1,
          atDel: 'DEL',
        },
      ],
    );
  });

  it('takes a `+` chain and a `[…].join` as one script; a chain of plain literals still maps offsets', () => {
    const seen = texts(`const PLUS = "local v = redis.call('GET', KEYS[1]) " +
  "if v == ARGV[1] then return redis.call('DEL', KEYS[1]) end";
const JOINED = [
  "if redis.call('GET', KEYS[1]) == ARGV[1] then",
  "  return redis.call('DEL', KEYS[1])",
  'end',
].join('\\n');`);
    assert.equal(seen.length, 2);
    assert.equal(seen[0]!.text, "local v = redis.call('GET', KEYS[1]) if v == ARGV[1] then return redis.call('DEL', KEYS[1]) end");
    assert.equal(seen[0]!.atDel, 'DEL');
    assert.equal(seen[1]!.line, 3);
    assert.equal(seen[1]!.text, "if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend");
    // Joined with a separator the source does not hold: no offset map, the whole node is reported.
    assert.equal(seen[1]!.atDel, undefined);
  });

  it('a script written with escapes has its text but no offset map', () => {
    const [seen] = texts(`const S = "return redis.call(\\"DEL\\", KEYS[1])";`);
    assert.equal(seen!.text, 'return redis.call("DEL", KEYS[1])');
    assert.equal(seen!.atDel, undefined);
  });

  it('a file without redis.call holds no scripts', () => {
    assert.deepEqual(texts(`const redis = { call() {} }; const text = 'redis call';`), []);
  });
});
