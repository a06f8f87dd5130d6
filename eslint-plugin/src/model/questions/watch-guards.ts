// `WATCH key`, `GET`, compare, then `DEL` in `MULTI`/`EXEC`: Redis's optimistic transaction as a
// release. It is atomic only on a connection no other caller shares, and only when the code reads
// EXEC's null reply (the transaction aborted because the key changed). This answers, for a release,
// whether such a WATCH guards it and whether the guard holds.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, enclosingFunction, isFunctionLike, methodCallParts, skipTypeWrappers, declaredInitializer } from '../../util/ast.js';
import { collectNodes } from '../../util/collect-nodes.js';
import { runsBefore } from '../facts/source-order.js';
import type { Release } from '../nouns/redis-events.js';
import { isResultUsed } from '../facts/result-flow.js';
import {
  DEDICATED_CONNECTION_METHODS,
  ISOLATED_CALLBACK_METHODS,
  POOL_CALLBACK_METHODS,
  POOL_RECEIVER_NAME,
  TRANSACTION_EXEC_METHODS,
  WATCH_METHODS,
} from '../tables/redis-clients.js';

export interface WatchGuard {
  /** The `WATCH` of the released key on the releasing client, earlier in the same function. */
  readonly watch: TSESTree.CallExpression;
  /**
   * `held`: a dedicated connection, the DEL queued in MULTI/EXEC and EXEC's reply read.
   * `shared`: the client may serve concurrent callers, whose commands land between WATCH and EXEC.
   * `unchecked`: a dedicated connection, but the DEL is not in MULTI/EXEC or EXEC's null reply is dropped.
   */
  readonly verdict: 'held' | 'shared' | 'unchecked';
}

const watchCallsBySource = new WeakMap<TSESTree.Program, readonly TSESTree.CallExpression[]>();

/** Every `x.watch(...)` call in the file, collected once. */
function watchCalls(sourceCode: Readonly<TSESLint.SourceCode>): readonly TSESTree.CallExpression[] {
  let calls = watchCallsBySource.get(sourceCode.ast);
  if (!calls) {
    calls = collectNodes(sourceCode).calls.filter((call) => {
      const method = methodCallParts(call)?.method;
      return method !== undefined && WATCH_METHODS.has(method) && call.arguments.length > 0;
    });
    watchCallsBySource.set(sourceCode.ast, calls);
  }
  return calls;
}

/** The WATCH that guards a DEL/UNLINK release, and whether it holds; undefined when none does. */
export function watchGuardOf(sourceCode: Readonly<TSESLint.SourceCode>, release: Release): WatchGuard | undefined {
  const command = release.command;
  if (release.kind !== 'del' || !command || !release.key) return undefined;
  // Most files have no WATCH at all: answer before reading the release's text.
  const calls = watchCalls(sourceCode);
  if (calls.length === 0) return undefined;
  const client = command.client.root;
  const clientText = sourceCode.getText(client);
  const keyText = sourceCode.getText(release.key);
  const owner = enclosingFunction(release.node);
  const watch = calls.find((call) => {
    const parts = methodCallParts(call)!;
    return (
      enclosingFunction(call) === owner &&
      runsBefore(call, release.node) &&
      sourceCode.getText(parts.receiver) === clientText &&
      call.arguments.some((argument) => sourceCode.getText(argument) === keyText)
    );
  });
  if (!watch) return undefined;
  if (!isDedicatedConnection(sourceCode, client)) return { watch, verdict: 'shared' };
  const exec = command.client.chain ? execOfChain(command.call) : undefined;
  return { watch, verdict: exec && isResultUsed(exec) ? 'held' : 'unchecked' };
}

/**
 * The client is a connection no other caller uses: a variable made by `duplicate()`, a pool's
 * `acquire()` or `isolated()`, or the parameter of the callback node-redis runs on an isolated
 * connection (`executeIsolated(async (isolated) => …)`, a client pool's `execute(client => …)`).
 */
function isDedicatedConnection(sourceCode: Readonly<TSESLint.SourceCode>, client: TSESTree.Expression): boolean {
  const root = skipTypeWrappers(client);
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  let init = declaredInitializer(root, sourceCode);
  if (init?.type === AST_NODE_TYPES.AwaitExpression) init = skipTypeWrappers(init.argument);
  if (init?.type === AST_NODE_TYPES.CallExpression) {
    const method = methodCallParts(init)?.method;
    return method !== undefined && DEDICATED_CONNECTION_METHODS.has(method);
  }
  if (init) return false;
  const variable = findDeclaringParameter(sourceCode, root);
  if (!variable) return false;
  const callback = variable.fn;
  const call = callback.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(callback as TSESTree.CallExpressionArgument)) return false;
  const parts = methodCallParts(call);
  if (!parts) return false;
  if (ISOLATED_CALLBACK_METHODS.has(parts.method)) return true;
  const receiver = skipTypeWrappers(parts.receiver);
  return POOL_CALLBACK_METHODS.has(parts.method) && receiver.type === AST_NODE_TYPES.Identifier && POOL_RECEIVER_NAME.test(receiver.name);
}

/** The function whose first parameter the identifier names. */
function findDeclaringParameter(
  sourceCode: Readonly<TSESLint.SourceCode>,
  identifier: TSESTree.Identifier,
): { fn: TSESTree.Node } | undefined {
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(identifier); scope; scope = scope.upper) {
    const definition = scope.set.get(identifier.name)?.defs[0];
    if (!definition) continue;
    if (definition.type !== TSESLint.Scope.DefinitionType.Parameter || !isFunctionLike(definition.node)) return undefined;
    const fn = definition.node;
    const first = fn.params[0];
    return first && contains(first, definition.name) ? { fn } : undefined;
  }
  return undefined;
}

/** The `.exec()` that ends the chain a queued command belongs to (`multi().del(k).exec()`, `tx.del(k); await tx.exec()`). */
function execOfChain(call: TSESTree.CallExpression): TSESTree.CallExpression | undefined {
  let node: TSESTree.Node = call;
  // Links written as one chain: climb callee positions up to the exec call.
  for (;;) {
    const member: TSESTree.Node = node.parent;
    if (member.type !== AST_NODE_TYPES.MemberExpression || member.object !== node || member.parent.type !== AST_NODE_TYPES.CallExpression)
      break;
    const link: TSESTree.CallExpression = member.parent;
    if (TRANSACTION_EXEC_METHODS.has(methodCallParts(link)?.method ?? '')) return link;
    node = link;
  }
  // A transaction held in a variable: `const tx = conn.multi(); tx.del(k); const reply = await tx.exec()`.
  const receiver = methodCallParts(call)?.receiver;
  const root = receiver ? skipTypeWrappers(receiver) : undefined;
  if (root?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const owner = enclosingFunction(call);
  for (let parent: TSESTree.Node | undefined = call.parent; parent; parent = parent.parent) {
    if (parent !== owner && !isFunctionLike(parent)) continue;
    return findExecOn(parent, root.name, call);
  }
  return undefined;
}

function findExecOn(scope: TSESTree.Node, name: string, after: TSESTree.Node): TSESTree.CallExpression | undefined {
  let found: TSESTree.CallExpression | undefined;
  const visit = (node: TSESTree.Node): void => {
    if (found) return;
    if (node.type === AST_NODE_TYPES.CallExpression && node.range[0] > after.range[1]) {
      const parts = methodCallParts(node);
      const receiver = parts ? skipTypeWrappers(parts.receiver) : undefined;
      if (parts && TRANSACTION_EXEC_METHODS.has(parts.method) && receiver?.type === AST_NODE_TYPES.Identifier && receiver.name === name) {
        found = node;
        return;
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent') continue;
      if (Array.isArray(value))
        for (const child of value) {
          if (child && typeof child === 'object' && 'type' in child) visit(child as TSESTree.Node);
        }
      else if (value && typeof value === 'object' && 'type' in value) visit(value as TSESTree.Node);
    }
  };
  visit(scope);
  return found;
}
