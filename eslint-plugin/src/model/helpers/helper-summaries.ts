// Lock helpers: the project's own functions and methods that acquire, release, renew or run work
// under a lock (`acquireLock(key)`, `RedisLock#release`, `withLock(key, fn)`). This file summarises
// each once per module from its body — its role, which parameters are the key, the token and the
// TTL, what it returns. helper-calls.ts turns a call and a summary into the lock events the summary
// describes, and module-helpers.ts does so for every call of a module, so that every rule sees
// `await locks.acquire(k); work(); await locks.release(k)` as an acquisition and a release.
//
// A finding about the helper's body (an unsafe DEL inside `release(key)`, a dropped SET NX result)
// is the body's: call-site events carry `library: 'helper'`, which the rules about a command's own
// shape skip, while the rules about pairing and critical sections treat them like any lock event.
//
// The summary is plain data (parameter positions, a key pattern), so a module summary built for
// another module's calls (imported-helpers.ts) can carry it.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  type FunctionLike,
  functionName,
  isFunctionLike,
  methodCallParts,
  propertyName,
  type ScopeOwner,
  skipTypeWrappers,
  findVariableOf,
  pushChildren,
} from '../../util/ast.js';
import { looksLikeLockKey, isInLockFunction } from '../facts/keys.js';
import { callerArguments } from '../facts/parameter-callers.js';
import { resultDeclarator } from '../facts/result-flow.js';
import { autoExtensionOf, routineArgument } from '../facts/auto-extension.js';
import type { Acquisition, Expiry, RedisCommand, Release, HelperRole, ParameterRef, LockHelperSummary } from '../nouns/redis-events.js';
import { isLockLibrary, isRawCommand, RAW_COMMANDS } from '../tables/redis-clients.js';
import { type Body, returnKind, mentions, reportsFailure } from './helper-returns.js';

/** Events found so far in a module, the summaries' input. */
export interface ModuleEvents {
  readonly commands: readonly RedisCommand[];
  readonly acquisitions: readonly Acquisition[];
  readonly releases: readonly Release[];
  readonly expiries: readonly Expiry[];
}

type SourceCode = Readonly<TSESLint.SourceCode>;

// Calls that are the lock's own machinery, not work done under it: token minting, clocks, retry
// waits, logging, errors. Exact names (tables/lock-words.ts's RANDOM_TOKEN_WORDS says why this is not
// that list, nor single-statement.ts's).
const MACHINERY_CALLS =
  /^(?:randomUUID|randomBytes|uuid\w*|v4|nanoid|ulid|cuid|toString|String|Number|JSON\.stringify|stringify|now|getTime|setTimeout|clearTimeout|setInterval|clearInterval|sleep|delay|wait|resolve|reject|Promise|Error|\w*Error|random|floor|ceil|round|min|max|log|info|warn|error|debug|trace|slice|substring|toFixed|hrtime|bigint|unref|isArray)$/u;
export const RELEASE_NAME = /release|unlock|free|drop|remove/iu;
const ACQUIRE_NAME = /acquire|lock|obtain|claim|grab|take|reserve|lease/iu;

/**
 * The helpers of a module whose bodies hold the given events. `previous` are summaries from an
 * earlier round (helpers that call helpers): kept, not summarised again.
 */
export function summarizeLockHelpers(
  sourceCode: SourceCode,
  events: ModuleEvents,
  lockKeyPattern: RegExp,
  previous: ReadonlyMap<FunctionLike, LockHelperSummary> = new Map(),
  onlyOwners?: ReadonlySet<ScopeOwner>,
): Map<FunctionLike, LockHelperSummary> {
  const evidence = lockEvidence(sourceCode, events, lockKeyPattern);
  const byOwner = new Map<FunctionLike, { acquisitions: Acquisition[]; releases: Release[]; expiries: Expiry[] }>();
  const slot = (owner: ScopeOwner) => {
    if (!isFunctionLike(owner)) return undefined;
    let entry = byOwner.get(owner);
    if (!entry) {
      entry = { acquisitions: [], releases: [], expiries: [] };
      byOwner.set(owner, entry);
    }
    return entry;
  };
  for (const acquisition of events.acquisitions) slot(acquisition.owner)?.acquisitions.push(acquisition);
  for (const release of events.releases) slot(release.owner)?.releases.push(release);
  for (const expiry of events.expiries) slot(expiry.owner)?.expiries.push(expiry);
  const summaries = new Map(previous);
  const eventNodes = new Set<TSESTree.Node>([
    ...events.commands.map((command) => command.call),
    ...events.acquisitions.map((event) => event.node),
    ...events.releases.map((event) => event.node),
    ...events.expiries.map((event) => event.node),
  ]);
  for (const [fn, found] of byOwner) {
    if (summaries.has(fn) || (onlyOwners && !onlyOwners.has(fn))) continue;
    const summary = summarize(sourceCode, fn, found, evidence, eventNodes, events.releases);
    if (summary) summaries.set(fn, summary);
  }
  return summaries;
}

interface LockEvidence {
  isLockAcquisition(acquisition: Acquisition): boolean;
  isLockRelease(event: Release | Expiry): boolean;
}

/** Which body events are a lock's (and not a cache's or a rate limiter's): the same tests the rules make. */
function lockEvidence(sourceCode: SourceCode, events: ModuleEvents, lockKeyPattern: RegExp): LockEvidence {
  const released = new Set<string>();
  for (const release of events.releases) {
    if (release.keySignature !== undefined) released.add(release.keySignature);
    if (release.splitKey !== undefined) released.add(release.splitKey);
  }
  const acquired = new Set<string>();
  for (const acquisition of events.acquisitions) {
    if (acquisition.keySignature !== undefined) acquired.add(acquisition.keySignature);
    if (acquisition.splitKey !== undefined) acquired.add(acquisition.splitKey);
  }
  const lockLike = (event: Acquisition | Release | Expiry) =>
    (event.key !== undefined &&
      (looksLikeLockKey(sourceCode, event.key, lockKeyPattern) || callersPassLockKeys(sourceCode, event.key, lockKeyPattern))) ||
    isInLockFunction(event.node, lockKeyPattern);
  return {
    isLockAcquisition: (acquisition) =>
      !isRawCommand(acquisition) ||
      lockLike(acquisition) ||
      (acquisition.keySignature !== undefined && released.has(acquisition.keySignature)) ||
      (acquisition.splitKey !== undefined && released.has(acquisition.splitKey)),
    isLockRelease: (event) =>
      !isRawCommand(event) ||
      event.safe ||
      lockLike(event) ||
      (event.keySignature !== undefined && acquired.has(event.keySignature)) ||
      (event.splitKey !== undefined && acquired.has(event.splitKey)),
  };
}

/**
 * A key that is a parameter of a function only this module calls (`take(key)`, `drop(key, token)`),
 * when every call passes a lock's key (`take('lock:nightly')`): the helper's name need not say so.
 */
function callersPassLockKeys(sourceCode: SourceCode, key: TSESTree.Node, lockKeyPattern: RegExp): boolean {
  const passed = callerArguments(sourceCode, key);
  return passed !== undefined && passed.every((argument) => looksLikeLockKey(sourceCode, argument, lockKeyPattern));
}

function summarize(
  sourceCode: SourceCode,
  fn: FunctionLike,
  found: { acquisitions: Acquisition[]; releases: Release[]; expiries: Expiry[] },
  evidence: LockEvidence,
  eventNodes: ReadonlySet<TSESTree.Node>,
  allReleases: readonly Release[],
): LockHelperSummary | undefined {
  const acquisition = found.acquisitions.find((candidate) => evidence.isLockAcquisition(candidate));
  const release = acquisition ? undefined : found.releases.find((candidate) => evidence.isLockRelease(candidate));
  const expiry = acquisition || release ? undefined : found.expiries.find((candidate) => evidence.isLockRelease(candidate));
  // Most functions holding a command hold no lock: they are not read any further.
  if (!acquisition && !release && !expiry) return undefined;
  const name = functionName(fn);
  const parameters = parameterBindings(sourceCode, fn);
  const releasedHere =
    acquisition !== undefined &&
    found.releases.some((release) => release.keySignature !== undefined && release.keySignature === acquisition.keySignature);
  // The work handed on as the routine of the acquisition itself (`redlock.using([k], ttl, routine)`, a with-lock helper's callback).
  const routine = acquisition ? routineParameter(sourceCode, acquisition, parameters) : undefined;
  // A function that releases the lock it took and runs no callback is no helper (below), and most
  // functions that take a lock are such jobs: when no parameter can be called, that is known
  // without reading the body.
  if (releasedHere && routine === undefined && !parameters.some(mayBeCalled)) return undefined;
  const body = readBody(sourceCode, fn, parameters);
  if (acquisition) {
    const callback =
      routine ??
      body.calledParameters.find((index) =>
        body.calls.some((call) => call.range[0] > acquisition.node.range[1] && calledParameter(call, parameters) === index),
      );
    let role: HelperRole;
    if (callback !== undefined) role = 'with-lock';
    else if (releasedHere) return undefined;
    // A function that goes on to work under the lock it took is a job, not a helper: its callers
    // are not in its critical section.
    else if (doesWorkAfter(sourceCode, body, acquisition.node, eventNodes, name)) return undefined;
    else role = 'acquire';
    const returns =
      role === 'acquire' ? returnKind(sourceCode, fn, body, acquisition, allReleases) : { kind: 'nothing' as const, handleRelease: [] };
    // A helper that drops its try's answer (a body finding) and is not named like one is no acquire helper.
    if (role === 'acquire' && returns.kind === 'nothing' && !ACQUIRE_NAME.test(name ?? '')) return undefined;
    const extension = autoExtensionOf(sourceCode, acquisition);
    // The callers hold the auto-extending lock only when it reaches them: the lock object handed
    // back, or their callback run as the routine itself (a wrapped routine never sees the signal).
    const reachesCallers = role === 'acquire' ? returns.kind === 'handle' : routine !== undefined;
    return {
      library: lockLibraryOf(acquisition),
      autoExtending: extension !== undefined && reachesCallers,
      lossHandled: extension?.lossHandled === true && reachesCallers,
      role,
      name,
      ...keyOf(acquisition, parameters),
      tokenParameter: acquisition.value ? parameterRead(sourceCode, acquisition.value, parameters) : undefined,
      ttlParameter: ttlParameterOf(sourceCode, acquisition, parameters),
      hasTtl: acquisition.hasTtl,
      isTry: role === 'acquire' && acquisition.isTry && returns.kind !== 'nothing' && reportsFailure(sourceCode, body, acquisition),
      returns: returns.kind,
      handleRelease: returns.handleRelease,
      mintsFence: acquisition.mintsFence,
      safe: false,
      callbackParameter: callback,
      fn,
      event: acquisition,
    };
  }
  const event = release ?? expiry;
  if (!event || body.calledParameters.length > 0) return undefined;
  if (doesWorkAfter(sourceCode, body, fn, eventNodes, name) && !RELEASE_NAME.test(name ?? '')) return undefined;
  return {
    library: lockLibraryOf(event),
    autoExtending: false,
    lossHandled: false,
    role: release ? 'release' : 'extend',
    name,
    ...keyOf(event, parameters),
    tokenParameter: event.command?.script?.args[0] ? parameterRead(sourceCode, event.command.script.args[0], parameters) : undefined,
    ttlParameter: undefined,
    hasTtl: false,
    isTry: false,
    returns: answersOwnership(sourceCode, body, event) ? 'result' : 'nothing',
    handleRelease: [],
    mintsFence: false,
    safe: event.safe,
    callbackParameter: undefined,
    fn,
    event,
  };
}

/**
 * A release or renewal helper whose result says whether the lock was still the caller's: it
 * returns the reply of an owner-comparing script (or a test of it, `return result === 1`), or it
 * wraps a safe release that can fail and answers `false` when it did (`catch { return false }`).
 * A plain DEL's count answers nothing of the kind (no-unsafe-release reports the DEL).
 */
function answersOwnership(sourceCode: SourceCode, body: Body, event: Release | Expiry): boolean {
  if (!event.safe) return false;
  if (isRawCommand(event) && event.kind === 'script') {
    const holder = resultDeclarator(event.node)?.id.name;
    return (
      body.returns.some(
        (argument) =>
          argument !== null &&
          ((argument.range[0] <= event.node.range[0] && event.node.range[1] <= argument.range[1]) ||
            (holder !== undefined && mentions(sourceCode, argument, holder))),
      ) ||
      (holder !== undefined && answersByBranch(sourceCode, body, holder))
    );
  }
  // A library release (Redlock's throws when the lock is gone): an answer only where the helper turns the failure into `false`.
  return (
    isLockLibrary(event.library) &&
    body.returns.some((argument) => argument?.type === AST_NODE_TYPES.Literal && argument.value === false) &&
    body.returns.some((argument) => argument?.type === AST_NODE_TYPES.Literal && argument.value === true)
  );
}

/**
 * `if (result === 1) { …; return true; } else { …; return false; }`: the helper answers `true` and
 * `false`, and one of those answers sits in a branch that tests the script's reply.
 */
function answersByBranch(sourceCode: SourceCode, body: Body, holder: string): boolean {
  const booleans = body.returns.filter(
    (argument): argument is TSESTree.BooleanLiteral => argument?.type === AST_NODE_TYPES.Literal && typeof argument.value === 'boolean',
  );
  if (!booleans.some((argument) => argument.value) || !booleans.some((argument) => !argument.value)) return false;
  return booleans.some((argument) => {
    for (let node: TSESTree.Node | undefined = argument.parent; node && !isFunctionLike(node); node = node.parent) {
      if (node.type === AST_NODE_TYPES.IfStatement && mentions(sourceCode, node.test, holder)) return true;
    }
    return false;
  });
}

/** A parameter's binding: its signature in keys.ts's notation (`v:key@120`) and where it sits. */
interface ParameterBinding {
  readonly signature: string;
  readonly ref: ParameterRef;
  readonly variable: TSESLint.Scope.Variable;
}

export function parameterBindings(sourceCode: SourceCode, fn: FunctionLike): ParameterBinding[] {
  const bindings: ParameterBinding[] = [];
  const variables = sourceCode.getDeclaredVariables(fn);
  const bind = (identifier: TSESTree.Identifier, ref: ParameterRef) => {
    const variable = variables.find((candidate) => candidate.defs.some((definition) => definition.name === identifier));
    if (variable) bindings.push({ signature: `v:${identifier.name}@${identifier.range[0]}`, ref, variable });
  };
  fn.params.forEach((parameter, index) => {
    let target: TSESTree.Node = parameter;
    if (target.type === AST_NODE_TYPES.TSParameterProperty) target = target.parameter;
    if (target.type === AST_NODE_TYPES.AssignmentPattern) target = target.left;
    if (target.type === AST_NODE_TYPES.Identifier) bind(target, { index, property: undefined });
    else if (target.type === AST_NODE_TYPES.ObjectPattern) {
      for (const property of target.properties) {
        if (property.type !== AST_NODE_TYPES.Property || property.computed || property.key.type !== AST_NODE_TYPES.Identifier) continue;
        const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
        if (value.type === AST_NODE_TYPES.Identifier) bind(value, { index, property: property.key.name });
      }
    }
  });
  return bindings;
}

/** `$0`, `$1.key`: how a key pattern writes a parameter. */
export function parameterHole(ref: ParameterRef): string {
  return ref.property === undefined ? `$${ref.index}` : `$${ref.index}.${ref.property}`;
}

/**
 * The key pattern of an event in its function: its signature with each parameter written as its
 * position. Undefined when the key reads a local of the helper that is no parameter (a caller
 * could not name it) or has no signature.
 */
export function keyOf(
  event: Acquisition | Release | Expiry,
  parameters: readonly ParameterBinding[],
): Pick<LockHelperSummary, 'keyParameters' | 'keyPattern' | 'keyOfInstance'> {
  const signature = event.keySignature;
  if (signature === undefined) return { keyParameters: [], keyPattern: undefined, keyOfInstance: false };
  const used: { at: number; ref: ParameterRef }[] = [];
  let pattern = signature;
  for (const parameter of parameters) {
    const at = signature.indexOf(parameter.signature);
    if (at < 0) continue;
    used.push({ at, ref: parameter.ref });
    pattern = replaceHole(pattern, parameter.signature, parameterHole(parameter.ref));
  }
  const fn = event.owner;
  // A local binding of the helper (`v:name@offset` inside its range) that is no parameter.
  for (const match of pattern.matchAll(/v:[\w$]+@(\d+)/gu)) {
    const offset = Number(match[1]);
    if (offset >= fn.range[0] && offset < fn.range[1]) return { keyParameters: [], keyPattern: undefined, keyOfInstance: false };
  }
  return {
    keyParameters: used.sort((left, right) => left.at - right.at).map((entry) => entry.ref),
    keyPattern: pattern,
    keyOfInstance: /(?:^|[^\w$.])this\./u.test(pattern),
  };
}

/** Replaces every whole occurrence of a binding's signature (`v:key@12`, not `v:key@123`). */
function replaceHole(text: string, hole: string, replacement: string): string {
  let result = '';
  let from = 0;
  for (let at = text.indexOf(hole, from); at >= 0; at = text.indexOf(hole, from)) {
    const next = text[at + hole.length];
    const whole = next === undefined || !/\d/u.test(next);
    result += text.slice(from, at) + (whole ? replacement : hole);
    from = at + hole.length;
  }
  return result + text.slice(from);
}

/** The parameter an expression reads directly (`token`, `opts.token` of `{ token }`), if any. */
function parameterRead(sourceCode: SourceCode, node: TSESTree.Node, parameters: readonly ParameterBinding[]): ParameterRef | undefined {
  const expression = skipTypeWrappers(node);
  if (expression.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariableOf(sourceCode, expression);
  return parameters.find((parameter) => parameter.variable === variable)?.ref;
}

/** The first parameter an expression reads anywhere inside it (`Math.ceil(ttlMs / 1000)` reads `ttlMs`). */
function parameterReadWithin(
  sourceCode: SourceCode,
  node: TSESTree.Node,
  parameters: readonly ParameterBinding[],
): ParameterRef | undefined {
  const stack: TSESTree.Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.type === AST_NODE_TYPES.Identifier) {
      const ref = parameterRead(sourceCode, current, parameters);
      if (ref) return ref;
      continue;
    }
    pushChildren(sourceCode, current, stack);
  }
  return undefined;
}

function ttlParameterOf(
  sourceCode: SourceCode,
  acquisition: Acquisition,
  parameters: readonly ParameterBinding[],
): ParameterRef | undefined {
  const expiry = acquisition.command?.set?.expiry?.value ?? acquisition.command?.script?.args[1];
  return expiry ? parameterReadWithin(sourceCode, expiry, parameters) : undefined;
}

function readBody(sourceCode: SourceCode, fn: FunctionLike, parameters: readonly ParameterBinding[]): Body {
  const calls: TSESTree.CallExpression[] = [];
  const news: TSESTree.NewExpression[] = [];
  const returns: (TSESTree.Expression | null)[] = [];
  const nested: FunctionLike[] = [];
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) returns.push(fn.body);
  const stack: TSESTree.Node[] = [fn.body];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== fn.body && isFunctionLike(node)) {
      nested.push(node);
      continue;
    }
    if (node.type === AST_NODE_TYPES.CallExpression) calls.push(node);
    else if (node.type === AST_NODE_TYPES.NewExpression) news.push(node);
    else if (node.type === AST_NODE_TYPES.ReturnStatement) returns.push(node.argument);
    pushChildren(sourceCode, node, stack);
  }
  calls.sort((left, right) => left.range[0] - right.range[0]);
  const calledParameters = [...new Set(calls.map((call) => calledParameter(call, parameters)).filter((index) => index !== undefined))];
  return { calls, news, returns, nested, calledParameters };
}

/** The library whose lock an event takes or frees, through the helpers it calls (a helper of Redis commands: `redis`). */
function lockLibraryOf(event: Acquisition | Release | Expiry): LockHelperSummary['library'] {
  return event.helper?.library ?? (event.library === 'helper' ? RAW_COMMANDS : event.library);
}

/** The parameter passed straight on as the acquisition's routine (auto-extension.ts's routineArgument). */
function routineParameter(sourceCode: SourceCode, acquisition: Acquisition, parameters: readonly ParameterBinding[]): number | undefined {
  const argument = routineArgument(acquisition);
  if (!argument) return undefined;
  const ref = parameterRead(sourceCode, argument, parameters);
  return ref && ref.property === undefined ? ref.index : undefined;
}

/**
 * Whether a call could invoke the (plain) parameter, as calledParameter reads calls: one of its
 * references is a callee, through type wrappers, or the object of `.call`/`.apply` (or of a
 * computed member, which is not read further).
 */
function mayBeCalled(parameter: ParameterBinding): boolean {
  if (parameter.ref.property !== undefined) return false;
  return parameter.variable.references.some((reference) => {
    let node: TSESTree.Node = reference.identifier;
    while (node.parent && isTypeWrapper(node.parent)) node = node.parent;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.CallExpression) return parent.callee === node;
    if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== node) return false;
    const member = propertyName(parent);
    return member === undefined || member === 'call' || member === 'apply';
  });
}

function isTypeWrapper(node: TSESTree.Node): boolean {
  return skipTypeWrappers(node) !== node;
}

/** `fn()`, `fn.call(this)`, `cb(client)`: the index of the (plain) parameter a call invokes. */
function calledParameter(call: TSESTree.CallExpression, parameters: readonly ParameterBinding[]): number | undefined {
  let callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && (propertyName(callee) === 'call' || propertyName(callee) === 'apply'))
    callee = skipTypeWrappers(callee.object);
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const parameter = parameters.find(
    (candidate) =>
      candidate.ref.property === undefined && candidate.variable.references.some((reference) => reference.identifier === callee),
  );
  return parameter?.ref.index;
}

/** A call after `from` in the body that is neither a lock event, nor machinery, nor the helper calling itself again (a retry). */
function doesWorkAfter(
  sourceCode: SourceCode,
  body: Body,
  from: TSESTree.Node,
  eventNodes: ReadonlySet<TSESTree.Node>,
  name: string | undefined,
): boolean {
  const start = from.type === AST_NODE_TYPES.CallExpression ? from.range[1] : from.range[0];
  for (const call of body.calls) {
    if (call.range[0] < start || eventNodes.has(call)) continue;
    const callee = calleeText(call);
    if (callee === undefined) return true;
    if (callee === name || MACHINERY_CALLS.test(callee) || feedsOnlyMachinery(sourceCode, call)) continue;
    // A read of the key (`GET` to compare the token, `PTTL`) is part of taking or freeing the lock.
    if (KEY_READS.test(methodCallParts(call)?.method ?? '')) continue;
    return true;
  }
  return false;
}

/**
 * A call whose value only feeds the lock's machinery: a retry's backoff or jitter computed for a
 * wait (`sleep(backoff(attempt))`, or `const delay = backoff(attempt)` read only by `setTimeout`).
 * It does no work under the lock, whatever it is named.
 */
function feedsOnlyMachinery(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  if (inMachineryArguments(call)) return true;
  let value: TSESTree.Node = call;
  while (value.parent.type === AST_NODE_TYPES.AwaitExpression) value = value.parent;
  const declarator = value.parent;
  if (
    declarator.type !== AST_NODE_TYPES.VariableDeclarator ||
    declarator.init !== value ||
    declarator.id.type !== AST_NODE_TYPES.Identifier
  )
    return false;
  const reads = findVariableOf(sourceCode, declarator.id)?.references.filter((reference) => !reference.init) ?? [];
  return reads.length > 0 && reads.every((reference) => reference.isReadOnly() && inMachineryArguments(reference.identifier));
}

/** The node is (inside) an argument of a machinery call: `setTimeout(resolve, delay)`, `sleep(base + jitter())`. */
function inMachineryArguments(node: TSESTree.Node): boolean {
  for (let current = node; current.parent; current = current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.CallExpression || parent.type === AST_NODE_TYPES.NewExpression) {
      if (parent.callee === current) return false;
      const callee = skipTypeWrappers(parent.callee);
      const text =
        parent.type === AST_NODE_TYPES.CallExpression
          ? calleeText(parent)
          : callee.type === AST_NODE_TYPES.Identifier
            ? callee.name
            : undefined;
      return text !== undefined && MACHINERY_CALLS.test(text);
    }
    if (isFunctionLike(parent) || parent.type.endsWith('Statement') || parent.type === AST_NODE_TYPES.VariableDeclarator) return false;
  }
  return false;
}

const KEY_READS = /^(?:get|pttl|ttl|exists)$/iu;

function calleeText(call: TSESTree.CallExpression): string | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const object = skipTypeWrappers(callee.object);
    const name = propertyName(callee);
    if (name !== undefined && object.type === AST_NODE_TYPES.Identifier && (object.name === 'JSON' || object.name === 'console'))
      return object.name === 'JSON' ? `JSON.${name}` : 'log';
    return name;
  }
  return undefined;
}
