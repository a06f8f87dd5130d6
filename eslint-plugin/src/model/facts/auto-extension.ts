// Which acquisitions take a lock the library keeps extending while the work runs, and how the work
// learns that the lock was lost anyway: Redlock v5's `using(resources, duration, [settings,]
// routine)` extends until the routine settles and aborts the signal it hands the routine when an
// extension fails; redis-semaphore's Mutex/Semaphore refresh on a timer (`refreshInterval`, on by
// default) and report a loss through `onLockLost` (by default a throw from the timer) and
// `isAcquired`. The facts are read here once, for the library's own calls and for the project
// helpers whose summaries carry them (helpers/), so every rule answers from the same facts.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, methodCallParts, skipTypeWrappers, declaredInitializer } from '../../util/ast.js';
import {
  CLIENT_PACKAGES,
  isLockLibrary,
  LOCK_LIBRARIES,
  routineMethodsOf,
  type RoutineExtension,
  type TimerExtension,
} from '../tables/redis-clients.js';
import { collectImports } from './imports.js';
import type { Acquisition } from '../nouns/redis-events.js';
import type { LockLibrary } from '../nouns/vocabulary.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface AutoExtension {
  readonly library: LockLibrary;
  /** The code asked to hear of a loss (`onLockLost`): nothing is left for the work to check. */
  readonly lossHandled: boolean;
}

/**
 * The auto-extension of a library acquisition (`redlock.using(…)`, `mutex.acquire()` on a refreshing
 * Mutex), or of a call to a project helper whose summary says its lock auto-extends. Undefined when
 * the lock does not auto-extend or the model cannot read whether it does (options it cannot see).
 */
export function autoExtensionOf(sourceCode: SourceCode, acquisition: Acquisition): AutoExtension | undefined {
  if (acquisition.helper) {
    const helper = acquisition.helper;
    return helper.autoExtending && isLockLibrary(helper.library) ? { library: helper.library, lossHandled: helper.lossHandled } : undefined;
  }
  const library = acquisition.library;
  if (!isLockLibrary(library)) return undefined;
  const extension = LOCK_LIBRARIES[library].autoExtension;
  if (extension?.by === 'routine') return isRoutineCall(library, extension, acquisition.node) ? { library, lossHandled: false } : undefined;
  if (extension?.by !== 'timer') return undefined;
  const receiver = methodCallParts(acquisition.node)?.receiver;
  if (!receiver) return undefined;
  const root = skipTypeWrappers(receiver);
  const made = root.type === AST_NODE_TYPES.NewExpression ? root : declaredInitializer(root as TSESTree.Expression, sourceCode);
  if (made?.type !== AST_NODE_TYPES.NewExpression) return undefined;
  const refresh = timerRefresh(sourceCode, extension, made);
  return refresh === 'on' || refresh === 'handled' ? { library, lossHandled: refresh === 'handled' } : undefined;
}

/**
 * The work an acquisition runs as its routine: the last argument of Redlock's `using(resources,
 * duration, [settings,] routine)`, or a with-lock helper's callback argument (its summary says which).
 */
export function routineArgument(acquisition: Acquisition): TSESTree.Node | undefined {
  const call = acquisition.node;
  const helper = acquisition.helper;
  if (helper) return helper.callbackParameter === undefined ? undefined : call.arguments[helper.callbackParameter];
  const library = acquisition.library;
  if (!isLockLibrary(library)) return undefined;
  const extension = LOCK_LIBRARIES[library].autoExtension;
  return extension?.by === 'routine' && isRoutineCall(library, extension, call) ? call.arguments.at(-1) : undefined;
}

/** `redlock.using(resources, duration, [settings,] routine)`: the lock extended while the routine runs. */
function isRoutineCall(library: LockLibrary, extension: RoutineExtension, call: TSESTree.CallExpression): boolean {
  return routineMethodsOf(library).includes(methodCallParts(call)?.method ?? '') && call.arguments.length >= extension.minArguments;
}

/**
 * What `new Mutex(client, key, options?)` says of refreshing: on (the default), on with an
 * `onLockLost` handler, off (`refreshInterval: 0`), or unknown (options the model cannot read).
 * Options may be a `const` object literal used only there (`const options = { lockTimeout }`).
 */
function timerRefresh(
  sourceCode: SourceCode,
  extension: TimerExtension,
  made: TSESTree.NewExpression,
): 'on' | 'handled' | 'off' | 'unknown' {
  const callee = skipTypeWrappers(made.callee);
  const maker =
    callee.type === AST_NODE_TYPES.Identifier
      ? importedMakerName(sourceCode, callee.name)
      : callee.type === AST_NODE_TYPES.MemberExpression && callee.property.type === AST_NODE_TYPES.Identifier
        ? callee.property.name
        : undefined;
  const index = maker === undefined ? undefined : extension.optionsArgument[maker];
  if (index === undefined) return 'unknown';
  if (made.arguments.some((argument) => argument.type === AST_NODE_TYPES.SpreadElement)) return 'unknown';
  const options = made.arguments[index];
  if (!options) return 'on';
  const object = optionsObject(sourceCode, options);
  // Options built elsewhere: what they say cannot be read here.
  if (!object) return 'unknown';
  let refreshes = true;
  let handled = false;
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) return 'unknown';
    const name =
      property.key.type === AST_NODE_TYPES.Identifier && !property.computed
        ? property.key.name
        : property.key.type === AST_NODE_TYPES.Literal
          ? String(property.key.value)
          : undefined;
    if (name === undefined) return 'unknown';
    if (name === extension.lostHandlerOption) handled = true;
    if (name === extension.refreshOption) {
      const value = skipTypeWrappers(property.value);
      // `refreshInterval: 0` turns the refresh off; an interval the model cannot read may be 0.
      if (value.type !== AST_NODE_TYPES.Literal || typeof value.value !== 'number') return 'unknown';
      refreshes = value.value > 0;
    }
  }
  if (!refreshes) return 'off';
  return handled ? 'handled' : 'on';
}

/**
 * The name a maker is exported under: `RedisMutex` of `import { Mutex as RedisMutex } from
 * 'redis-semaphore'` (or `const { Mutex: RedisMutex } = require(…)`) is the library's `Mutex`.
 */
function importedMakerName(sourceCode: SourceCode, local: string): string {
  const binding = collectImports(sourceCode.ast).get(local);
  return binding !== undefined && CLIENT_PACKAGES[binding.source]?.makers.includes(binding.imported) ? binding.imported : local;
}

/** The options object literal: written in place, or a `const` holding one that nothing else reads or changes. */
function optionsObject(sourceCode: SourceCode, options: TSESTree.Node): TSESTree.ObjectExpression | undefined {
  const expression = skipTypeWrappers(options);
  if (expression.type === AST_NODE_TYPES.ObjectExpression) return expression;
  if (expression.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(sourceCode, expression);
  const definition = variable?.defs[0];
  if (
    !variable ||
    variable.defs.length !== 1 ||
    definition?.node.type !== AST_NODE_TYPES.VariableDeclarator ||
    definition.node.parent.kind !== 'const' ||
    !definition.node.init
  )
    return undefined;
  // Used only here: a later `options.onLockLost = …` (or a hand-off that could add one) is not read.
  if (variable.references.filter((reference) => !reference.init).length !== 1) return undefined;
  const init = skipTypeWrappers(definition.node.init);
  return init.type === AST_NODE_TYPES.ObjectExpression ? init : undefined;
}
