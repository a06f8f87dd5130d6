import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import {
  isResultDiscarded,
  isResultUsed,
  isUsedOnlyAsCondition,
  REPLY,
  resultFate,
  valueFlow,
  WHOLE,
  type Answer,
  type ResultFate,
} from '../../../../eslint-plugin/src/model/facts/result-flow.js';
import { lintWithProbe } from '../../../support/probe-rule.js';

interface Probe {
  readonly sourceCode: Readonly<TSESLint.SourceCode>;
  readonly call: TSESTree.CallExpression;
}

/** The source and the one call of `take(...)` in `code` (module code; async functions as written). */
function probeOf(code: string): Probe {
  let found: Probe | undefined;
  lintWithProbe(code, (context) => ({
    CallExpression(call: TSESTree.CallExpression) {
      if (call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'take') found = { sourceCode: context.sourceCode, call };
    },
  }));
  assert.ok(found, 'no take() call');
  return found;
}

function fateOf(code: string, answer: Answer): ResultFate {
  const { sourceCode, call } = probeOf(code);
  return resultFate(sourceCode, call, answer);
}

const ROW: Answer = { shape: 'result', column: 'locked' };

describe("result-flow: where a call's value goes", () => {
  it('names the one step to what receives the value', () => {
    assert.equal(valueFlow(probeOf('async function f() { await take(); }').call).kind, 'dropped');
    assert.equal(valueFlow(probeOf('void take();').call).kind, 'dropped');
    assert.equal(valueFlow(probeOf('async function f() { const ok = await take(); return ok; }').call).kind, 'declared');
    assert.equal(valueFlow(probeOf('let ok; async function f() { ok = await take(); }').call).kind, 'assigned');
    assert.equal(valueFlow(probeOf('async function f() { if (await take()) run(); }').call).kind, 'used');
    assert.equal(isResultUsed(probeOf('async function f() { await take(); }').call), false);
    assert.equal(isResultUsed(probeOf('async function f() { return take(); }').call), true);
  });

  it('reads a reply: dropped, bound and never read, or any read of it', () => {
    const ignored = fateOf('async function f() { await take(); work(); }', REPLY);
    assert.ok(ignored.kind === 'ignored' && ignored.statement?.type === AST_NODE_TYPES.ExpressionStatement);
    assert.deepEqual(fateOf('void take();', REPLY), { kind: 'ignored', statement: undefined });
    const unread = fateOf('async function f() { const ok = await take(); work(); }', REPLY);
    assert.ok(unread.kind === 'unread' && unread.name === 'ok' && unread.guard === 'ok' && unread.declaration?.kind === 'const');
    assert.deepEqual(fateOf('async function f() { const ok = await take(); if (!ok) return; work(); }', REPLY), { kind: 'checked' });
    assert.deepEqual(fateOf('async function f() { return await take(); }', REPLY), { kind: 'checked' });
    assert.deepEqual(fateOf('async function f() { use(await take()); }', REPLY), { kind: 'checked' });
    // An exported binding is read by its importers.
    assert.deepEqual(fateOf('export const ok = await take();', REPLY), { kind: 'checked' });
  });

  it('follows a later assignment for a reply, and destructuring and copies for a whole value', () => {
    const assigned = fateOf('let ok; async function f() { ok = await take(); work(); }', REPLY);
    assert.ok(assigned.kind === 'unread' && assigned.name === 'ok' && assigned.declaration === undefined);
    assert.deepEqual(fateOf('let ok; async function f() { ok = await take(); work(); }', WHOLE), { kind: 'checked' });
    assert.deepEqual(fateOf('async function f() { const { ok } = await take(); work(); }', REPLY), { kind: 'checked' });
    assert.equal(fateOf('async function f() { const { ok } = await take(); work(); }', WHOLE).kind, 'unread');
    assert.equal(fateOf('async function f() { const ok = await take(); const copy = ok; work(); }', WHOLE).kind, 'unread');
    assert.deepEqual(fateOf('async function f() { const ok = await take(); const copy = ok; return copy; }', WHOLE), { kind: 'checked' });
  });

  it("reads a column of the rows in the library's shape", () => {
    const countOnly = fateOf('async function f() { const result = await take(); log(result.rowCount); }', ROW);
    assert.ok(countOnly.kind === 'unread' && countOnly.guard === 'result.rows[0]?.locked');
    const rows = fateOf('async function f() { const { rows } = await take(); log(rows.length); }', ROW);
    assert.ok(rows.kind === 'unread' && rows.guard === 'rows[0]?.locked');
    assert.deepEqual(fateOf('async function f() { const { rows } = await take(); if (!rows[0].locked) return; }', ROW), {
      kind: 'checked',
    });
    assert.deepEqual(fateOf('async function f() { const { rows: [row] } = await take(); return row.locked; }', ROW), { kind: 'checked' });
    // The rows leave whole, or go to a callback: not followed, so not reported.
    assert.deepEqual(fateOf('async function f() { const result = await take(); return result; }', ROW), { kind: 'checked' });
    assert.deepEqual(fateOf('take("select 1", [], (error, result) => log(result));', ROW), { kind: 'checked' });
  });

  it('tells a value only tested from one used as data', () => {
    const onlyTested = (code: string) => {
      const { sourceCode, call } = probeOf(code);
      return isUsedOnlyAsCondition(sourceCode, call);
    };
    assert.equal(onlyTested('async function f() { if (await take()) run(); }'), true);
    assert.equal(onlyTested('async function f() { const ok = await take(); if (!ok) return; }'), true);
    assert.equal(onlyTested('async function f() { await take(); }'), true);
    assert.equal(onlyTested('async function f() { return await take(); }'), false);
    assert.equal(onlyTested('async function f() { const ok = await take(); return ok === 1; }'), false);
  });

  it('tells a discarded value from a kept one', () => {
    const discarded = (code: string) => {
      const { sourceCode, call } = probeOf(code);
      return isResultDiscarded(sourceCode, call);
    };
    assert.equal(discarded('async function f() { await take(); }'), true);
    assert.equal(discarded('async function f() { const result = await take(); }'), true);
    assert.equal(discarded('async function f() { const result = await take(); return result; }'), false);
    assert.equal(discarded('void take();'), false);
  });
});
