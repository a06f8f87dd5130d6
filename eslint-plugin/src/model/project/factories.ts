// Where a value the client and pool resolvers follow was made, when it was not made where it is
// declared: what a factory function returns (`getRedis()`, `getPool()`, in this module or imported),
// and what a variable declared empty holds once assigned (`let client; … client = createClient()`).
// Both resolvers (redis/client-resolver.ts, sql/senders.ts) ask; each decides what the values it gets back are.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, isFunctionLike, propertyName, skipTypeWrappers, type FunctionLike } from '../../util/ast.js';
import type { ImportTable } from '../nouns/vocabulary.js';
import { exportedFunction, importedValue, type ProjectModule } from './modules.js';
import { memberFunction, projectClassNamed, receiverClassOf } from './classes.js';

/** More assignments than this to one variable or field is a value that changes, not one that is set up. */
const MAX_ASSIGNMENTS = 8;
/** More returns than this is a function that computes, not one that hands out a client. */
const MAX_RETURNS = 8;

/** `null`, `undefined`, `void 0`: the empty state of a lazily made client, not a value of another kind. */
export function isNullish(node: TSESTree.Node): boolean {
  const value = skipTypeWrappers(node);
  if (value.type === AST_NODE_TYPES.Literal) return value.value === null && !('regex' in value);
  if (value.type === AST_NODE_TYPES.Identifier) return value.name === 'undefined';
  return value.type === AST_NODE_TYPES.UnaryExpression && value.operator === 'void';
}

const returned = new WeakMap<FunctionLike, readonly TSESTree.Node[] | null>();

/**
 * The values `fn` returns that are not nullish (an arrow's expression body, each `return x;` outside
 * nested functions and classes), or undefined when it returns nothing or too many things to follow.
 */
export function returnedValues(fn: FunctionLike): readonly TSESTree.Node[] | undefined {
  const known = returned.get(fn);
  if (known !== undefined) return known ?? undefined;
  let values: TSESTree.Node[] | undefined = [];
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) values.push(fn.body);
  else {
    const stack: TSESTree.Node[] = [...fn.body.body];
    while (stack.length > 0 && values) {
      const node = stack.pop()!;
      if (isFunctionLike(node) || node.type === AST_NODE_TYPES.ClassBody) continue;
      if (node.type === AST_NODE_TYPES.ReturnStatement) {
        if (node.argument && !isNullish(node.argument)) values.push(node.argument);
        if (values.length > MAX_RETURNS) values = undefined;
        continue;
      }
      // Returns sit in statements; expressions hold none (their functions are skipped above).
      for (const child of statementChildren(node)) stack.push(child);
    }
  }
  const answer = values && values.length > 0 ? values : undefined;
  returned.set(fn, answer ?? null);
  return answer;
}

/** The statements directly inside a statement (blocks, branches, loop bodies, try/catch/finally, cases). */
function statementChildren(node: TSESTree.Node): TSESTree.Node[] {
  switch (node.type) {
    case AST_NODE_TYPES.BlockStatement:
      return node.body;
    case AST_NODE_TYPES.IfStatement:
      return node.alternate ? [node.consequent, node.alternate] : [node.consequent];
    case AST_NODE_TYPES.TryStatement:
      return [node.block, ...(node.handler ? [node.handler.body] : []), ...(node.finalizer ? [node.finalizer] : [])];
    case AST_NODE_TYPES.ForStatement:
    case AST_NODE_TYPES.ForInStatement:
    case AST_NODE_TYPES.ForOfStatement:
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
    case AST_NODE_TYPES.LabeledStatement:
      return [node.body];
    case AST_NODE_TYPES.SwitchStatement:
      return node.cases.flatMap((switchCase) => switchCase.consequent);
    default:
      return [];
  }
}

/**
 * The values assigned to a variable after its declaration (`client = createClient()` in an `init()`
 * or a lazy getter), or undefined when it is never assigned or assigned too often to follow.
 * Compound assignments (`x ||= y`, `x ??= y`) count by their right side.
 */
export function assignedValues(variable: TSESLint.Scope.Variable): readonly TSESTree.Node[] | undefined {
  const values: TSESTree.Node[] = [];
  for (const reference of variable.references) {
    if (!reference.isWrite() || reference.init === true) continue;
    const assignment = reference.identifier.parent;
    if (assignment.type !== AST_NODE_TYPES.AssignmentExpression || assignment.left !== reference.identifier) return undefined;
    if (assignment.operator !== '=' && assignment.operator !== '||=' && assignment.operator !== '??=') return undefined;
    if (!isNullish(assignment.right)) values.push(assignment.right);
    if (values.length > MAX_ASSIGNMENTS) return undefined;
  }
  return values.length > 0 ? values : undefined;
}

/**
 * The values assigned to `this.name` anywhere in the class (fields, the constructor, an `init()` or
 * `connect()` method), from the file's collected member initialisers; empty when none are (or too many).
 */
export function memberAssignments(
  classBody: TSESTree.ClassBody,
  name: string,
  initializers: readonly MemberInitializer[],
): readonly TSESTree.Node[] {
  const values = memberAssignmentsByClass(initializers).get(classBody)?.get(name) ?? [];
  return values.length > MAX_ASSIGNMENTS ? [] : values;
}

/** The names assigned with `this.name = …` (or a field initialiser) in the class, and their non-null values. */
export function assignedMembersOf(classBody: TSESTree.ClassBody, initializers: readonly MemberInitializer[]): readonly string[] {
  return [...(memberAssignmentsByClass(initializers).get(classBody)?.keys() ?? [])];
}

interface MemberInitializer {
  readonly name: string;
  readonly value: TSESTree.Expression;
}

// A file's member initialisers grouped by class and name, once per file: a class's members are
// read from its own group, so a file of C classes and N assignments costs N, not C × N or N².
const assignmentIndexes = new WeakMap<
  readonly MemberInitializer[],
  ReadonlyMap<TSESTree.ClassBody, ReadonlyMap<string, TSESTree.Node[]>>
>();

function memberAssignmentsByClass(
  initializers: readonly MemberInitializer[],
): ReadonlyMap<TSESTree.ClassBody, ReadonlyMap<string, TSESTree.Node[]>> {
  let index = assignmentIndexes.get(initializers);
  if (!index) {
    const byClass = new Map<TSESTree.ClassBody, Map<string, TSESTree.Node[]>>();
    for (const initializer of initializers) {
      const classBody = enclosingClassBody(initializer.value);
      if (!classBody) continue;
      let byName = byClass.get(classBody);
      if (!byName) {
        byName = new Map();
        byClass.set(classBody, byName);
      }
      let values = byName.get(initializer.name);
      if (!values) {
        values = [];
        byName.set(initializer.name, values);
      }
      if (!isNullish(initializer.value)) values.push(initializer.value);
    }
    index = byClass;
    assignmentIndexes.set(initializers, index);
  }
  return index;
}

export function enclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  let current = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
    current = current.parent;
  }
  return undefined;
}

/** A function and the project module that declares it (undefined: the file being linted). */
export interface CalledFunction {
  readonly fn: FunctionLike;
  readonly module: ProjectModule | undefined;
}

/**
 * The function a call runs, when it is one of the project's own: declared in this module (`getRedis()`,
 * `this.getClient()`), or exported by another (`import { getPool } from './db'`, `db.getPool()` of a
 * namespace import). Package functions and anything computed are left to the client tables.
 */
export function calledFunction(
  sourceCode: Readonly<TSESLint.SourceCode>,
  imports: ImportTable,
  filename: string | undefined,
  call: TSESTree.CallExpression,
): CalledFunction | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, callee);
    const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (definition?.node.type === AST_NODE_TYPES.FunctionDeclaration) return { fn: definition.node, module: undefined };
    if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init && !imports.has(callee.name)) {
      const init = skipTypeWrappers(definition.node.init);
      return isFunctionLike(init) ? { fn: init, module: undefined } : undefined;
    }
    return importedFunction(imports, filename, callee.name, undefined);
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const member = propertyName(callee);
  if (member === undefined) return undefined;
  if (callee.object.type === AST_NODE_TYPES.ThisExpression) {
    const classBody = enclosingClassBody(callee);
    for (const element of classBody?.body ?? []) {
      if (
        element.type === AST_NODE_TYPES.MethodDefinition &&
        element.kind === 'method' &&
        !element.static &&
        !element.computed &&
        element.key.type === AST_NODE_TYPES.Identifier &&
        element.key.name === member &&
        element.value.type === AST_NODE_TYPES.FunctionExpression
      ) {
        return { fn: element.value, module: undefined };
      }
    }
    return undefined;
  }
  if (callee.object.type === AST_NODE_TYPES.Identifier && imports.get(callee.object.name)?.imported === '*') {
    return importedFunction(imports, filename, callee.object.name, member);
  }
  // `this.redisService.getClient()`, `db.getPool()`: a method of the project class the receiver is an
  // instance of (made with `new`, typed, or injected through a constructor parameter), here or imported.
  const named = receiverClassOf(sourceCode, callee.object, call);
  const owner = named ? projectClassNamed(sourceCode, imports, filename, named.name, 'client') : undefined;
  const fn = owner && named ? memberFunction(owner.body, member, named.isStatic) : undefined;
  return fn && owner ? { fn, module: owner.module } : undefined;
}

function importedFunction(
  imports: ImportTable,
  filename: string | undefined,
  local: string,
  member: string | undefined,
): CalledFunction | undefined {
  const binding = imports.get(local);
  if (!binding || filename === undefined) return undefined;
  try {
    const value = importedValue(filename, binding, 'client', member);
    const fn = value ? exportedFunction(value) : undefined;
    return fn && value ? { fn, module: value.module } : undefined;
  } catch {
    // Another module's code, whatever shape it has, never makes this file's rules throw.
    return undefined;
  }
}
