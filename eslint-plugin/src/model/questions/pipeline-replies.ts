// Which queued command an element of a pipeline's or transaction's `exec()` result is the reply of:
// `(await redis.pipeline().get(key).pttl(key).exec())[0][1]` (ioredis: `[error, reply]` pairs) or
// `(await client.multi().get(key).exec())[0]` (node-redis, Upstash: the replies themselves).
// Rules use it to see a value read in one round trip and acted on in a later one.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  constInitializer,
  contains,
  findVariable,
  type FunctionLike,
  isFunctionLike,
  methodCallParts,
  skipTypeWrappers,
} from '../../util/ast.js';
import { CHAIN_METHODS, REDIS_DIALECTS } from '../tables/redis-clients.js';
import type { RedisCommand, RedisModel } from '../nouns/redis-events.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
const { DefinitionType } = TSESLint.Scope;

export interface PipelineReply {
  /** The `exec()` call whose result holds the reply. */
  readonly exec: TSESTree.CallExpression;
  /** The queued command whose reply it is. */
  readonly command: RedisCommand;
  /**
   * The variable indexing the result (`owners[index]`), for a command queued once per element of a
   * list; undefined when a number names the command by its place in the queue.
   */
  readonly index: TSESTree.Identifier | undefined;
}

/** Methods that send a queued pipeline or transaction and resolve to the array of replies. */
const EXEC_METHODS: ReadonlySet<string> = new Set(['exec', 'execAsPipeline']);
/** How many aliases (`const results = …; const [[, owner]] = results`) are followed. */
const MAX_ALIAS_DEPTH = 4;

/** The queued command whose reply `expression` reads out of an `exec()` result, when the code shows which. */
export function pipelineReplyOf(sourceCode: SourceCode, model: RedisModel, expression: TSESTree.Node): PipelineReply | undefined {
  const access = replyAccess(sourceCode, expression, [], 0);
  if (!access) return undefined;
  const opener = chainOpener(sourceCode, access.exec);
  const queued = opener ? queuedCommands(sourceCode, model).get(opener) : undefined;
  if (!opener || !queued || queued.length === 0) return undefined;
  // Every call queued on the pipeline must be a command the model read: one it does not know
  // (`hgetall`, a custom command) still takes a place in the reply array.
  const calls = queuedCalls(sourceCode, opener);
  if (!calls || calls.size !== queued.length || !queued.every((command) => calls.has(command.call))) return undefined;
  // ioredis resolves to `[error, reply]` pairs; node-redis and Upstash to the replies.
  const pairs = REDIS_DIALECTS[queued[0]!.dialect].pipelineRepliesArePairs;
  const [index, inPair] = access.path;
  if (index === undefined || access.path.length !== (pairs ? 2 : 1) || (pairs && literalIndex(inPair!) !== 1)) return undefined;
  const literal = literalIndex(index);
  if (literal !== undefined) {
    // A place in the queue names a command only when each queued command runs exactly once, in order.
    if (!queued.every((command) => runsOnceAfter(command.call, opener))) return undefined;
    const command = queued[literal];
    return command && { exec: access.exec, command, index: undefined };
  }
  // A computed index names a command only in a pipeline that one call site fills, once per element
  // of what a loop walks (`for (const key of keys) reads.get(key)`).
  const variable = typeof index === 'number' ? undefined : skipTypeWrappers(index);
  if (queued.length !== 1 || variable?.type !== AST_NODE_TYPES.Identifier) return undefined;
  return { exec: access.exec, command: queued[0]!, index: variable };
}

/**
 * Whether the reply is the stored value of `key`: the same key signature for a command known by
 * its place; for one queued in a loop over a list, `key` is the element of the same list at the
 * reply's index (`keys.forEach((key, index) => … owners[index] …)`, or `keys[index]`).
 */
export function isReplyOfKey(
  sourceCode: SourceCode,
  reply: PipelineReply,
  key: TSESTree.Node | undefined,
  keySignature: string | undefined,
): boolean {
  if (!reply.index) return keySignature !== undefined && reply.command.keySignature === keySignature;
  if (!key || !reply.command.key) return false;
  const queuedFrom = loopedList(sourceCode, reply.command.key, reply.command.call);
  const released = elementAtIndex(sourceCode, key, reply.index);
  return queuedFrom !== undefined && released !== undefined && sourceCode.getText(queuedFrom) === sourceCode.getText(released);
}

const queuedByModel = new WeakMap<RedisModel, ReadonlyMap<TSESTree.Node, readonly RedisCommand[]>>();

/** The commands queued on each `multi()`/`pipeline()` call, in the order they are queued: grouped once per model. */
function queuedCommands(sourceCode: SourceCode, model: RedisModel): ReadonlyMap<TSESTree.Node, readonly RedisCommand[]> {
  const cached = queuedByModel.get(model);
  if (cached) return cached;
  const byOpener = new Map<TSESTree.Node, RedisCommand[]>();
  for (const command of model.commands) {
    // With types the client resolver answers from the type alone and names no chain: read the receiver then.
    const opener = command.client.chain ?? openerOf(sourceCode, command.receiver);
    if (!opener) continue;
    const list = byOpener.get(opener);
    if (list) list.push(command);
    else byOpener.set(opener, [command]);
  }
  // In a chain the outer call comes first in the tree; the method names stand in queue order.
  for (const list of byOpener.values()) list.sort((first, second) => queuePosition(first.call) - queuePosition(second.call));
  queuedByModel.set(model, byOpener);
  return byOpener;
}

function queuePosition(call: TSESTree.CallExpression): number {
  const callee = skipTypeWrappers(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? callee.property.range[0] : call.range[0];
}

type Index = TSESTree.Node | number;

interface ReplyAccess {
  readonly exec: TSESTree.CallExpression;
  /** The indexes taken from the result, outermost first (`results[0][1]`: `0`, `1`); a number for a destructured place. */
  readonly path: readonly Index[];
}

/** `results[0][1]`, `owners?.[i]?.[1]`, `(await p.exec())[0]`, or a variable destructured from such a result. */
function replyAccess(sourceCode: SourceCode, node: TSESTree.Node, inner: readonly Index[], depth: number): ReplyAccess | undefined {
  const expression = unwrap(node);
  if (expression.type === AST_NODE_TYPES.MemberExpression) {
    if (!expression.computed) return undefined;
    return replyAccess(sourceCode, expression.object, [expression.property, ...inner], depth);
  }
  if (expression.type === AST_NODE_TYPES.CallExpression) {
    const method = methodCallParts(expression)?.method;
    return method !== undefined && EXEC_METHODS.has(method) && expression.arguments.length === 0
      ? { exec: expression, path: inner }
      : undefined;
  }
  if (expression.type !== AST_NODE_TYPES.Identifier || depth >= MAX_ALIAS_DEPTH) return undefined;
  const variable = findVariable(sourceCode, expression);
  const definition = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || definition?.node.type !== AST_NODE_TYPES.VariableDeclarator || !definition.node.init)
    return undefined;
  if (variable.references.some((reference) => reference.isWrite() && reference.init !== true)) return undefined;
  const path = patternPath(definition.node.id, definition.name);
  return path ? replyAccess(sourceCode, definition.node.init, [...path, ...inner], depth + 1) : undefined;
}

/** The places from a declarator's pattern down to `name` (`[[, owner]]`: `0`, `1`). */
function patternPath(pattern: TSESTree.Node, name: TSESTree.Node): number[] | undefined {
  if (pattern === name) return [];
  if (pattern.type !== AST_NODE_TYPES.ArrayPattern) return undefined;
  for (let position = 0; position < pattern.elements.length; position++) {
    const element = pattern.elements[position];
    if (!element || !contains(element, name) || element.type === AST_NODE_TYPES.RestElement) continue;
    const rest = patternPath(element, name);
    return rest && [position, ...rest];
  }
  return undefined;
}

function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = skipTypeWrappers(node);
  while (current.type === AST_NODE_TYPES.ChainExpression || current.type === AST_NODE_TYPES.AwaitExpression) {
    current = skipTypeWrappers(current.type === AST_NODE_TYPES.ChainExpression ? current.expression : current.argument);
  }
  return current;
}

function literalIndex(index: Index): number | undefined {
  if (typeof index === 'number') return index;
  const value = skipTypeWrappers(index);
  return value.type === AST_NODE_TYPES.Literal && typeof value.value === 'number' && Number.isInteger(value.value)
    ? value.value
    : undefined;
}

/** The `multi()`/`pipeline()` call an `exec()` sends: in its own chain, or the one a `const` holds. */
function chainOpener(sourceCode: SourceCode, exec: TSESTree.CallExpression): TSESTree.Node | undefined {
  const receiver = methodCallParts(exec)?.receiver;
  return receiver && openerOf(sourceCode, receiver);
}

/** The `multi()`/`pipeline()` call a receiver's chain or `const` starts from. */
function openerOf(sourceCode: SourceCode, start: TSESTree.Node): TSESTree.CallExpression | undefined {
  let receiver: TSESTree.Node | undefined = start;
  for (let steps = 0; receiver && steps < 64; steps++) {
    const expression = unwrap(receiver);
    if (expression.type === AST_NODE_TYPES.CallExpression) {
      const parts = methodCallParts(expression);
      if (!parts) return undefined;
      if (CHAIN_METHODS.has(parts.method)) return expression;
      receiver = parts.receiver;
    } else if (expression.type === AST_NODE_TYPES.Identifier) {
      receiver = constInitializer(sourceCode, expression);
    } else {
      return undefined;
    }
  }
  return undefined;
}

const queuedCallsByOpener = new WeakMap<TSESTree.Node, ReadonlySet<TSESTree.Node> | null>();

/**
 * Every method call queued on a pipeline, read from the code: the links of its chain
 * (`pipeline().get(a).pttl(a)`) and of the chains on the `const` that holds it (`p.get(a)`).
 * Undefined when the pipeline goes anywhere else (`fill(p)`, `let p`), where calls may hide.
 */
function queuedCalls(sourceCode: SourceCode, opener: TSESTree.Node): ReadonlySet<TSESTree.Node> | undefined {
  const cached = queuedCallsByOpener.get(opener);
  if (cached !== undefined) return cached ?? undefined;
  const calls = new Set<TSESTree.Node>();
  let complete = true;
  /** Adds the links of the chain on `start`; the node the chain ends in. */
  const followChain = (start: TSESTree.Node): TSESTree.Node => {
    let current = start;
    for (;;) {
      const link = outermost(current);
      const member = link.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== link) return current;
      const call = member.parent;
      if (call.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) {
        complete = false;
        return current;
      }
      const method = methodCallParts(call)?.method;
      if (method !== undefined && EXEC_METHODS.has(method)) return call;
      calls.add(call);
      current = call;
    }
  };
  const end = followChain(opener);
  const held = outermost(end);
  const holder = held.parent;
  // Queued and sent in one chain (`(await redis.pipeline().get(key).exec())[0][1]`), or held in a
  // `const` whose every use queues or sends; anything else (passed, returned) may queue more.
  if (!isSent(end)) {
    if (holder?.type === AST_NODE_TYPES.VariableDeclarator && holder.init === held && holder.id.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(sourceCode, holder.id);
      if (!variable || variable.defs.length !== 1) complete = false;
      for (const reference of variable?.references ?? []) {
        if (reference.init === true) continue;
        if (reference.isWrite() || followChain(reference.identifier) === reference.identifier) complete = false;
      }
    } else {
      complete = false;
    }
  }
  queuedCallsByOpener.set(opener, complete ? calls : null);
  return complete ? calls : undefined;
}

/** `node` with the `x!`, `x as T` and `?.` wrappers around it that keep its value. */
function outermost(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (
    current.parent?.type === AST_NODE_TYPES.TSNonNullExpression ||
    current.parent?.type === AST_NODE_TYPES.TSAsExpression ||
    current.parent?.type === AST_NODE_TYPES.ChainExpression
  )
    current = current.parent;
  return current;
}

function isSent(node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const method = methodCallParts(node)?.method;
  return method !== undefined && EXEC_METHODS.has(method);
}

/** Nothing between the pipeline's opening and the command makes it run conditionally, repeatedly or later. */
function runsOnceAfter(call: TSESTree.Node, opener: TSESTree.Node): boolean {
  for (let node = call.parent; node && !contains(node, opener); node = node.parent) {
    if (isFunctionLike(node) || isBranchOrLoop(node)) return false;
  }
  return true;
}

function isBranchOrLoop(node: TSESTree.Node): boolean {
  switch (node.type) {
    case AST_NODE_TYPES.IfStatement:
    case AST_NODE_TYPES.ConditionalExpression:
    case AST_NODE_TYPES.LogicalExpression:
    case AST_NODE_TYPES.SwitchStatement:
    case AST_NODE_TYPES.ForStatement:
    case AST_NODE_TYPES.ForInStatement:
    case AST_NODE_TYPES.ForOfStatement:
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
      return true;
    default:
      return false;
  }
}

/** Array methods whose callback gets `(element, index)` in order. */
const ELEMENT_CALLBACK_METHODS: ReadonlySet<string> = new Set(['forEach', 'map', 'filter', 'some', 'every', 'flatMap']);

/**
 * The list a command's key is an element of, when the command is queued once for each of its
 * elements in order: `for (const key of keys) p.get(key)`, `keys.forEach((key) => p.get(key))`,
 * `for (let i = 0; i < keys.length; i++) p.get(keys[i])`. Each iteration must queue it unconditionally.
 */
function loopedList(sourceCode: SourceCode, key: TSESTree.Node, call: TSESTree.Node): TSESTree.Node | undefined {
  const expression = skipTypeWrappers(key);
  let loop: TSESTree.Node | undefined;
  let body: TSESTree.Node | undefined;
  let list: TSESTree.Node | undefined;
  if (expression.type === AST_NODE_TYPES.Identifier) {
    const definition = singleDefinition(sourceCode, expression);
    if (
      definition?.type === 'Variable' &&
      definition.parent?.parent.type === AST_NODE_TYPES.ForOfStatement &&
      definition.parent.parent.left === definition.parent
    ) {
      loop = definition.parent.parent;
      body = definition.parent.parent.body;
      list = definition.parent.parent.right;
    } else if (definition?.type === 'Parameter') {
      const callback = definition.node;
      const host = elementCallbackHost(callback);
      if (host && callback.params[0] === definition.name) {
        loop = callback;
        body = callback.body;
        list = host;
      }
    }
  } else if (
    expression.type === AST_NODE_TYPES.MemberExpression &&
    expression.computed &&
    expression.property.type === AST_NODE_TYPES.Identifier
  ) {
    const forStatement = countingLoopOf(sourceCode, expression.property);
    if (forStatement) {
      loop = forStatement;
      body = forStatement.body;
      list = expression.object;
    }
  }
  if (!loop || !body || !list || !contains(body, call)) return undefined;
  for (let node = call.parent; node && node !== loop; node = node.parent) {
    if (isFunctionLike(node) || isBranchOrLoop(node)) return undefined;
  }
  return list;
}

/**
 * The list `key` is the element of at `index`: the first parameter of `list.forEach((key, index) => …)`
 * whose second is `index`, or `list[index]`.
 */
function elementAtIndex(sourceCode: SourceCode, key: TSESTree.Node, index: TSESTree.Identifier): TSESTree.Node | undefined {
  const expression = skipTypeWrappers(key);
  const indexVariable = findVariable(sourceCode, index);
  if (!indexVariable) return undefined;
  if (
    expression.type === AST_NODE_TYPES.MemberExpression &&
    expression.computed &&
    expression.property.type === AST_NODE_TYPES.Identifier
  ) {
    return findVariable(sourceCode, expression.property) === indexVariable ? expression.object : undefined;
  }
  if (expression.type !== AST_NODE_TYPES.Identifier) return undefined;
  const definition = singleDefinition(sourceCode, expression);
  if (definition?.type !== 'Parameter') return undefined;
  const callback = definition.node;
  const host = elementCallbackHost(callback);
  const second = callback.params[1];
  if (!host || callback.params[0] !== definition.name || second?.type !== AST_NODE_TYPES.Identifier) return undefined;
  return indexVariable.defs.some((indexDefinition) => indexDefinition.name === second) ? host : undefined;
}

/** `list` of `list.forEach(callback)`, when `callback` is the function given there. */
function elementCallbackHost(callback: TSESTree.Node): TSESTree.Node | undefined {
  if (!isFunctionLike(callback)) return undefined;
  const call = callback.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== callback) return undefined;
  const parts = methodCallParts(call);
  return parts && ELEMENT_CALLBACK_METHODS.has(parts.method) ? parts.receiver : undefined;
}

/**
 * `for (let i = 0; i < list.length; i++)` around a use of `i`: the loop, when `i` starts at 0 and
 * only its update steps it by one.
 */
function countingLoopOf(sourceCode: SourceCode, index: TSESTree.Identifier): TSESTree.ForStatement | undefined {
  const variable = findVariable(sourceCode, index);
  const definition = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || definition?.type !== DefinitionType.Variable) return undefined;
  const declaration = definition.parent;
  const loop = declaration.parent;
  if (loop.type !== AST_NODE_TYPES.ForStatement || loop.init !== declaration || !loop.update) return undefined;
  const start = definition.node.init;
  if (start?.type !== AST_NODE_TYPES.Literal || start.value !== 0) return undefined;
  const update = loop.update;
  const stepsByOne = update.type === AST_NODE_TYPES.UpdateExpression && update.operator === '++';
  if (!stepsByOne) return undefined;
  return variable.references.every((reference) => !reference.isWrite() || reference.init === true || contains(update, reference.identifier))
    ? loop
    : undefined;
}

type Definition =
  | { type: 'Variable'; name: TSESTree.Identifier; parent: TSESTree.VariableDeclaration | undefined }
  | { type: 'Parameter'; name: TSESTree.Node; node: FunctionLike };

/** The one declaration of a binding that is never reassigned. */
function singleDefinition(sourceCode: SourceCode, identifier: TSESTree.Identifier): Definition | undefined {
  const variable = findVariable(sourceCode, identifier);
  const definition = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || !definition) return undefined;
  if (variable.references.some((reference) => reference.isWrite() && reference.init !== true)) return undefined;
  if (definition.type === DefinitionType.Variable) return { type: 'Variable', name: definition.name, parent: definition.parent };
  if (definition.type === DefinitionType.Parameter && isFunctionLike(definition.node))
    return { type: 'Parameter', name: definition.name, node: definition.node };
  return undefined;
}
