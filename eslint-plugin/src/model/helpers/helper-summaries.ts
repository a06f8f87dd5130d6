// Lock helpers: the project's own functions and methods that acquire, release, renew or run work
// under a lock (`acquireLock(key)`, `RedisLock#release`, `withLock(key, fn)`). Each is summarised
// once per module — its role, which parameters are the key, the token and the TTL, what it returns —
// and every call to it becomes the lock event the summary describes, so that every rule sees
// `await locks.acquire(k); work(); await locks.release(k)` as an acquisition and a release.
//
// A finding about the helper's body (an unsafe DEL inside `release(key)`, a dropped SET NX result)
// is the body's: call-site events carry `library: 'helper'`, which the rules about a command's own
// shape skip, while the rules about pairing and critical sections treat them like any lock event.
//
// The summary is plain data (parameter positions, a key pattern), so a module summary built for
// another module's calls (model/project/) can carry it: `summarizeLockHelpers` answers for any
// parsed module, and `helperCallEvents` turns a call and a summary into events wherever the call is.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction, type FunctionLike, functionName, isFunctionLike, methodCallParts, propertyName, type ScopeOwner, skipTypeWrappers } from '../../util/ast.js';
import { eventNode, within } from '../facts/source-order.js';
import { keySignature, looksLikeLockKey } from '../facts/keys.js';
import { isInLockFunction } from '../facts/keys.js';
import { callerArguments } from '../facts/parameter-callers.js';
import { resultDeclarator, valueFlow } from '../facts/result-flow.js';
import { autoExtensionOf, routineArgument } from '../facts/auto-extension.js';
import type { Acquisition, Expiry, RedisCommand, Release } from '../nouns/redis-events.js';
import type { HelperRole, HelperReturn, ParameterRef, LockHelperSummary } from '../nouns/redis-events.js';

/** Events found so far in a module, the summaries' input. */
export interface ModuleEvents {
  readonly commands: readonly RedisCommand[];
  readonly acquisitions: readonly Acquisition[];
  readonly releases: readonly Release[];
  readonly expiries: readonly Expiry[];
}

type SourceCode = Readonly<TSESLint.SourceCode>;

// Calls that are the lock's own machinery, not work done under it: token minting, clocks, retry
// waits, logging, errors.
const MACHINERY_CALLS = /^(?:randomUUID|randomBytes|uuid\w*|v4|nanoid|ulid|cuid|toString|String|Number|JSON\.stringify|stringify|now|getTime|setTimeout|clearTimeout|setInterval|clearInterval|sleep|delay|wait|resolve|reject|Promise|Error|\w*Error|random|floor|ceil|round|min|max|log|info|warn|error|debug|trace|slice|substring|toFixed|hrtime|bigint|unref|isArray)$/u;
const RELEASE_NAME = /release|unlock|free|drop|remove/iu;
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
  const eventNodes = new Set<TSESTree.Node>([...events.commands.map((command) => command.call), ...events.acquisitions.map((event) => event.node),
    ...events.releases.map((event) => event.node), ...events.expiries.map((event) => event.node)]);
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
  const lockLike = (event: Acquisition | Release | Expiry) => (event.key !== undefined && (looksLikeLockKey(sourceCode, event.key, lockKeyPattern)
    || callersPassLockKeys(sourceCode, event.key, lockKeyPattern))) || isInLockFunction(event.node, lockKeyPattern);
  return {
    isLockAcquisition: (acquisition) => acquisition.library !== 'redis' || lockLike(acquisition)
      || (acquisition.keySignature !== undefined && released.has(acquisition.keySignature))
      || (acquisition.splitKey !== undefined && released.has(acquisition.splitKey)),
    isLockRelease: (event) => event.library !== 'redis' || event.safe || lockLike(event)
      || (event.keySignature !== undefined && acquired.has(event.keySignature))
      || (event.splitKey !== undefined && acquired.has(event.splitKey)),
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
  const body = readBody(sourceCode, fn, parameters);
  if (acquisition) {
    const releasedHere = found.releases.some((release) => release.keySignature !== undefined && release.keySignature === acquisition.keySignature);
    // The work handed on as the routine of the acquisition itself (`redlock.using([k], ttl, routine)`, a with-lock helper's callback).
    const routine = routineParameter(sourceCode, acquisition, parameters);
    const callback = routine ?? body.calledParameters.find((index) => body.calls.some((call) => call.range[0] > acquisition.node.range[1] && calledParameter(call, parameters) === index));
    let role: HelperRole;
    if (callback !== undefined) role = 'with-lock';
    else if (releasedHere) return undefined;
    // A function that goes on to work under the lock it took is a job, not a helper: its callers
    // are not in its critical section.
    else if (doesWorkAfter(body, acquisition.node, eventNodes, name)) return undefined;
    else role = 'acquire';
    const returns = role === 'acquire' ? returnKind(sourceCode, fn, body, acquisition, allReleases) : { kind: 'nothing' as const, handleRelease: [] };
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
  if (doesWorkAfter(body, fn, eventNodes, name) && !RELEASE_NAME.test(name ?? '')) return undefined;
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
  if (event.library === 'redis' && event.kind === 'script') {
    const holder = resultDeclarator(event.node)?.id.name;
    return body.returns.some((argument) => argument !== null
      && ((argument.range[0] <= event.node.range[0] && event.node.range[1] <= argument.range[1]) || (holder !== undefined && mentions(sourceCode, argument, holder))));
  }
  // A library release (Redlock's throws when the lock is gone): an answer only where the helper turns the failure into `false`.
  return (event.library === 'redlock' || event.library === 'redis-semaphore')
    && body.returns.some((argument) => argument?.type === AST_NODE_TYPES.Literal && argument.value === false)
    && body.returns.some((argument) => argument?.type === AST_NODE_TYPES.Literal && argument.value === true);
}

/** A parameter's binding: its signature in keys.ts's notation (`v:key@120`) and where it sits. */
interface ParameterBinding {
  readonly signature: string;
  readonly ref: ParameterRef;
  readonly variable: TSESLint.Scope.Variable;
}

function parameterBindings(sourceCode: SourceCode, fn: FunctionLike): ParameterBinding[] {
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
function parameterHole(ref: ParameterRef): string {
  return ref.property === undefined ? `$${ref.index}` : `$${ref.index}.${ref.property}`;
}

/**
 * The key pattern of an event in its function: its signature with each parameter written as its
 * position. Undefined when the key reads a local of the helper that is no parameter (a caller
 * could not name it) or has no signature.
 */
function keyOf(event: Acquisition | Release | Expiry, parameters: readonly ParameterBinding[]): Pick<LockHelperSummary, 'keyParameters' | 'keyPattern' | 'keyOfInstance'> {
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
function parameterReadWithin(sourceCode: SourceCode, node: TSESTree.Node, parameters: readonly ParameterBinding[]): ParameterRef | undefined {
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

function ttlParameterOf(sourceCode: SourceCode, acquisition: Acquisition, parameters: readonly ParameterBinding[]): ParameterRef | undefined {
  const expiry = acquisition.command?.set?.expiry?.value ?? acquisition.command?.script?.args[1];
  return expiry ? parameterReadWithin(sourceCode, expiry, parameters) : undefined;
}

function findVariableOf(sourceCode: SourceCode, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(identifier); scope; scope = scope.upper) {
    const variable = scope.set.get(identifier.name);
    if (variable) return variable;
  }
  return undefined;
}

/** What the helper's own body (nested functions aside) does: its calls, returns and throws. */
interface Body {
  readonly calls: readonly TSESTree.CallExpression[];
  readonly news: readonly TSESTree.NewExpression[];
  readonly returns: readonly (TSESTree.Expression | null)[];
  readonly nested: readonly FunctionLike[];
  /** Parameters the body calls (`await fn()`): the work of a with-lock helper. */
  readonly calledParameters: readonly number[];
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
  return event.helper?.library ?? (event.library === 'helper' ? 'redis' : event.library);
}

/** The parameter passed straight on as the acquisition's routine (auto-extension.ts's routineArgument). */
function routineParameter(sourceCode: SourceCode, acquisition: Acquisition, parameters: readonly ParameterBinding[]): number | undefined {
  const argument = routineArgument(acquisition);
  if (!argument) return undefined;
  const ref = parameterRead(sourceCode, argument, parameters);
  return ref && ref.property === undefined ? ref.index : undefined;
}

/** `fn()`, `fn.call(this)`, `cb(client)`: the index of the (plain) parameter a call invokes. */
function calledParameter(call: TSESTree.CallExpression, parameters: readonly ParameterBinding[]): number | undefined {
  let callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && (propertyName(callee) === 'call' || propertyName(callee) === 'apply')) callee = skipTypeWrappers(callee.object);
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const parameter = parameters.find((candidate) => candidate.ref.property === undefined && candidate.variable.references.some((reference) => reference.identifier === callee));
  return parameter?.ref.index;
}

/** A call after `from` in the body that is neither a lock event, nor machinery, nor the helper calling itself again (a retry). */
function doesWorkAfter(body: Body, from: TSESTree.Node, eventNodes: ReadonlySet<TSESTree.Node>, name: string | undefined): boolean {
  const start = from.type === AST_NODE_TYPES.CallExpression ? from.range[1] : from.range[0];
  for (const call of body.calls) {
    if (call.range[0] < start || eventNodes.has(call)) continue;
    const callee = calleeText(call);
    if (callee === undefined) return true;
    if (callee === name || MACHINERY_CALLS.test(callee)) continue;
    // A read of the key (`GET` to compare the token, `PTTL`) is part of taking or freeing the lock.
    if (KEY_READS.test(methodCallParts(call)?.method ?? '')) continue;
    return true;
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
    if (name !== undefined && object.type === AST_NODE_TYPES.Identifier && (object.name === 'JSON' || object.name === 'console')) return object.name === 'JSON' ? `JSON.${name}` : 'log';
    return name;
  }
  return undefined;
}

/**
 * What the acquire helper returns: a function or object that releases the lock (a handle), the
 * token it stored, the try's answer, or nothing.
 */
function returnKind(
  sourceCode: SourceCode,
  fn: FunctionLike,
  body: Body,
  acquisition: Acquisition,
  releases: readonly Release[],
): { kind: HelperReturn; handleRelease: readonly string[] } {
  // A binary search in the module's releases, not a scan per returned function.
  const releasesIn = (node: TSESTree.Node) => within(releases, node.range, eventNode).length > 0;
  const returned = body.returns.filter((argument): argument is TSESTree.Expression => argument !== null).map((argument) => unwrapReturned(sourceCode, argument));
  for (const argument of returned) {
    if (isFunctionLike(argument) && releasesIn(argument)) return { kind: 'handle', handleRelease: ['call'] };
    if (argument.type === AST_NODE_TYPES.ObjectExpression) {
      const members = argument.properties.flatMap((property) => {
        if (property.type !== AST_NODE_TYPES.Property || property.computed || property.key.type !== AST_NODE_TYPES.Identifier) return [];
        const value = unwrapReturned(sourceCode, property.value as TSESTree.Expression);
        return isFunctionLike(value) && releasesIn(value) ? [property.key.name] : [];
      });
      if (members.length > 0) return { kind: 'handle', handleRelease: members };
    }
  }
  const library = libraryHandleReturned(sourceCode, body, acquisition);
  if (library) return { kind: 'handle', handleRelease: library };
  const token = acquisition.value ? skipTypeWrappers(acquisition.value) : undefined;
  const tokenName = token?.type === AST_NODE_TYPES.Identifier && token.range[0] >= fn.range[0] ? token.name : undefined;
  if (tokenName !== undefined && body.returns.some((argument) => argument !== null && mentions(sourceCode, argument, tokenName))) return { kind: 'token', handleRelease: [] };
  return { kind: returned.length > 0 ? 'result' : 'nothing', handleRelease: [] };
}

/**
 * The lock object of a library acquisition handed back to the caller, who releases it: Redlock's
 * `return redlock.acquire([k], ttl)` (or the local holding it), redis-semaphore's
 * `await mutex.acquire(); return mutex`. The members that release it on the caller's side.
 */
function libraryHandleReturned(sourceCode: SourceCode, body: Body, acquisition: Acquisition): readonly string[] | undefined {
  if (acquisition.library !== 'redlock' && acquisition.library !== 'redis-semaphore') return undefined;
  const holder = resultDeclarator(acquisition.node)?.id;
  const receiver = methodCallParts(acquisition.node)?.receiver;
  const semaphore = acquisition.library === 'redis-semaphore' && receiver && skipTypeWrappers(receiver).type === AST_NODE_TYPES.Identifier ? skipTypeWrappers(receiver) as TSESTree.Identifier : undefined;
  for (const argument of body.returns) {
    if (!argument) continue;
    let expression = skipTypeWrappers(argument);
    if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = skipTypeWrappers(expression.argument);
    if (acquisition.library === 'redlock' && method(acquisition.node) !== 'using'
      && (expression === acquisition.node || (holder && expression.type === AST_NODE_TYPES.Identifier && sameBinding(sourceCode, expression, holder)))) return ['release', 'unlock'];
    if (semaphore && expression.type === AST_NODE_TYPES.Identifier && sameBinding(sourceCode, expression, semaphore)) return ['release'];
  }
  return undefined;
}

function method(call: TSESTree.CallExpression): string | undefined {
  return methodCallParts(call)?.method;
}

function sameBinding(sourceCode: SourceCode, left: TSESTree.Identifier, right: TSESTree.Identifier): boolean {
  if (left.name !== right.name) return false;
  const variable = findVariableOf(sourceCode, left);
  return variable !== undefined && variable === findVariableOf(sourceCode, right);
}

/** A returned local (`return lock` after `const lock = { release }`) is its initialiser. */
function unwrapReturned(sourceCode: SourceCode, node: TSESTree.Expression): TSESTree.Node {
  let expression = skipTypeWrappers(node);
  if (expression.type === AST_NODE_TYPES.Identifier) {
    const definition = findVariableOf(sourceCode, expression)?.defs[0];
    if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init) expression = skipTypeWrappers(definition.node.init);
  }
  return expression;
}

function mentions(sourceCode: SourceCode, node: TSESTree.Node, name: string): boolean {
  const stack: TSESTree.Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.type === AST_NODE_TYPES.Identifier && current.name === name) return true;
    if (isFunctionLike(current)) continue;
    pushChildren(sourceCode, current, stack);
  }
  return false;
}

/**
 * The helper can answer "not taken": a return reads the try's reply (directly or through the
 * variable holding it), or some return hands back a falsy value (`return false`, `return null`).
 */
function reportsFailure(sourceCode: SourceCode, body: Body, acquisition: Acquisition): boolean {
  const flow = valueFlow(acquisition.node);
  const holders = flow.kind === 'declared' ? boundNames(flow.declarator.id) : [];
  return body.returns.some((argument) => {
    if (argument === null) return true;
    const expression = skipTypeWrappers(argument);
    if (expression.range[0] <= acquisition.node.range[0] && acquisition.node.range[1] <= expression.range[1]) return true;
    if (holders.some((holder) => mentions(sourceCode, expression, holder))) return true;
    if (expression.type === AST_NODE_TYPES.Literal) return !expression.value;
    return expression.type === AST_NODE_TYPES.Identifier && expression.name === 'undefined';
  });
}

/** The names a declarator binds: `reply`, or `rows` of `const { rows } = await pool.query(...)` (a query's rows hold the answer). */
function boundNames(id: TSESTree.Node): string[] {
  if (id.type === AST_NODE_TYPES.Identifier) return [id.name];
  if (id.type === AST_NODE_TYPES.ObjectPattern) {
    return id.properties.flatMap((property) => (property.type === AST_NODE_TYPES.Property && property.value.type === AST_NODE_TYPES.Identifier ? [property.value.name] : []));
  }
  if (id.type === AST_NODE_TYPES.ArrayPattern) return id.elements.flatMap((element) => (element?.type === AST_NODE_TYPES.Identifier ? [element.name] : []));
  return [];
}

function pushChildren(sourceCode: SourceCode, node: TSESTree.Node, stack: TSESTree.Node[]): void {
  const keys = sourceCode.visitorKeys[node.type];
  if (!keys) return;
  // Indexed loops, no one-item array per child: this runs once for every node of every helper candidate's body.
  for (let keyIndex = 0; keyIndex < keys.length; keyIndex++) {
    const value = (node as unknown as Record<string, unknown>)[keys[keyIndex]!];
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) pushIfNode(value[index], stack);
    } else {
      pushIfNode(value, stack);
    }
  }
}

function pushIfNode(value: unknown, stack: TSESTree.Node[]): void {
  if (value && typeof (value as TSESTree.Node).type === 'string') stack.push(value as TSESTree.Node);
}

// ---------------------------------------------------------------------------------------------
// Calls to helpers: which function a call reaches, and the events it stands for.

/**
 * The helper a call reaches within its module: `acquireLock(k)` (a function or a `const` arrow),
 * `this.acquire(k)` in the helper's class, `locks.acquire(k)` on `new RedisLock()` or on an object
 * literal of helpers, `this.lock.acquire(k)` on a field holding such an instance.
 */
export function helperCalled(sourceCode: SourceCode, call: TSESTree.CallExpression, summaries: ReadonlyMap<FunctionLike, LockHelperSummary>): LockHelperSummary | undefined {
  if (summaries.size === 0) return undefined;
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const fn = functionBoundTo(sourceCode, callee);
    return fn ? summaries.get(fn) : undefined;
  }
  const parts = methodCallParts(call);
  if (!parts) return undefined;
  const holder = holderOf(sourceCode, parts.receiver, call);
  let fn = holder ? memberFunction(holder, parts.method, holder.type === AST_NODE_TYPES.ClassBody ? isStaticCall(sourceCode, parts.receiver, holder) : undefined) : undefined;
  if (!fn && !holder) {
    // `this.lockService.acquire(k)` on a typed constructor parameter, `locks.acquire(k)` on a typed parameter.
    const named = receiverClassOf(sourceCode, parts.receiver, call);
    const classNode = named ? localClassNamed(sourceCode, named.name) : undefined;
    fn = classNode && named ? memberFunction(classNode.body, parts.method, named.isStatic) : undefined;
  }
  return fn ? summaries.get(fn) : undefined;
}

/**
 * The class a method call's receiver belongs to, by the identifier naming it in this module: the
 * class itself for a static call (`MutexLock.acquire(k)`), else the class an instance is made
 * from or typed as (`const mutex = new ReleaseMutex(t)`, `constructor(private locks: LockService)`
 * then `this.locks.acquire(k)`, `function f(locks: LockService)`). The caller decides whether that
 * name is a class of this module or an import.
 */
export function receiverClassOf(sourceCode: SourceCode, receiver: TSESTree.Node, call: TSESTree.Node): { readonly name: TSESTree.Identifier; readonly isStatic: boolean } | undefined {
  const expression = skipTypeWrappers(receiver);
  if (expression.type === AST_NODE_TYPES.Identifier) {
    const definition = findVariableOf(sourceCode, expression)?.defs[0];
    if (!definition) return undefined;
    if (definition.type === TSESLint.Scope.DefinitionType.ImportBinding || definition.type === TSESLint.Scope.DefinitionType.ClassName) {
      // Classes are named in PascalCase; a lower-case import is an instance or a function.
      return /^[A-Z]/u.test(expression.name) ? { name: expression, isStatic: true } : undefined;
    }
    if (definition.type === TSESLint.Scope.DefinitionType.Parameter) {
      const name = typeName(definition.name.typeAnnotation);
      return name ? { name, isStatic: false } : undefined;
    }
    if (definition.node.type === AST_NODE_TYPES.VariableDeclarator) {
      const name = (definition.node.init ? constructedClass(definition.node.init) : undefined) ?? typeName(definition.node.id.typeAnnotation);
      return name ? { name, isStatic: false } : undefined;
    }
    return undefined;
  }
  if (expression.type !== AST_NODE_TYPES.MemberExpression || skipTypeWrappers(expression.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const field = propertyName(expression);
  const classBody = enclosingClassBody(call);
  if (field === undefined || !classBody) return undefined;
  const value = fieldValue(classBody, field);
  const constructed = value ? constructedClass(value) : undefined;
  if (constructed) return { name: constructed, isStatic: false };
  const declared = fieldType(classBody, field);
  return declared ? { name: declared, isStatic: false } : undefined;
}

/** A call on the class itself (`Locks.acquire()`, `this.acquire()` in a static method), not on an instance of it. */
function isStaticCall(sourceCode: SourceCode, receiver: TSESTree.Node, classBody: TSESTree.ClassBody): boolean {
  const expression = skipTypeWrappers(receiver);
  if (expression.type === AST_NODE_TYPES.Identifier) return findVariableOf(sourceCode, expression)?.defs[0]?.node === classBody.parent;
  if (expression.type !== AST_NODE_TYPES.ThisExpression) return false;
  for (let current: TSESTree.Node | undefined = expression.parent; current; current = current.parent) {
    if ((current.type === AST_NODE_TYPES.MethodDefinition || current.type === AST_NODE_TYPES.PropertyDefinition) && current.parent === classBody) return current.static;
  }
  return false;
}

/** `new LockService(...)` (awaited or not): the identifier of the class made. */
function constructedClass(node: TSESTree.Node): TSESTree.Identifier | undefined {
  let expression = skipTypeWrappers(node);
  if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = skipTypeWrappers(expression.argument);
  if (expression.type !== AST_NODE_TYPES.NewExpression) return undefined;
  const callee = skipTypeWrappers(expression.callee);
  return callee.type === AST_NODE_TYPES.Identifier ? callee : undefined;
}

/** `: LockService` (not a generic, a union or a qualified name): the identifier of the type. */
function typeName(annotation: TSESTree.TSTypeAnnotation | undefined): TSESTree.Identifier | undefined {
  const type = annotation?.typeAnnotation;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeArguments || type.typeName.type !== AST_NODE_TYPES.Identifier) return undefined;
  return type.typeName;
}

/** The declared type of a field: `locks: LockService;` or a constructor parameter property `private readonly locks: LockService`. */
function fieldType(classBody: TSESTree.ClassBody, field: string): TSESTree.Identifier | undefined {
  for (const element of classBody.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.computed && element.key.type === AST_NODE_TYPES.Identifier && element.key.name === field) return typeName(element.typeAnnotation);
    if (element.type !== AST_NODE_TYPES.MethodDefinition || element.kind !== 'constructor') continue;
    for (const parameter of element.value.params) {
      if (parameter.type !== AST_NODE_TYPES.TSParameterProperty) continue;
      const target = parameter.parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.parameter.left : parameter.parameter;
      if (target.name === field) return typeName(target.typeAnnotation);
    }
  }
  return undefined;
}

/** The class declared in this module under the name, if the name is one. */
function localClassNamed(sourceCode: SourceCode, name: TSESTree.Identifier): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  const definition = findVariableOf(sourceCode, name)?.defs[0];
  if (definition?.node.type === AST_NODE_TYPES.ClassDeclaration) return definition.node;
  if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init?.type === AST_NODE_TYPES.ClassExpression) return definition.node.init;
  return undefined;
}

function functionBoundTo(sourceCode: SourceCode, identifier: TSESTree.Identifier): FunctionLike | undefined {
  const definition = findVariableOf(sourceCode, identifier)?.defs[0];
  if (!definition) return undefined;
  if (definition.node.type === AST_NODE_TYPES.FunctionDeclaration) return definition.node;
  if (definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init) {
    const init = skipTypeWrappers(definition.node.init);
    return isFunctionLike(init) ? init : undefined;
  }
  return undefined;
}

export type Holder = TSESTree.ClassBody | TSESTree.ObjectExpression;

/** The class body or object literal whose members a receiver's methods are. */
function holderOf(sourceCode: SourceCode, receiver: TSESTree.Node, call: TSESTree.Node): Holder | undefined {
  const expression = skipTypeWrappers(receiver);
  if (expression.type === AST_NODE_TYPES.ThisExpression) return enclosingClassBody(call);
  if (expression.type === AST_NODE_TYPES.Identifier) {
    const definition = findVariableOf(sourceCode, expression)?.defs[0];
    if (!definition) return undefined;
    if (definition.node.type === AST_NODE_TYPES.ClassDeclaration) return definition.node.body;
    if (definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init) return holderOfValue(sourceCode, definition.node.init);
    return undefined;
  }
  if (expression.type === AST_NODE_TYPES.MemberExpression && skipTypeWrappers(expression.object).type === AST_NODE_TYPES.ThisExpression) {
    const field = propertyName(expression);
    const classBody = enclosingClassBody(call);
    if (field === undefined || !classBody) return undefined;
    const value = fieldValue(classBody, field);
    return value ? holderOfValue(sourceCode, value) : undefined;
  }
  return undefined;
}

/** `new RedisLock(...)` (a class of this module), `{ acquire() {...} }`, or an identifier naming one. */
function holderOfValue(sourceCode: SourceCode, node: TSESTree.Node, depth = 0): Holder | undefined {
  let expression = skipTypeWrappers(node);
  if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = skipTypeWrappers(expression.argument);
  if (expression.type === AST_NODE_TYPES.ObjectExpression) return expression;
  if (expression.type === AST_NODE_TYPES.NewExpression) {
    const callee = skipTypeWrappers(expression.callee);
    if (callee.type === AST_NODE_TYPES.ClassExpression) return callee.body;
    if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
    const definition = findVariableOf(sourceCode, callee)?.defs[0];
    if (definition?.node.type === AST_NODE_TYPES.ClassDeclaration) return definition.node.body;
    if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init?.type === AST_NODE_TYPES.ClassExpression) return definition.node.init.body;
    return undefined;
  }
  if (expression.type === AST_NODE_TYPES.Identifier && depth < 3) {
    const definition = findVariableOf(sourceCode, expression)?.defs[0];
    if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init) return holderOfValue(sourceCode, definition.node.init, depth + 1);
  }
  return undefined;
}

/** A field's value: its initialiser, or the one `this.field = ...` in the constructor. */
function fieldValue(classBody: TSESTree.ClassBody, field: string): TSESTree.Node | undefined {
  for (const element of classBody.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.computed && element.key.type === AST_NODE_TYPES.Identifier && element.key.name === field && element.value) return element.value;
    if (element.type !== AST_NODE_TYPES.MethodDefinition || element.kind !== 'constructor' || !element.value.body) continue;
    for (const statement of element.value.body.body) {
      if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression) continue;
      const { left, right } = statement.expression;
      if (left.type === AST_NODE_TYPES.MemberExpression && left.object.type === AST_NODE_TYPES.ThisExpression && propertyName(left) === field) return right;
    }
  }
  return undefined;
}

/** The member function `name` of a class body (static or not, when the call says which) or of an object literal. */
export function memberFunction(holder: Holder, name: string, isStatic?: boolean): FunctionLike | undefined {
  if (holder.type === AST_NODE_TYPES.ClassBody) {
    for (const element of holder.body) {
      if ((element.type !== AST_NODE_TYPES.MethodDefinition && element.type !== AST_NODE_TYPES.PropertyDefinition) || element.computed) continue;
      if (isStatic !== undefined && element.static !== isStatic) continue;
      if (element.key.type !== AST_NODE_TYPES.Identifier || element.key.name !== name) continue;
      const value = element.value ? skipTypeWrappers(element.value) : undefined;
      return value && isFunctionLike(value) ? value : undefined;
    }
    return undefined;
  }
  for (const property of holder.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed || property.key.type !== AST_NODE_TYPES.Identifier || property.key.name !== name) continue;
    const value = skipTypeWrappers(property.value);
    return isFunctionLike(value) ? value : undefined;
  }
  return undefined;
}

function enclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
    // A function other than an arrow or a method has its own `this`.
    if (current.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (current.type === AST_NODE_TYPES.FunctionExpression && current.parent.type !== AST_NODE_TYPES.MethodDefinition && current.parent.type !== AST_NODE_TYPES.Property) return undefined;
  }
  return undefined;
}

/** The events one call to a helper stands for: an acquisition (and its handle's releases), a release, or a renewal. */
export interface HelperCallEvents {
  readonly acquisitions: Acquisition[];
  readonly releases: Release[];
  readonly expiries: Expiry[];
}

/**
 * The lock events of a call to a summarised helper, wherever the call is (this module or one that
 * imports the helper). The call-site key signature is the helper's key pattern with the caller's
 * arguments in place of the parameters, so `locks.acquire(\`job:${id}\`)` and
 * `locks.release(\`job:${id}\`)` pair with each other and with the module's own commands on that key.
 */
export function helperCallEvents(sourceCode: SourceCode, call: TSESTree.CallExpression, summary: LockHelperSummary): HelperCallEvents {
  const owner = enclosingFunction(call);
  const signature = callSiteSignature(sourceCode, call, summary);
  const firstKey = summary.keyParameters[0];
  // A key the helper fixes (`'lock:nightly'`) is the body's node, usable only in the helper's own module.
  const bodyKey = summary.keyParameters.length === 0 && programOf(summary.fn) === sourceCode.ast ? summary.event.key : undefined;
  const key = (firstKey ? argumentAt(call, firstKey) : undefined) ?? bodyKey;
  const base = { node: call, library: 'helper' as const, command: undefined, key, keySignature: signature, owner, helper: summary };
  const result: HelperCallEvents = { acquisitions: [], releases: [], expiries: [] };
  if (summary.role === 'acquire' || summary.role === 'with-lock') {
    const value = summary.tokenParameter ? argumentAt(call, summary.tokenParameter) : undefined;
    const handle = summary.returns === 'handle' || summary.returns === 'token' ? handleOf(sourceCode, call) : undefined;
    // A lock only its handle names (`const unlock = await lock(k)`) pairs with that handle's calls.
    const keySignatureOrHandle = signature ?? (handle ? `handle@${handle.at}` : undefined);
    result.acquisitions.push({
      ...base, keySignature: keySignatureOrHandle, kind: 'helper', value, hasTtl: summary.hasTtl, isTry: summary.isTry, mintsFence: summary.mintsFence,
    });
    if (handle && summary.returns === 'handle') {
      for (const release of handleReleaseCalls(handle, summary.handleRelease)) {
        // Whether the handle's own release compares the owner is judged in the helper's body.
        result.releases.push({ node: release, library: 'helper', command: undefined, key, keySignature: keySignatureOrHandle, owner: enclosingFunction(release), kind: 'helper', safe: true, helper: summary });
      }
    }
    return result;
  }
  if (summary.role === 'release') result.releases.push({ ...base, kind: 'helper', safe: summary.safe });
  else result.expiries.push({ ...base, kind: 'helper', safe: summary.safe });
  return result;
}

function programOf(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent) current = current.parent;
  return current;
}

/** The caller's key: the pattern with each parameter replaced by the argument's signature; a method's instance key is qualified by the receiver. */
export function callSiteSignature(sourceCode: SourceCode, call: TSESTree.CallExpression, summary: LockHelperSummary): string | undefined {
  let pattern = summary.keyPattern;
  if (pattern === undefined) return undefined;
  for (const ref of summary.keyParameters) {
    const argument = argumentAt(call, ref);
    let inner = argument ? keySignature(sourceCode, argument) : undefined;
    if (inner === undefined && ref.property !== undefined && call.arguments[ref.index]) {
      const whole = keySignature(sourceCode, call.arguments[ref.index]!);
      inner = whole === undefined ? undefined : `${whole}.${ref.property}`;
    }
    if (inner === undefined) return undefined;
    pattern = pattern.split(parameterHole(ref)).join(inner);
  }
  if (!summary.keyOfInstance) return pattern;
  const receiver = methodCallParts(call)?.receiver;
  if (!receiver || skipTypeWrappers(receiver).type === AST_NODE_TYPES.ThisExpression) return pattern;
  const receiverSignature = keySignature(sourceCode, receiver);
  return receiverSignature === undefined ? undefined : `${receiverSignature}#${pattern}`;
}

/** The argument a parameter reference receives: `f(k)`, or the `key` property of `f({ key: k })`. */
function argumentAt(call: TSESTree.CallExpression, ref: ParameterRef): TSESTree.Node | undefined {
  const argument = call.arguments[ref.index];
  if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
  if (ref.property === undefined) return argument;
  const object = skipTypeWrappers(argument);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property && !property.computed && property.key.type === AST_NODE_TYPES.Identifier && property.key.name === ref.property) return property.value;
  }
  return undefined;
}

/** The variable a helper's handle is kept in: `const lock = await acquire(k)`, or `mutex = await lock(k)` into a `let` declared before a `try`. */
interface Handle {
  readonly variable: TSESLint.Scope.Variable;
  /** Where the variable is declared: the handle's identity in key signatures. */
  readonly at: number;
  /** Where the handle is stored: only later uses are its releases. */
  readonly from: number;
}

function handleOf(sourceCode: SourceCode, call: TSESTree.CallExpression): Handle | undefined {
  const flow = valueFlow(call);
  if (flow.kind === 'declared' && flow.declarator.id.type === AST_NODE_TYPES.Identifier) {
    const variable = sourceCode.getDeclaredVariables(flow.declarator)[0];
    return variable ? { variable, at: flow.declarator.range[0], from: flow.declarator.range[1] } : undefined;
  }
  if (flow.kind === 'assigned') {
    const variable = findVariableOf(sourceCode, flow.target);
    const declared = variable?.defs[0]?.node;
    return variable && declared?.type === AST_NODE_TYPES.VariableDeclarator ? { variable, at: declared.range[0], from: flow.target.parent.range[1] } : undefined;
  }
  return undefined;
}

/**
 * `unlock()` of `const unlock = await lock(k)`, `handle.release()` of `const handle = await
 * acquire(k)`, or the handle handed to a function or method named for releasing
 * (`Semaphore.release(mutex)`, `releaseLock(lock)`).
 */
function handleReleaseCalls(handle: Handle, members: readonly string[]): TSESTree.CallExpression[] {
  const calls: TSESTree.CallExpression[] = [];
  for (const reference of handle.variable.references) {
    const identifier = reference.identifier;
    if (identifier.range[0] < handle.from) continue;
    const parent = identifier.parent;
    if (members.includes('call') && parent.type === AST_NODE_TYPES.CallExpression && parent.callee === identifier) calls.push(parent);
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === identifier && members.includes(propertyName(parent) ?? '')
      && parent.parent.type === AST_NODE_TYPES.CallExpression && parent.parent.callee === parent) calls.push(parent.parent);
    if (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === identifier && parent.arguments.length === 1 && RELEASE_CALL.test(calledName(parent) ?? '')) calls.push(parent);
  }
  return calls;
}

const RELEASE_CALL = /^(?:release|unlock|releaseLock|unlockLock|releaseMutex|free)$/u;

// ---------------------------------------------------------------------------------------------
// A lock split over functions: the acquisition in one function, the release in another of the same
// module, class or object literal, each building the key from its own parameter. Their keys compare
// once the parameter part is abstracted: `acquire(name)` and `release(id)` of `lock:${...}`.

/**
 * The key of an event with its function's parameters abstracted, qualified by where the function
 * lives (its class, its object literal, or the module): undefined when the key reads no parameter.
 * A key that is a bare parameter (`release(key) { del(key) }`) says nothing by its text, so it
 * counts only in a function or class named like a lock helper (`releaseLock`, `RedisLock#release`).
 */
export function splitKeyOf(sourceCode: SourceCode, event: Acquisition | Release | Expiry, lockKeyPattern: RegExp): string | undefined {
  const fn = event.owner;
  if (!isFunctionLike(fn) || event.keySignature === undefined || !event.keySignature.includes('v:')) return undefined;
  const { keyParameters, keyPattern } = keyOf(event, parameterBindings(sourceCode, fn));
  if (keyParameters.length === 0 || keyPattern === undefined) return undefined;
  const abstracted = keyPattern.replace(/\$\d+/gu, '$');
  if (/^\$(?:\.[\w$]+)?$/u.test(abstracted)) {
    const name = functionName(fn) ?? '';
    if (!isInLockFunction(event.node, lockKeyPattern) && !(RELEASE_NAME.test(name) || /^(?:acquire|tryAcquire|extend|renew)$/u.test(name))) return undefined;
  }
  return `${containerOf(fn)}|${abstracted}`;
}

/** Where a function lives, for pairing: its class body, its object literal, or the module. */
function containerOf(fn: FunctionLike): string {
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.PropertyDefinition) return `class@${parent.parent.range[0]}`;
  if (parent.type === AST_NODE_TYPES.Property && parent.parent.type === AST_NODE_TYPES.ObjectExpression) return `object@${parent.parent.range[0]}`;
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
  const split = <T extends Acquisition | Release | Expiry>(event: T): T => {
    const splitKey = splitKeyOf(sourceCode, event, lockKeyPattern);
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
    const next = summarizeLockHelpers(sourceCode, { commands: events.commands, acquisitions: [...acquisitions], releases: [...releases], expiries: [...expiries] }, lockKeyPattern, summaries, changedOwners);
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
    for (const list of [acquisitions, releases, expiries] as (Acquisition | Release | Expiry)[][]) list.sort((left, right) => left.node.range[0] - right.node.range[0]);
  }
  return { commands: events.commands, acquisitions, releases, expiries, helpers: summaries };
}

function calledName(call: TSESTree.CallExpression): string | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  return methodCallParts(call)?.method;
}
