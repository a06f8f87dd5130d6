// Which writes and deletions are a program keeping its own data rather than taking or freeing a lock:
// a key the module stores with a plain `SET`/`HSET`, a value deleted or expired right after its own
// function wrote it, and the setup and teardown of tests. The lock questions (`isLockKey`,
// `isHousekeeping`) consult this; rules never do directly.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { contains, methodCallParts } from '../../util/ast.js';
import { collectNodes } from '../../util/collect-nodes.js';
import type { ScopeOwner } from '../../util/ast.js';
import { inEnclosingFunctions, redisIndex } from '../pairing/indexes.js';
import { within, eventNode, precedesInScope, earlyExitBranch } from '../facts/source-order.js';
import { keyShape, keySignature, looksLikeLockKey } from '../facts/keys.js';
import { checkThenSetRead } from './read-decides.js';
import type { Acquisition, Expiry, RedisCommand, RedisModel, Release } from '../nouns/redis-events.js';
import { testCodeOf } from '../facts/test-code.js';
import { isRawCommand, REDIS_METHODS } from '../tables/redis-clients.js';

const PLAIN_WRITES: ReadonlySet<string> = new Set(['SET', 'SETEX', 'PSETEX']);

/** A write that stores a value whatever the key holds: `SET` without `NX`/`XX`/`GET`, `SETEX`, `PSETEX`. */
export function isPlainWrite(command: RedisCommand): boolean {
  if (!PLAIN_WRITES.has(command.name)) return false;
  const set = command.set;
  // `SET … IFEQ token` writes only over the holder's own value: a lock's renewal, not data.
  return !set || (!set.nx && !set.xx && !set.get && !set.opaque && set.compare === undefined);
}

/**
 * A plain write that stores data: not one whose own read of the key decided it, which is an attempt
 * to take a lock (check-then-set), however broken.
 */
function storesData(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, command: RedisCommand): boolean {
  return isPlainWrite(command) && checkThenSetRead(sourceCode, model, command) === undefined;
}

const dataShapesByModel = new WeakMap<RedisModel, ReadonlySet<string>>();

/** `builder:this.holdKey` of a key shape that is a call of a key-building function or method (`this.holdKey(v:no)`). */
function keyBuilderOf(shape: string): string | undefined {
  const match = /^((?:this\.|v:|g:)[\w$.]+)\(/u.exec(shape);
  return match ? `builder:${match[1]}` : undefined;
}

/**
 * The key shapes (`keyShape`) this module stores data under with a plain `SET`/`HSET` (or a store
 * method of the client's own service, `setJson`) and never acquires: a key named like a lock but
 * written this way is a flag, a fixture or a cache entry (`SET user:locked 1`, a test's `SET lock:x
 * other`, a ticket hold cached under `lock:batch:<no>`), and deleting it frees nobody's lock.
 */
export function dataKeyShapes(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel): ReadonlySet<string> {
  const cached = dataShapesByModel.get(model);
  if (cached) return cached;
  const acquired = new Set<string>();
  for (const acquisition of model.acquisitions) {
    if (acquisition.keySignature === undefined) continue;
    const shape = keyShape(acquisition.keySignature);
    acquired.add(shape);
    const builder = keyBuilderOf(shape);
    if (builder !== undefined) acquired.add(builder);
  }
  const shapes = new Set<string>();
  const add = (signature: string | undefined): void => {
    if (signature === undefined) return;
    const shape = keyShape(signature);
    if (!acquired.has(shape)) shapes.add(shape);
    // Keys one builder makes (\`this.holdKey(no)\`) are one kind of key, whatever its argument.
    const builder = keyBuilderOf(shape);
    if (builder !== undefined && !acquired.has(builder)) shapes.add(builder);
  };
  for (const command of model.commands) if (storesData(sourceCode, model, command)) add(command.keySignature);
  for (const write of model.hashWrites) add(write.keySignature);
  for (const key of keysStoredThroughClientSetters(sourceCode, model)) add(keySignature(sourceCode, key));
  dataShapesByModel.set(model, shapes);
  return shapes;
}

// `setJson`, `putObject`, `saveState`, `cacheValue`: a store method of the client's own (a service
// wrapping the client), not a Redis command (those are REDIS_METHODS: `setNX`, `setEx`).
const STORE_METHOD = /^(?:set|put|save|store|write|cache)[A-Z_]\w*$/u;

/**
 * The keys (first arguments) of calls to a store method on a receiver this module also sends
 * Redis commands through (`this.redisService.setJson(key, value, ttl)` beside
 * `this.redisService.del(key)`): the service's own setter stores a value under the key.
 */
function keysStoredThroughClientSetters(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel): TSESTree.Node[] {
  if (model.commands.length === 0) return [];
  const receivers = new Set(model.commands.map((command) => sourceCode.getText(command.receiver)));
  const keys: TSESTree.Node[] = [];
  for (const call of collectNodes(sourceCode).calls) {
    const parts = methodCallParts(call);
    const key = call.arguments[0];
    if (!parts || !key || call.arguments.length < 2 || !STORE_METHOD.test(parts.method) || Object.hasOwn(REDIS_METHODS, parts.method))
      continue;
    if (receivers.has(sourceCode.getText(parts.receiver))) keys.push(key);
  }
  return keys;
}

/**
 * A plain release or renewal that is housekeeping, not an act on a held lock:
 * - it runs in a test's setup or teardown hook (`afterEach(() => redis.del('lock:x'))`): between
 *   tests nothing holds a lock, and the hook resets the fixtures;
 * - it runs in a test case that does not itself take the key with `SET NX` (or a script): the test
 *   simulates an expiry or cleans up after a lock some library or helper took. A test that takes
 *   the lock with `SET NX` and frees it with `DEL` exercises that unsafe release and keeps it;
 * - its function wrote the key last with a plain write (`SET k v`, `HSET`): it deletes or expires
 *   its own value (`SET` then `EXPIRE` is a write with an expiry, not a renewal);
 * - it re-arms a latch on a branch that returns before its function takes the key.
 */
export function isHousekeeping(model: RedisModel, event: Release | Expiry): boolean {
  const sourceCode = model.sourceCode;
  const test = testCodeOf(sourceCode).callbackAround(event.node);
  if (test?.kind === 'hook') return true;
  if (test?.kind === 'case' && !takesKeyIn(model, event, test.callback)) return true;
  return lastWriteIsPlain(sourceCode, model, event) || rearmsBeforeTaking(model, event);
}

/**
 * A delete on a branch that returns before its own function takes the key (`if (below) { DEL latch;
 * return }` ahead of `SET latch … NX PX`): a debounce latch re-armed, not a lock freed, since this
 * function holds nothing there and takes the key only after. Not inside a loop (a later turn could
 * follow an earlier turn's acquisition), and not for a key named like a lock, whose early delete
 * frees whoever holds it.
 */
function rearmsBeforeTaking(model: RedisModel, event: Release | Expiry): boolean {
  if (event.keySignature === undefined || !isRawCommand(event) || !event.key) return false;
  const taken = redisIndex(model).acquisitionsByOwnerAndKey.get(event.owner)?.get(event.keySignature) ?? [];
  if (taken.length === 0 || taken.some((acquisition) => acquisition.node.range[0] < event.node.range[1])) return false;
  const exit = earlyExitBranch(event.node, event.owner);
  if (!exit || taken.some((acquisition) => contains(exit, acquisition.node)) || inLoop(event.node, event.owner)) return false;
  return !looksLikeLockKey(model.sourceCode, event.key, model.lockKeyPattern);
}

// `for`, `for…in`, `for…of`, `while`, `do…while`: a statement whose body runs again.
const LOOP_STATEMENT = /^(?:For|ForIn|ForOf|While|DoWhile)Statement$/u;

function inLoop(node: TSESTree.Node, owner: TSESTree.Node): boolean {
  for (let current = node.parent; current && current !== owner; current = current.parent)
    if (LOOP_STATEMENT.test(current.type)) return true;
  return false;
}

/** An acquisition by the code itself (`SET NX`, `SETNX`, a script) of the event's key inside `callback`. */
function takesKeyIn(model: RedisModel, event: Release | Expiry, callback: TSESTree.Node): boolean {
  if (event.keySignature === undefined) return false;
  return within(redisIndex(model).acquisitionsByKey.get(event.keySignature), callback.range, eventNode).some((acquisition) =>
    isRawCommand(acquisition),
  );
}

/**
 * The last write of the event's key before it, in its function or one around it, is a plain write
 * that stores data. Acquisitions count as writes: `SET NX` then `SET` then `DEL` deletes the plain
 * value, `SET` then `SET NX` then `DEL` frees the lock.
 */
function lastWriteIsPlain(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, event: Release | Expiry): boolean {
  const signature = event.keySignature;
  if (signature === undefined) return false;
  const index = redisIndex(model);
  let last: { node: TSESTree.CallExpression; plain: boolean } | undefined;
  const consider = (node: TSESTree.CallExpression, owner: ScopeOwner, plain: () => boolean): void => {
    if (node === event.node || !precedesInScope({ node, owner }, event)) return;
    if (last && last.node.range[0] > node.range[0]) return;
    last = { node, plain: plain() };
  };
  for (const command of inEnclosingFunctions(index.commandsByOwnerAndKey, index.commandOrder, event.owner, signature)) {
    if (isPlainWrite(command)) consider(command.call, command.owner, () => storesData(sourceCode, model, command));
  }
  for (const acquisition of inEnclosingFunctions(index.acquisitionsByOwnerAndKey, index.acquisitionOrder, event.owner, signature)) {
    consider(acquisition.node, acquisition.owner, () => false);
  }
  for (const write of index.hashWritesByKey.get(signature) ?? []) consider(write.call, write.owner, () => true);
  return last?.plain ?? false;
}

function isDataKeyShape(shapes: ReadonlySet<string>, shape: string): boolean {
  const builder = keyBuilderOf(shape);
  return shapes.has(shape) || (builder !== undefined && shapes.has(builder));
}

const recordShapesByModel = new WeakMap<RedisModel, ReadonlySet<string>>();
const BARE_VARIABLE = /^v:[\w$]+$/u;

/**
 * The key shapes (`keyShape`) this module claims with `SET NX` and also overwrites with a plain
 * write of another value: an idempotency record (`SET k 'PROCESSING' NX EX`, then `SET k <response>`
 * or `SET k 'done'`, and `DEL k` when the work failed so that a retry can run), not a lock. A key
 * named like a lock is left out: a lock's key written over with data is no-lock-key-write's finding.
 */
export function recordKeyShapes(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel): ReadonlySet<string> {
  const cached = recordShapesByModel.get(model);
  if (cached) return cached;
  const storedValues = new Map<string, Set<string>>();
  for (const command of model.commands) {
    // Any write over the key that is not itself a claim or a compare-and-set: options this analysis
    // cannot read (a wrapper's \`set(key, value, ttl)\`) still store the value.
    if (command.keySignature === undefined || !command.value || !PLAIN_WRITES.has(command.name)) continue;
    if (command.set?.nx || command.set?.compare !== undefined) continue;
    const shape = keyShape(command.keySignature);
    // A bare variable's shape (\`v:key\`) is every function's parameter of that name: it says nothing.
    if (BARE_VARIABLE.test(shape)) continue;
    const values = storedValues.get(shape) ?? new Set<string>();
    values.add(sourceCode.getText(command.value));
    storedValues.set(shape, values);
  }
  const shapes = new Set<string>();
  if (storedValues.size > 0) {
    for (const acquisition of model.acquisitions) {
      if (!isRawCommand(acquisition) || acquisition.keySignature === undefined || !acquisition.value || !acquisition.key) continue;
      const shape = keyShape(acquisition.keySignature);
      const values = storedValues.get(shape);
      if (!values || shapes.has(shape) || looksLikeLockKey(sourceCode, acquisition.key, model.lockKeyPattern)) continue;
      const claimed = sourceCode.getText(acquisition.value);
      if ([...values].some((value) => value !== claimed)) shapes.add(shape);
    }
  }
  recordShapesByModel.set(model, shapes);
  return shapes;
}

/** The acquisition claims an idempotency record (recordKeyShapes), not a lock. */
export function claimsRecord(model: RedisModel, acquisition: Acquisition): boolean {
  return acquisition.keySignature !== undefined && recordKeyShapes(model.sourceCode, model).has(keyShape(acquisition.keySignature));
}

const lockKeyAnswers = new WeakMap<RedisModel, WeakMap<TSESTree.Node, boolean>>();

/**
 * A key is a lock when something in this module acquires it, or when its name matches
 * `lockKeyPattern` and the module never stores data under it with a plain `SET`/`HSET`; never an
 * idempotency record's key (recordKeyShapes).
 */
export function isLockKey(model: RedisModel, node: TSESTree.Node): boolean {
  // Rules ask this of the same release keys again and again (once per acquisition they pair).
  let answers = lockKeyAnswers.get(model);
  if (!answers) {
    answers = new WeakMap();
    lockKeyAnswers.set(model, answers);
  }
  let answer = answers.get(node);
  if (answer === undefined) {
    const sourceCode = model.sourceCode;
    const signature = keySignature(sourceCode, node);
    const splitKey = model.splitKeyOfKey.get(node);
    answer =
      !(signature !== undefined && recordKeyShapes(sourceCode, model).has(keyShape(signature))) &&
      ((signature !== undefined && model.acquiredKeys.has(signature)) ||
        (splitKey !== undefined && model.acquiredSplitKeys.has(splitKey)) ||
        (looksLikeLockKey(sourceCode, node, model.lockKeyPattern) &&
          (signature === undefined || !isDataKeyShape(dataKeyShapes(sourceCode, model), keyShape(signature)))));
    answers.set(node, answer);
  }
  return answer;
}
