// Walking only the part of a function between two offsets. A lock's critical section is a small
// stretch of what may be a huge function (every site of a bundle inside one IIFE): the walk must
// cost what the stretch holds, not what the function holds, so statement lists are binary-searched.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

// Below this length a list is probed in place; above it, through a copy of its end offsets.
const LONG_LIST = 32;

const endOffsets = new WeakMap<readonly unknown[], Float64Array | null>();

/**
 * The end offsets of a long list's nodes, copied out once per list (the AST does not change while
 * it is linted), or null when the list has holes or non-nodes. A probe then reads one compact
 * array instead of a statement and its range, each somewhere in the file's large heap.
 */
function endsOf(items: readonly unknown[]): Float64Array | null {
  let ends = endOffsets.get(items);
  if (ends !== undefined && (ends === null || ends.length === items.length)) return ends;
  ends = new Float64Array(items.length);
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (!isNode(item)) {
      ends = null;
      break;
    }
    ends[index] = item.range[1];
  }
  endOffsets.set(items, ends);
  return ends;
}

/** The first index in a source-ordered node list whose node ends after `offset`. */
function firstEndingAfter(items: readonly unknown[], offset: number): number {
  const ends = items.length > LONG_LIST ? endsOf(items) : null;
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    let end: number;
    if (ends) {
      end = ends[middle]!;
    } else {
      const item = items[middle];
      // Holes (`[, a]`) and non-nodes cannot be ordered: fall back to a plain scan.
      if (!isNode(item)) return 0;
      end = item.range[1];
    }
    if (end <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The children of `node` whose range overlaps `(from, to)`, in the order the visitor keys list them.
 * A child list (a block's statements, a class body, arguments) is searched, not scanned.
 */
export function childrenOverlapping(
  visitorKeys: TSESLint.SourceCode.VisitorKeys,
  node: TSESTree.Node,
  from: number,
  to: number,
): TSESTree.Node[] {
  const children: TSESTree.Node[] = [];
  for (const key of visitorKeys[node.type] ?? []) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (let index = firstEndingAfter(value, from); index < value.length; index++) {
        const child: unknown = value[index];
        if (!isNode(child)) continue;
        if (child.range[0] >= to) break;
        if (child.range[1] > from) children.push(child);
      }
    } else if (isNode(value) && value.range[1] > from && value.range[0] < to) {
      children.push(value);
    }
  }
  return children;
}

/** The index of the statement of `body` that contains `node`, or -1: a binary search by offset. */
export function indexOfContaining(body: readonly TSESTree.Node[], node: TSESTree.Node): number {
  const index = firstEndingAfter(body, node.range[0]);
  for (let at = index; at < body.length; at++) {
    const statement = body[at]!;
    if (statement.range[0] > node.range[0]) return -1;
    if (statement.range[0] <= node.range[0] && node.range[1] <= statement.range[1]) return at;
  }
  return -1;
}
