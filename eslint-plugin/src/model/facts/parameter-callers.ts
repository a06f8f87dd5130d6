// What a parameter holds, told by the callers that pass it: for a function only this file can call
// (a module-private function, a `private` or `#private` method), the argument at each call site.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, forEachChild, isFunctionLike, propertyName, skipTypeWrappers, type FunctionLike } from '../../util/ast.js';

/** More call sites than this and the parameter is not followed: its value is the callers' many choices. */
export const MAX_FOLLOWED_CALLERS = 8;

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * The arguments passed for the parameter `value` reads at every call of its function, when all of them are known:
 * the function is a module-private function (not exported, never read except to be called) or a
 * private, non-static method (`private` or `#name`) that its class only calls on `this`, it has at
 * most MAX_FOLLOWED_CALLERS calls, the parameter is a plain name the body never reassigns, and each
 * call passes it without a spread. Undefined otherwise (the function escapes, or a caller passes
 * nothing for it): a value nothing in this file decides.
 */
export function callerArguments(sourceCode: SourceCode, value: TSESTree.Node): readonly TSESTree.Node[] | undefined {
  const parameter = skipTypeWrappers(value);
  if (parameter.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(sourceCode, parameter);
  const definition = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || definition?.type !== TSESLint.Scope.DefinitionType.Parameter) return undefined;
  if (variable.references.some((reference) => reference.isWrite())) return undefined;
  const fn = definition.node;
  if (!isFunctionLike(fn)) return undefined;
  // TypeScript's `this: T` comes first in `params` but is no argument of the call.
  const params = fn.params[0]?.type === AST_NODE_TYPES.Identifier && fn.params[0].name === 'this' ? fn.params.slice(1) : fn.params;
  const index = params.findIndex((candidate) => candidate.type === AST_NODE_TYPES.Identifier && candidate.name === variable.name);
  if (index < 0) return undefined;
  const calls = callsOfFunction(sourceCode, fn);
  if (!calls || calls.length === 0 || calls.length > MAX_FOLLOWED_CALLERS) return undefined;
  const passed: TSESTree.Node[] = [];
  for (const call of calls) {
    const before = call.arguments.slice(0, index + 1);
    const argument = call.arguments[index];
    if (!argument || before.some((candidate) => candidate.type === AST_NODE_TYPES.SpreadElement)) return undefined;
    passed.push(argument);
  }
  return passed;
}

/**
 * Every call of `fn` (at most `limit`), or undefined when `fn` may be called from where this file
 * cannot see, or more often than `limit`.
 */
export function callsOfFunction(
  sourceCode: SourceCode,
  fn: FunctionLike,
  limit = MAX_FOLLOWED_CALLERS,
): TSESTree.CallExpression[] | undefined {
  const parent = fn.parent;
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) {
    if (!fn.id || parent.type === AST_NODE_TYPES.ExportNamedDeclaration || parent.type === AST_NODE_TYPES.ExportDefaultDeclaration)
      return undefined;
    return callsOfBinding(sourceCode, fn.id, limit);
  }
  // `const applyLock = (key, value) => ...`
  if (
    parent.type === AST_NODE_TYPES.VariableDeclarator &&
    parent.init === fn &&
    parent.id.type === AST_NODE_TYPES.Identifier &&
    parent.parent.kind === 'const' &&
    parent.parent.parent.type !== AST_NODE_TYPES.ExportNamedDeclaration
  ) {
    return callsOfBinding(sourceCode, parent.id, limit);
  }
  if (parent.type === AST_NODE_TYPES.MethodDefinition && parent.value === fn) return callsOfPrivateMethod(sourceCode, parent, limit);
  return undefined;
}

/** Calls of a named function: every read of its name must be the callee of a call. */
function callsOfBinding(sourceCode: SourceCode, name: TSESTree.Identifier, limit: number): TSESTree.CallExpression[] | undefined {
  const variable = findVariable(sourceCode, name);
  if (!variable) return undefined;
  const calls: TSESTree.CallExpression[] = [];
  for (const reference of variable.references) {
    if (reference.init === true) continue;
    const use = reference.identifier;
    // `export { applyLock }`, `module.exports = { applyLock }`, `queue.on('job', applyLock)`: it escapes.
    if (use.parent.type !== AST_NODE_TYPES.CallExpression || use.parent.callee !== use) return undefined;
    calls.push(use.parent);
    if (calls.length > limit) return undefined;
  }
  return calls;
}

/**
 * Calls of a private method: TypeScript's `private` or a `#name` method, not static, called as
 * `this.name(...)`. Any other mention of the name in the class (`this.name.bind(this)`, `self.name(...)`,
 * `other.name`) means a caller this does not see, so nothing is followed.
 */
function callsOfPrivateMethod(
  sourceCode: SourceCode,
  method: TSESTree.MethodDefinition,
  limit: number,
): TSESTree.CallExpression[] | undefined {
  if (method.static || method.kind !== 'method' || method.computed) return undefined;
  const isHashPrivate = method.key.type === AST_NODE_TYPES.PrivateIdentifier;
  if (!isHashPrivate && method.accessibility !== 'private') return undefined;
  const name =
    method.key.type === AST_NODE_TYPES.PrivateIdentifier || method.key.type === AST_NODE_TYPES.Identifier ? method.key.name : undefined;
  if (name === undefined) return undefined;
  const classBody = method.parent;
  // Overloads share the name: several implementations would make the parameter index ambiguous.
  if (
    classBody.body.filter(
      (element) =>
        element.type === AST_NODE_TYPES.MethodDefinition && memberKeyName(element.key) === name && element.key.type === method.key.type,
    ).length !== 1
  )
    return undefined;
  const mentionsByName = memberMentions(sourceCode, classBody);
  // A `#name` cannot be reached by a computed key; a TypeScript-private name can.
  if (!isHashPrivate && mentionsByName.has(DYNAMIC)) return undefined;
  const mentions = mentionsByName.get(`${isHashPrivate ? '#' : ''}${name}`) ?? [];
  const calls: TSESTree.CallExpression[] = [];
  for (const mention of mentions) {
    const call = mention.parent;
    if (!mention.onThis || call.type !== AST_NODE_TYPES.CallExpression || call.callee !== mention.node) return undefined;
    calls.push(call);
    if (calls.length > limit) return undefined;
  }
  return calls;
}

interface MemberMention {
  readonly node: TSESTree.MemberExpression;
  readonly parent: TSESTree.Node;
  /** `this.name` where `this` is the class's instance (not inside a nested `function`). */
  readonly onThis: boolean;
}

/** The key under which computed members with a name only known at run time are gathered. */
const DYNAMIC = '[dynamic]';

const mentionsByClass = new WeakMap<TSESTree.ClassBody, ReadonlyMap<string, readonly MemberMention[]>>();

/** Every `x.name` in a class body by name (`#name` for private names), gathered in one walk per class. */
function memberMentions(sourceCode: SourceCode, classBody: TSESTree.ClassBody): ReadonlyMap<string, readonly MemberMention[]> {
  const cached = mentionsByClass.get(classBody);
  if (cached) return cached;
  const byName = new Map<string, MemberMention[]>();
  const visit = (node: TSESTree.Node, ownThis: boolean): void => {
    if (node.type === AST_NODE_TYPES.MemberExpression) {
      const name = node.property.type === AST_NODE_TYPES.PrivateIdentifier ? `#${node.property.name}` : propertyName(node);
      // `this[method](...)`: a name this cannot read, which may be any method's.
      if (name === undefined && node.computed && skipTypeWrappers(node.object).type === AST_NODE_TYPES.ThisExpression)
        byName.set(DYNAMIC, [...(byName.get(DYNAMIC) ?? []), { node, parent: node.parent, onThis: false }]);
      if (name !== undefined) {
        const list = byName.get(name) ?? [];
        list.push({ node, parent: node.parent, onThis: ownThis && skipTypeWrappers(node.object).type === AST_NODE_TYPES.ThisExpression });
        byName.set(name, list);
      }
    }
    forEachChild(node, sourceCode.visitorKeys, (child) => {
      // A method's body keeps the instance's `this`; a nested `function` (or class) has its own.
      const keepsThis =
        ownThis &&
        !(
          (child.type === AST_NODE_TYPES.FunctionExpression || child.type === AST_NODE_TYPES.FunctionDeclaration) &&
          node.type !== AST_NODE_TYPES.MethodDefinition &&
          node.type !== AST_NODE_TYPES.PropertyDefinition
        ) &&
        child.type !== AST_NODE_TYPES.ClassBody;
      visit(child, keepsThis);
    });
  };
  for (const element of classBody.body) visit(element, true);
  mentionsByClass.set(classBody, byName);
  return byName;
}

function memberKeyName(key: TSESTree.Node): string | undefined {
  if (key.type === AST_NODE_TYPES.Identifier || key.type === AST_NODE_TYPES.PrivateIdentifier) return key.name;
  if (key.type === AST_NODE_TYPES.Literal && typeof key.value === 'string') return key.value;
  return undefined;
}
