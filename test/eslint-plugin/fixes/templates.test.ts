// fixes/templates.ts: the client calls the Redis fixes write, in each dialect's own convention.

import * as assert from 'node:assert/strict';
import * as espree from 'espree';
import { describe, it } from 'mocha';
import { EXTEND_SCRIPT, RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';
import {
  asRedisStringArgument,
  renderAtomicSet,
  renderEvalCall,
  renderScriptLiteral,
  renderTtlOption,
  type RedisDialect,
} from '../../../eslint-plugin/src/fixes/templates.js';
import { parseRedisLua } from '../../../eslint-plugin/src/lua/parse-script.js';

const DIALECTS: readonly RedisDialect[] = ['ioredis', 'node-redis', 'node-redis-v5', 'node-redis-v3', 'upstash'];

/** Fails unless `expression` parses as one JavaScript expression. */
function assertParses(expression: string): void {
  assert.doesNotThrow(() => espree.parse(`(${expression});`, { ecmaVersion: 'latest' }), expression);
}

describe('fixes/templates', () => {
  describe('renderEvalCall', () => {
    const parts = { client: 'redis', script: 'RELEASE', keys: ['key'], args: ['token', 'ttl'] };
    const expected: Record<RedisDialect, string> = {
      ioredis: 'redis.eval(RELEASE, 1, key, token, ttl)',
      'node-redis-v3': 'redis.eval(RELEASE, 1, key, token, ttl)',
      'node-redis': 'redis.eval(RELEASE, { keys: [key], arguments: [token, ttl] })',
      'node-redis-v5': 'redis.eval(RELEASE, { keys: [key], arguments: [token, ttl] })',
      upstash: 'redis.eval(RELEASE, [key], [token, ttl])',
    };
    for (const dialect of DIALECTS) {
      it(`writes ${dialect}'s argument convention`, () => {
        assert.equal(renderEvalCall(dialect, parts), expected[dialect]);
        assertParses(expected[dialect]);
      });
    }

    it('counts every key in the numkeys argument', () => {
      assert.equal(
        renderEvalCall('ioredis', { client: 'this.client', script: 'S', keys: ['a', 'b'], args: [] }),
        'this.client.eval(S, 2, a, b)',
      );
    });

    it('passes a node_redis v3 callback last, and only there', () => {
      const withCallback = { ...parts, callback: '(error, reply) => done(error, reply)' };
      assert.equal(
        renderEvalCall('node-redis-v3', withCallback),
        'redis.eval(RELEASE, 1, key, token, ttl, (error, reply) => done(error, reply))',
      );
      assert.equal(renderEvalCall('ioredis', withCallback), expected.ioredis);
    });
  });

  describe('renderAtomicSet', () => {
    const parts = { client: 'redis', key: `'lock:invoice'`, value: 'token', ttlMs: '10000' };
    const expected: Record<RedisDialect, string> = {
      ioredis: `redis.set('lock:invoice', token, 'PX', 10000, 'NX')`,
      'node-redis-v3': `redis.set('lock:invoice', token, 'NX', 'PX', 10000)`,
      'node-redis': `redis.set('lock:invoice', token, { NX: true, PX: 10000 })`,
      'node-redis-v5': `redis.set('lock:invoice', token, { condition: 'NX', expiration: { type: 'PX', value: 10000 } })`,
      upstash: `redis.set('lock:invoice', token, { nx: true, px: 10000 })`,
    };
    for (const dialect of DIALECTS) {
      it(`spells SET NX PX for ${dialect}`, () => {
        assert.equal(renderAtomicSet(dialect, parts), expected[dialect]);
        assertParses(expected[dialect]);
      });
    }

    it('writes the default TTL (30 s) when the code gives none', () => {
      assert.equal(renderAtomicSet('ioredis', { client: 'redis', key: 'key', value: 'token' }), `redis.set(key, token, 'PX', 30000, 'NX')`);
    });

    it('keeps a node_redis v3 callback last', () => {
      assert.equal(
        renderAtomicSet('node-redis-v3', { ...parts, callback: 'done' }),
        `redis.set('lock:invoice', token, 'NX', 'PX', 10000, done)`,
      );
    });
  });

  describe('renderTtlOption', () => {
    const expected: Record<RedisDialect, string> = {
      ioredis: `'PX', ttl`,
      'node-redis-v3': `'PX', ttl`,
      'node-redis': 'PX: ttl',
      'node-redis-v5': `expiration: { type: 'PX', value: ttl }`,
      upstash: 'px: ttl',
    };
    for (const dialect of DIALECTS) {
      it(`spells the expiry option for ${dialect}`, () => {
        assert.equal(renderTtlOption(dialect, 'ttl'), expected[dialect]);
      });
    }
  });

  describe('renderScriptLiteral', () => {
    it('joins the script into one single-quoted line that still parses as the same Lua', () => {
      for (const script of [RELEASE_SCRIPT, EXTEND_SCRIPT]) {
        const literal = renderScriptLiteral(script);
        assert.match(literal, /^'[^\n]*'$/u);
        const value = (espree.parse(literal, { ecmaVersion: 'latest' }).body[0] as unknown as { expression: { value: string } }).expression
          .value;
        assert.equal(
          value,
          script
            .split('\n')
            .map((line) => line.trim())
            .join(' '),
        );
        assert.ok(parseRedisLua(value), `not Lua: ${value}`);
      }
    });

    it('escapes quotes and backslashes, and drops blank lines', () => {
      assert.equal(renderScriptLiteral(`return 'a\\b'\n\n  end`), String.raw`'return \'a\\b\' end'`);
    });
  });

  describe('asRedisStringArgument', () => {
    it('leaves every argument alone outside node-redis', () => {
      for (const dialect of ['ioredis', 'node-redis-v3', 'upstash'] as const) assert.equal(asRedisStringArgument(dialect, 'ttl'), 'ttl');
    });

    it('turns numbers into strings for node-redis 4 and 5, and keeps string literals', () => {
      for (const dialect of ['node-redis', 'node-redis-v5'] as const) {
        assert.equal(asRedisStringArgument(dialect, '30000'), `'30000'`);
        assert.equal(asRedisStringArgument(dialect, `'30000'`), `'30000'`);
        assert.equal(asRedisStringArgument(dialect, '`token`'), '`token`');
        assert.equal(asRedisStringArgument(dialect, 'ttl * 1000'), 'String(ttl * 1000)');
      }
    });

    it('converts a template literal with an interpolation rather than passing it as a literal', () => {
      assert.equal(asRedisStringArgument('node-redis', '`${a}` + `${b}`'), 'String(`${a}` + `${b}`)');
    });
  });
});
