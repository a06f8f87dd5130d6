// Finds the lock token a fix can pass when the acquisition does not show it: a binding named like
// a token (`token`, `lockToken`, `this.owner`) visible where the fix writes the call.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { propertyName } from '../util/ast.js';

const TOKEN_NAME = /^(?:lock_?)?(?:token|owner(?:_?id)?|value)$/iu;

/** A binding named like a lock token (`token`, `lockToken`, `this.owner`) visible at `node`. */
export function tokenByName(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string | undefined {
  // Every scope but the global one, which alone has no upper scope.
  for (let scope = sourceCode.getScope(node); scope.upper !== null; scope = scope.upper) {
    for (const variable of scope.variables) {
      // `value` alone is too vague a name to trust; `lockValue` is not.
      if (TOKEN_NAME.test(variable.name) && variable.name !== 'value' && variable.defs[0] && variable.defs[0].name.range[0] < node.range[0])
        return variable.name;
    }
  }
  let current: TSESTree.Node | undefined = node.parent;
  while (current && current.type !== AST_NODE_TYPES.ClassBody) current = current.parent;
  if (current?.type === AST_NODE_TYPES.ClassBody) {
    for (const element of current.body) {
      if (
        element.type === AST_NODE_TYPES.PropertyDefinition &&
        element.key.type === AST_NODE_TYPES.Identifier &&
        TOKEN_NAME.test(element.key.name) &&
        !element.static
      ) {
        return `this.${element.key.name}`;
      }
    }
    for (const assignment of constructorAssignments(current)) if (TOKEN_NAME.test(assignment)) return `this.${assignment}`;
  }
  return undefined;
}

function constructorAssignments(classBody: TSESTree.ClassBody): string[] {
  const names: string[] = [];
  for (const element of classBody.body) {
    if (element.type !== AST_NODE_TYPES.MethodDefinition) continue;
    for (const statement of element.value.body?.body ?? []) {
      if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression)
        continue;
      const target = statement.expression.left;
      if (target.type === AST_NODE_TYPES.MemberExpression && target.object.type === AST_NODE_TYPES.ThisExpression) {
        const name = propertyName(target);
        if (name !== undefined) names.push(name);
      }
    }
  }
  return names;
}
