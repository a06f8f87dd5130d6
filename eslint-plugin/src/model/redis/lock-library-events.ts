// Lock events of the lock libraries and of configured wrappers: a Redlock or redis-semaphore call
// (acquire, release, extend, `using`), read through the library table, and a call to a function the
// settings name as an acquire or release wrapper.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction, methodCallParts, skipTypeWrappers, arrayElements, declaredInitializer } from '../../util/ast.js';
import type { ReceiverInfo, LockEventBase, Acquisition, Release, Expiry } from '../nouns/redis-events.js';
import { LOCK_LIBRARIES, isLockLibrary, lockLibraryMethod } from '../tables/redis-clients.js';
import { keySignature } from '../facts/keys.js';
import { matchesName } from '../facts/settings.js';
import type { SharedSettings } from '../nouns/vocabulary.js';

export interface WrapperEvent {
  kind: 'acquire' | 'release';
  base: LockEventBase;
}

export function wrapperEvent(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
  settings: SharedSettings,
): WrapperEvent | undefined {
  const { acquire, release } = settings.lockWrappers;
  if (acquire.length === 0 && release.length === 0) return undefined;
  const callee = skipTypeWrappers(call.callee);
  const name = callee.type === AST_NODE_TYPES.Identifier ? callee.name : methodCallParts(call)?.method;
  if (name === undefined) return undefined;
  const kind = matchesName(name, acquire) ? 'acquire' : matchesName(name, release) ? 'release' : undefined;
  if (!kind) return undefined;
  const key = call.arguments[0];
  return {
    kind,
    base: {
      node: call,
      library: 'wrapper',
      command: undefined,
      key,
      keySignature: key ? keySignature(sourceCode, key) : undefined,
      owner: enclosingFunction(call),
    },
  };
}

export type LibraryEvent =
  { type: 'acquire'; acquisition: Acquisition } | { type: 'release'; release: Release } | { type: 'extend'; expiry: Expiry };

/** Redlock and redis-semaphore calls: `redlock.acquire([k], ttl)`, `lock.release()`, `mutex.tryAcquire()`. */
export function libraryEvent(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
  method: string,
  receiver: ReceiverInfo,
): LibraryEvent | undefined {
  const owner = enclosingFunction(call);
  const base = { node: call, command: undefined, owner };
  const family = isLockLibrary(receiver.family) ? receiver.family : undefined;
  const own = family ? lockLibraryMethod(family, method) : undefined;
  if (family && own && (own.acts === 'acquire' || !own.onHandle)) {
    const entry = LOCK_LIBRARIES[family];
    const first = call.arguments[0] ? skipTypeWrappers(call.arguments[0]) : undefined;
    const key =
      entry.heldBy === 'maker'
        ? semaphoreKey(receiver.root, sourceCode)
        : own.acts !== 'acquire'
          ? undefined
          : first?.type === AST_NODE_TYPES.ArrayExpression
            ? arrayElements(first)[0]
            : first;
    const keyed = { ...base, library: family, key, keySignature: key ? keySignature(sourceCode, key) : undefined };
    if (own.acts === 'acquire') {
      const acquisition = {
        ...keyed,
        kind: entry.acquisitionKind,
        value: undefined,
        hasTtl: true,
        isTry: own.isTry ?? false,
        mintsFence: false,
      };
      return { type: 'acquire', acquisition };
    }
    if (own.acts === 'release') return { type: 'release', release: { ...keyed, kind: 'library', safe: true } };
  }
  // The lock object an acquisition returns: `lock.release()`, `lock.unlock()`, `lock.extend(ttl)`.
  for (const library of Object.keys(LOCK_LIBRARIES) as (keyof typeof LOCK_LIBRARIES)[]) {
    const onHandle = lockLibraryMethod(library, method);
    if (!onHandle?.onHandle || (family !== library && !isLockHandle(receiver.root, sourceCode, library))) continue;
    const event = { ...base, library, kind: 'library' as const, key: undefined, keySignature: undefined, safe: true };
    if (onHandle.acts === 'release') return { type: 'release', release: event };
    if (onHandle.acts === 'extend') return { type: 'extend', expiry: event };
  }
  return undefined;
}

/** `const lock = await redlock.acquire(...)` — the handle an acquisition of `library` returns. */
export function isLockHandle(
  root: TSESTree.Expression,
  sourceCode: Readonly<TSESLint.SourceCode>,
  library: keyof typeof LOCK_LIBRARIES,
): boolean {
  let init = declaredInitializer(root, sourceCode);
  if (init?.type === AST_NODE_TYPES.AwaitExpression) init = skipTypeWrappers(init.argument);
  if (init?.type !== AST_NODE_TYPES.CallExpression) return false;
  return lockLibraryMethod(library, methodCallParts(init)?.method)?.returnsHandle === true;
}

/** The key argument of the `new Mutex(client, key)` a semaphore object was made by. */
export function semaphoreKey(root: TSESTree.Expression, sourceCode: Readonly<TSESLint.SourceCode>): TSESTree.Node | undefined {
  const init = declaredInitializer(root, sourceCode);
  return init?.type === AST_NODE_TYPES.NewExpression ? init.arguments[1] : undefined;
}
