// fixes/script-call.ts: a release or renewal swapped for a call of Locksmith's script, through what
// the module already has (a defined command, a script constant), else the script as a literal.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { scriptCallFix, tokenTextAt } from '../../../eslint-plugin/src/fixes/script-call.js';
import { EXTEND_SCRIPT, RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';
import { renderScriptLiteral, type RedisDialect } from '../../../eslint-plugin/src/fixes/templates.js';
import { applyFix, probe } from '../support/fix-probe.js';
import { DIALECT_SOURCES, dialectSource, type DialectSource } from './dialect-sources.js';

const RELEASE = renderScriptLiteral(RELEASE_SCRIPT);
const EXTEND = renderScriptLiteral(EXTEND_SCRIPT);

function swapped(
  source: DialectSource,
  body: string,
  commandName: string,
  kind: 'release' | 'extend',
  argTexts: readonly string[],
  prefix = '',
): string | undefined {
  return applyFix(
    prefix + source.code(body),
    (file) => {
      const command = file.model.redis.commands.find((candidate) => candidate.name === commandName);
      assert.ok(command, `no ${commandName}`);
      return scriptCallFix(file.sourceCode, file.model.redis, { kind, command, keyText: 'key', argTexts });
    },
    source.options,
  );
}

describe('fixes/script-call', () => {
  describe('scriptCallFix', () => {
    const releases: Record<RedisDialect, string> = {
      ioredis: `await redis.eval(${RELEASE}, 1, key, token);`,
      'node-redis': `await redis.eval(${RELEASE}, { keys: [key], arguments: [token] });`,
      'node-redis-v5': `await redis.eval(${RELEASE}, { keys: [key], arguments: [token] });`,
      'node-redis-v3': `client.eval(${RELEASE}, 1, key, token, done);`,
      upstash: `await redis.eval(${RELEASE}, [key], [token]);`,
    };
    for (const source of DIALECT_SOURCES) {
      it(`swaps ${source.dialect}'s DEL for the release script, written at the call`, () => {
        const body = source.dialect === 'node-redis-v3' ? 'client.del(key, done);' : `await ${source.client}.del(key);`;
        assert.equal(swapped(source, body, 'DEL', 'release', ['token']), source.code(releases[source.dialect]));
      });
    }

    it('swaps a PEXPIRE for the extend script with the token and the TTL', () => {
      const ioredis = dialectSource('ioredis');
      assert.equal(
        swapped(ioredis, 'await redis.pexpire(key, ttl);', 'PEXPIRE', 'extend', ['token', 'ttl']),
        ioredis.code(`await redis.eval(${EXTEND}, 1, key, token, ttl);`),
      );
    });

    it("passes the module's own compare-and-delete constant instead of a literal", () => {
      const constant =
        'const RELEASE_LOCK = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;\n';
      const ioredis = dialectSource('ioredis');
      assert.equal(
        swapped(ioredis, 'await redis.del(key);', 'DEL', 'release', ['token'], constant),
        constant + ioredis.code('await redis.eval(RELEASE_LOCK, 1, key, token);'),
      );
    });

    it('calls a command the module defined with a safe script (ioredis defineCommand)', () => {
      const ioredis = dialectSource('ioredis');
      const body = `redis.defineCommand('releaseLock', { numberOfKeys: 1, lua: 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end' });\n  await redis.del(key);`;
      const fixed = swapped(ioredis, body, 'DEL', 'release', ['token']);
      assert.equal(fixed, ioredis.code(body.replace('await redis.del(key);', 'await redis.releaseLock(key, token);')));
    });

    it('leaves a call queued in MULTI alone', () => {
      assert.equal(swapped(dialectSource('ioredis'), 'await redis.multi().del(key).exec();', 'DEL', 'release', ['token']), undefined);
    });
  });

  describe('tokenTextAt', () => {
    const code = "function release(redis, key, token) {\n  redis.del(key);\n  other('literal', token, lockToken);\n}";
    const pick = (available: (text: string) => boolean) =>
      probe(code, (file) => {
        const [literal, token, lockToken] = file.node(`other('literal', token, lockToken)`, AST_NODE_TYPES.CallExpression).arguments;
        return tokenTextAt(file.sourceCode, [undefined, literal, token, lockToken], file.node('redis.del(key)'), (expression) =>
          available(file.sourceCode.getText(expression)),
        );
      });

    it('takes the first candidate available at the position, never a literal', () => {
      assert.equal(
        pick(() => true),
        'token',
      );
      assert.equal(
        pick((text) => text !== 'token'),
        'lockToken',
      );
      assert.equal(
        pick(() => false),
        undefined,
      );
    });
  });
});
