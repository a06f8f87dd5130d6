// Auto-extending locks and whether their work listens for the lock being lost
// (require-lock-loss-handling). A lock the library extends on a timer can still be lost (Redis
// restarts, a long GC pause, a partition): the library then says so — Redlock v5 aborts the signal
// it passed to the routine, redis-semaphore calls `onLockLost` (by default it throws from the
// refresh timer, where no `try` of the work can catch it) and `isAcquired` turns false. Work that
// never asks writes on as if it still held the lock.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, type FunctionLike, isFunctionLike } from '../../util/ast.js';
import { autoExtensionOf, routineArgument } from '../facts/auto-extension.js';
import { LOCK_LIBRARIES, REDIS_WRITE_COMMANDS, type TimerExtension } from '../tables/redis-clients.js';
import { within } from '../facts/source-order.js';
import type { Acquisition, RedisModel } from '../nouns/redis-events.js';
import { locksOf } from '../pairing/locks.js';
import type { SqlModel } from '../nouns/sql-items.js';
import type { LockLibrary } from '../nouns/vocabulary.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface LockLossIgnored {
  readonly acquisition: Acquisition;
  readonly library: LockLibrary;
  /**
   * How the library tells the work its lock was lost: the abort signal handed to the routine
   * (`routine`), or a handler option and a property of the lock object (`timer`).
   */
  readonly lossSignal: 'routine' | 'timer';
  /** The first write of the work made with no look at the lock-lost signal before it. */
  readonly write: TSESTree.Node;
}

/**
 * The file takes an auto-extending lock: through the library itself, or through a project helper
 * whose summary says its lock auto-extends (auto-extension.ts). The rules ask this before the
 * costlier walk below.
 */
export function hasAutoExtendingLocks(sourceCode: SourceCode, redis: RedisModel): boolean {
  return redis.acquisitions.some((acquisition) => autoExtensionOf(sourceCode, acquisition) !== undefined);
}

/**
 * Every auto-extending acquisition whose work writes without consulting the lock-lost signal
 * first. Silent whenever the model cannot see the whole picture: a routine passed by name, a lock
 * object built elsewhere, options it cannot read, work with no write it recognises.
 */
export function locksIgnoringLoss(sourceCode: SourceCode, redis: RedisModel, sql: SqlModel): LockLossIgnored[] {
  const found: LockLossIgnored[] = [];
  const candidates = redis.acquisitions.flatMap((acquisition) => {
    const extension = autoExtensionOf(sourceCode, acquisition);
    // A loss the code handles (`onLockLost`) leaves nothing for the work to check.
    return extension && !extension.lossHandled ? [{ acquisition, library: extension.library }] : [];
  });
  if (candidates.length === 0) return found;
  const writes = writeNodes(redis, sql);
  const locks = locksOf(sourceCode, { redis, sql });
  for (const { acquisition, library } of candidates) {
    const extension = LOCK_LIBRARIES[library].autoExtension!;
    const work =
      extension.by === 'routine'
        ? routineWork(acquisition)
        : timerWork(sourceCode, extension, acquisition, locks.lockOfAcquisition(acquisition));
    if (!work) continue;
    const inside = within(writes, work.range, (node) => node).filter((node) => contains(work.root, node) && node !== acquisition.node);
    if (inside.length === 0) continue;
    const consulted = work.consultations(sourceCode);
    if (consulted.some((node) => guardsAWrite(node, inside, work.root))) continue;
    found.push({ acquisition, library, lossSignal: extension.by, write: inside[0]! });
  }
  return found;
}

interface Work {
  /** The node the work lies in (the routine, or the acquisition's function). */
  readonly root: TSESTree.Node;
  readonly range: readonly [number, number];
  readonly consultations: (sourceCode: SourceCode) => TSESTree.Node[];
}

/**
 * `redlock.using(resources, ttl, [settings,] async (signal) => { … })`, or a with-lock helper that
 * runs its callback as that routine (`MutexLock.using(k, ttl, async (signal) => { … })`): the
 * inline routine and its signal's uses.
 */
function routineWork(acquisition: Acquisition): Work | undefined {
  const argument = routineArgument(acquisition);
  if (!argument || !isFunctionLike(argument)) return undefined;
  const routine: FunctionLike = argument;
  const body = routine.body;
  const signal = routine.params[0];
  return {
    root: body,
    range: body.range,
    consultations: (sourceCode) => {
      if (!signal) return [];
      // A destructured or defaulted signal is read on entry: count it as consulted.
      if (signal.type !== AST_NODE_TYPES.Identifier) return [body];
      const variable = sourceCode.getDeclaredVariables(routine).find((candidate) => candidate.name === signal.name);
      // Any use counts: reading `aborted`/`error`, `throwIfAborted()`, a listener, or passing it on.
      return (variable?.references ?? []).map((reference) => reference.identifier as TSESTree.Node).filter((node) => contains(body, node));
    },
  };
}

/** A refreshing redis-semaphore lock (the library's or a helper's, whose refresh auto-extension.ts judged): the work from `acquire()` to `release()`. */
function timerWork(
  sourceCode: SourceCode,
  extension: TimerExtension,
  acquisition: Acquisition,
  section: { readonly from: number; readonly to: number; readonly owner: TSESTree.Node } | undefined,
): Work | undefined {
  if (!section) return undefined;
  const from = acquisition.node.range[1];
  return {
    root: section.owner,
    range: [from, section.to],
    consultations: () => acquiredChecks(sourceCode, extension.acquiredProperty, from, section.to),
  };
}

/** `x.isAcquired` reads between the offsets, found by a scan of the text (no second AST walk). */
function acquiredChecks(sourceCode: SourceCode, word: string, from: number, to: number): TSESTree.Node[] {
  const checks: TSESTree.Node[] = [];
  const text = sourceCode.text;
  for (let at = text.indexOf(word, from); at !== -1 && at < to; at = text.indexOf(word, at + word.length)) {
    const node = sourceCode.getNodeByRangeIndex(at);
    if (node?.type === AST_NODE_TYPES.Identifier && node.parent.type === AST_NODE_TYPES.MemberExpression && node.parent.property === node)
      checks.push(node);
  }
  return checks;
}

/**
 * A look at the signal guards the work when it comes before its last write, or sits in a loop
 * that also writes (checked on every round but the first).
 */
function guardsAWrite(consultation: TSESTree.Node, writes: readonly TSESTree.Node[], root: TSESTree.Node): boolean {
  const last = writes.at(-1)!;
  if (consultation.range[0] < last.range[1]) return true;
  for (let current = consultation.parent; current && current !== root; current = current.parent) {
    if (isLoop(current) && writes.some((write) => contains(current, write))) return true;
  }
  return false;
}

function isLoop(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.ForStatement ||
    node.type === AST_NODE_TYPES.ForOfStatement ||
    node.type === AST_NODE_TYPES.ForInStatement ||
    node.type === AST_NODE_TYPES.WhileStatement ||
    node.type === AST_NODE_TYPES.DoWhileStatement
  );
}

const writesByModel = new WeakMap<SqlModel, WeakMap<RedisModel, readonly TSESTree.Node[]>>();

/** Every write the file makes, in source order: SQL and ORM writes, Redis writes, hash writes. */
function writeNodes(redis: RedisModel, sql: SqlModel): readonly TSESTree.Node[] {
  let byRedis = writesByModel.get(sql);
  if (!byRedis) {
    byRedis = new WeakMap();
    writesByModel.set(sql, byRedis);
  }
  const cached = byRedis.get(redis);
  if (cached) return cached;
  const nodes: TSESTree.Node[] = [
    ...sql.writes.map((write) => write.node),
    ...redis.commands.filter((command) => REDIS_WRITE_COMMANDS.has(command.name)).map((command) => command.call),
    ...redis.hashWrites.map((write) => write.call),
  ].sort((left, right) => left.range[0] - right.range[0]);
  byRedis.set(redis, nodes);
  return nodes;
}
