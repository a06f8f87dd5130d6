// Which local names a module binds to which package exports (ES imports and CommonJS require).

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { skipTypeWrappers } from '../../util/ast.js';
import type { ImportBinding, ImportTable } from '../nouns/vocabulary.js';

const cache = new WeakMap<TSESTree.Program, ImportTable>();

/** Module-level import bindings by local name. Only top-level declarations count. */
export function collectImports(program: TSESTree.Program): ImportTable {
  const cached = cache.get(program);
  if (cached) return cached;
  const bindings = new Map<string, ImportBinding>();
  cache.set(program, bindings);
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) {
      const source = statement.source.value;
      for (const specifier of statement.specifiers) {
        if (specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier) bindings.set(specifier.local.name, { source, imported: 'default' });
        else if (specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier) bindings.set(specifier.local.name, { source, imported: '*' });
        else {
          const imported = specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : specifier.imported.value;
          bindings.set(specifier.local.name, { source, imported });
        }
      }
    } else if (statement.type === AST_NODE_TYPES.TSImportEqualsDeclaration) {
      const reference = statement.moduleReference;
      if (reference.type === AST_NODE_TYPES.TSExternalModuleReference) {
        bindings.set(statement.id.name, { source: reference.expression.value, imported: '*' });
      }
    } else if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of statement.declarations) collectRequire(declarator, bindings);
    }
  }
  return bindings;
}

function collectRequire(declarator: TSESTree.VariableDeclarator, bindings: Map<string, ImportBinding>): void {
  if (!declarator.init) return;
  const required = requiredModule(declarator.init);
  if (!required) return;
  const { source, member } = required;
  if (declarator.id.type === AST_NODE_TYPES.Identifier) {
    // `const Redis = require('ioredis')` behaves as the default export; `require('x').Y` as a named one.
    bindings.set(declarator.id.name, { source, imported: member ?? '*' });
  } else if (declarator.id.type === AST_NODE_TYPES.ObjectPattern && member === undefined) {
    for (const property of declarator.id.properties) {
      if (property.type !== AST_NODE_TYPES.Property || property.key.type !== AST_NODE_TYPES.Identifier) continue;
      if (property.value.type === AST_NODE_TYPES.Identifier) bindings.set(property.value.name, { source, imported: property.key.name });
    }
  }
}

/** `require('x')`, `require('x').default`, `require('x').Name`, `await import('x')`. */
function requiredModule(node: TSESTree.Expression): { source: string; member?: string } | undefined {
  const expression = skipTypeWrappers(node);
  if (
    expression.type === AST_NODE_TYPES.MemberExpression &&
    !expression.computed &&
    expression.property.type === AST_NODE_TYPES.Identifier
  ) {
    const inner = requiredModule(expression.object);
    return inner && inner.member === undefined ? { source: inner.source, member: expression.property.name } : undefined;
  }
  if (expression.type === AST_NODE_TYPES.AwaitExpression) return requiredModule(expression.argument);
  if (expression.type === AST_NODE_TYPES.ImportExpression && expression.source.type === AST_NODE_TYPES.Literal) {
    return { source: String(expression.source.value) };
  }
  if (
    expression.type === AST_NODE_TYPES.CallExpression &&
    expression.callee.type === AST_NODE_TYPES.Identifier &&
    expression.callee.name === 'require' &&
    expression.arguments[0]?.type === AST_NODE_TYPES.Literal &&
    typeof expression.arguments[0].value === 'string'
  ) {
    return { source: expression.arguments[0].value };
  }
  return undefined;
}
