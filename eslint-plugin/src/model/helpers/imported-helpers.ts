// Lock helpers other modules export (`export async function withLock(key, fn)`,
// `module.exports = { acquireLock, releaseLock }`, `export const locks = new RedisLock(redis)`):
// the summary helper-summaries.ts makes of the helper in its own module, found for a call in the file
// being linted. The exporting module's lock model is built once per module version and settings,
// and only when a call by a lock-like name reaches it.

import * as path from 'node:path';
import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, type FunctionLike, methodCallParts, skipTypeWrappers } from '../../util/ast.js';
import type { ImportBinding, ImportTable, SharedSettings } from '../nouns/vocabulary.js';
import { memberFunction, receiverClassOf } from '../project/classes.js';
import type { LockHelperSummary, ModuleHelperSummaries } from '../nouns/redis-events.js';
import { calledInText, callsLockNamedMethod, LOCK_NAME, LOCK_TEXT, NOT_A_HELPER, usedAsClassInText } from '../project/lock-names.js';
import { exportedFunction, importedValue, loadModule, type ExportedValue, type ProjectModule } from '../project/modules.js';
import { resolveImport } from '../project/resolve.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A name a lock helper (or a method of one) can have: `withLock`, `acquireLock`, `tryLock`, `release`. */
export function isLockLikeName(name: string): boolean {
  return LOCK_NAME.test(name);
}

/** The text screen alone: false when no import can be named like a lock helper. */
export function mayImportHelper(text: string): boolean {
  return LOCK_TEXT.test(text);
}

// A class is named in PascalCase, with a lower-case letter somewhere (`DELAY_TIME` is a constant).
const CLASS_NAME = /^[A-Z][\w$]*[a-z][\w$]*$/u;

interface Candidate {
  readonly binding: ImportBinding;
  /** Imported for its class only (`RedisService`, not named like a lock): reached through its instances' lock-like methods. */
  readonly classOnly: boolean;
}

const candidatesOf = new WeakMap<TSESTree.Program, ReadonlyMap<string, Candidate>>();

/**
 * The module-level imports of the file whose local name is lock-like (`withLock`, `acquireLock`,
 * `locks`, `lockService`, `redisLock`): the only bindings a call to an imported helper can go
 * through. The top-level import table first, then the text around the names it holds; no module is read here.
 */
export function importedHelperCandidates(
  sourceCode: SourceCode,
  imports: ImportTable,
  filename: string | undefined,
): ReadonlyMap<string, Candidate> {
  const program = sourceCode.ast;
  const known = candidatesOf.get(program);
  if (known) return known;
  const candidates = new Map<string, Candidate>();
  const text = sourceCode.text;
  // Each text scan runs at most once, and only for an import that needs it: most files import
  // nothing named like a lock and no project class. A lock-named import is in the text, so the text
  // has a lock word; a class is reached only through a lock-named method, whose name has one too.
  let hasLockText: boolean | undefined;
  let callsLockMethod: boolean | undefined;
  for (const [local, binding] of imports) {
    if (NOT_A_HELPER.test(local)) continue;
    const lockNamed =
      LOCK_NAME.test(local) || (binding.imported !== '*' && binding.imported !== 'default' && LOCK_NAME.test(binding.imported));
    if (lockNamed && calledInText(text, local)) candidates.set(local, { binding, classOnly: false });
    else if (
      binding.imported !== '*' &&
      CLASS_NAME.test(local) &&
      (hasLockText ??= LOCK_TEXT.test(text)) &&
      (callsLockMethod ??= callsLockNamedMethod(text)) &&
      usedAsClassInText(text, local) &&
      isProjectSource(filename, binding.source)
    ) {
      candidates.set(local, { binding, classOnly: true });
    }
  }
  candidatesOf.set(program, candidates);
  return candidates;
}

/** The module's lock helpers, Redis and PostgreSQL alike: once per module version and settings. */
function helpersOf(
  module: ProjectModule,
  settings: SharedSettings,
  summaries: ModuleHelperSummaries,
): ReadonlyMap<FunctionLike, LockHelperSummary> {
  let perSettings = module.memo.get('lock-helpers') as WeakMap<SharedSettings, ReadonlyMap<FunctionLike, LockHelperSummary>> | undefined;
  if (!perSettings) {
    perSettings = new WeakMap();
    module.memo.set('lock-helpers', perSettings);
  }
  let helpers = perSettings.get(settings);
  if (!helpers) {
    helpers = summaries(module.sourceCode, module.filePath, settings);
    perSettings.set(settings, helpers);
  }
  return helpers;
}

function summaryOf(
  value: ExportedValue | undefined,
  fn: FunctionLike | undefined,
  settings: SharedSettings,
  summaries: ModuleHelperSummaries,
): LockHelperSummary | undefined {
  if (!value || !fn) return undefined;
  return helpersOf(value.module, settings, summaries).get(fn);
}

/**
 * The summary of the imported helper `call` reaches: `withLock(k, fn)` of a named or default
 * import, `locks.acquire(k)` of a namespace import, of an exported object literal of helpers, or
 * of an exported instance of a helper class. Undefined for everything else.
 */
export function importedHelperOf(
  sourceCode: SourceCode,
  filename: string,
  candidates: ReadonlyMap<string, Candidate>,
  call: TSESTree.CallExpression,
  settings: SharedSettings,
  summaries: ModuleHelperSummaries,
): LockHelperSummary | undefined {
  if (candidates.size === 0) return undefined;
  // Another module's code, whatever shape it has, never makes this file's rules throw.
  try {
    return helperOfCall(sourceCode, filename, candidates, call, settings, summaries);
  } catch {
    return undefined;
  }
}

function helperOfCall(
  sourceCode: SourceCode,
  filename: string,
  candidates: ReadonlyMap<string, Candidate>,
  call: TSESTree.CallExpression,
  settings: SharedSettings,
  summaries: ModuleHelperSummaries,
): LockHelperSummary | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const candidate = candidates.get(callee.name);
    if (!candidate || !isModuleBinding(sourceCode, callee)) return undefined;
    const value = importedValue(filename, candidate.binding, 'helper');
    return summaryOf(value, value && exportedFunction(value), settings, summaries);
  }
  const parts = methodCallParts(call);
  if (!parts) return undefined;
  const receiver = skipTypeWrappers(parts.receiver);
  const candidate = receiver.type === AST_NODE_TYPES.Identifier ? candidates.get(receiver.name) : undefined;
  if (!candidate || candidate.classOnly || receiver.type !== AST_NODE_TYPES.Identifier || !isModuleBinding(sourceCode, receiver)) {
    return LOCK_NAME.test(parts.method) ? classMethodHelper(sourceCode, filename, candidates, call, parts, settings, summaries) : undefined;
  }
  // `import * as locks` / an exported object literal: the member is itself an exported function.
  const member = importedValue(filename, candidate.binding, 'helper', parts.method);
  const exported = member && exportedFunction(member);
  if (exported) return summaryOf(member, exported, settings, summaries);
  // `export const locks = new RedisLock(redis)`: the method of the class in that module.
  const whole = candidate.binding.imported === '*' && !member ? undefined : importedValue(filename, candidate.binding, 'helper');
  if (!whole) return undefined;
  // `export class MutexLock { static acquire() }`: a static method called on the imported class.
  const classNode =
    whole.node.type === AST_NODE_TYPES.ClassDeclaration || whole.node.type === AST_NODE_TYPES.ClassExpression ? whole.node : undefined;
  return summaryOf(
    whole,
    classNode ? memberFunction(classNode.body, parts.method, true) : instanceMethod(whole, parts.method),
    settings,
    summaries,
  );
}

/**
 * A lock-like method of a class another module exports, called on an instance of it made or
 * typed here (`const mutex = new ReleaseMutex(t); mutex.tryLock()`,
 * `constructor(private redisService: RedisService)` then `this.redisService.acquireLock(k)`) or on
 * the class itself (`Semaphore.lock(...)`).
 */
function classMethodHelper(
  sourceCode: SourceCode,
  filename: string,
  candidates: ReadonlyMap<string, Candidate>,
  call: TSESTree.CallExpression,
  parts: { receiver: TSESTree.Expression; method: string },
  settings: SharedSettings,
  summaries: ModuleHelperSummaries,
): LockHelperSummary | undefined {
  const named = receiverClassOf(sourceCode, parts.receiver, call);
  const candidate = named ? candidates.get(named.name.name) : undefined;
  // The name must be the import itself (or a top-level `require`), not a local class that shadows it.
  if (!named || !candidate || !isModuleBinding(sourceCode, named.name)) return undefined;
  const value = importedValue(filename, candidate.binding, 'helper');
  const classNode =
    value?.node.type === AST_NODE_TYPES.ClassDeclaration || value?.node.type === AST_NODE_TYPES.ClassExpression ? value.node : undefined;
  return classNode ? summaryOf(value, memberFunction(classNode.body, parts.method, named.isStatic), settings, summaries) : undefined;
}

/** `method` of the class an exported instance was made from (`new RedisLock()`, the class declared in that module). */
function instanceMethod(value: ExportedValue, method: string): FunctionLike | undefined {
  const declarator = value.node.parent;
  if (value.node.type !== AST_NODE_TYPES.Identifier || declarator?.type !== AST_NODE_TYPES.VariableDeclarator || !declarator.init)
    return undefined;
  const init = skipTypeWrappers(declarator.init);
  if (init.type !== AST_NODE_TYPES.NewExpression || init.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const definition = findVariable(value.module.sourceCode, init.callee)?.defs[0];
  const classNode = definition?.node;
  return classNode?.type === AST_NODE_TYPES.ClassDeclaration ? memberFunction(classNode.body, method) : undefined;
}

/**
 * A project path, alias or workspace package (`./x`, `@server/x`, `~/x`, `#x`), or a bare specifier
 * the project's tsconfig `paths`/`baseUrl` resolves (`application/services/lock`), rather than a
 * package (`ioredis`, `typeorm`): a package's classes hold no project helper.
 */
function isProjectSource(filename: string | undefined, source: string): boolean {
  if (/^[.@~#]/u.test(source)) return true;
  const resolved = filename === undefined ? undefined : resolveImport(filename, source);
  return resolved !== undefined && !resolved.includes(`${path.sep}node_modules${path.sep}`);
}

function isModuleBinding(sourceCode: SourceCode, identifier: TSESTree.Identifier): boolean {
  const definition = findVariable(sourceCode, identifier)?.defs[0];
  if (!definition) return false;
  if (definition.type === TSESLint.Scope.DefinitionType.ImportBinding) return true;
  return definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.parent.parent.type === AST_NODE_TYPES.Program;
}

/**
 * Whether the file calls a lock helper another module exports, for the screen (file-screen.ts): a
 * lock-like import whose module summary holds a helper. Reads only the modules such names import.
 */
export function callsImportedHelper(
  sourceCode: SourceCode,
  filename: string,
  imports: ImportTable,
  settings: SharedSettings,
  summaries: ModuleHelperSummaries,
): boolean {
  const candidates = importedHelperCandidates(sourceCode, imports, filename);
  if (candidates.size === 0) return false;
  try {
    return anyCandidateIsHelper(filename, candidates, settings, summaries);
  } catch {
    return false;
  }
}

function anyCandidateIsHelper(
  filename: string,
  candidates: ReadonlyMap<string, Candidate>,
  settings: SharedSettings,
  summaries: ModuleHelperSummaries,
): boolean {
  for (const candidate of candidates.values()) {
    const value = importedValue(filename, candidate.binding, 'helper');
    const fn = value && exportedFunction(value);
    if (fn && summaryOf(value, fn, settings, summaries)) return true;
    // A namespace or an object or instance of helpers: any helper in that module will do for the screen.
    if (!fn && value && helpersOf(value.module, settings, summaries).size > 0) return true;
    if (!value && candidate.binding.imported === '*') {
      const anyMember = namespaceModule(filename, candidate.binding);
      if (anyMember && helpersOf(anyMember, settings, summaries).size > 0) return true;
    }
  }
  return false;
}

/** The module a namespace import names (`import * as locks from './locks'` has no value of its own). */
function namespaceModule(filename: string, binding: ImportBinding): ProjectModule | undefined {
  const filePath = resolveImport(filename, binding.source);
  return filePath ? loadModule(filePath, 'helper') : undefined;
}
