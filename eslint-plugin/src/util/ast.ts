// Small AST questions the lock model asks again and again.

import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

export type FunctionLike = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

export type ScopeOwner = FunctionLike | TSESTree.Program;

export function isFunctionLike(node: TSESTree.Node): node is FunctionLike {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** The function a node runs in, or the Program for module-level code. */
export function enclosingFunction(node: TSESTree.Node): ScopeOwner {
  let current = node.parent;
  while (current) {
    if (isFunctionLike(current) || current.type === AST_NODE_TYPES.Program) return current;
    current = current.parent;
  }
  throw new Error('node is not attached to a Program');
}

/** True when `ancestor` contains `node` (or is it). */
export function contains(ancestor: TSESTree.Node, node: TSESTree.Node): boolean {
  return ancestor.range[0] <= node.range[0] && node.range[1] <= ancestor.range[1];
}

/** Strips TypeScript-only wrappers (`x as T`, `x!`, `<T>x`, `x satisfies T`). */
export function skipTypeWrappers(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (
    current.type === AST_NODE_TYPES.TSAsExpression ||
    current.type === AST_NODE_TYPES.TSNonNullExpression ||
    current.type === AST_NODE_TYPES.TSTypeAssertion ||
    current.type === AST_NODE_TYPES.TSSatisfiesExpression
  ) {
    current = current.expression;
  }
  return current;
}

/**
 * The outermost expression that carries a call's value: through `await`, type wrappers,
 * optional chains and parentheses-free grouping. Its parent decides how the result is used.
 */
export function valueCarrier(call: TSESTree.Node): TSESTree.Node {
  let current = call;
  for (;;) {
    const parent = current.parent;
    if (!parent) return current;
    if (
      parent.type === AST_NODE_TYPES.AwaitExpression ||
      parent.type === AST_NODE_TYPES.ChainExpression ||
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      parent.type === AST_NODE_TYPES.TSTypeAssertion
    ) {
      current = parent;
      continue;
    }
    return current;
  }
}

/** The statement that evaluates only this expression (`await x;`), if that is what it is. */
export function expressionStatementOf(expression: TSESTree.Node): TSESTree.ExpressionStatement | undefined {
  const carrier = valueCarrier(expression);
  return carrier.parent?.type === AST_NODE_TYPES.ExpressionStatement ? carrier.parent : undefined;
}

/**
 * The statement of a statement list (a block, the Program, a `case`) that holds `node`, without
 * leaving a function: `undefined` when the climb passes an arrow's expression body, or, with
 * `owner`, when the list belongs to another function than `owner`.
 */
export function statementInList(node: TSESTree.Node, owner?: TSESTree.Node): TSESTree.Statement | undefined {
  let current: TSESTree.Node = node;
  while (current.parent && current !== owner) {
    const parent: TSESTree.Node = current.parent;
    if (
      parent.type === AST_NODE_TYPES.BlockStatement ||
      parent.type === AST_NODE_TYPES.Program ||
      parent.type === AST_NODE_TYPES.SwitchCase
    ) {
      // A block that is a function's body belongs to `owner` only if that function is `owner`.
      if (
        owner &&
        parent.parent &&
        parent.type === AST_NODE_TYPES.BlockStatement &&
        parent.parent !== owner &&
        isFunctionLike(parent.parent)
      )
        return undefined;
      return current as TSESTree.Statement;
    }
    if (isFunctionLike(parent) && parent !== owner) return undefined;
    current = parent;
  }
  return undefined;
}

/** Calls `visit` with each child node of `node` (by the parser's visitor keys) and the key it sits under. */
export function forEachChild(
  node: TSESTree.Node,
  visitorKeys: Readonly<Record<string, readonly string[] | undefined>>,
  visit: (child: TSESTree.Node, key: string) => void,
): void {
  for (const key of visitorKeys[node.type] ?? []) {
    const child = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(child)) {
      for (const item of child) if (item && typeof (item as TSESTree.Node).type === 'string') visit(item as TSESTree.Node, key);
    } else if (child && typeof (child as TSESTree.Node).type === 'string') {
      visit(child as TSESTree.Node, key);
    }
  }
}

export function propertyName(member: TSESTree.MemberExpression): string | undefined {
  if (!member.computed && member.property.type === AST_NODE_TYPES.Identifier) return member.property.name;
  if (member.property.type === AST_NODE_TYPES.Literal && typeof member.property.value === 'string') return member.property.value;
  return undefined;
}

/** The name a function is called by: its own, its variable's, its method's or property's. */
export function functionName(
  fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression,
): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if (
    (parent.type === AST_NODE_TYPES.MethodDefinition ||
      parent.type === AST_NODE_TYPES.Property ||
      parent.type === AST_NODE_TYPES.PropertyDefinition) &&
    !parent.computed
  ) {
    return parent.key.type === AST_NODE_TYPES.Identifier ? parent.key.name : undefined;
  }
  if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.left.type === AST_NODE_TYPES.MemberExpression)
    return propertyName(parent.left);
  return undefined;
}

/** The method name and receiver of `receiver.method(...)` or `receiver?.method(...)`. */
export function methodCallParts(call: TSESTree.CallExpression): { receiver: TSESTree.Expression; method: string } | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = propertyName(callee);
  if (method === undefined) return undefined;
  return { receiver: callee.object, method };
}

export function findVariable(sourceCode: Readonly<TSESLint.SourceCode>, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | null {
  return ASTUtils.findVariable(sourceCode.getScope(identifier), identifier);
}

/** The initialiser of a `const` binding that is never reassigned, if the identifier names one. */
export function constInitializer(
  sourceCode: Readonly<TSESLint.SourceCode>,
  identifier: TSESTree.Identifier,
): TSESTree.Expression | undefined {
  const variable = findVariable(sourceCode, identifier);
  const definition = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || definition?.node.type !== AST_NODE_TYPES.VariableDeclarator) return undefined;
  const declarator = definition.node;
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) return undefined;
  const declaration = declarator.parent;
  const neverReassigned = variable.references.every((reference) => !reference.isWrite() || reference.init === true);
  if (declaration.kind !== 'const' && !neverReassigned) return undefined;
  return declarator.init;
}

/** The string a expression always evaluates to, when the source makes it certain. */
export function staticString(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, depth = 0): string | undefined {
  if (depth > 8) return undefined;
  const expression = skipTypeWrappers(node);
  switch (expression.type) {
    case AST_NODE_TYPES.Literal:
      return typeof expression.value === 'string' ? expression.value : undefined;
    case AST_NODE_TYPES.TemplateLiteral: {
      let text = expression.quasis[0]?.value.cooked ?? '';
      for (let index = 0; index < expression.expressions.length; index++) {
        const part = staticString(sourceCode, expression.expressions[index]!, depth + 1);
        if (part === undefined) return undefined;
        text += part + (expression.quasis[index + 1]?.value.cooked ?? '');
      }
      return text;
    }
    case AST_NODE_TYPES.BinaryExpression: {
      if (expression.operator !== '+') return undefined;
      const left = staticString(sourceCode, expression.left, depth + 1);
      const right = left === undefined ? undefined : staticString(sourceCode, expression.right, depth + 1);
      return left === undefined || right === undefined ? undefined : left + right;
    }
    case AST_NODE_TYPES.Identifier: {
      const init = constInitializer(sourceCode, expression);
      return init ? staticString(sourceCode, init, depth + 1) : undefined;
    }
    case AST_NODE_TYPES.CallExpression: {
      // ['line', 'line'].join('\n')
      const parts = methodCallParts(expression);
      const separatorNode = expression.arguments[0];
      if (parts?.method !== 'join' || parts.receiver.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
      const separator = separatorNode ? staticString(sourceCode, separatorNode, depth + 1) : ',';
      if (separator === undefined) return undefined;
      const items: string[] = [];
      for (const element of parts.receiver.elements) {
        const item = element && element.type !== AST_NODE_TYPES.SpreadElement ? staticString(sourceCode, element, depth + 1) : undefined;
        if (item === undefined) return undefined;
        items.push(item);
      }
      return items.join(separator);
    }
    default:
      return undefined;
  }
}

/** The `try` statement whose `finally` block encloses nothing of `node` but whose block does. */
export function enclosingTryBlocks(node: TSESTree.Node, stopAt: TSESTree.Node): TSESTree.TryStatement[] {
  const result: TSESTree.TryStatement[] = [];
  let current: TSESTree.Node | undefined = node;
  while (current && current !== stopAt) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (parent?.type === AST_NODE_TYPES.TryStatement && parent.block === current) result.push(parent);
    current = parent;
  }
  return result;
}

/** True when the node sits inside the `finally` block of some `try`, below `stopAt`. */
export function isInFinally(node: TSESTree.Node, stopAt: TSESTree.Node): boolean {
  let current: TSESTree.Node | undefined = node;
  while (current && current !== stopAt) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (parent?.type === AST_NODE_TYPES.TryStatement && parent.finalizer === current) return true;
    current = parent;
  }
  return false;
}

/** The initialiser of the declaration an identifier names, found through the enclosing scopes. */
export function declaredInitializer(root: TSESTree.Expression, sourceCode: Readonly<TSESLint.SourceCode>): TSESTree.Node | undefined {
  if (root.type !== AST_NODE_TYPES.Identifier) return undefined;
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(root); scope; scope = scope.upper) {
    const definition = scope.set.get(root.name)?.defs[0];
    if (!definition) continue;
    if (definition.node.type !== AST_NODE_TYPES.VariableDeclarator || !definition.node.init) return undefined;
    return skipTypeWrappers(definition.node.init);
  }
  return undefined;
}

/** The plain `name: value` (or `name() {}`) property of an object literal: not computed, not spread. */
export function plainProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  for (const property of object.properties) {
    if (
      property.type === AST_NODE_TYPES.Property &&
      !property.computed &&
      property.key.type === AST_NODE_TYPES.Identifier &&
      property.key.name === name
    )
      return property;
  }
  return undefined;
}

export function findProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.ObjectLiteralElement | undefined {
  return object.properties.find(
    (property) =>
      property.type === AST_NODE_TYPES.Property &&
      ((property.key.type === AST_NODE_TYPES.Identifier && property.key.name === name) ||
        (property.key.type === AST_NODE_TYPES.Literal && property.key.value === name)),
  );
}

/** The value of `{ name: value }`, when the object has that plain property. */
export function propertyValue(object: TSESTree.ObjectExpression, name: string): TSESTree.Node | undefined {
  const property = findProperty(object, name);
  return property?.type === AST_NODE_TYPES.Property ? property.value : undefined;
}

export function arrayElements(node: TSESTree.Node | undefined): TSESTree.Node[] {
  const array = node ? skipTypeWrappers(node) : undefined;
  if (array?.type !== AST_NODE_TYPES.ArrayExpression) return [];
  return array.elements.filter((element): element is TSESTree.Expression => !!element && element.type !== AST_NODE_TYPES.SpreadElement);
}

export function findVariableOf(
  sourceCode: Readonly<TSESLint.SourceCode>,
  identifier: TSESTree.Identifier,
): TSESLint.Scope.Variable | undefined {
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(identifier); scope; scope = scope.upper) {
    const variable = scope.set.get(identifier.name);
    if (variable) return variable;
  }
  return undefined;
}

export function pushChildren(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, stack: TSESTree.Node[]): void {
  const keys = sourceCode.visitorKeys[node.type];
  if (!keys) return;
  // Indexed loops, no one-item array per child: this runs once for every node of every helper candidate's body.
  for (let keyIndex = 0; keyIndex < keys.length; keyIndex++) {
    const value = (node as unknown as Record<string, unknown>)[keys[keyIndex]!];
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) pushIfNode(value[index], stack);
    } else {
      pushIfNode(value, stack);
    }
  }
}

export function pushIfNode(value: unknown, stack: TSESTree.Node[]): void {
  if (value && typeof (value as TSESTree.Node).type === 'string') stack.push(value as TSESTree.Node);
}
