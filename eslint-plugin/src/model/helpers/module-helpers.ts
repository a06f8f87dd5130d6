// A module's lock helpers, applied: every call to one becomes the lock events its summary describes,
// helpers that call helpers followed a few rounds deep, and locks split over functions (the
// acquisition in one, the release in another) paired by their abstracted keys.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction, findVariable, type FunctionLike, functionName, isFunctionLike, type ScopeOwner } from '../../util/ast.js';
import { isInLockFunction, matchesLockPattern } from '../facts/keys.js';
import type { Acquisition, Expiry, Release, LockHelperSummary } from '../nouns/redis-events.js';
import { keyOf, type ModuleEvents, parameterBindings, RELEASE_NAME, summarizeLockHelpers } from './helper-summaries.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

import { calledName, helperCalled, helperCallEvents } from './helper-calls.js';

// ---------------------------------------------------------------------------------------------
// A lock split over functions: the acquisition in one function, the release in another of the same
// module, class or object literal, each building the key from its own parameter. Their keys compare
// once the parameter part is abstracted: `acquire(name)` and `release(id)` of `lock:${...}`.

/**
 * The key of an event with its function's parameters abstracted, qualified by where the function
 * lives (its class, its object literal, or the module): undefined when the key reads no parameter.
 * A key that is a bare parameter (`release(key) { del(key) }`) says nothing by its text, so it
 * counts only in a function or class named like a lock helper (`releaseLock`, `RedisLock#release`);
 * in a lock class that also stores values under its callers' keys (`set(key, value)`), only in a
 * method named for locking itself: `deleteKey(key)` there deletes whatever the caller stored.
 */
export function splitKeyOf(
  sourceCode: SourceCode,
  event: Acquisition | Release | Expiry,
  lockKeyPattern: RegExp,
  storesCallerKeys: (container: string) => boolean = () => false,
): string | undefined {
  const fn = event.owner;
  if (!isFunctionLike(fn) || event.keySignature === undefined || !event.keySignature.includes('v:')) return undefined;
  const { keyParameters, keyPattern } = keyOf(event, parameterBindings(sourceCode, fn));
  if (keyParameters.length === 0 || keyPattern === undefined) return undefined;
  const abstracted = keyPattern.replace(/\$\d+/gu, '$');
  if (/^\$(?:\.[\w$]+)?$/u.test(abstracted)) {
    const name = functionName(fn) ?? '';
    const namedForLocking =
      RELEASE_NAME.test(name) || /^(?:acquire|tryAcquire|extend|renew)$/u.test(name) || matchesLockPattern(name, lockKeyPattern);
    if (!namedForLocking && (!isInLockFunction(event.node, lockKeyPattern) || storesCallerKeys(containerOf(fn)))) return undefined;
  }
  return `${containerOf(fn)}|${abstracted}`;
}

/**
 * The containers (containerOf) with a function that writes a value under a bare parameter of its
 * own with a plain `SET` (`set(key, value) { redis.set(key, value) }`): a key-value store.
 */
function containersStoringCallerKeys(sourceCode: SourceCode, events: ModuleEvents): Set<string> {
  const containers = new Set<string>();
  for (const command of events.commands) {
    if (!PLAIN_SET_NAMES.has(command.name) || command.set?.nx || command.set?.xx || command.set?.compare !== undefined || !command.key)
      continue;
    const fn = command.owner;
    const key = command.key;
    if (!isFunctionLike(fn) || key.type !== AST_NODE_TYPES.Identifier) continue;
    const definition = findVariable(sourceCode, key)?.defs[0];
    if (definition?.type === TSESLint.Scope.DefinitionType.Parameter && definition.node === fn) containers.add(containerOf(fn));
  }
  return containers;
}

const PLAIN_SET_NAMES: ReadonlySet<string> = new Set(['SET', 'SETEX', 'PSETEX']);

/** Where a function lives, for pairing: its class body, its object literal, or the module. */
function containerOf(fn: FunctionLike): string {
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.PropertyDefinition)
    return `class@${parent.parent.range[0]}`;
  if (parent.type === AST_NODE_TYPES.Property && parent.parent.type === AST_NODE_TYPES.ObjectExpression)
    return `object@${parent.parent.range[0]}`;
  return 'module';
}

export interface ModuleHelpers extends ModuleEvents {
  readonly acquisitions: Acquisition[];
  readonly releases: Release[];
  readonly expiries: Expiry[];
  readonly helpers: ReadonlyMap<FunctionLike, LockHelperSummary>;
}

/** How deep helpers that call helpers are followed (`run()` calling `this.acquire()` calling SET NX). */
const HELPER_ROUNDS = 3;

/**
 * The module's events with split keys set, and with the events of every call to one of its lock
 * helpers added (in source order). `calls` are the module's calls; `handled` those that already
 * are events of their own (a `lockWrappers` entry wins over the summary).
 */
export function withLockHelpers(
  sourceCode: SourceCode,
  calls: readonly TSESTree.CallExpression[],
  events: ModuleEvents,
  lockKeyPattern: RegExp,
  handled: ReadonlySet<TSESTree.Node>,
  importedHelper?: (call: TSESTree.CallExpression) => LockHelperSummary | undefined,
): ModuleHelpers {
  let stores: Set<string> | undefined;
  const storesCallerKeys = (container: string): boolean => (stores ??= containersStoringCallerKeys(sourceCode, events)).has(container);
  const split = <T extends Acquisition | Release | Expiry>(event: T): T => {
    const splitKey = splitKeyOf(sourceCode, event, lockKeyPattern, storesCallerKeys);
    return splitKey === undefined ? event : { ...event, splitKey };
  };
  const acquisitions = events.acquisitions.map(split);
  const releases = events.releases.map(split);
  const expiries = events.expiries.map(split);
  let summaries: ReadonlyMap<FunctionLike, LockHelperSummary> = new Map();
  const seen = new Set<TSESTree.Node>(handled);
  const baseCount = acquisitions.length + releases.length + expiries.length;
  let addedOwners = new Set<ScopeOwner>();
  // The summaries of the calls to helpers other modules export, by call.
  const imported = new Map<TSESTree.Node, LockHelperSummary>();
  const addCall = (call: TSESTree.CallExpression, summary: LockHelperSummary) => {
    seen.add(call);
    addedOwners.add(enclosingFunction(call));
    const found = helperCallEvents(sourceCode, call, summary);
    for (const event of found.acquisitions) acquisitions.push(split(event));
    for (const handleEvent of found.releases) {
      if (seen.has(handleEvent.node) && handleEvent.node !== call) continue;
      seen.add(handleEvent.node);
      // A handle handed to a release helper of its own (`MutexLock.release(lock)`): the pairing is
      // the handle's, what the release answers is that helper's.
      const own = handleEvent.node === call ? undefined : imported.get(handleEvent.node);
      const event = own?.role === 'release' ? { ...handleEvent, helper: own, safe: own.safe } : handleEvent;
      releases.push(split(event));
    }
    for (const event of found.expiries) expiries.push(split(event));
  };
  // Helpers another module exports (the project summaries resolve the call), before this module's own.
  if (importedHelper) {
    for (const call of calls) {
      const summary = seen.has(call) ? undefined : importedHelper(call);
      if (summary) imported.set(call, summary);
    }
    for (const [call, summary] of imported) if (!seen.has(call)) addCall(call as TSESTree.CallExpression, summary);
  }
  // After the first round, only functions that gained events (calls to the helpers just found) can become helpers.
  let changedOwners: Set<ScopeOwner> | undefined;
  for (let round = 0; round < HELPER_ROUNDS; round++) {
    // Copies: the lists grow between rounds, and `within` caches a sorted copy per list.
    const next = summarizeLockHelpers(
      sourceCode,
      { commands: events.commands, acquisitions: [...acquisitions], releases: [...releases], expiries: [...expiries] },
      lockKeyPattern,
      summaries,
      changedOwners,
    );
    const fresh = new Set([...next.values()].filter((summary) => !summaries.has(summary.fn)));
    summaries = next;
    if (fresh.size === 0) break;
    // Only calls by a helper's name can reach it: the rest are not resolved at all.
    const names = new Set([...fresh].map((summary) => summary.name).filter((name) => name !== undefined));
    for (const call of calls) {
      if (seen.has(call) || !names.has(calledName(call) ?? '')) continue;
      const summary = helperCalled(sourceCode, call, summaries);
      if (!summary || !fresh.has(summary) || summary.fn === enclosingFunction(call)) continue;
      addCall(call, summary);
    }
    changedOwners = addedOwners;
    addedOwners = new Set();
  }
  if (acquisitions.length + releases.length + expiries.length > baseCount) {
    // Stable: events of one call (a chain's links) keep their order.
    for (const list of [acquisitions, releases, expiries] as (Acquisition | Release | Expiry)[][])
      list.sort((left, right) => left.node.range[0] - right.node.range[0]);
  }
  return { commands: events.commands, acquisitions, releases, expiries, helpers: summaries };
}
