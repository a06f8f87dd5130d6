// How a fix calls `randomUUID`: through the module's existing `node:crypto` import, or without
// adding one, by `require('node:crypto')` in a CommonJS module and the global Web Crypto
// `crypto.randomUUID()` (Node 19 and later, browsers, edge runtimes) in an ES module. Never by an
// import inserted at the top: that edit would merge with the token's edit into one replacement
// spanning the file from the imports to the lock.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { collectImports } from '../model/facts/imports.js';

const CRYPTO_MODULES = new Set(['crypto', 'node:crypto']);

/**
 * `randomUUID()`, `crypto.randomUUID()` or `require('node:crypto').randomUUID()`, as this module can
 * call it; undefined when every way is shadowed by a binding of the module.
 */
export function randomUuidCall(sourceCode: Readonly<TSESLint.SourceCode>): string | undefined {
  const program = sourceCode.ast;
  for (const [local, binding] of collectImports(program)) {
    if (!CRYPTO_MODULES.has(binding.source)) continue;
    if (binding.imported === 'randomUUID') return `${local}()`;
    if (binding.imported === '*' || binding.imported === 'default') return `${local}.randomUUID()`;
  }
  if (usesCommonJs(program)) return isNameDeclared(sourceCode, 'require') ? undefined : `require('node:crypto').randomUUID()`;
  if (!isNameDeclared(sourceCode, 'crypto')) return 'crypto.randomUUID()';
  return isNameDeclared(sourceCode, 'globalThis') ? undefined : 'globalThis.crypto.randomUUID()';
}

/** A file without ES imports that `require`s at its top, or that parses as a script. */
function usesCommonJs(program: TSESTree.Program): boolean {
  if (
    program.body.some(
      (statement) =>
        statement.type === AST_NODE_TYPES.ImportDeclaration ||
        statement.type === AST_NODE_TYPES.ExportNamedDeclaration ||
        statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ||
        statement.type === AST_NODE_TYPES.ExportAllDeclaration,
    )
  ) {
    return false;
  }
  if (program.sourceType === 'script') return true;
  return program.body.some(
    (statement) =>
      statement.type === AST_NODE_TYPES.VariableDeclaration &&
      statement.declarations.some((declarator) => {
        let init = declarator.init;
        while (init?.type === AST_NODE_TYPES.MemberExpression) init = init.object;
        return (
          init?.type === AST_NODE_TYPES.CallExpression && init.callee.type === AST_NODE_TYPES.Identifier && init.callee.name === 'require'
        );
      }),
  );
}

/**
 * True when the file declares `name` anywhere, which could shadow the global at the fix's position.
 * Reads of the global itself and globals the configuration declares (no definition) do not count.
 */
function isNameDeclared(sourceCode: Readonly<TSESLint.SourceCode>, name: string): boolean {
  return declaredNames(sourceCode).has(name);
}

// Every suggestion of a file asks: gather the file's declared names once, not per suggestion. Keyed by
// the Program: oxlint's JS plugins reuse one scope manager for every file a thread lints.
const declaredNamesByFile = new WeakMap<object, ReadonlySet<string>>();

function declaredNames(sourceCode: Readonly<TSESLint.SourceCode>): ReadonlySet<string> {
  const key = sourceCode.ast;
  const cached = declaredNamesByFile.get(key);
  if (cached) return cached;
  const names = new Set<string>();
  for (const scope of sourceCode.scopeManager?.scopes ?? []) {
    for (const variable of scope.variables) if (variable.defs.length > 0) names.add(variable.name);
  }
  declaredNamesByFile.set(key, names);
  return names;
}
