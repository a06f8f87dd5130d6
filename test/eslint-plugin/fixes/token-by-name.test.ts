// fixes/token-by-name.ts: the binding named like a lock token that a fix can pass when the
// acquisition does not show one.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { tokenByName } from '../../../eslint-plugin/src/fixes/token-by-name.js';
import { probe } from '../support/fix-probe.js';

/** The token name visible at the `redis.del(key)` call of `code`. */
function tokenAtRelease(code: string): string | undefined {
  return probe(code, (file) => tokenByName(file.sourceCode, file.node('redis.del(key)', AST_NODE_TYPES.CallExpression)));
}

describe('fixes/token-by-name', () => {
  for (const name of ['token', 'lockToken', 'lock_token', 'owner', 'ownerId', 'owner_id', 'lockValue']) {
    it(`finds a parameter named ${name}`, () => {
      assert.equal(tokenAtRelease(`async function release(redis, key, ${name}) {\n  await redis.del(key);\n}`), name);
    });
  }

  it('finds a local declared before the call, in an enclosing function too', () => {
    assert.equal(
      tokenAtRelease(
        'async function run(redis, key) {\n  const token = mint();\n  return async () => {\n    await redis.del(key);\n  };\n}',
      ),
      'token',
    );
  });

  it('ignores `value` alone, names that only contain a token word, and a token declared after the call', () => {
    assert.equal(tokenAtRelease('async function release(redis, key, value, tokens) {\n  await redis.del(key);\n}'), undefined);
    assert.equal(tokenAtRelease('async function release(redis, key) {\n  await redis.del(key);\n  const token = 1;\n}'), undefined);
  });

  it("searches a module's top-level bindings, never a script's globals", () => {
    const code = 'const token = mint();\nasync function release(redis, key) {\n  await redis.del(key);\n}';
    assert.equal(tokenAtRelease(code), 'token');
    assert.equal(
      probe(code, (file) => tokenByName(file.sourceCode, file.node('redis.del(key)', AST_NODE_TYPES.CallExpression)), {
        filename: 'file.js',
        sourceType: 'script',
      }),
      undefined,
    );
  });

  it('finds an instance field, and a field the constructor assigns', () => {
    assert.equal(
      tokenAtRelease('class Lock {\n  owner = mint();\n  async release(redis, key) {\n    await redis.del(key);\n  }\n}'),
      'this.owner',
    );
    assert.equal(
      tokenAtRelease(
        'class Lock {\n  constructor() {\n    this.lockToken = mint();\n  }\n  async release(redis, key) {\n    await redis.del(key);\n  }\n}',
      ),
      'this.lockToken',
    );
  });

  it('ignores a static field: all instances share it', () => {
    assert.equal(
      tokenAtRelease('class Lock {\n  static token = mint();\n  async release(redis, key) {\n    await redis.del(key);\n  }\n}'),
      undefined,
    );
  });
});
