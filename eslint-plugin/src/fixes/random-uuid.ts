// How a fix calls `randomUUID` from `node:crypto`: through the module's existing import, or with an
// import added in the file's own module style (ES `import` or CommonJS `require`).

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { collectImports } from '../model/imports.js';
import { moduleInsertionPoint, namesInFile } from './edits.js';

const CRYPTO_MODULES = new Set(['crypto', 'node:crypto']);

export interface RandomUuidCall {
  /** `randomUUID()` or `crypto.randomUUID()`, as this module can call it. */
  readonly text: string;
  /** The import to add, when the module has none that provides `randomUUID`. */
  readonly addImport: ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined;
}

/** Undefined when `randomUUID` names something else in this module. */
export function randomUuidCall(sourceCode: Readonly<TSESLint.SourceCode>): RandomUuidCall | undefined {
  const program = sourceCode.ast;
  for (const [local, binding] of collectImports(program)) {
    if (!CRYPTO_MODULES.has(binding.source)) continue;
    if (binding.imported === 'randomUUID') return { text: `${local}()`, addImport: undefined };
    if (binding.imported === '*' || binding.imported === 'default') return { text: `${local}.randomUUID()`, addImport: undefined };
  }
  if (isNameTaken(sourceCode, 'randomUUID')) return undefined;
  const declaration = usesCommonJs(program)
    ? `const { randomUUID } = require('node:crypto');`
    : `import { randomUUID } from 'node:crypto';`;
  const { node } = moduleInsertionPoint(program);
  return {
    text: 'randomUUID()',
    addImport: (fixer) => node
      ? fixer.insertTextAfter(node, `\n${declaration}`)
      : fixer.insertTextBeforeRange([0, 0], `${declaration}\n`),
  };
}

/** A file without ES imports that `require`s at its top, or that parses as a script. */
function usesCommonJs(program: TSESTree.Program): boolean {
  if (program.body.some((statement) => statement.type === AST_NODE_TYPES.ImportDeclaration || statement.type === AST_NODE_TYPES.ExportNamedDeclaration
    || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration || statement.type === AST_NODE_TYPES.ExportAllDeclaration)) {
    return false;
  }
  if (program.sourceType === 'script') return true;
  return program.body.some((statement) => statement.type === AST_NODE_TYPES.VariableDeclaration && statement.declarations.some((declarator) => {
    let init = declarator.init;
    while (init?.type === AST_NODE_TYPES.MemberExpression) init = init.object;
    return init?.type === AST_NODE_TYPES.CallExpression && init.callee.type === AST_NODE_TYPES.Identifier && init.callee.name === 'require';
  }));
}

function isNameTaken(sourceCode: Readonly<TSESLint.SourceCode>, name: string): boolean {
  return namesInFile(sourceCode).has(name);
}
