// fixes/acquire-guard.ts: the guard a try-acquisition's ignored or unread result needs.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { guardAfterDeclarationFix, guardStatementFix } from '../../../eslint-plugin/src/fixes/acquire-guard.js';
import { applyFix, probe, type ProbedFile } from '../support/fix-probe.js';

type TryAcquisition = Parameters<typeof guardStatementFix>[1];

/** The try-acquisition at `call`, owned by the function around it. */
function tryAcquisitionAt(file: ProbedFile, call: string): TryAcquisition {
  const node = file.node(call, AST_NODE_TYPES.CallExpression);
  let owner: TSESTree.Node | undefined = node.parent;
  while (
    owner &&
    owner.type !== AST_NODE_TYPES.FunctionDeclaration &&
    owner.type !== AST_NODE_TYPES.ArrowFunctionExpression &&
    owner.type !== AST_NODE_TYPES.FunctionExpression
  )
    owner = owner.parent;
  assert.ok(owner);
  return { node, label: 'SET NX', owner, callback: undefined, verifiedLater: false };
}

const ACQUIRE = `redis.set(key, token, 'PX', 30000, 'NX')`;

function guarded(code: string, access = ''): string | undefined {
  return applyFix(code, (file) => {
    const acquisition = tryAcquisitionAt(file, ACQUIRE);
    const statement = file.node(`await ${ACQUIRE};`, AST_NODE_TYPES.ExpressionStatement);
    return guardStatementFix(file.sourceCode, acquisition, statement, access)?.fix;
  });
}

describe('fixes/acquire-guard', () => {
  describe('guardStatementFix', () => {
    it('guards the work after an ignored acquisition', () => {
      assert.equal(
        guarded(`async function run() {\n  await ${ACQUIRE};\n  await work();\n}`),
        `async function run() {\n  if (!(await ${ACQUIRE})) return;\n  await work();\n}`,
      );
    });

    it('returns the answer when nothing follows, and reads it through the access given', () => {
      assert.equal(guarded(`async function run() {\n  await ${ACQUIRE};\n}`), `async function run() {\n  return await ${ACQUIRE};\n}`);
      assert.equal(
        guarded(`async function run() {\n  await ${ACQUIRE};\n  await work();\n}`, '.rows[0]?.locked'),
        `async function run() {\n  if (!(await ${ACQUIRE}).rows[0]?.locked) return;\n  await work();\n}`,
      );
    });

    it("names the guard for the suggestion's message", () => {
      const fix = probe(`async function run() {\n  await ${ACQUIRE};\n  await work();\n}`, (file) =>
        guardStatementFix(
          file.sourceCode,
          tryAcquisitionAt(file, ACQUIRE),
          file.node(`await ${ACQUIRE};`, AST_NODE_TYPES.ExpressionStatement),
          '',
        ),
      );
      assert.deepEqual(fix && { kind: fix.kind, guard: 'guard' in fix ? fix.guard : undefined }, {
        kind: 'guard',
        guard: 'if (!(await …)) return;',
      });
    });

    it('declines inside a loop or a switch, where return would leave more than the work', () => {
      assert.equal(
        guarded(`async function run() {\n  for (const key of keys) {\n    await ${ACQUIRE};\n    await work();\n  }\n}`),
        undefined,
      );
      assert.equal(
        guarded(`async function run() {\n  switch (mode) {\n    case 1: {\n      await ${ACQUIRE};\n      await work();\n    }\n  }\n}`),
        undefined,
      );
    });
  });

  describe('guardAfterDeclarationFix', () => {
    it("returns early on the unread answer, on the next line at the declaration's indentation", () => {
      const code = `async function run() {\n    const ok = await ${ACQUIRE};\n    await work();\n}`;
      const fixed = applyFix(
        code,
        (file) =>
          guardAfterDeclarationFix(
            file.sourceCode,
            tryAcquisitionAt(file, ACQUIRE),
            file.node(`const ok = await ${ACQUIRE};`, AST_NODE_TYPES.VariableDeclaration),
            'ok',
          )?.fix,
      );
      assert.equal(fixed, `async function run() {\n    const ok = await ${ACQUIRE};\n    if (!ok) return;\n    await work();\n}`);
    });

    it("declines at a module's top level, where there is no function to return from", () => {
      const code = `const ok = await ${ACQUIRE};\nexport {};`;
      assert.equal(
        probe(code, (file) => {
          const acquisition: TryAcquisition = {
            node: file.node(ACQUIRE, AST_NODE_TYPES.CallExpression),
            label: 'SET NX',
            owner: file.sourceCode.ast,
            callback: undefined,
            verifiedLater: false,
          };
          return guardAfterDeclarationFix(
            file.sourceCode,
            acquisition,
            file.node(`const ok = await ${ACQUIRE};`, AST_NODE_TYPES.VariableDeclaration),
            'ok',
          );
        }),
        undefined,
      );
    });
  });
});
