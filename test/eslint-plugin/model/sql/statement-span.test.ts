// Runs of sibling statements that the PostgreSQL fixes move into a connection or a transaction:
// spanBetween and spanToBlockEnd, the questions asked before moving them into a callback
// (spanLeavesCallback, spanDeclarationsUsedAfter), and renderSpanBody's re-indented text.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import {
  blockStatementOf,
  renderSpanBody,
  spanBetween,
  spanDeclarationsUsedAfter,
  spanLeavesCallback,
  spanToBlockEnd,
  type StatementSpan,
} from '../../../../eslint-plugin/src/model/sql/statement-span.js';
import { probe, type ProbedFile } from '../../support/fix-probe.js';

const CODE = `import { Pool } from 'pg';
const pool = new Pool();
export async function run(id: number) {
  await pool.query('SELECT pg_advisory_lock($1)', [id]);
  const rows = await pool.query('SELECT * FROM jobs');
  try {
    await pool.query(\`UPDATE jobs
SET done = true\`);
  } finally {
    await pool.query('SELECT pg_advisory_unlock($1)', [id]);
  }
  return rows;
}`;

const LOCK = "pool.query('SELECT pg_advisory_lock($1)', [id])";
const UNLOCK = "pool.query('SELECT pg_advisory_unlock($1)', [id])";

/** The span's statements, each by its first line of text. */
const firstLines = (file: ProbedFile, span: StatementSpan | undefined): string[] | undefined =>
  span?.statements.map((statement) => file.sourceCode.getText(statement).split('\n')[0]!);

describe('statement-span', () => {
  it('spanBetween climbs from the unlock to the statement beside the lock (the try whose finally unlocks)', () => {
    probe(CODE, (file) => {
      const span = spanBetween(file.sourceCode, file.node(LOCK), file.node(UNLOCK));
      assert.deepEqual(firstLines(file, span), [`await ${LOCK};`, "const rows = await pool.query('SELECT * FROM jobs');", 'try {']);
      assert.equal(span!.indent, '  ');
      // Backwards, or from a node in no block: no span.
      assert.equal(spanBetween(file.sourceCode, file.node(UNLOCK), file.node(LOCK)), undefined);
      assert.equal(blockStatementOf(file.node(LOCK))?.type, AST_NODE_TYPES.ExpressionStatement);
    });
  });

  it('spanToBlockEnd runs to the end of the lock’s block', () => {
    probe(CODE, (file) => {
      assert.deepEqual(firstLines(file, spanToBlockEnd(file.sourceCode, file.node(LOCK))), [
        `await ${LOCK};`,
        "const rows = await pool.query('SELECT * FROM jobs');",
        'try {',
        'return rows;',
      ]);
    });
  });

  it('spanDeclarationsUsedAfter: a declaration inside the span read after it cannot move into a callback', () => {
    probe(CODE, (file) => {
      const toTry = spanBetween(file.sourceCode, file.node(LOCK), file.node(UNLOCK))!;
      assert.equal(spanDeclarationsUsedAfter(toTry, file.sourceCode), true);
      const toEnd = spanToBlockEnd(file.sourceCode, file.node(LOCK))!;
      assert.equal(spanDeclarationsUsedAfter(toEnd, file.sourceCode), false);
    });
  });

  it('spanLeavesCallback: return, break or arguments at the span’s level; not inside a nested arrow or loop', () => {
    const code = `declare function lock(name: string): void;
declare function unlock(name: string): void;
export function f(items: number[]) {
  lock('f');
  for (const item of items) { if (item) break; }
  items.forEach(() => { return; });
  unlock('f');
}
export function g() {
  lock('g');
  if (Math.random()) return;
  unlock('g');
}
export function h() {
  lock('h');
  console.log(arguments.length);
  unlock('h');
}
export function k(items: number[]) {
  outer: for (const item of items) {
    lock('k');
    for (const other of items) if (other === item) continue outer;
    unlock('k');
  }
}`;
    probe(code, (file) => {
      const leaves = (name: string): boolean =>
        spanLeavesCallback(spanBetween(file.sourceCode, file.node(`lock('${name}')`), file.node(`unlock('${name}')`))!, file.sourceCode);
      // A plain break inside a loop of the span stays in it; a labelled continue from such a loop leaves the span.
      assert.deepEqual(['f', 'g', 'h', 'k'].map(leaves), [false, true, true, true]);
    });
  });

  it('renderSpanBody indents every line but those inside a template literal, and applies edits', () => {
    probe(CODE, (file) => {
      const span = spanBetween(file.sourceCode, file.node(LOCK), file.node(UNLOCK))!;
      const lockCall = file.node(LOCK);
      const body = renderSpanBody(span, file.sourceCode, [{ range: lockCall.range, text: "client.query('SELECT 1')" }]);
      assert.equal(
        body,
        `    await client.query('SELECT 1');
    const rows = await pool.query('SELECT * FROM jobs');
    try {
      await pool.query(\`UPDATE jobs
SET done = true\`);
    } finally {
      await ${UNLOCK};
    }`,
      );
    });
  });
});
