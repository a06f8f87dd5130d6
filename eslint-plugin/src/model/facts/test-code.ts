// Where a file's test code is: the callbacks of test cases (`it`, `test`) and of setup and teardown
// hooks (`beforeEach`, `afterAll`, `test.before`, `t.teardown`), and the file's own helpers that only
// they call (`simulateStall(jobId)`), so that the model can tell a test staging its scenario or
// resetting its fixtures from code that takes or frees a lock. Found once per file, from the calls
// the model already collected.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, findVariable, type FunctionLike, isFunctionLike, skipTypeWrappers } from '../../util/ast.js';
import { collectNodes } from '../../util/collect-nodes.js';
import { callsOfFunction } from './parameter-callers.js';

const { DefinitionType } = TSESLint.Scope;

export type TestCallbackKind = 'hook' | 'case';

export interface TestCode {
  /** The test callback nearest around `node`, with its kind, if `node` runs in test code. */
  callbackAround(node: TSESTree.Node): { readonly kind: TestCallbackKind; readonly callback: FunctionLike } | undefined;
}

/** mocha (bdd and tdd), jest, vitest, ava, node:test, bun:test, tap. */
const HOOK_NAMES: ReadonlySet<string> = new Set([
  'before',
  'after',
  'beforeEach',
  'afterEach',
  'beforeAll',
  'afterAll',
  'setup',
  'teardown',
  'suiteSetup',
  'suiteTeardown',
]);
const CASE_NAMES: ReadonlySet<string> = new Set(['it', 'test', 'specify', 'xit', 'fit', 'xtest']);
/** `t.teardown(fn)` (ava, tap) and node:test's `t.after(fn)` on a test's context parameter. */
const CONTEXT_HOOK_METHODS: ReadonlySet<string> = new Set(['teardown', 'before', 'after', 'beforeEach', 'afterEach']);
const TEST_MODULES: ReadonlySet<string> = new Set([
  'mocha',
  'vitest',
  '@jest/globals',
  'ava',
  'node:test',
  'test',
  'bun:test',
  'tap',
  'uvu',
]);

/** How many helpers deep (a helper only another test helper calls) test code is followed. */
const HELPER_ROUNDS = 2;
/** A helper called more often than this is not followed (its calls are each walked up to their callback). */
const MAX_HELPER_CALLS = 200;

const byProgram = new WeakMap<TSESTree.Program, TestCode>();

export function testCodeOf(sourceCode: Readonly<TSESLint.SourceCode>): TestCode {
  const cached = byProgram.get(sourceCode.ast);
  if (cached) return cached;
  const callbacks = new Map<TSESTree.Node, TestCallbackKind>();
  const calls = collectNodes(sourceCode).calls;
  for (const call of calls) {
    const kind = frameworkCallKind(sourceCode, call, callbacks);
    if (!kind) continue;
    for (const callback of callbackArguments(sourceCode, call)) if (!callbacks.has(callback)) callbacks.set(callback, kind);
  }
  const around = (node: TSESTree.Node): { readonly kind: TestCallbackKind; readonly callback: FunctionLike } | undefined => {
    for (let current = node.parent; current; current = current.parent) {
      const kind = callbacks.get(current);
      if (kind && isFunctionLike(current)) return { kind, callback: current };
    }
    return undefined;
  };
  if (callbacks.size > 0) addTestHelpers(sourceCode, calls, callbacks, around);
  const testCode: TestCode = {
    callbackAround(node) {
      return callbacks.size === 0 ? undefined : around(node);
    },
  };
  byProgram.set(sourceCode.ast, testCode);
  return testCode;
}

/**
 * The file's own functions that only test code calls (`async function simulateStall(id) { await
 * redis.del(...) }` called from a hook and a test body) run as part of that test code: a helper
 * every caller of which is a hook is a hook, else a test case. A function the file exports, passes
 * on or calls from anywhere else is not one.
 */
function addTestHelpers(
  sourceCode: Readonly<TSESLint.SourceCode>,
  calls: readonly TSESTree.CallExpression[],
  callbacks: Map<TSESTree.Node, TestCallbackKind>,
  around: (node: TSESTree.Node) => { readonly kind: TestCallbackKind } | undefined,
): void {
  const judged = new Set<FunctionLike>();
  for (let round = 0; round < HELPER_ROUNDS; round++) {
    let added = false;
    for (const call of calls) {
      const callee = skipTypeWrappers(call.callee);
      if (callee.type !== AST_NODE_TYPES.Identifier) continue;
      const fn = declaredFunction(sourceCode, callee);
      if (!fn || callbacks.has(fn) || judged.has(fn) || !around(call)) continue;
      const callers = callsOfFunction(sourceCode, fn, MAX_HELPER_CALLS);
      const kinds = callers?.map((caller) => (contains(fn, caller) ? undefined : around(caller)?.kind));
      if (!kinds || kinds.length === 0 || kinds.includes(undefined)) continue;
      judged.add(fn);
      callbacks.set(fn, kinds.every((kind) => kind === 'hook') ? 'hook' : 'case');
      added = true;
    }
    if (!added) return;
  }
}

/** The function a name is declared with in this file: `function f() {}` or `const f = () => {}`. */
function declaredFunction(sourceCode: Readonly<TSESLint.SourceCode>, name: TSESTree.Identifier): FunctionLike | undefined {
  const definition = findVariable(sourceCode, name)?.defs[0];
  if (definition?.node.type === AST_NODE_TYPES.FunctionDeclaration) return definition.node;
  if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init && isFunctionLike(definition.node.init))
    return definition.node.init;
  return undefined;
}

/**
 * Whether a call registers a hook or a test case: its callee is a hook or case name (or a modifier
 * chain on one: `test.serial.before`, `it.only`, `it.each(rows)`) bound by the test framework, a
 * global or an import from a test module. A name the file binds itself (`import { after } from
 * 'lodash'`, a local `function test()`) is not the framework's.
 */
function frameworkCallKind(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
  known: ReadonlyMap<TSESTree.Node, TestCallbackKind>,
): TestCallbackKind | undefined {
  let callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.CallExpression) callee = skipTypeWrappers(callee.callee);
  const names: string[] = [];
  while (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier) {
    names.unshift(callee.property.name);
    callee = skipTypeWrappers(callee.object);
  }
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  // `t.teardown(fn)` inside a test case whose first parameter is `t`.
  if (names.length === 1 && CONTEXT_HOOK_METHODS.has(names[0]!) && isTestContextParameter(sourceCode, callee, known)) return 'hook';
  // Most calls are something else: only a framework name is worth resolving its binding.
  if (!HOOK_NAMES.has(callee.name) && !CASE_NAMES.has(callee.name)) return undefined;
  const root = frameworkName(sourceCode, callee);
  if (root === undefined) return undefined;
  if (HOOK_NAMES.has(root)) return names.length === 0 ? 'hook' : undefined;
  if (!CASE_NAMES.has(root)) return undefined;
  // `test.before(fn)` (ava), `test.serial.afterEach(fn)`: a hook reached through the case function.
  return names.some((name) => HOOK_NAMES.has(name)) ? 'hook' : 'case';
}

/**
 * The framework's name for an identifier the framework binds: a global, an import from a test
 * module (by its imported name: mocha's `after as afterAll` is `after`), or a `require` of one
 * destructured.
 */
function frameworkName(sourceCode: Readonly<TSESLint.SourceCode>, identifier: TSESTree.Identifier): string | undefined {
  const variable = findVariable(sourceCode, identifier);
  const definition = variable?.defs[0];
  if (!variable || !definition) return identifier.name;
  if (definition.type === DefinitionType.ImportBinding) {
    const declaration = definition.parent;
    if (declaration.type !== AST_NODE_TYPES.ImportDeclaration || !TEST_MODULES.has(declaration.source.value)) return undefined;
    const specifier = definition.node;
    if (specifier.type !== AST_NODE_TYPES.ImportSpecifier) return identifier.name;
    return specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : specifier.imported.value;
  }
  // `const { test, after } = require('node:test')`
  const init = definition.node.type === AST_NODE_TYPES.VariableDeclarator ? definition.node.init : null;
  const required =
    init?.type === AST_NODE_TYPES.CallExpression &&
    init.callee.type === AST_NODE_TYPES.Identifier &&
    init.callee.name === 'require' &&
    init.arguments[0]?.type === AST_NODE_TYPES.Literal &&
    TEST_MODULES.has(String(init.arguments[0].value));
  return required ? identifier.name : undefined;
}

function isTestContextParameter(
  sourceCode: Readonly<TSESLint.SourceCode>,
  identifier: TSESTree.Identifier,
  known: ReadonlyMap<TSESTree.Node, TestCallbackKind>,
): boolean {
  const definition = findVariable(sourceCode, identifier)?.defs[0];
  if (definition?.type !== DefinitionType.Parameter) return false;
  const fn = definition.node;
  return isFunctionLike(fn) && fn.params[0] === definition.name && known.get(fn) === 'case';
}

/**
 * The functions a framework call runs: inline callbacks, and functions the file declares and passes
 * by name (`before(clearKeys)`).
 */
function callbackArguments(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.CallExpression): TSESTree.Node[] {
  const found: TSESTree.Node[] = [];
  for (const argument of call.arguments) {
    const expression = skipTypeWrappers(argument);
    if (isFunctionLike(expression)) {
      found.push(expression);
      continue;
    }
    if (expression.type !== AST_NODE_TYPES.Identifier) continue;
    const definition = findVariable(sourceCode, expression)?.defs[0];
    if (definition?.node.type === AST_NODE_TYPES.FunctionDeclaration) found.push(definition.node);
    else if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init && isFunctionLike(definition.node.init))
      found.push(definition.node.init);
  }
  return found;
}
