// Auto-extending locks and whether their work listens for the lock being lost
// (require-lock-loss-handling). A lock the library extends on a timer can still be lost (Redis
// restarts, a long GC pause, a partition): the library then says so — Redlock v5 aborts the signal
// it passed to the routine, redis-semaphore calls `onLockLost` (by default it throws from the
// refresh timer, where no `try` of the work can catch it) and `isAcquired` turns false. Work that
// never asks writes on as if it still held the lock.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, type FunctionLike, isFunctionLike, methodCallParts, skipTypeWrappers } from '../util/ast.js';
import { AUTO_EXTENDING_LOCKS, REDIS_WRITE_COMMANDS } from './client-table.js';
import { within } from './indexes.js';
import { declaredInitializer, type Acquisition, type RedisModel } from './redis-model.js';
import { heldLocks } from './sql/critical-sections.js';
import type { SqlModel } from './sql/index.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface LockLossIgnored {
  readonly acquisition: Acquisition;
  readonly library: 'redlock' | 'redis-semaphore';
  /** The first write of the work made with no look at the lock-lost signal before it. */
  readonly write: TSESTree.Node;
}

const SEMAPHORE = AUTO_EXTENDING_LOCKS['redis-semaphore'];

/**
 * Every auto-extending acquisition whose work writes without consulting the lock-lost signal
 * first. Silent whenever the model cannot see the whole picture: a routine passed by name, a lock
 * object built elsewhere, options it cannot read, work with no write it recognises.
 */
export function locksIgnoringLoss(sourceCode: SourceCode, redis: RedisModel, sql: SqlModel): LockLossIgnored[] {
  const found: LockLossIgnored[] = [];
  const candidates = redis.acquisitions.filter((acquisition) => acquisition.library === 'redlock' || acquisition.library === 'redis-semaphore');
  if (candidates.length === 0) return found;
  const writes = writeNodes(redis, sql);
  const sections = new Map(heldLocks(sourceCode, redis, sql).map((lock) => [lock.node, lock] as const));
  for (const acquisition of candidates) {
    const work = acquisition.library === 'redlock' ? redlockRoutine(acquisition) : semaphoreWork(sourceCode, acquisition, sections.get(acquisition.node));
    if (!work) continue;
    const inside = within(writes, work.range, (node) => node).filter((node) => contains(work.root, node) && node !== acquisition.node);
    if (inside.length === 0) continue;
    const consulted = work.consultations(sourceCode);
    if (consulted.some((node) => guardsAWrite(node, inside, work.root))) continue;
    found.push({ acquisition, library: acquisition.library as LockLossIgnored['library'], write: inside[0]! });
  }
  return found;
}

interface Work {
  /** The node the work lies in (the routine, or the acquisition's function). */
  readonly root: TSESTree.Node;
  readonly range: readonly [number, number];
  readonly consultations: (sourceCode: SourceCode) => TSESTree.Node[];
}

/** `redlock.using(resources, ttl, [settings,] async (signal) => { … })`: the inline routine and its signal's uses. */
function redlockRoutine(acquisition: Acquisition): Work | undefined {
  const call = acquisition.node;
  if (!AUTO_EXTENDING_LOCKS.redlock.methods.includes(methodCallParts(call)?.method ?? '')) return undefined;
  const last = call.arguments.at(-1);
  if (!last || call.arguments.length < 3 || !isFunctionLike(last)) return undefined;
  const routine: FunctionLike = last;
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

/** A redis-semaphore lock with auto-refresh on and no `onLockLost`: the work from `acquire()` to `release()`. */
function semaphoreWork(sourceCode: SourceCode, acquisition: Acquisition, section: { readonly from: number; readonly to: number; readonly owner: TSESTree.Node } | undefined): Work | undefined {
  if (!section) return undefined;
  const receiver = methodCallParts(acquisition.node)?.receiver;
  if (!receiver) return undefined;
  const root = skipTypeWrappers(receiver);
  const made = root.type === AST_NODE_TYPES.NewExpression ? root : declaredInitializer(root as TSESTree.Expression, sourceCode);
  if (made?.type !== AST_NODE_TYPES.NewExpression || !refreshesWithoutLossHandler(made)) return undefined;
  const from = acquisition.node.range[1];
  return {
    root: section.owner,
    range: [from, section.to],
    consultations: () => acquiredChecks(sourceCode, from, section.to),
  };
}

/** `new Mutex(client, key, options?)` whose options leave auto-refresh on and set no `onLockLost`. */
function refreshesWithoutLossHandler(made: TSESTree.NewExpression): boolean {
  const callee = skipTypeWrappers(made.callee);
  const maker = callee.type === AST_NODE_TYPES.Identifier ? callee.name
    : callee.type === AST_NODE_TYPES.MemberExpression && callee.property.type === AST_NODE_TYPES.Identifier ? callee.property.name : undefined;
  const index = maker === undefined ? undefined : SEMAPHORE.optionsArgument[maker];
  if (index === undefined) return false;
  if (made.arguments.some((argument) => argument.type === AST_NODE_TYPES.SpreadElement)) return false;
  const options = made.arguments[index];
  if (!options) return true;
  const object = skipTypeWrappers(options);
  // Options held in a variable or built elsewhere: what they say cannot be read here.
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return false;
  let refreshes = true;
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) return false;
    const name = property.key.type === AST_NODE_TYPES.Identifier && !property.computed ? property.key.name
      : property.key.type === AST_NODE_TYPES.Literal ? String(property.key.value) : undefined;
    if (name === undefined) return false;
    if (name === SEMAPHORE.lostHandlerOption) return false;
    if (name === SEMAPHORE.refreshOption) {
      const value = skipTypeWrappers(property.value);
      // `refreshInterval: 0` turns the refresh off; an interval the model cannot read may be 0.
      if (value.type !== AST_NODE_TYPES.Literal || typeof value.value !== 'number') return false;
      refreshes = value.value > 0;
    }
  }
  return refreshes;
}

/** `x.isAcquired` reads between the offsets, found by a scan of the text (no second AST walk). */
function acquiredChecks(sourceCode: SourceCode, from: number, to: number): TSESTree.Node[] {
  const checks: TSESTree.Node[] = [];
  const text = sourceCode.text;
  const word = SEMAPHORE.acquiredProperty;
  for (let at = text.indexOf(word, from); at !== -1 && at < to; at = text.indexOf(word, at + word.length)) {
    const node = sourceCode.getNodeByRangeIndex(at);
    if (node?.type === AST_NODE_TYPES.Identifier && node.parent.type === AST_NODE_TYPES.MemberExpression && node.parent.property === node) checks.push(node);
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
  return node.type === AST_NODE_TYPES.ForStatement || node.type === AST_NODE_TYPES.ForOfStatement || node.type === AST_NODE_TYPES.ForInStatement
    || node.type === AST_NODE_TYPES.WhileStatement || node.type === AST_NODE_TYPES.DoWhileStatement;
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
