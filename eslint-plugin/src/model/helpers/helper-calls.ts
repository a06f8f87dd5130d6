// Calls to lock helpers: which of the module's helper functions a call reaches (a function, a method
// of a class or object literal, through `this`, a field or a typed parameter), and the lock events
// one call stands for, with the caller's key, token and handle.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  enclosingFunction,
  type FunctionLike,
  isFunctionLike,
  methodCallParts,
  propertyName,
  skipTypeWrappers,
  findVariableOf,
} from '../../util/ast.js';
import { keySignature } from '../facts/keys.js';
import { assignedValues, returnedValues } from '../project/factories.js';
import { valueFlow } from '../facts/result-flow.js';
import type { Acquisition, Expiry, Release, ParameterRef, LockHelperSummary } from '../nouns/redis-events.js';
import { parameterHole } from './helper-summaries.js';
import { receiverClassOf, fieldValue, localClassNamed, memberFunction, type Holder, enclosingClassBody } from '../project/classes.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * The helper a call reaches within its module: `acquireLock(k)` (a function or a `const` arrow),
 * `this.acquire(k)` in the helper's class, `locks.acquire(k)` on `new RedisLock()` or on an object
 * literal of helpers, `this.lock.acquire(k)` on a field holding such an instance.
 */
export function helperCalled(
  sourceCode: SourceCode,
  call: TSESTree.CallExpression,
  summaries: ReadonlyMap<FunctionLike, LockHelperSummary>,
): LockHelperSummary | undefined {
  if (summaries.size === 0) return undefined;
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const fn = functionBoundTo(sourceCode, callee);
    return fn ? summaries.get(fn) : undefined;
  }
  const parts = methodCallParts(call);
  if (!parts) return undefined;
  const holder = holderOf(sourceCode, parts.receiver, call);
  let fn = holder
    ? memberFunction(
        holder,
        parts.method,
        holder.type === AST_NODE_TYPES.ClassBody ? isStaticCall(sourceCode, parts.receiver, holder) : undefined,
      )
    : undefined;
  if (!fn && !holder) {
    // `this.lockService.acquire(k)` on a typed constructor parameter, `locks.acquire(k)` on a typed parameter.
    const named = receiverClassOf(sourceCode, parts.receiver, call);
    const classNode = named ? localClassNamed(sourceCode, named.name) : undefined;
    fn = classNode && named ? memberFunction(classNode.body, parts.method, named.isStatic) : undefined;
  }
  if (!fn && !holder) {
    // `const locks = getManager()`, where the factory makes one of several classes (a Redis lock
    // manager, an in-memory fallback): the method of whichever of them is a lock helper.
    for (const made of factoryHolders(sourceCode, parts.receiver)) {
      const summary = summaries.get(memberFunction(made, parts.method, false)!);
      if (summary) return summary;
    }
  }
  return fn ? summaries.get(fn) : undefined;
}

/** A call on the class itself (`Locks.acquire()`, `this.acquire()` in a static method), not on an instance of it. */
function isStaticCall(sourceCode: SourceCode, receiver: TSESTree.Node, classBody: TSESTree.ClassBody): boolean {
  const expression = skipTypeWrappers(receiver);
  if (expression.type === AST_NODE_TYPES.Identifier) return findVariableOf(sourceCode, expression)?.defs[0]?.node === classBody.parent;
  if (expression.type !== AST_NODE_TYPES.ThisExpression) return false;
  for (let current: TSESTree.Node | undefined = expression.parent; current; current = current.parent) {
    if (
      (current.type === AST_NODE_TYPES.MethodDefinition || current.type === AST_NODE_TYPES.PropertyDefinition) &&
      current.parent === classBody
    )
      return current.static;
  }
  return false;
}

function functionBoundTo(sourceCode: SourceCode, identifier: TSESTree.Identifier): FunctionLike | undefined {
  const definition = findVariableOf(sourceCode, identifier)?.defs[0];
  if (!definition) return undefined;
  if (definition.node.type === AST_NODE_TYPES.FunctionDeclaration) return definition.node;
  if (definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init) {
    const init = skipTypeWrappers(definition.node.init);
    return isFunctionLike(init) ? init : undefined;
  }
  return undefined;
}

/** The class body or object literal whose members a receiver's methods are. */
function holderOf(sourceCode: SourceCode, receiver: TSESTree.Node, call: TSESTree.Node): Holder | undefined {
  const expression = skipTypeWrappers(receiver);
  if (expression.type === AST_NODE_TYPES.ThisExpression) return enclosingClassBody(call);
  if (expression.type === AST_NODE_TYPES.Identifier) {
    const definition = findVariableOf(sourceCode, expression)?.defs[0];
    if (!definition) return undefined;
    if (definition.node.type === AST_NODE_TYPES.ClassDeclaration) return definition.node.body;
    if (definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init)
      return holderOfValue(sourceCode, definition.node.init);
    return undefined;
  }
  if (expression.type === AST_NODE_TYPES.MemberExpression && skipTypeWrappers(expression.object).type === AST_NODE_TYPES.ThisExpression) {
    const field = propertyName(expression);
    const classBody = enclosingClassBody(call);
    if (field === undefined || !classBody) return undefined;
    const value = fieldValue(classBody, field);
    return value ? holderOfValue(sourceCode, value) : undefined;
  }
  return undefined;
}

/**
 * The classes a module-level instance may be made from when a factory of this module makes it
 * (`const locks = getManager()`): each class its returns construct, directly or through the
 * variable it caches them in (`cached = new RedisLocks(client)`; `return cached`).
 */
function factoryHolders(sourceCode: SourceCode, receiver: TSESTree.Node): Holder[] {
  const expression = skipTypeWrappers(receiver);
  if (expression.type !== AST_NODE_TYPES.Identifier) return [];
  const definition = findVariableOf(sourceCode, expression)?.defs[0];
  let init = definition?.node.type === AST_NODE_TYPES.VariableDeclarator ? definition.node.init : undefined;
  if (init?.type === AST_NODE_TYPES.AwaitExpression) init = init.argument;
  if (init?.type !== AST_NODE_TYPES.CallExpression) return [];
  const callee = skipTypeWrappers(init.callee);
  const fn = callee.type === AST_NODE_TYPES.Identifier ? functionBoundTo(sourceCode, callee) : undefined;
  const holders: Holder[] = [];
  for (const value of (fn && returnedValues(fn)) ?? []) {
    const values = [value];
    const returned = skipTypeWrappers(value);
    if (returned.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariableOf(sourceCode, returned);
      const declared = variable?.defs[0]?.node;
      if (declared?.type === AST_NODE_TYPES.VariableDeclarator && declared.init) values.push(declared.init);
      if (variable) values.push(...(assignedValues(variable) ?? []));
    }
    for (let index = 0; index < values.length && index < 16; index++) {
      const made = skipTypeWrappers(values[index]!);
      // `cond ? new RedisLocks(c) : new MemoryLocks()`, `existing ?? new RedisLocks(c)`: either side.
      if (made.type === AST_NODE_TYPES.ConditionalExpression) values.push(made.consequent, made.alternate);
      if (made.type === AST_NODE_TYPES.LogicalExpression) values.push(made.left, made.right);
      const holder = holderOfValue(sourceCode, made);
      if (holder?.type === AST_NODE_TYPES.ClassBody && !holders.includes(holder)) holders.push(holder);
    }
  }
  return holders;
}

/** `new RedisLock(...)` (a class of this module), `{ acquire() {...} }`, or an identifier naming one. */
function holderOfValue(sourceCode: SourceCode, node: TSESTree.Node, depth = 0): Holder | undefined {
  let expression = skipTypeWrappers(node);
  if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = skipTypeWrappers(expression.argument);
  if (expression.type === AST_NODE_TYPES.ObjectExpression) return expression;
  if (expression.type === AST_NODE_TYPES.NewExpression) {
    const callee = skipTypeWrappers(expression.callee);
    if (callee.type === AST_NODE_TYPES.ClassExpression) return callee.body;
    if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
    const definition = findVariableOf(sourceCode, callee)?.defs[0];
    if (definition?.node.type === AST_NODE_TYPES.ClassDeclaration) return definition.node.body;
    if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init?.type === AST_NODE_TYPES.ClassExpression)
      return definition.node.init.body;
    return undefined;
  }
  if (expression.type === AST_NODE_TYPES.Identifier && depth < 3) {
    const definition = findVariableOf(sourceCode, expression)?.defs[0];
    if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init)
      return holderOfValue(sourceCode, definition.node.init, depth + 1);
  }
  return undefined;
}

/** The events one call to a helper stands for: an acquisition (and its handle's releases), a release, or a renewal. */
export interface HelperCallEvents {
  readonly acquisitions: Acquisition[];
  readonly releases: Release[];
  readonly expiries: Expiry[];
}

/**
 * The lock events of a call to a summarised helper, wherever the call is (this module or one that
 * imports the helper). The call-site key signature is the helper's key pattern with the caller's
 * arguments in place of the parameters, so `locks.acquire(\`job:${id}\`)` and
 * `locks.release(\`job:${id}\`)` pair with each other and with the module's own commands on that key.
 */
export function helperCallEvents(sourceCode: SourceCode, call: TSESTree.CallExpression, summary: LockHelperSummary): HelperCallEvents {
  const owner = enclosingFunction(call);
  const signature = callSiteSignature(sourceCode, call, summary);
  const firstKey = summary.keyParameters[0];
  // A key the helper fixes (`'lock:nightly'`) is the body's node, usable only in the helper's own module.
  const bodyKey = summary.keyParameters.length === 0 && programOf(summary.fn) === sourceCode.ast ? summary.event.key : undefined;
  const key = (firstKey ? argumentAt(call, firstKey) : undefined) ?? bodyKey;
  const base = { node: call, library: 'helper' as const, command: undefined, key, keySignature: signature, owner, helper: summary };
  const result: HelperCallEvents = { acquisitions: [], releases: [], expiries: [] };
  if (summary.role === 'acquire' || summary.role === 'with-lock') {
    const value = summary.tokenParameter ? argumentAt(call, summary.tokenParameter) : undefined;
    const handle = summary.returns === 'handle' || summary.returns === 'token' ? handleOf(sourceCode, call) : undefined;
    // A lock only its handle names (`const unlock = await lock(k)`) pairs with that handle's calls.
    const keySignatureOrHandle = signature ?? (handle ? `handle@${handle.at}` : undefined);
    result.acquisitions.push({
      ...base,
      keySignature: keySignatureOrHandle,
      kind: 'helper',
      value,
      hasTtl: summary.hasTtl,
      isTry: summary.isTry,
      mintsFence: summary.mintsFence,
    });
    if (handle && summary.returns === 'handle') {
      for (const release of handleReleaseCalls(handle, summary.handleRelease)) {
        // Whether the handle's own release compares the owner is judged in the helper's body.
        result.releases.push({
          node: release,
          library: 'helper',
          command: undefined,
          key,
          keySignature: keySignatureOrHandle,
          owner: enclosingFunction(release),
          kind: 'helper',
          safe: true,
          helper: summary,
        });
      }
    }
    return result;
  }
  if (summary.role === 'release') result.releases.push({ ...base, kind: 'helper', safe: summary.safe });
  else result.expiries.push({ ...base, kind: 'helper', safe: summary.safe });
  return result;
}

function programOf(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent) current = current.parent;
  return current;
}

/** The caller's key: the pattern with each parameter replaced by the argument's signature; a method's instance key is qualified by the receiver. */
export function callSiteSignature(sourceCode: SourceCode, call: TSESTree.CallExpression, summary: LockHelperSummary): string | undefined {
  let pattern = summary.keyPattern;
  if (pattern === undefined) return undefined;
  for (const ref of summary.keyParameters) {
    const argument = argumentAt(call, ref);
    let inner = argument ? keySignature(sourceCode, argument) : undefined;
    if (inner === undefined && ref.property !== undefined && call.arguments[ref.index]) {
      const whole = keySignature(sourceCode, call.arguments[ref.index]!);
      inner = whole === undefined ? undefined : `${whole}.${ref.property}`;
    }
    if (inner === undefined) return undefined;
    pattern = pattern.split(parameterHole(ref)).join(inner);
  }
  if (!summary.keyOfInstance) return pattern;
  const receiver = methodCallParts(call)?.receiver;
  if (!receiver || skipTypeWrappers(receiver).type === AST_NODE_TYPES.ThisExpression) return pattern;
  const receiverSignature = keySignature(sourceCode, receiver);
  return receiverSignature === undefined ? undefined : `${receiverSignature}#${pattern}`;
}

/** The argument a parameter reference receives: `f(k)`, or the `key` property of `f({ key: k })`. */
function argumentAt(call: TSESTree.CallExpression, ref: ParameterRef): TSESTree.Node | undefined {
  const argument = call.arguments[ref.index];
  if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
  if (ref.property === undefined) return argument;
  const object = skipTypeWrappers(argument);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of object.properties) {
    if (
      property.type === AST_NODE_TYPES.Property &&
      !property.computed &&
      property.key.type === AST_NODE_TYPES.Identifier &&
      property.key.name === ref.property
    )
      return property.value;
  }
  return undefined;
}

/** The variable a helper's handle is kept in: `const lock = await acquire(k)`, or `mutex = await lock(k)` into a `let` declared before a `try`. */
interface Handle {
  readonly variable: TSESLint.Scope.Variable;
  /** Where the variable is declared: the handle's identity in key signatures. */
  readonly at: number;
  /** Where the handle is stored: only later uses are its releases. */
  readonly from: number;
}

function handleOf(sourceCode: SourceCode, call: TSESTree.CallExpression): Handle | undefined {
  const flow = valueFlow(call);
  if (flow.kind === 'declared' && flow.declarator.id.type === AST_NODE_TYPES.Identifier) {
    const variable = sourceCode.getDeclaredVariables(flow.declarator)[0];
    return variable ? { variable, at: flow.declarator.range[0], from: flow.declarator.range[1] } : undefined;
  }
  if (flow.kind === 'assigned') {
    const variable = findVariableOf(sourceCode, flow.target);
    const declared = variable?.defs[0]?.node;
    return variable && declared?.type === AST_NODE_TYPES.VariableDeclarator
      ? { variable, at: declared.range[0], from: flow.target.parent.range[1] }
      : undefined;
  }
  return undefined;
}

/**
 * `unlock()` of `const unlock = await lock(k)`, `handle.release()` of `const handle = await
 * acquire(k)`, or the handle handed to a function or method named for releasing
 * (`Semaphore.release(mutex)`, `releaseLock(lock)`).
 */
function handleReleaseCalls(handle: Handle, members: readonly string[]): TSESTree.CallExpression[] {
  const calls: TSESTree.CallExpression[] = [];
  for (const reference of handle.variable.references) {
    const identifier = reference.identifier;
    if (identifier.range[0] < handle.from) continue;
    const parent = identifier.parent;
    if (members.includes('call') && parent.type === AST_NODE_TYPES.CallExpression && parent.callee === identifier) calls.push(parent);
    if (
      parent.type === AST_NODE_TYPES.MemberExpression &&
      parent.object === identifier &&
      members.includes(propertyName(parent) ?? '') &&
      parent.parent.type === AST_NODE_TYPES.CallExpression &&
      parent.parent.callee === parent
    )
      calls.push(parent.parent);
    if (
      parent.type === AST_NODE_TYPES.CallExpression &&
      parent.arguments[0] === identifier &&
      parent.arguments.length === 1 &&
      RELEASE_CALL.test(calledName(parent) ?? '')
    )
      calls.push(parent);
  }
  return calls;
}

const RELEASE_CALL = /^(?:release|unlock|releaseLock|unlockLock|releaseMutex|free)$/u;

export function calledName(call: TSESTree.CallExpression): string | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  return methodCallParts(call)?.method;
}
