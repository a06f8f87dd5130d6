// fixes/move-to-finally.ts: the work between acquiring and releasing moved into `try`, the release
// into its `finally`, in the code's own indentation.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { moveToFinallyFix } from '../../../eslint-plugin/src/fixes/move-to-finally.js';
import { applyFix, type ProbedFile } from '../support/fix-probe.js';

type LockStep = Parameters<typeof moveToFinallyFix>[1];

function stepAt(file: ProbedFile, call: string): LockStep {
  const node = file.node(call, AST_NODE_TYPES.CallExpression);
  let owner: TSESTree.Node | undefined = node.parent;
  while (owner && owner.type !== AST_NODE_TYPES.FunctionDeclaration) owner = owner.parent;
  assert.ok(owner);
  return { node, owner };
}

const ACQUIRE = `redis.set(key, token, 'PX', 30000, 'NX')`;
const RELEASE = 'redis.del(key)';

const moved = (code: string) => applyFix(code, (file) => moveToFinallyFix(file.sourceCode, stepAt(file, ACQUIRE), stepAt(file, RELEASE)));

describe('fixes/move-to-finally', () => {
  it('wraps the work in try and releases in finally, leaving the early-exit guard outside', () => {
    const code = `async function run() {
  const ok = await ${ACQUIRE};
  if (!ok) return;
  await work();
  await report();
  await ${RELEASE};
}`;
    assert.equal(
      moved(code),
      `async function run() {
  const ok = await ${ACQUIRE};
  if (!ok) return;
  try {
    await work();
    await report();
  } finally {
    await ${RELEASE};
  }
}`,
    );
  });

  it("takes the file's indentation step, tabs included, and moves the comment above the release", () => {
    const code = `async function run() {\n\tif (!(await ${ACQUIRE})) return;\n\tawait work();\n\t// ours only\n\tawait ${RELEASE};\n}`;
    assert.equal(
      moved(code),
      `async function run() {\n\tif (!(await ${ACQUIRE})) return;\n\ttry {\n\t\tawait work();\n\t} finally {\n\t\t// ours only\n\t\tawait ${RELEASE};\n\t}\n}`,
    );
  });

  it('wraps the body of an `if` that tests the acquisition', () => {
    const code = `async function run() {\n  if (await ${ACQUIRE}) {\n    await work();\n    await ${RELEASE};\n  }\n}`;
    assert.equal(
      moved(code),
      `async function run() {\n  if (await ${ACQUIRE}) {\n    try {\n      await work();\n    } finally {\n      await ${RELEASE};\n    }\n  }\n}`,
    );
  });

  it('does not re-indent a statement holding a multi-line string', () => {
    const code = `async function run() {\n  await ${ACQUIRE};\n  await work(\`a\nb\`);\n  await ${RELEASE};\n}`;
    assert.equal(
      moved(code),
      `async function run() {\n  await ${ACQUIRE};\n  try {\n    await work(\`a\nb\`);\n  } finally {\n    await ${RELEASE};\n  }\n}`,
    );
  });

  it('declines when the work declares a binding read after it', () => {
    const code = `async function run() {\n  await ${ACQUIRE};\n  const result = await work();\n  await ${RELEASE};\n  return result;\n}`;
    assert.equal(moved(code), undefined);
  });

  it('declines when there is no work between', () => {
    assert.equal(moved(`async function run() {\n  await ${ACQUIRE};\n  await ${RELEASE};\n}`), undefined);
  });
});
