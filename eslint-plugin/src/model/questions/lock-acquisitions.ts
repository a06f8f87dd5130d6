// Whether a Redis acquisition takes a lock or only a write-once marker, for rules whose finding
// only makes sense for a lock (a missing TTL, a shared value, a check-then-set).

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  contains,
  findVariable,
  forEachChild,
  type FunctionLike,
  functionName,
  isFunctionLike,
  methodCallParts,
  propertyName,
} from '../../util/ast.js';
import type { LockModel } from '../nouns/lock-types.js';
import { isReleasedInModule, redisIndex } from '../pairing/indexes.js';
import { eventNode, within, precedesInScope } from '../facts/source-order.js';
import { looksLikeLockKey, matchesLockPattern, isInLockFunction } from '../facts/keys.js';
import { claimsRecord, isLockKey } from './housekeeping.js';
import type { Acquisition, RedisCommand, RedisModel } from '../nouns/redis-events.js';
import { valueFlow } from '../facts/result-flow.js';
import { lockLibraryMethod, isRawCommand } from '../tables/redis-clients.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * `SET NX`/`SETNX` also writes markers meant to stay (`SETNX processed:42 1` for idempotency), and a
 * marker needs neither a TTL nor a unique value. An acquisition is a lock when its key looks like a
 * lock key (`lockKeyPattern`), when it sits in a function named like a lock helper
 * (`acquireLock(key)`, `tryLock`), whose key is a parameter, or when this module releases the same
 * key again, unless it also overwrites it with a result (an idempotency record).
 */
export function isLockAcquisition(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
  lockKeyPattern: RegExp,
  acquisition: Acquisition,
): boolean {
  if (acquisition.key && looksLikeLockKey(sourceCode, acquisition.key, lockKeyPattern)) return true;
  if (isInLockFunction(acquisition.node, lockKeyPattern)) return true;
  // Claimed, then overwritten with the result: an idempotency record, whose DEL retries a failed run.
  if (claimsRecord(model, acquisition)) return false;
  return isReleasedInModule(model, acquisition);
}

/**
 * The acquisition sits directly in a function that other modules call to take a lock: it is named
 * like a lock helper (`acquireLock`), exported (`export`, `export { … }`, `module.exports`,
 * `exports.name`), and its key comes from its parameters (`acquireLock(lockKey)`). Whoever
 * releases that lock, and compares the value to do it, is in the callers' modules, not this one.
 */
export function isExportedLockHelper(sourceCode: Readonly<TSESLint.SourceCode>, lockKeyPattern: RegExp, acquisition: Acquisition): boolean {
  const helper = acquisition.owner;
  if (!isFunctionLike(helper) || !acquisition.key) return false;
  const name = functionName(helper);
  if (name === undefined || !matchesLockPattern(name, lockKeyPattern) || !isExported(sourceCode, helper)) return false;
  return readsParameter(sourceCode, acquisition.key, helper, 0);
}

/** `export function f`, `export const f = …`, `export { f }`, `module.exports = { f }`, `exports.f = …`. */
function isExported(sourceCode: Readonly<TSESLint.SourceCode>, fn: FunctionLike): boolean {
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.ExportNamedDeclaration || parent.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
  if (parent.type === AST_NODE_TYPES.AssignmentExpression) return parent.right === fn && isExportsTarget(parent.left);
  // `module.exports = { acquireLock: async (key) => … }`
  if (parent.type === AST_NODE_TYPES.Property && parent.value === fn) return isExportedObjectProperty(parent);
  let binding: TSESTree.Identifier | undefined;
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) binding = fn.id ?? undefined;
  else if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === fn && parent.id.type === AST_NODE_TYPES.Identifier) {
    if (parent.parent.parent.type === AST_NODE_TYPES.ExportNamedDeclaration) return true;
    binding = parent.id;
  }
  if (!binding) return false;
  const variable = findVariable(sourceCode, binding);
  return (variable?.references ?? []).some((reference) => {
    const use = reference.identifier.parent;
    if (use.type === AST_NODE_TYPES.ExportSpecifier || use.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
    if (use.type === AST_NODE_TYPES.AssignmentExpression) return use.right === reference.identifier && isExportsTarget(use.left);
    return use.type === AST_NODE_TYPES.Property && use.value === reference.identifier && isExportedObjectProperty(use);
  });
}

/** A property of the object assigned to `module.exports` (or `exports.name`). */
function isExportedObjectProperty(property: TSESTree.Property): boolean {
  const object = property.parent;
  return (
    object.type === AST_NODE_TYPES.ObjectExpression &&
    object.parent.type === AST_NODE_TYPES.AssignmentExpression &&
    object.parent.right === object &&
    isExportsTarget(object.parent.left)
  );
}

/** `module.exports`, `module.exports.name`, `exports.name`. */
function isExportsTarget(target: TSESTree.Node): boolean {
  if (target.type !== AST_NODE_TYPES.MemberExpression) return false;
  const isModuleExports = (node: TSESTree.Node) =>
    node.type === AST_NODE_TYPES.MemberExpression &&
    node.object.type === AST_NODE_TYPES.Identifier &&
    node.object.name === 'module' &&
    propertyName(node) === 'exports';
  if (isModuleExports(target)) return true;
  const object = target.object;
  return isModuleExports(object) || (object.type === AST_NODE_TYPES.Identifier && object.name === 'exports');
}

/** How many `const` hops (`const key = \`lock:${name}\``) a key is followed to a parameter. */
const MAX_KEY_HOPS = 2;

/** Whether `node` reads a parameter of `fn`, directly or through a `const` declared in it. */
function readsParameter(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, fn: FunctionLike, hops: number): boolean {
  let found = false;
  const visit = (current: TSESTree.Node): void => {
    if (found) return;
    if (current.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(sourceCode, current);
      const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (definition?.type === DefinitionType.Parameter && definition.node === fn) found = true;
      else if (
        hops < MAX_KEY_HOPS &&
        definition?.type === DefinitionType.Variable &&
        definition.node.init &&
        contains(fn, definition.node) &&
        variable!.references.every((reference) => !reference.isWrite() || reference.init === true)
      ) {
        found = readsParameter(sourceCode, definition.node.init, fn, hops + 1);
      }
      return;
    }
    // A function in the key (`keys.map((k) => …)`) has parameters of its own.
    if (isFunctionLike(current)) return;
    forEachChild(current, sourceCode.visitorKeys, (child, key) => {
      // `a.b`, `{ b: … }`: `b` is a property name, not a read.
      if (current.type === AST_NODE_TYPES.MemberExpression && key === 'property' && !current.computed) return;
      if (current.type === AST_NODE_TYPES.Property && key === 'key' && !current.computed) return;
      visit(child);
    });
  };
  visit(node);
  return found;
}

/**
 * A lock key by name (`lockKeyPattern`), by an `NX` acquisition of it or a release of it in this
 * module, or written by a function named like a lock helper (`acquireLock(key)`).
 */
export function isLockKeyWrite(model: RedisModel, lockKeyPattern: RegExp, write: RedisCommand): boolean {
  const index = redisIndex(model);
  const released = write.keySignature === undefined ? index.hasUnsignedRelease : index.releasesByKey.has(write.keySignature);
  return isLockKey(model, write.key!) || released || isInLockFunction(write.call, lockKeyPattern);
}

/**
 * Redis acquisitions (`SETNX`, `SET ... NX`, a script's `SET NX`) that take a lock with no expiry
 * and are given none later in the same function. A later `EXPIRE` of the same key makes it a split
 * acquire, which `no-split-acquire` reports on the expiry, not this question.
 */
export function redisAcquisitionsWithoutTtl(sourceCode: Readonly<TSESLint.SourceCode>, lockModel: LockModel): Acquisition[] {
  const model = lockModel.redis;
  return model.acquisitions.filter((acquisition) => {
    if (!isRawCommand(acquisition) || acquisition.hasTtl || !acquisition.command) return false;
    const expiredLater = within(model.expiries, acquisition.owner.range, eventNode).some(
      (expiry) =>
        (expiry.keySignature === undefined || acquisition.keySignature === undefined || expiry.keySignature === acquisition.keySignature) &&
        precedesInScope(acquisition, expiry),
    );
    if (expiredLater) return false;
    return isLockAcquisition(sourceCode, model, lockModel.settings.lockKeyPattern, acquisition);
  });
}

/** An acquisition whose release is the code's to write: not queued, not self-releasing (`using`, a with-lock helper). */
export function isScopedAcquisition(acquisition: Acquisition): boolean {
  if (acquisition.command?.client.chain) return false;
  if (lockLibraryMethod(acquisition.library, methodCallParts(acquisition.node)?.method)?.runsRoutine) return false;
  // A with-lock helper releases the lock itself, in its own body (judged there).
  if (acquisition.helper?.role === 'with-lock') return false;
  const flow = valueFlow(acquisition.node);
  const declaration = flow.kind === 'declared' ? flow.declarator.parent : undefined;
  // `using lock = ...` / `await using lock = ...`: disposal releases it on every path.
  return !(declaration && (declaration.kind === 'using' || declaration.kind === 'await using'));
}
