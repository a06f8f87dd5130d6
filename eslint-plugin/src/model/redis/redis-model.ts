// Builds the Redis half of the lock model: every recognised command, and from them the lock events
// rules ask about — acquisitions, releases and expiries — each tied to its key, client and function.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { RedisDialect, ClientFamily, ImportTable, SharedSettings, TypeOracle } from '../nouns/vocabulary.js';
import type { LuaScriptSummary } from '../../lua/analyze-script.js';
import { analyzeLuaScript, isCompareAndDelete, isCompareAndExpire } from '../../lua/analyze-script.js';
import { LUA_REDIS_GLOBAL } from '../../lua/parse-script.js';
import { enclosingFunction, methodCallParts, skipTypeWrappers, staticString, propertyValue, arrayElements } from '../../util/ast.js';
import {
  CHAIN_METHODS,
  CLIENT_LIKE_NAME,
  CLIENT_PACKAGES,
  dialectOfFamily,
  GENERIC_COMMAND_METHODS,
  GENERIC_METHOD_NAMES,
  REDIS_METHODS,
  HASH_WRITE_METHODS,
  LOCK_LIBRARY_METHOD_NAMES,
  SCRIPT_DEFINING_METHODS,
  isLockLibrary,
  RAW_COMMANDS,
  REDIS_DIALECTS,
  isConditionObjectSpelling,
} from '../tables/redis-clients.js';
import { collectNodes } from '../../util/collect-nodes.js';
import { mayNameLock, mayUseRedis } from '../screen/redis-gate.js';
import { ClientResolver, importedClients, importsProjectClient } from './client-resolver.js';
import type {
  ReceiverInfo,
  ModuleHelperSummaries,
  HashWrite,
  ScriptCall,
  RedisCommand,
  Acquisition,
  Release,
  Expiry,
  RedisModel,
} from '../nouns/redis-events.js';
import { readCommandShape } from './commands.js';
import { collectImports } from '../facts/imports.js';
import { withLockHelpers } from '../helpers/module-helpers.js';
import { callsImportedHelper, importedHelperCandidates, importedHelperOf, isLockLikeName } from '../helpers/imported-helpers.js';
import { keySignature } from '../facts/keys.js';
import { isResultUsed } from '../facts/result-flow.js';
import { ScriptResolver } from './script-resolver.js';
import { wrapperEvent, libraryEvent } from './lock-library-events.js';

export function buildRedisModel(
  sourceCode: Readonly<TSESLint.SourceCode>,
  filename: string,
  oracle: TypeOracle | null,
  settings: SharedSettings,
  moduleHelpers: ModuleHelperSummaries,
): RedisModel {
  const program = sourceCode.ast;
  const imports = collectImports(program);
  const extraNames = new Set<string>([...settings.lockWrappers.acquire, ...settings.lockWrappers.release]);
  const hasPatternWrappers = [...settings.lockWrappers.acquire, ...settings.lockWrappers.release].some((name) => name.startsWith('/'));
  // Lock-like names imported from the project's modules: calls through them may reach a helper
  // another module exports, even in a file with no other sign of Redis.
  const helperImports = importedHelperCandidates(sourceCode, imports, filename);
  // With types, any receiver may turn out to be a client; without, the tokens must show a sign of Redis.
  if (
    !oracle &&
    !hasPatternWrappers &&
    !mayUseRedis(sourceCode, extraNames) &&
    (helperImports.size === 0 || !callsImportedHelper(sourceCode, filename, imports, settings, moduleHelpers)) &&
    !importsProjectClient(sourceCode, imports, filename)
  )
    return emptyModel(imports, settings, sourceCode);
  for (const name of helperImports.keys()) extraNames.add(name);
  const resolver = new ClientResolver(sourceCode, imports, oracle, filename);
  const scripts = new ScriptResolver(sourceCode, filename);
  // Only calls whose method or callee name can mean Redis or a lock library are looked at further:
  // resolving a receiver is the expensive step, and most calls in most files are something else.
  const definingCalls: TSESTree.CallExpression[] = [];
  const candidates: { call: TSESTree.CallExpression; name: string }[] = [];
  const hashWrites: HashWrite[] = [];
  for (const call of collectNodes(sourceCode).calls) {
    const name = calleeName(call);
    if (name === undefined) continue;
    if (Object.hasOwn(SCRIPT_DEFINING_METHODS, name)) definingCalls.push(call);
    else if (HASH_WRITE_METHODS.has(name)) {
      const key = call.callee.type === AST_NODE_TYPES.MemberExpression ? call.arguments[0] : undefined;
      if (key) hashWrites.push({ call, keySignature: keySignature(sourceCode, key), owner: enclosingFunction(call) });
    } else candidates.push({ call, name });
  }
  const definedCommands = collectDefinedCommands(sourceCode, definingCalls, scripts);
  for (const name of definedCommands.keys()) extraNames.add(name);
  const calls = candidates
    .filter(
      ({ call, name }) =>
        hasPatternWrappers ||
        RELEVANT_METHOD_NAMES.has(name) ||
        extraNames.has(name) ||
        (helperImports.size > 0 && (helperImports.has(calledObjectName(call) ?? '') || isLockLikeName(name))),
    )
    .map(({ call }) => call);
  if (calls.length === 0) return emptyModel(imports, settings, sourceCode);

  const importedFamilies = new Set<ClientFamily>();
  for (const binding of imports.values()) {
    const entry = CLIENT_PACKAGES[binding.source];
    if (entry) importedFamilies.add(entry.family);
  }
  // A lock library's object imported from the project's own module (`import { redlock } from './redlock'`)
  // makes the handles its acquisitions return as much the library's as a package import does.
  if (mayNameLock(sourceCode)) {
    for (const family of importedClients(sourceCode, imports, filename).values()) if (isLockLibrary(family)) importedFamilies.add(family);
  }

  const fileUsesV5Options = calls.some((call) =>
    call.arguments.some(
      (argument) =>
        argument.type === AST_NODE_TYPES.ObjectExpression &&
        propertyValue(argument, 'condition') !== undefined &&
        propertyValue(argument, 'expiration') !== undefined,
    ),
  );
  const importedRedisFamilies = [...importedFamilies].filter((family) => dialectOfFamily(family) !== undefined);
  const fileDialect: RedisDialect | undefined =
    importedRedisFamilies.length === 1 ? refineByOptions(dialectOfFamily(importedRedisFamilies[0]!)!, fileUsesV5Options) : undefined;

  const hasLockLibrary = [...importedFamilies].some(isLockLibrary);

  const commands: RedisCommand[] = [];
  const baseAcquisitions: Acquisition[] = [];
  const baseReleases: Release[] = [];
  const baseExpiries: Expiry[] = [];
  const wrapperCalls = new Set<TSESTree.Node>();

  for (const call of calls) {
    const wrapper = wrapperEvent(sourceCode, call, settings);
    if (wrapper) {
      wrapperCalls.add(call);
      if (wrapper.kind === 'acquire')
        baseAcquisitions.push({
          ...wrapper.base,
          kind: 'wrapper',
          value: call.arguments[1],
          hasTtl: true,
          isTry: false,
          mintsFence: false,
        });
      else baseReleases.push({ ...wrapper.base, kind: 'wrapper', safe: true });
      continue;
    }
    const parts = methodCallParts(call);
    if (!parts) continue;
    const resolved = resolver.resolve(parts.receiver);
    if (resolved.notClient) continue;
    // `this.redisService.eval(...)` on a project wrapper that hands the call on unchanged: the client's command.
    const receiverInfo = resolved.family === undefined ? (resolver.forwardedTo(call) ?? resolved) : resolved;

    if (isLockLibrary(receiverInfo.family) || (hasLockLibrary && receiverInfo.family === undefined)) {
      const event = libraryEvent(sourceCode, call, parts.method, receiverInfo);
      if (event?.type === 'acquire') {
        baseAcquisitions.push(event.acquisition);
        continue;
      }
      if (event?.type === 'release') {
        baseReleases.push(event.release);
        continue;
      }
      if (event?.type === 'extend') {
        baseExpiries.push(event.expiry);
        continue;
      }
      if (receiverInfo.family !== undefined) continue;
    }

    const command = readCommand(sourceCode, call, parts.method, receiverInfo, scripts, definedCommands, fileDialect, fileUsesV5Options);
    if (!command) continue;
    commands.push(command);
    classify(command, baseAcquisitions, baseReleases, baseExpiries);
  }

  // Calls to the module's own lock helpers are lock events too.
  const { acquisitions, releases, expiries, helpers } = withLockHelpers(
    sourceCode,
    candidates.map((candidate) => candidate.call),
    { commands, acquisitions: baseAcquisitions, releases: baseReleases, expiries: baseExpiries },
    settings.lockKeyPattern,
    wrapperCalls,
    helperImports.size > 0 ? (call) => importedHelperOf(sourceCode, filename, helperImports, call, settings, moduleHelpers) : undefined,
  );

  const acquiredKeys = new Set<string>();
  for (const acquisition of acquisitions) if (acquisition.keySignature !== undefined) acquiredKeys.add(acquisition.keySignature);
  const acquiredSplitKeys = new Set<string>();
  for (const acquisition of acquisitions) if (acquisition.splitKey !== undefined) acquiredSplitKeys.add(acquisition.splitKey);
  const splitKeyOfKey = new Map<TSESTree.Node, string>();
  for (const event of [...releases, ...expiries])
    if (event.splitKey !== undefined && event.key) splitKeyOfKey.set(event.key, event.splitKey);

  return {
    commands,
    acquisitions,
    releases,
    expiries,
    acquiredKeys,
    lockHelpers: helpers,
    scriptConstants: findScriptConstants(sourceCode, program),
    definedCommands,
    fileDialect,
    imports,
    hashWrites,
    sourceCode,
    lockKeyPattern: settings.lockKeyPattern,
    splitKeyOfKey,
    acquiredSplitKeys,
  };
}

/** Method (or plain function) names that can take part in a lock: commands, chains, libraries. */
const RELEVANT_METHOD_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(REDIS_METHODS),
  ...GENERIC_COMMAND_METHODS,
  ...CHAIN_METHODS,
  ...LOCK_LIBRARY_METHOD_NAMES,
]);

/** `locks` of `locks.acquire(k)`. */
function calledObjectName(call: TSESTree.CallExpression): string | undefined {
  const callee = call.callee;
  return callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier
    ? callee.object.name
    : undefined;
}

function calleeName(call: TSESTree.CallExpression): string | undefined {
  const callee = call.callee;
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    if (!callee.computed && callee.property.type === AST_NODE_TYPES.Identifier) return callee.property.name;
    if (callee.property.type === AST_NODE_TYPES.Literal && typeof callee.property.value === 'string') return callee.property.value;
  }
  return undefined;
}

function emptyModel(imports: ImportTable, settings: SharedSettings, sourceCode: Readonly<TSESLint.SourceCode>): RedisModel {
  return {
    commands: [],
    acquisitions: [],
    releases: [],
    expiries: [],
    acquiredKeys: new Set(),
    lockHelpers: new Map(),
    scriptConstants: { release: undefined, extend: undefined },
    definedCommands: new Map(),
    fileDialect: undefined,
    imports,
    hashWrites: [],
    sourceCode,
    lockKeyPattern: settings.lockKeyPattern,
    splitKeyOfKey: new Map(),
    acquiredSplitKeys: new Set(),
  };
}

/** The dialect's version that spells options as `{ condition, expiration }`, when the file spells them so (node-redis 5). */
function refineByOptions(dialect: RedisDialect, fileUsesV5Options: boolean): RedisDialect {
  return fileUsesV5Options ? (REDIS_DIALECTS[dialect].conditionObjectVersion ?? dialect) : dialect;
}

function readCommand(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
  method: string,
  client: ReceiverInfo,
  scripts: ScriptResolver,
  definedCommands: RedisModel['definedCommands'],
  fileDialect: RedisDialect | undefined,
  fileUsesV5Options: boolean,
): RedisCommand | undefined {
  const owner = enclosingFunction(call);
  const resultUsed = isResultUsed(call);
  const familyDialect = client.family ? dialectOfFamily(client.family) : undefined;

  const defined = definedCommands.get(method);
  if (defined && (client.family !== undefined || client.evidence === 'unknown')) {
    const parts = methodCallParts(call)!;
    const args = [...call.arguments];
    const keyCount = defined.numberOfKeys ?? 1;
    const keys = args.slice(0, keyCount);
    const dialect = familyDialect ? refineByOptions(familyDialect, fileUsesV5Options) : (fileDialect ?? 'ioredis');
    return {
      call,
      name: 'EVAL',
      method,
      form: 'defined-script',
      client,
      receiver: parts.receiver,
      dialect,
      args,
      key: keys[0],
      keySignature: keys[0] ? keySignature(sourceCode, keys[0]) : undefined,
      value: undefined,
      set: undefined,
      compare: undefined,
      callback: undefined,
      owner,
      resultUsed,
      script: {
        script: defined.summary ? { source: '', summary: defined.summary } : undefined,
        scriptNode: undefined,
        keys,
        args: args.slice(keyCount),
        definedCommand: method,
      },
    };
  }

  const shape = readCommandShape(sourceCode, call);
  if (!shape) return undefined;
  // Without a family from types or tracing, only a call whose shape is Redis-specific counts.
  if (client.family === undefined && !isPlausibleRedisCall(shape.name, shape.args.length, method, receiverName(client.root)))
    return undefined;
  if (isLockLibrary(client.family)) return undefined;

  let dialect: RedisDialect = shape.shapeDialect ?? familyDialect ?? fileDialect ?? 'ioredis';
  const callbackVersion = familyDialect ? REDIS_DIALECTS[familyDialect].callbackVersion : undefined;
  if (callbackVersion && shape.callback) dialect = callbackVersion;
  else if (familyDialect && shape.shapeDialect === undefined) dialect = familyDialect;
  dialect = refineByOptions(dialect, fileUsesV5Options || isConditionObjectSpelling(shape.set?.spelling));

  const isScriptCommand = shape.name === 'EVAL' || shape.name === 'EVALSHA' || shape.name === 'EVAL_RO' || shape.name === 'EVALSHA_RO';
  const script = isScriptCommand ? readScriptCall(sourceCode, shape.args, scripts, shape.name.startsWith('EVALSHA')) : undefined;
  const key = isScriptCommand ? script?.keys[0] : shape.args[0];
  return {
    call,
    name: shape.name,
    method,
    form: shape.form,
    client,
    receiver: shape.receiver,
    dialect,
    args: shape.args,
    key,
    keySignature: key ? keySignature(sourceCode, key) : undefined,
    value: isScriptCommand ? undefined : shape.args[1],
    set: shape.set,
    compare: shape.compare,
    callback: shape.callback,
    owner,
    resultUsed,
    script,
  };
}

function receiverName(root: TSESTree.Expression): string | undefined {
  const expression = skipTypeWrappers(root);
  if (expression.type === AST_NODE_TYPES.Identifier) return expression.name;
  if (
    expression.type === AST_NODE_TYPES.MemberExpression &&
    !expression.computed &&
    expression.property.type === AST_NODE_TYPES.Identifier
  ) {
    return expression.property.name;
  }
  return undefined;
}

/** On an unknown receiver, a call counts when its method is Redis-specific or its receiver is named like a client, with Redis arity. */
function isPlausibleRedisCall(name: string, argumentCount: number, method: string, receiver: string | undefined): boolean {
  if (GENERIC_METHOD_NAMES.has(method) && (receiver === undefined || !CLIENT_LIKE_NAME.test(receiver))) return false;
  switch (name) {
    case 'DEL':
    case 'UNLINK':
    case 'GET':
    case 'EXISTS':
    case 'INCR':
    case 'TTL':
    case 'PTTL':
    case 'PERSIST':
    case 'GETDEL':
      return argumentCount >= 1;
    case 'SET':
    case 'SETNX':
    case 'GETSET':
      return argumentCount >= 2;
    case 'EXPIRE':
    case 'PEXPIRE':
    case 'EXPIREAT':
    case 'PEXPIREAT':
    case 'SETEX':
    case 'PSETEX':
      return argumentCount >= 2;
    case 'EVAL':
    case 'EVALSHA':
    case 'EVAL_RO':
    case 'EVALSHA_RO':
      return argumentCount >= 2;
    default:
      return method !== 'get' && method !== 'set';
  }
}

/** The key and argument lists of an eval in any dialect's layout. */
function readScriptCall(
  sourceCode: Readonly<TSESLint.SourceCode>,
  args: readonly TSESTree.Node[],
  scripts: ScriptResolver,
  bySha: boolean,
): ScriptCall {
  const [scriptNode, second, third] = args;
  const script = scriptNode ? (bySha ? scripts.resolveSha(scriptNode) : scripts.resolve(scriptNode)) : undefined;
  let keys: TSESTree.Node[] = [];
  let rest: TSESTree.Node[] = [];
  const layout = second ? skipTypeWrappers(second) : undefined;
  if (layout?.type === AST_NODE_TYPES.ObjectExpression) {
    // node-redis: eval(script, { keys: [...], arguments: [...] })
    keys = arrayElements(propertyValue(layout, 'keys'));
    rest = arrayElements(propertyValue(layout, 'arguments'));
  } else if (layout?.type === AST_NODE_TYPES.ArrayExpression) {
    // Upstash: eval(script, [keys], [args])
    keys = arrayElements(layout);
    rest = arrayElements(third);
  } else if (layout) {
    // ioredis / v3 / generic call: eval(script, numKeys, ...keys, ...args)
    const count = Number(staticString(sourceCode, layout) ?? (layout.type === AST_NODE_TYPES.Literal ? layout.value : NaN));
    const tail = args.slice(2);
    if (Number.isInteger(count) && count >= 0) {
      keys = tail.slice(0, count);
      rest = tail.slice(count);
    }
  }
  return { script, scriptNode, keys, args: rest, definedCommand: undefined };
}

function classify(command: RedisCommand, acquisitions: Acquisition[], releases: Release[], expiries: Expiry[]): void {
  const base = {
    node: command.call,
    library: RAW_COMMANDS,
    command,
    key: command.key,
    keySignature: command.keySignature,
    owner: command.owner,
  };
  const compare = command.compare?.condition;
  // Equal value (or digest): the server compares and writes in one step, as the Lua scripts do.
  const comparesOwner = compare === 'IFEQ' || compare === 'IFDEQ';
  switch (command.name) {
    case 'SET':
      if (command.set?.nx) {
        acquisitions.push({
          ...base,
          kind: 'set-nx',
          value: command.value,
          hasTtl: command.set.expiry !== undefined || command.set.opaque,
          isTry: true,
          mintsFence: false,
        });
      } else if (comparesOwner && !command.set?.keepTtl) {
        // Without PX/EX (or KEEPTTL) the SET drops the lock's TTL: a renewal that makes the lock eternal.
        const dropsTtl = command.set?.expiry === undefined && !command.set?.opaque;
        expiries.push({ ...base, kind: 'compare', safe: !dropsTtl, dropsTtl });
      } else if (
        command.set?.xx &&
        !command.set.keepTtl &&
        !command.set.get &&
        command.set.expiry !== undefined &&
        command.compare === undefined
      ) {
        // `XX` writes whenever the key exists, whoever's value it holds: with a new expiry that is a
        // renewal with no owner check. Without one (or with KEEPTTL) it is a value write, not a renewal.
        expiries.push({ ...base, kind: 'overwrite', safe: false });
      }
      return;
    case 'DELEX':
      // A bare DELEX deletes unconditionally, and IFNE/IFDNE delete exactly when another holder owns it.
      releases.push(comparesOwner ? { ...base, kind: 'compare', safe: true } : { ...base, kind: 'del', safe: false });
      return;
    case 'DELIFEQ':
      releases.push({ ...base, kind: 'compare', safe: true });
      return;
    case 'SETNX':
      acquisitions.push({ ...base, kind: 'setnx', value: command.value, hasTtl: false, isTry: true, mintsFence: false });
      return;
    case 'DEL':
    case 'UNLINK':
      // Each key of a multi-key DEL is its own release; the first is the one fixes address.
      releases.push({ ...base, kind: 'del', safe: false });
      return;
    case 'EXPIRE':
    case 'PEXPIRE':
    case 'EXPIREAT':
    case 'PEXPIREAT':
      expiries.push({ ...base, kind: 'expire', safe: false });
      return;
    default:
      break;
  }
  const summary = command.script?.script?.summary;
  if (!summary) return;
  const keyAt = (ref: string | undefined): TSESTree.Node | undefined => {
    const match = ref ? /^KEYS\[(\d+)\]$/u.exec(ref) : null;
    return match ? command.script?.keys[Number(match[1]) - 1] : command.key;
  };
  const scriptBase = (ref: string | undefined) => {
    const key = keyAt(ref);
    return { ...base, key, keySignature: key === command.key ? command.keySignature : undefined };
  };
  const nxSet = summary.sets.find((set) => set.nx);
  if (nxSet) {
    acquisitions.push({
      ...scriptBase(nxSet.keyRef),
      kind: 'script',
      value: command.script.args[0],
      hasTtl: nxSet.hasExpiry,
      isTry: true,
      mintsFence: summary.increments.length > 0,
    });
  }
  if (summary.deletes.length > 0)
    releases.push({ ...scriptBase(summary.deletes[0]!.keyRef), kind: 'script', safe: isCompareAndDelete(summary) });
  if (summary.expiries.length > 0 && !nxSet)
    expiries.push({ ...scriptBase(summary.expiries[0]!.keyRef), kind: 'script', safe: isCompareAndExpire(summary) });
}

/** `redis.defineCommand('releaseLock', { numberOfKeys: 1, lua })` and node-redis `defineScript(...)` entries. */
function collectDefinedCommands(
  sourceCode: Readonly<TSESLint.SourceCode>,
  calls: readonly TSESTree.CallExpression[],
  scripts: ScriptResolver,
): Map<string, { summary: LuaScriptSummary | undefined; numberOfKeys: number | undefined }> {
  const defined = new Map<string, { summary: LuaScriptSummary | undefined; numberOfKeys: number | undefined }>();
  for (const call of calls) {
    const method = methodCallParts(call)?.method;
    const callee = skipTypeWrappers(call.callee);
    const calleeName = callee.type === AST_NODE_TYPES.Identifier ? callee.name : method;
    if (method === 'defineCommand') {
      const name = call.arguments[0] ? staticString(sourceCode, call.arguments[0]) : undefined;
      const options = call.arguments[1] ? skipTypeWrappers(call.arguments[1]) : undefined;
      if (name === undefined || options?.type !== AST_NODE_TYPES.ObjectExpression) continue;
      const lua = propertyValue(options, 'lua');
      const keys = propertyValue(options, 'numberOfKeys');
      defined.set(name, {
        summary: lua ? scripts.resolve(lua)?.summary : undefined,
        numberOfKeys: keys?.type === AST_NODE_TYPES.Literal && typeof keys.value === 'number' ? keys.value : undefined,
      });
    } else if (calleeName === 'defineScript') {
      const options = call.arguments[0] ? skipTypeWrappers(call.arguments[0]) : undefined;
      const holder = call.parent;
      if (
        options?.type !== AST_NODE_TYPES.ObjectExpression ||
        holder.type !== AST_NODE_TYPES.Property ||
        holder.key.type !== AST_NODE_TYPES.Identifier
      )
        continue;
      const lua = propertyValue(options, 'SCRIPT');
      const keys = propertyValue(options, 'NUMBER_OF_KEYS');
      defined.set(holder.key.name, {
        summary: lua ? scripts.resolve(lua)?.summary : undefined,
        numberOfKeys: keys?.type === AST_NODE_TYPES.Literal && typeof keys.value === 'number' ? keys.value : undefined,
      });
    }
  }
  return defined;
}

/** Top-level constants whose text is a compare-and-delete or compare-and-expire script. */
function findScriptConstants(sourceCode: Readonly<TSESLint.SourceCode>, program: TSESTree.Program): RedisModel['scriptConstants'] {
  let release: string | undefined;
  let extend: string | undefined;
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations) {
      if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) continue;
      const text = staticString(sourceCode, declarator.init);
      // A script that deletes or expires calls Redis by name. Any other string (a version, a message,
      // a key prefix) would only be handed to the Lua parser to be rejected: an exception per string.
      if (text === undefined || !text.includes(LUA_REDIS_GLOBAL)) continue;
      const summary = analyzeLuaScript(text);
      if (!summary) continue;
      if (release === undefined && isCompareAndDelete(summary) && summary.expiries.length === 0) release = declarator.id.name;
      if (extend === undefined && isCompareAndExpire(summary) && summary.deletes.length === 0) extend = declarator.id.name;
    }
  }
  return { release, extend };
}
