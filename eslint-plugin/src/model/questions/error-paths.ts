// What becomes of a lock when the work under it throws: whether a release runs on the error path
// too (in `finally`, or in a `catch`), whether anything between acquiring and releasing can throw,
// and whether a `finally` closes the whole session (and its advisory locks with it).

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { forEachChild, isFunctionLike, isInFinally, methodCallParts, skipTypeWrappers } from '../../util/ast.js';
import { childrenOverlapping } from '../../util/ranges.js';
import type { AdvisoryLockItem } from '../nouns/sql-items.js';
import type { LockStep } from '../nouns/lock-types.js';
import { isOnGiveUpPath } from '../facts/source-order.js';
import { SESSION_ENDING_METHODS } from '../tables/sql-clients.js';

/**
 * The release runs on the error path too: in a `finally`, or in a `catch` (the `catch { release;
 * throw }` spelling of the same guarantee).
 */
export function isGuaranteed(release: LockStep): boolean {
  if (isInFinally(release.node, release.owner)) return true;
  for (let current: TSESTree.Node = release.node; current !== release.owner; current = current.parent!) {
    if (current.parent?.type === AST_NODE_TYPES.CatchClause) return true;
  }
  return false;
}

/**
 * Every release passes a loop's candidate over (isOnGiveUpPath): none ends the work on its way
 * through, so the lock is kept when the work succeeds (handed on, or left to expire), and an error
 * that skips a release leaves it held no longer than success does.
 */
export function isKeptOnSuccess(releases: readonly LockStep[]): boolean {
  return releases.length > 0 && releases.every((release) => isOnGiveUpPath(release.node, release.owner));
}

/** Something between acquiring and releasing can throw: a call, an `await`, a `throw`. */
export function hasWorkBetween(
  sourceCode: Readonly<TSESLint.SourceCode>,
  acquisition: LockStep,
  release: LockStep,
  machinery: ReadonlySet<TSESTree.Node>,
): boolean {
  const from = acquisition.node.range[1];
  const to = release.node.range[0];
  const stack: TSESTree.Node[] = [acquisition.owner];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.range[1] <= from || node.range[0] >= to) continue;
    const inside = node.range[0] >= from && node.range[1] <= to;
    if (machinery.has(node) || (node.type === AST_NODE_TYPES.AwaitExpression && machinery.has(skipTypeWrappers(node.argument)))) continue;
    if (
      inside &&
      (node.type === AST_NODE_TYPES.CallExpression ||
        node.type === AST_NODE_TYPES.NewExpression ||
        node.type === AST_NODE_TYPES.AwaitExpression ||
        node.type === AST_NODE_TYPES.ThrowStatement)
    ) {
      return true;
    }
    // A function defined in between runs later, if at all.
    if (inside && isFunctionLike(node)) continue;
    // Work inside `try { } catch { }` cannot skip the release unless the catch throws again.
    if (inside && node.type === AST_NODE_TYPES.TryStatement && node.handler) {
      if (rethrows(sourceCode, node.handler)) return true;
      continue;
    }
    stack.push(...childrenOverlapping(sourceCode.visitorKeys, node, from, to));
  }
  return false;
}

function rethrows(sourceCode: Readonly<TSESLint.SourceCode>, handler: TSESTree.CatchClause): boolean {
  const stack: TSESTree.Node[] = [handler.body];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === AST_NODE_TYPES.ThrowStatement) return true;
    if (isFunctionLike(node)) continue;
    forEachChild(node, sourceCode.visitorKeys, (child) => stack.push(child));
  }
  return false;
}

/**
 * `client.release(true)` / `client.end()` in a `finally` of the same function: the connection
 * closes on every path, and the session's advisory locks with it.
 */
export function endsSessionInFinally(sourceCode: Readonly<TSESLint.SourceCode>, lock: AdvisoryLockItem): boolean {
  const client = lock.query.sender.text;
  const owner = lock.owner;
  const stack: TSESTree.Node[] = [owner];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== owner && isFunctionLike(node)) continue;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const parts = methodCallParts(node);
      if (parts && sourceCode.getText(parts.receiver) === client && isInFinally(node, owner) && endsSession(parts.method, node))
        return true;
    }
    forEachChild(node, sourceCode.visitorKeys, (child) => stack.push(child));
  }
  return false;
}

/** The call ends its connection's session (SESSION_ENDING_METHODS): `release(true)`, `end()`, `destroy()`. */
function endsSession(method: string, call: TSESTree.CallExpression): boolean {
  const ending = Object.hasOwn(SESSION_ENDING_METHODS, method) ? SESSION_ENDING_METHODS[method] : undefined;
  return ending !== undefined && (!ending.needsArgument || call.arguments.length > 0);
}
