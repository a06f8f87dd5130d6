import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { childrenOverlapping, indexOfContaining } from '../../../eslint-plugin/src/util/ranges.js';
import { readAtEnd } from '../../support/probe-rule.js';

/** The program of `code` and the visitor keys a rule sees. */
function parsed(code: string) {
  return readAtEnd(code, (context) => ({ ast: context.sourceCode.ast, visitorKeys: context.sourceCode.visitorKeys }));
}

/** The children a plain scan finds: every child overlapping (from, to). */
function scanned(body: readonly TSESTree.Node[], from: number, to: number): TSESTree.Node[] {
  return body.filter((child) => child.range[1] > from && child.range[0] < to);
}

describe('ranges', () => {
  // Short lists are probed in place, long ones (over 32 items) through a copy of their end offsets.
  for (const count of [5, 33, 500]) {
    it(`finds the statements overlapping a stretch of a ${count}-statement body, as a scan does`, () => {
      const { ast, visitorKeys } = parsed(Array.from({ length: count }, (_, n) => `const v${n} = ${n};`).join('\n'));
      const middle = ast.body[Math.floor(count / 2)]!;
      const last = ast.body[count - 1]!;
      for (const [from, to] of [
        [0, 1],
        [middle.range[0] + 1, last.range[1]],
        [last.range[1], ast.range[1] + 5],
      ] as const) {
        assert.deepEqual(childrenOverlapping(visitorKeys, ast, from, to), scanned(ast.body, from, to), `(${from}, ${to})`);
      }
      assert.equal(indexOfContaining(ast.body, ast.body[count - 2]!), count - 2);
    });
  }

  it('scans a list with holes in place', () => {
    // `[, x, x, ...]`: 41 elements, the first a hole.
    const { ast, visitorKeys } = parsed(`const list = [${', x'.repeat(40)}];`);
    const declaration = ast.body[0] as TSESTree.VariableDeclaration;
    const array = declaration.declarations[0].init!;
    assert.equal(childrenOverlapping(visitorKeys, array, array.range[0], array.range[1]).length, 40);
  });
});
