// Questions several rules ask of the lock model, answered once here.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, skipTypeWrappers, valueCarrier } from '../../util/ast.js';
import { redisIndex } from '../pairing/indexes.js';
import { commandNode, within } from '../facts/source-order.js';
import { isInLockFunction } from '../facts/keys.js';
import { isHousekeeping, isLockKey } from './housekeeping.js';
import { isReplyOfKey, pipelineReplyOf } from './pipeline-replies.js';
import type { Acquisition, Expiry, RedisModel, Release } from '../nouns/redis-events.js';
import { isParameterValue } from './token-origin.js';
import { isRawCommand } from '../tables/redis-clients.js';

/**
 * `if ((await redis.get(key)) === token) await redis.del(key)` (or `pexpire`): the value the
 * JavaScript compared the stored token with, when the release or renewal sits under such a check.
 * The `GET` may also have gone in a pipeline or transaction before (`results[0][1] === token` of
 * its `exec()`): the delete is a later round trip all the same.
 */
export function ownerCheckAround(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
  event: Release | Expiry,
): TSESTree.Node | undefined {
  let current: TSESTree.Node | undefined = event.node.parent;
  while (current && current !== event.owner) {
    if (current.type === AST_NODE_TYPES.IfStatement && contains(current.consequent, event.node)) {
      const compared = comparedWithStoredValue(sourceCode, model, current.test, event);
      if (compared) return compared;
    }
    current = current.parent;
  }
  return undefined;
}

function comparedWithStoredValue(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
  test: TSESTree.Node,
  event: Release | Expiry,
): TSESTree.Node | undefined {
  const expression = skipTypeWrappers(test);
  if (expression.type === AST_NODE_TYPES.LogicalExpression && expression.operator === '&&') {
    return (
      comparedWithStoredValue(sourceCode, model, expression.left, event) ??
      comparedWithStoredValue(sourceCode, model, expression.right, event)
    );
  }
  if (expression.type !== AST_NODE_TYPES.BinaryExpression || (expression.operator !== '===' && expression.operator !== '=='))
    return undefined;
  const isStoredRead = (side: TSESTree.Node): boolean => {
    let node = skipTypeWrappers(side);
    if (node.type === AST_NODE_TYPES.AwaitExpression) node = skipTypeWrappers(node.argument);
    const command = redisIndex(model).commandByCall.get(node);
    if (command) return command.name === 'GET' && command.keySignature === event.keySignature;
    const reply = pipelineReplyOf(sourceCode, model, node);
    return reply !== undefined && reply.command.name === 'GET' && isReplyOfKey(sourceCode, reply, event.key, event.keySignature);
  };
  // Only a comparison with the caller's own value is an owner check; `=== null` asks whether the
  // lock is free (the article's attempt 1), which says nothing of who holds it.
  if (isStoredRead(expression.left) && couldBeToken(expression.right)) return expression.right;
  if (isStoredRead(expression.right) && couldBeToken(expression.left)) return expression.left;
  return undefined;
}

function couldBeToken(node: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(node);
  if (expression.type === AST_NODE_TYPES.Literal) return false;
  return !(expression.type === AST_NODE_TYPES.Identifier && expression.name === 'undefined');
}

/**
 * The releases and renewals that may be this lock's. The value matters only where something
 * compares it, so a self-expiring lock in a module that releases and renews no lock ("run at most
 * once a minute") may store anything. A suggestion is offered only when all of them are in the
 * acquisition's function: a token minted there could not reach a release anywhere else.
 */
export function eventsOfSameLock(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
  lockKeyPattern: RegExp,
  acquisition: Acquisition,
): SameLockEvents {
  const groups = eventGroups(sourceCode, model, lockKeyPattern);
  if (acquisition.keySignature === undefined) return sameLockEvents([groups.all], groups.order);
  const keyOnly = groups.keyOnly.get(acquisition.keySignature);
  return sameLockEvents(keyOnly ? [groups.base, keyOnly] : [groups.base], groups.order);
}

/** The releases and renewals that may be any lock's and name their key, not take it as a parameter. */
export function writtenKeyEvents(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, lockKeyPattern: RegExp): SameLockEvents {
  const groups = eventGroups(sourceCode, model, lockKeyPattern);
  return sameLockEvents([groups.writtenKey], groups.order);
}

/** Releases and renewals, as a list in the model's order (releases first) with its extent. */
interface EventGroup {
  readonly events: (Release | Expiry)[];
  start: number;
  end: number;
}

export interface SameLockEvents {
  readonly count: number;
  /** Whether every event lies inside `owner`. */
  allInside(owner: TSESTree.Node): boolean;
  /** The first `limit` events, in the model's order (releases first). */
  first(limit: number): (Release | Expiry)[];
}

interface EventGroups {
  /** Every Redis release and renewal: the lock of an acquisition without a key signature may be any. */
  readonly all: EventGroup;
  /** Those that may be any lock's: no key signature, a lock-like key, or in a lock helper. */
  readonly base: EventGroup;
  /** Of `base`, those whose key is written out, not a parameter of their function. */
  readonly writtenKey: EventGroup;
  /** By key signature, the others: events that are only the lock of the same key. */
  readonly keyOnly: ReadonlyMap<string, EventGroup>;
  readonly order: ReadonlyMap<Release | Expiry, number>;
}

const eventGroupsByModel = new WeakMap<RedisModel, EventGroups>();

/**
 * The releases and renewals that may be an acquisition's own lock fall in groups shared by every
 * acquisition of the file (computed once): those that may be any lock's, and those of one key.
 */
function eventGroups(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, lockKeyPattern: RegExp): EventGroups {
  const cached = eventGroupsByModel.get(model);
  if (cached) return cached;
  const emptyGroup = (): EventGroup => ({ events: [], start: Infinity, end: -Infinity });
  const add = (group: EventGroup, event: Release | Expiry) => {
    group.events.push(event);
    group.start = Math.min(group.start, event.node.range[0]);
    group.end = Math.max(group.end, event.node.range[1]);
  };
  const groups = {
    all: emptyGroup(),
    base: emptyGroup(),
    writtenKey: emptyGroup(),
    keyOnly: new Map<string, EventGroup>(),
    order: new Map<Release | Expiry, number>(),
  };
  for (const event of [...model.releases, ...model.expiries]) {
    // A test's teardown, a data value's delete, a latch re-armed: nothing a holder's value is compared for.
    if (!isRawCommand(event) || isHousekeeping(model, event)) continue;
    groups.order.set(event, groups.order.size);
    add(groups.all, event);
    if (
      event.keySignature === undefined ||
      (event.key !== undefined && isLockKey(model, event.key)) ||
      isInLockFunction(event.node, lockKeyPattern)
    ) {
      add(groups.base, event);
      if (event.key !== undefined && !isParameterValue(sourceCode, event.key)) add(groups.writtenKey, event);
      continue;
    }
    let keyGroup = groups.keyOnly.get(event.keySignature);
    if (!keyGroup) {
      keyGroup = emptyGroup();
      groups.keyOnly.set(event.keySignature, keyGroup);
    }
    add(keyGroup, event);
  }
  eventGroupsByModel.set(model, groups);
  return groups;
}

/** The union of disjoint groups, each in the model's order. */
function sameLockEvents(parts: readonly EventGroup[], order: ReadonlyMap<Release | Expiry, number>): SameLockEvents {
  return {
    count: parts.reduce((sum, part) => sum + part.events.length, 0),
    // A node outside the function ends before it, starts after it, or holds it: the extent shows it.
    allInside: (owner) => parts.every((part) => part.events.length === 0 || (part.start >= owner.range[0] && part.end <= owner.range[1])),
    first: (limit) => {
      const merged: (Release | Expiry)[] = [];
      const positions = parts.map(() => 0);
      while (merged.length < limit) {
        let next = -1;
        for (let part = 0; part < parts.length; part++) {
          const candidate = parts[part]!.events[positions[part]!];
          if (candidate === undefined) continue;
          if (next < 0 || order.get(candidate)! < order.get(parts[next]!.events[positions[next]!]!)!) next = part;
        }
        if (next < 0) break;
        merged.push(parts[next]!.events[positions[next]!]!);
        positions[next]! += 1;
      }
      return merged;
    },
  };
}

interface EventArgument {
  readonly event: Release | Expiry;
  readonly argument: TSESTree.Node;
}

const argumentsByTextByModel = new WeakMap<RedisModel, ReadonlyMap<string, readonly EventArgument[]>>();

/** The arguments of every Redis release and renewal, by their text, in the model's order: found once per file. */
export function argumentsByText(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
): ReadonlyMap<string, readonly EventArgument[]> {
  const cached = argumentsByTextByModel.get(model);
  if (cached) return cached;
  const byText = new Map<string, EventArgument[]>();
  for (const event of [...model.releases, ...model.expiries]) {
    if (!event.command || !isRawCommand(event)) continue;
    const args = event.command.script ? event.command.script.args : event.command.args;
    for (const argument of args) {
      const text = sourceCode.getText(argument);
      const list = byText.get(text);
      if (list) list.push({ event, argument });
      else byText.set(text, [{ event, argument }]);
    }
  }
  argumentsByTextByModel.set(model, byText);
  return byText;
}

/** `if ((await redis.get(key)) === WORKER_ID)` in the acquisition's function: it compares the stored value with `valueText`. */
export function comparesStoredValue(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
  acquisition: Acquisition,
  valueText: string,
): boolean {
  return within(model.commands, acquisition.owner.range, commandNode).some((command) => {
    if (command.name !== 'GET') return false;
    if (command.keySignature !== undefined && acquisition.keySignature !== undefined && command.keySignature !== acquisition.keySignature)
      return false;
    const comparison = valueCarrier(command.call).parent;
    if (comparison?.type !== AST_NODE_TYPES.BinaryExpression) return false;
    return sourceCode.getText(comparison.left) === valueText || sourceCode.getText(comparison.right) === valueText;
  });
}

/** Redis commands on the lock's own key (its expiry, a read-back): the lock's machinery, not work. */
export function lockMachinery(model: RedisModel, acquisition: Acquisition): ReadonlySet<TSESTree.Node> {
  const signature = acquisition.keySignature;
  if (signature === undefined) return new Set();
  // Only nodes inside the acquisition's function are looked up in it.
  return new Set(
    within(redisIndex(model).commandsByKey.get(signature), acquisition.owner.range, commandNode).map((command) => command.call),
  );
}
