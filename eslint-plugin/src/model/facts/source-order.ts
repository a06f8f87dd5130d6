// Where items sit in the file, and which of a list fall inside a range: the source-order lookups
// every pairing and question makes, over sorted copies of a list's offsets made once per list.

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { RedisCommand } from '../nouns/redis-events.js';
import { contains, isFunctionLike } from '../../util/ast.js';

/** Where an item sits in the file: its node (an event's call, a command's call). */
export type NodeOf<T> = (item: T) => TSESTree.Node;

export const eventNode = (event: { readonly node: TSESTree.Node }): TSESTree.Node => event.node;
export const commandNode = (command: RedisCommand): TSESTree.Node => command.call;

/**
 * A list in source order (by start offset) with its items' offsets copied out: the binary search
 * reads one compact array instead of following item → node → range for each probe, which on a
 * key shared by thousands of lock sites (each probe a different event, somewhere in a large heap)
 * was most of the search's cost.
 */
interface SourceOrdered<T> {
  readonly items: readonly T[];
  readonly starts: Float64Array;
  readonly ends: Float64Array;
}

const SHORT_LIST = 8;

const sourceOrdered = new WeakMap<readonly unknown[], SourceOrdered<unknown>>();

/**
 * The list in source order (by start offset): the list itself when it already is, as the model
 * collects almost everything, else a sorted copy (stable: equal starts keep their order).
 */
export function sortedBySource<T>(list: readonly T[], nodeOf: NodeOf<T>): readonly T[] {
  for (let index = 1; index < list.length; index++) {
    if (nodeOf(list[index - 1]!).range[0] > nodeOf(list[index]!).range[0]) {
      return [...list].sort((left, right) => nodeOf(left).range[0] - nodeOf(right).range[0]);
    }
  }
  return list;
}

/** The list in source order with its offsets, for `within`: made once per list. */
function inSourceOrder<T>(list: readonly T[], nodeOf: NodeOf<T>): SourceOrdered<T> {
  const cached = sourceOrdered.get(list) as SourceOrdered<T> | undefined;
  // A list that grew since (a model list still being filled) is ordered again.
  if (cached && cached.starts.length === list.length) return cached;
  const items = sortedBySource(list, nodeOf);
  const starts = new Float64Array(items.length);
  const ends = new Float64Array(items.length);
  items.forEach((item, index) => {
    const [start, end] = nodeOf(item).range;
    starts[index] = start;
    ends[index] = end;
  });
  const ordered = { items, starts, ends };
  sourceOrdered.set(list, ordered);
  return ordered;
}

/**
 * The items whose node lies inside `range`, in source order: the events inside a function, nested
 * functions included. A binary search in the list's source-ordered offsets (made once per list),
 * then only the matches.
 */
export function within<T>(list: readonly T[] | undefined, range: readonly [number, number], nodeOf: NodeOf<T>): T[] {
  if (!list || list.length === 0) return [];
  // A short list is read in place: copying its offsets out would cost more than the probes save.
  if (list.length <= SHORT_LIST) {
    return sortedBySource(list, nodeOf).filter((item) => {
      const [start, end] = nodeOf(item).range;
      return start >= range[0] && start < range[1] && end <= range[1];
    });
  }
  const { items, starts, ends } = inSourceOrder(list, nodeOf);
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle]! < range[0]) low = middle + 1;
    else high = middle;
  }
  const found: T[] = [];
  for (let index = low; index < items.length && starts[index]! < range[1]; index++) {
    if (ends[index]! <= range[1]) found.push(items[index]!);
  }
  return found;
}

/** True when `earlier` runs before `later` in the same function or in a function nested in it. */
export function precedesInScope(
  earlier: { node: TSESTree.CallExpression; owner: TSESTree.Node },
  later: { node: TSESTree.CallExpression; owner: TSESTree.Node },
): boolean {
  return contains(earlier.owner, later.node) && runsBefore(earlier.node, later.node);
}

/**
 * Source order, adjusted for the two ways a later command can be written around an earlier one:
 * a chain link (`multi().setnx(k).expire(k)`) and a node_redis v3 callback (`setnx(k, v, () => expire(k))`).
 */
export function runsBefore(earlier: TSESTree.CallExpression, later: TSESTree.CallExpression): boolean {
  if (earlier.range[1] <= later.range[0]) return true;
  if (contains(later.callee, earlier)) return true;
  return contains(earlier, later) && earlier.arguments.some((argument) => isFunctionLike(argument) && contains(argument, later));
}

/**
 * The call sits on an early exit of `owner`: in a `return` or `throw` that is not the last word of
 * the function's body (`if (done) return release();`), or in a block of its own followed there by
 * one (`if (done) { await release(); return; }`). The code after that branch still runs without
 * having passed through it.
 */
export function isOnEarlyExit(node: TSESTree.Node, owner: TSESTree.Node): boolean {
  return earlyExitBranch(node, owner) !== undefined;
}

/**
 * The early exit `node` sits on (see isOnEarlyExit): the `return`/`throw` statement, or the block
 * that one ends. Code outside it runs without having passed through `node`.
 */
export function earlyExitBranch(node: TSESTree.Node, owner: TSESTree.Node): TSESTree.Node | undefined {
  const body = isFunctionLike(owner) && owner.body.type === AST_NODE_TYPES.BlockStatement ? owner.body : undefined;
  for (let current = node; current.parent && current !== owner; current = current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (current.type === AST_NODE_TYPES.ReturnStatement || current.type === AST_NODE_TYPES.ThrowStatement)
      return parent !== body ? current : undefined;
    if (parent === body || isFunctionLike(parent)) return undefined;
    if (parent.type === AST_NODE_TYPES.BlockStatement) {
      const later = parent.body.slice(parent.body.indexOf(current as TSESTree.Statement) + 1);
      if (later.some((statement) => statement.type === AST_NODE_TYPES.ReturnStatement || statement.type === AST_NODE_TYPES.ThrowStatement))
        return parent;
    }
  }
  return undefined;
}

/**
 * The call gives a loop's candidate up: it sits in a block that goes on to the loop's next turn or
 * out of it (`break`, `continue` after it), or in one branch of an `if` whose other branch leaves
 * with `break` or `continue` (`if (ok) { chosen = id; break } else { release() }`: the release passes
 * this candidate over, and the lock taken goes on with the other branch, past the loop). A release
 * before a `return` is not one: it often ends the work of the branch that holds the lock.
 */
export function isOnGiveUpPath(node: TSESTree.Node, owner: TSESTree.Node): boolean {
  for (let current = node; current.parent && current !== owner; current = current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (isFunctionLike(parent)) return false;
    if (parent.type === AST_NODE_TYPES.BlockStatement) {
      const later = parent.body.slice(parent.body.indexOf(current as TSESTree.Statement) + 1);
      if (later.some(isLoopJump)) return true;
    }
    if (parent.type === AST_NODE_TYPES.IfStatement && parent.alternate && current !== parent.test) {
      const other = current === parent.consequent ? parent.alternate : parent.consequent;
      if (endsWithLoopJump(other)) return true;
    }
  }
  return false;
}

function isLoopJump(statement: TSESTree.Node): boolean {
  return statement.type === AST_NODE_TYPES.BreakStatement || statement.type === AST_NODE_TYPES.ContinueStatement;
}

function endsWithLoopJump(statement: TSESTree.Statement): boolean {
  if (isLoopJump(statement)) return true;
  const last = statement.type === AST_NODE_TYPES.BlockStatement ? statement.body.at(-1) : undefined;
  return last !== undefined && isLoopJump(last);
}

/**
 * The release that ends a critical section: the first, in source order, that is not on an early
 * exit (a release on an early return ends only that branch); the first of all when every one is.
 */
export function sectionEndOf<T>(releases: readonly T[], nodeOf: NodeOf<T>, owner: TSESTree.Node): T | undefined {
  let first: T | undefined;
  let firstOnNormalPath: T | undefined;
  for (const release of releases) {
    const start = nodeOf(release).range[0];
    if (!first || start < nodeOf(first).range[0]) first = release;
    if (!isOnEarlyExit(nodeOf(release), owner) && (!firstOnNormalPath || start < nodeOf(firstOnNormalPath).range[0]))
      firstOnNormalPath = release;
  }
  return firstOnNormalPath ?? first;
}
