// fixes/fail-closed.ts: the falsy value an acquire helper's `catch` returns in place of its truthy literal.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { failClosedFix } from '../../../eslint-plugin/src/fixes/fail-closed.js';
import { applyFix, probe } from '../support/fix-probe.js';

const helper = (literal: string) => `async function acquire(redis: Redis, key: string, token: string) {
  try {
    return await redis.set(key, token, 'PX', 30000, 'NX');
  } catch {
    return ${literal};
  }
}`;

describe('fixes/fail-closed', () => {
  const cases: [literal: string, closed: string][] = [
    ['true', 'false'],
    ['1', '0'],
    [`'OK'`, 'null'],
    ['"OK"', 'null'],
  ];
  for (const [literal, closed] of cases) {
    it(`returns ${closed} for ${literal}`, () => {
      const code = helper(literal);
      assert.equal(
        probe(code, (file) => failClosedFix(file.node(literal, AST_NODE_TYPES.Literal)).value),
        closed,
      );
      assert.equal(
        applyFix(code, (file) => failClosedFix(file.node(literal, AST_NODE_TYPES.Literal)).fix),
        helper(closed),
      );
    });
  }

  it('falls back to false for any other truthy literal', () => {
    assert.equal(
      probe(helper(`'acquired'`), (file) => failClosedFix(file.node(`'acquired'`, AST_NODE_TYPES.Literal)).value),
      'false',
    );
  });
});
