// Key identity: when two key expressions name the same Redis key, and whether a key is a lock key.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { constInitializer, findVariable, functionName, isFunctionLike, propertyName, skipTypeWrappers } from '../../util/ast.js';

/**
 * A string that is equal for two expressions exactly when the analysis can tell they are the same
 * key: the same literal, the same `const`, the same template shape over the same bindings, the same
 * `this.field` within a class. `undefined` when the expression is too dynamic to compare.
 */
export function keySignature(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, depth = 0): string | undefined {
  if (depth > 6) return undefined;
  const expression = skipTypeWrappers(node);
  switch (expression.type) {
    case AST_NODE_TYPES.Literal:
      return typeof expression.value === 'string' || typeof expression.value === 'number' ? `s:${String(expression.value)}` : undefined;
    case AST_NODE_TYPES.TemplateLiteral: {
      // A template with no holes is the same key as the equal string literal.
      if (expression.expressions.length === 0) return `s:${expression.quasis[0]?.value.cooked ?? ''}`;
      const parts: string[] = [];
      for (let index = 0; index < expression.quasis.length; index++) {
        parts.push(expression.quasis[index]?.value.cooked ?? '');
        const hole = expression.expressions[index];
        if (hole) {
          const inner = keySignature(sourceCode, hole, depth + 1);
          if (inner === undefined) return undefined;
          parts.push(`\${${inner}}`);
        }
      }
      return `t:${parts.join('')}`;
    }
    case AST_NODE_TYPES.BinaryExpression: {
      if (expression.operator !== '+') return undefined;
      const left = keySignature(sourceCode, expression.left, depth + 1);
      const right = keySignature(sourceCode, expression.right, depth + 1);
      return left && right ? `(${left}+${right})` : undefined;
    }
    case AST_NODE_TYPES.Identifier: {
      const init = constInitializer(sourceCode, expression);
      if (init && isSignatureWorthy(init)) {
        const inner = keySignature(sourceCode, init, depth + 1);
        if (inner !== undefined) return inner;
      }
      const variable = findVariable(sourceCode, expression);
      const definition = variable?.defs[0];
      if (!definition) return `g:${expression.name}`;
      return `v:${expression.name}@${definition.name.range[0]}`;
    }
    case AST_NODE_TYPES.MemberExpression: {
      const name = propertyName(expression);
      if (name === undefined) return undefined;
      if (expression.object.type === AST_NODE_TYPES.ThisExpression) return `this.${name}@${classStart(expression)}`;
      const object = keySignature(sourceCode, expression.object, depth + 1);
      return object === undefined ? undefined : `${object}.${name}`;
    }
    case AST_NODE_TYPES.CallExpression: {
      const callee = keySignature(sourceCode, expression.callee, depth + 1);
      if (callee === undefined) return undefined;
      const args: string[] = [];
      for (const argument of expression.arguments) {
        const inner = keySignature(sourceCode, argument, depth + 1);
        if (inner === undefined) return undefined;
        args.push(inner);
      }
      return `${callee}(${args.join(',')})`;
    }
    default:
      return undefined;
  }
}

function isSignatureWorthy(init: TSESTree.Expression): boolean {
  const expression = skipTypeWrappers(init);
  return (
    expression.type === AST_NODE_TYPES.Literal ||
    expression.type === AST_NODE_TYPES.TemplateLiteral ||
    expression.type === AST_NODE_TYPES.BinaryExpression ||
    expression.type === AST_NODE_TYPES.CallExpression ||
    expression.type === AST_NODE_TYPES.MemberExpression ||
    expression.type === AST_NODE_TYPES.Identifier
  );
}

function classStart(node: TSESTree.Node): number {
  let current = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current.range[0];
    current = current.parent;
  }
  return -1;
}

/**
 * The words a key expression is made of (literal text, identifier and property names, along const
 * chains), which `lockKeyPattern` is tested against.
 */
export function keyWords(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, depth = 0): string[] {
  if (depth > 6) return [];
  const expression = skipTypeWrappers(node);
  switch (expression.type) {
    case AST_NODE_TYPES.Literal:
      return typeof expression.value === 'string' ? [expression.value] : [];
    case AST_NODE_TYPES.TemplateLiteral:
      return [
        ...expression.quasis.map((quasi) => quasi.value.cooked ?? ''),
        ...expression.expressions.flatMap((hole) => keyWords(sourceCode, hole, depth + 1)),
      ];
    case AST_NODE_TYPES.BinaryExpression:
      return [...keyWords(sourceCode, expression.left, depth + 1), ...keyWords(sourceCode, expression.right, depth + 1)];
    case AST_NODE_TYPES.Identifier: {
      const init = constInitializer(sourceCode, expression);
      return [expression.name, ...(init ? keyWords(sourceCode, init, depth + 1) : [])];
    }
    case AST_NODE_TYPES.MemberExpression: {
      const name = propertyName(expression);
      return name === undefined ? [] : [name];
    }
    case AST_NODE_TYPES.CallExpression:
      return [
        ...keyWords(sourceCode, expression.callee, depth + 1),
        ...expression.arguments.flatMap((argument) => keyWords(sourceCode, argument, depth + 1)),
      ];
    default:
      return [];
  }
}

export function looksLikeLockKey(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, pattern: RegExp): boolean {
  return keyWords(sourceCode, node).some((word) => matchesLockPattern(word, pattern));
}

/**
 * Whether a word (a key's text, an identifier, a function name) matches `lockKeyPattern`, as written
 * or with its camelCase humps apart: the pattern is case-insensitive, so only the split form shows
 * that `jobLock` and `syncLock` end in the word "lock" while `blockList` and `clockSkew` do not.
 */
export function matchesLockPattern(word: string, pattern: RegExp): boolean {
  if (pattern.test(word)) return true;
  const split = word.replace(/([a-z0-9])([A-Z])/gu, '$1 $2');
  return split !== word && pattern.test(split);
}

/**
 * A key signature without the declarations it names: the same key expression written in two
 * functions, each with its own parameter (`lockoutKey(id)` in `setLockout(id)` and in
 * `clearLockout(id)`), has one shape. Only used to recognise the same data key across functions,
 * never to pair a release with an acquisition.
 */
export function keyShape(signature: string): string {
  return signature.replace(/@-?\d+/gu, '');
}

/**
 * The nearest named function around `node` is named like a lock helper (`acquireLock`,
 * `releaseLock`), or is a method of a class named like one (`JobLock.acquire`).
 */
export function isInLockFunction(node: TSESTree.Node, lockKeyPattern: RegExp): boolean {
  let current: TSESTree.Node | undefined = node.parent;
  let sawNamedFunction = false;
  while (current) {
    if (isFunctionLike(current) && !sawNamedFunction) {
      const name = functionName(current);
      if (name !== undefined && matchesLockPattern(name, lockKeyPattern)) return true;
      sawNamedFunction = name !== undefined;
    }
    if ((current.type === AST_NODE_TYPES.ClassDeclaration || current.type === AST_NODE_TYPES.ClassExpression) && current.id) {
      return matchesLockPattern(current.id.name, lockKeyPattern);
    }
    current = current.parent;
  }
  return false;
}
