// Decides whether an expression is a Redis client (or a lock library object), and of which family:
// by the checker when types exist, else by tracing the binding to the call that made it.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { collectNodes } from '../../util/collect-nodes.js';
import { findVariable, isFunctionLike, methodCallParts, propertyName, skipTypeWrappers, type FunctionLike } from '../../util/ast.js';
import { CHAIN_METHODS, CLIENT_OR_LOCK_MAKER_NAME, CLIENT_PACKAGES, SAME_CLIENT_METHODS } from '../tables/redis-clients.js';
import type { ClientFamily, ImportTable, TypeOracle } from '../nouns/vocabulary.js';
import {
  assignedValues,
  calledFunction,
  enclosingClassBody,
  isNullish,
  assignedMembersOf,
  memberAssignments,
  returnedValues,
} from '../project/factories.js';
import { importedValue, type ExportedValue, type ProjectModule } from '../project/modules.js';
import { calledInText, callsLockNamedMethod } from '../project/lock-names.js';
import { mayNameLock } from '../screen/redis-gate.js';
import type { Evidence, ReceiverInfo } from '../nouns/redis-events.js';

const UNKNOWN = (root: TSESTree.Expression): ReceiverInfo => ({
  family: undefined,
  notClient: false,
  evidence: 'unknown',
  root,
  chain: undefined,
});

export class ClientResolver {
  private readonly classMembers = new WeakMap<TSESTree.ClassBody, Map<string, TSESTree.Node[]>>();
  /** What each of the module's functions returns, when asked as a factory (null while being resolved: a cycle). */
  private readonly factoryResults = new WeakMap<FunctionLike, ReceiverInfo | null>();

  constructor(
    private readonly sourceCode: Readonly<TSESLint.SourceCode>,
    private readonly imports: ImportTable,
    private readonly oracle: TypeOracle | null,
    /** The linted file's path, to follow imports of the project's own modules; undefined follows none. */
    private readonly filename?: string,
  ) {}

  /** What made a value, when the value is the expression itself (`export default new Redis()`). */
  resolveValue(value: TSESTree.Node): ReceiverInfo {
    return this.fromOrigin(value, value as TSESTree.Expression, 0);
  }

  resolve(receiver: TSESTree.Expression): ReceiverInfo {
    return this.resolveDepth(receiver, 0);
  }

  private resolveDepth(node: TSESTree.Expression, depth: number): ReceiverInfo {
    const receiver = skipTypeWrappers(node) as TSESTree.Expression;
    if (depth > 6) return UNKNOWN(receiver);

    // Chains: `client.multi().set(...).expire(...)` → the client, with the chain's opening call.
    if (receiver.type === AST_NODE_TYPES.CallExpression) {
      const parts = methodCallParts(receiver);
      if (parts) {
        const inner = this.resolveDepth(parts.receiver, depth + 1);
        if (CHAIN_METHODS.has(parts.method)) return { ...inner, chain: receiver };
        if (inner.chain) return inner;
      }
    }

    if (this.oracle) {
      const verdict = this.oracle.familyOf(receiver);
      if (verdict === 'other') return { ...UNKNOWN(receiver), notClient: true, evidence: 'type' };
      if (verdict !== 'unknown') return { family: verdict, notClient: false, evidence: 'type', root: receiver, chain: undefined };
    }

    const imported = this.importedOrigin(receiver);
    if (imported) {
      const family = familyOfExport(imported);
      return family ? { family, notClient: false, evidence: 'traced', root: receiver, chain: undefined } : UNKNOWN(receiver);
    }
    // `getRedis().set(...)`, `(await getClient()).del(...)`: what the factory returns.
    if (receiver.type === AST_NODE_TYPES.CallExpression || receiver.type === AST_NODE_TYPES.AwaitExpression)
      return this.fromOrigin(receiver, receiver, depth);
    const origins = this.originsOf(receiver);
    if (!origins || origins.length === 0) return UNKNOWN(receiver);
    if (origins.length === 1) return this.fromOrigin(origins[0]!, receiver, depth);
    return combine(
      origins.map((origin) => this.fromOrigin(origin, receiver, depth + 1)),
      receiver,
    );
  }

  /**
   * The other module's value an imported receiver is: `redis` of `import { redis } from './redis'`
   * or `const redis = require('./redis')`, `db.redis` of `import * as db from './db'`. Only
   * module-level bindings the import table holds; packages are left to the client tables.
   */
  private importedOrigin(receiver: TSESTree.Expression): ExportedValue | undefined {
    if (this.filename === undefined) return undefined;
    let name: TSESTree.Identifier;
    let member: string | undefined;
    if (receiver.type === AST_NODE_TYPES.Identifier) name = receiver;
    else if (receiver.type === AST_NODE_TYPES.MemberExpression && receiver.object.type === AST_NODE_TYPES.Identifier) {
      name = receiver.object;
      member = propertyName(receiver);
      if (member === undefined) return undefined;
    } else return undefined;
    const binding = this.imports.get(name.name);
    if (!binding || CLIENT_PACKAGES[binding.source] || (member !== undefined && binding.imported !== '*' && binding.imported !== 'default'))
      return undefined;
    if (!isModuleBinding(this.sourceCode, name)) return undefined;
    try {
      return importedValue(this.filename, binding, 'client', member);
    } catch {
      return undefined;
    }
  }

  /**
   * What made the value: a declarator's initialiser (and, for a variable declared empty or reassigned,
   * what is assigned to it later: module state set by an `init()`, a lazy singleton), a class field's
   * value or every `this.x = …` of its class, a parameter's declared type or default value.
   */
  private originsOf(receiver: TSESTree.Expression): readonly TSESTree.Node[] | undefined {
    if (receiver.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(this.sourceCode, receiver);
      if (!variable || variable.defs.length !== 1) return undefined;
      const definition = variable.defs[0]!;
      if (definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.id.type === AST_NODE_TYPES.Identifier) {
        const init = definition.node.init && !isNullish(definition.node.init) ? definition.node.init : undefined;
        const annotation = definition.node.id.typeAnnotation?.typeAnnotation;
        // `let client: Redis;` assigned later: the annotation says what it is.
        if (!init && annotation?.type === AST_NODE_TYPES.TSTypeReference) return [annotation];
        const assigned = definition.node.parent.kind === 'const' ? undefined : assignedValues(variable);
        return init ? [init, ...(assigned ?? [])] : assigned;
      }
      if (definition.type === TSESLint.Scope.DefinitionType.Parameter) {
        const annotation = definition.name.typeAnnotation?.typeAnnotation;
        if (annotation) return [annotation];
        // `function lock(redis = new Redis())`: the default is what an omitted argument is.
        const pattern = definition.name.parent;
        return pattern.type === AST_NODE_TYPES.AssignmentPattern && pattern.left === definition.name ? [pattern.right] : undefined;
      }
      return undefined;
    }
    if (receiver.type === AST_NODE_TYPES.MemberExpression && receiver.object.type === AST_NODE_TYPES.ThisExpression) {
      const name = propertyName(receiver);
      const classBody = enclosingClassBody(receiver);
      return name !== undefined && classBody ? this.membersOf(classBody).get(name) : undefined;
    }
    return undefined;
  }

  private fromOrigin(origin: TSESTree.Node, receiver: TSESTree.Expression, depth: number): ReceiverInfo {
    const value = skipTypeWrappers(origin);
    if (value.type === AST_NODE_TYPES.AwaitExpression) return this.fromOrigin(value.argument, receiver, depth);
    if (value.type === AST_NODE_TYPES.TSTypeReference) {
      const family = this.familyOfTypeName(value.typeName);
      const cluster = CLUSTER_MAKERS.has(
        (value.typeName.type === AST_NODE_TYPES.TSQualifiedName ? value.typeName.right.name : makerName(value.typeName)) ?? '',
      );
      return family ? { family, notClient: false, evidence: 'traced', root: receiver, chain: undefined, cluster } : UNKNOWN(receiver);
    }
    if (value.type === AST_NODE_TYPES.NewExpression) {
      const family = this.familyOfMaker(value.callee);
      if (family)
        return {
          family,
          notClient: false,
          evidence: 'traced',
          root: receiver,
          chain: undefined,
          cluster: CLUSTER_MAKERS.has(makerName(value.callee) ?? ''),
        };
      // `new Map()`, `new LRUCache()`: a constructed object of a known other kind.
      const name = makerName(value.callee);
      return {
        ...UNKNOWN(receiver),
        notClient: name !== undefined && !CLIENT_OR_LOCK_MAKER_NAME.test(name),
        evidence: 'traced',
      };
    }
    if (value.type === AST_NODE_TYPES.CallExpression) {
      const parts = methodCallParts(value);
      // `createClient().connect()` and `await client.duplicate()` keep the client's family.
      if (parts && SAME_CLIENT_METHODS.has(parts.method)) {
        return this.fromOrigin(parts.receiver, receiver, depth);
      }
      if (parts && CHAIN_METHODS.has(parts.method)) {
        const inner = this.resolveDepth(parts.receiver, depth + 1);
        return { ...inner, chain: value };
      }
      const family = this.familyOfMaker(value.callee);
      if (family)
        return {
          family,
          notClient: false,
          evidence: 'traced',
          root: receiver,
          chain: undefined,
          cluster: CLUSTER_MAKERS.has(makerName(value.callee) ?? ''),
        };
    }
    if (value.type === AST_NODE_TYPES.CallExpression && depth < 6) {
      // `const redis = getRedis()`: a factory of the project's own, by what it returns.
      const factory = calledFunction(this.sourceCode, this.imports, this.filename, value);
      if (factory) return { ...factoryResult(this, factory.module, factory.fn, depth), root: receiver };
    }
    if (value.type === AST_NODE_TYPES.LogicalExpression && (value.operator === '||' || value.operator === '??')) {
      // `options.redis ?? new Redis()`, `globalThis.redis || createClient()`: either side is the value.
      return combine([this.fromOrigin(value.left, receiver, depth + 1), this.fromOrigin(value.right, receiver, depth + 1)], receiver);
    }
    if (value.type === AST_NODE_TYPES.ConditionalExpression) {
      return combine(
        [this.fromOrigin(value.consequent, receiver, depth + 1), this.fromOrigin(value.alternate, receiver, depth + 1)],
        receiver,
      );
    }
    if (value.type === AST_NODE_TYPES.Identifier || value.type === AST_NODE_TYPES.MemberExpression) {
      // `const client = redis;` aliases.
      return { ...this.resolveDepth(value, depth + 1), root: receiver };
    }
    return UNKNOWN(receiver);
  }

  /**
   * The client a call on a project wrapper forwards to unchanged: `redisService.eval(s, n, ...a)`
   * whose method is `return this.client.eval(s, n, ...a)`, through up to three such wrappers (a
   * service over a repository over the client), here or in other modules. The call is then that
   * client's command with the caller's own arguments. Undefined for anything else.
   */
  forwardedTo(call: TSESTree.CallExpression, depth = 0): ReceiverInfo | undefined {
    const parts = methodCallParts(call);
    if (!parts) return undefined;
    const target = calledFunction(this.sourceCode, this.imports, this.filename, call);
    const inner = target ? forwardingCall(target.fn, parts.method) : undefined;
    if (!target || !inner) return undefined;
    const resolver = target.module ? moduleResolver(target.module) : this;
    try {
      const info = resolver.resolve(methodCallParts(inner)!.receiver);
      if (info.family !== undefined && !info.notClient) return { ...info, root: parts.receiver, chain: undefined };
      return depth < 2 && !info.notClient ? resolver.forwardedTo(inner, depth + 1) : undefined;
    } catch {
      // Another module's code, whatever shape it has, never makes this file's rules throw.
      return undefined;
    }
  }

  /** What a factory function of this module returns, memoised per function. */
  returnsOf(fn: FunctionLike, depth: number): ReceiverInfo {
    const known = this.factoryResults.get(fn);
    if (known !== undefined) return known ?? UNKNOWN(fn as unknown as TSESTree.Expression);
    this.factoryResults.set(fn, null);
    // `getRedisClient(): Redis { … }`, `async getClient(): Promise<Redis>`: the declared type says it as well as the returns do.
    const returned = returnedValues(fn);
    const declared = declaredReturnType(fn);
    const values = declared ? [declared, ...(returned ?? [])] : returned;
    let info: ReceiverInfo;
    try {
      info = values
        ? combine(
            values.map((value) => this.fromOrigin(value, value as TSESTree.Expression, depth + 1)),
            fn as unknown as TSESTree.Expression,
          )
        : UNKNOWN(fn as unknown as TSESTree.Expression);
    } catch {
      info = UNKNOWN(fn as unknown as TSESTree.Expression);
    }
    // The chain a factory's return opened is the factory's, not the caller's.
    info = { ...info, chain: undefined };
    this.factoryResults.set(fn, info);
    return info;
  }

  /** `Redis`, `IORedis.Cluster`, `createClient`, `Redis.fromEnv`, `redis.createClient`. */
  private familyOfMaker(callee: TSESTree.Node): ClientFamily | undefined {
    const expression = skipTypeWrappers(callee);
    if (expression.type === AST_NODE_TYPES.Identifier) {
      const binding = this.imports.get(expression.name);
      if (!binding) return undefined;
      const entry = CLIENT_PACKAGES[binding.source];
      if (!entry) return undefined;
      return binding.imported === '*' || entry.makers.includes(binding.imported) ? entry.family : undefined;
    }
    if (expression.type === AST_NODE_TYPES.MemberExpression) {
      const name = propertyName(expression);
      const objectFamily = this.familyOfMaker(expression.object);
      if (objectFamily) return objectFamily;
      // `redis.createClient()` where `redis` is the whole module.
      if (expression.object.type === AST_NODE_TYPES.Identifier && name !== undefined) {
        const binding = this.imports.get(expression.object.name);
        const entry = binding ? CLIENT_PACKAGES[binding.source] : undefined;
        if (entry && (entry.makers.includes(name) || name === 'fromEnv')) return entry.family;
      }
    }
    return undefined;
  }

  private familyOfTypeName(typeName: TSESTree.EntityName): ClientFamily | undefined {
    if (typeName.type === AST_NODE_TYPES.Identifier) {
      const binding = this.imports.get(typeName.name);
      const entry = binding ? CLIENT_PACKAGES[binding.source] : undefined;
      if (!entry || !binding) return undefined;
      return binding.imported === '*' || binding.imported === 'default' || entry.typeNames.includes(binding.imported)
        ? entry.family
        : undefined;
    }
    if (typeName.type === AST_NODE_TYPES.TSQualifiedName && typeName.left.type === AST_NODE_TYPES.Identifier) {
      const binding = this.imports.get(typeName.left.name);
      const entry = binding ? CLIENT_PACKAGES[binding.source] : undefined;
      return entry?.typeNames.includes(typeName.right.name) ? entry.family : undefined;
    }
    return undefined;
  }

  /**
   * Class members by name, to every value given them: a field's initialiser (or declared type), a
   * constructor parameter property's declared type, and each `this.name = …` anywhere in the class.
   */
  private membersOf(classBody: TSESTree.ClassBody): Map<string, TSESTree.Node[]> {
    const cached = this.classMembers.get(classBody);
    if (cached) return cached;
    const members = new Map<string, TSESTree.Node[]>();
    const add = (name: string, origin: TSESTree.Node) => {
      const list = members.get(name);
      if (list) list.push(origin);
      else members.set(name, [origin]);
    };
    for (const element of classBody.body) {
      // A getter (`static get lock(): Redlock { … return this.redlock; }`, as lazy singletons are
      // written): what it is declared to return, else what it returns.
      if (
        element.type === AST_NODE_TYPES.MethodDefinition &&
        element.kind === 'get' &&
        element.key.type === AST_NODE_TYPES.Identifier &&
        !element.computed
      ) {
        const declared = element.value.returnType?.typeAnnotation;
        const origins =
          declared?.type === AST_NODE_TYPES.TSTypeReference
            ? [declared]
            : element.value.type === AST_NODE_TYPES.FunctionExpression
              ? returnedValues(element.value)
              : undefined;
        for (const origin of origins ?? []) add(element.key.name, origin);
      }
      // Static fields too (`private static redlock = new Redlock(…)`): `this.x` in a static method reads them.
      if (
        element.type === AST_NODE_TYPES.PropertyDefinition &&
        element.key.type === AST_NODE_TYPES.Identifier &&
        (!element.static || element.value)
      ) {
        const origin = element.value && !isNullish(element.value) ? element.value : element.typeAnnotation?.typeAnnotation;
        if (origin) add(element.key.name, origin);
      }
      if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor') {
        for (const parameter of element.value.params) {
          if (parameter.type === AST_NODE_TYPES.TSParameterProperty && parameter.parameter.type === AST_NODE_TYPES.Identifier) {
            const annotation = parameter.parameter.typeAnnotation?.typeAnnotation;
            if (annotation) add(parameter.parameter.name, annotation);
          }
        }
      }
    }
    // A declared type says what the member is; assignments count for the members without one.
    const initializers = collectNodes(this.sourceCode).memberInitializers;
    for (const name of assignedMembersOf(classBody, initializers)) {
      if (members.get(name)?.some((origin) => origin.type === AST_NODE_TYPES.TSTypeReference)) continue;
      for (const value of memberAssignments(classBody, name, initializers)) {
        if (!members.get(name)?.includes(value)) add(name, value);
      }
    }
    this.classMembers.set(classBody, members);
    return members;
  }
}

/**
 * One answer from several origins of a value: the family they agree on (origins that say nothing
 * do not disagree), not a client when every origin is known not to be one, else unknown.
 */
function combine(infos: readonly ReceiverInfo[], receiver: TSESTree.Expression): ReceiverInfo {
  if (infos.length === 1) return { ...infos[0]!, root: receiver };
  let family: ClientFamily | undefined;
  let cluster = false;
  let evidence: Evidence = 'traced';
  for (const info of infos) {
    if (info.family === undefined) continue;
    if (family !== undefined && info.family !== family) return UNKNOWN(receiver);
    family = info.family;
    cluster ||= info.cluster === true;
    if (info.evidence === 'type') evidence = 'type';
  }
  if (family !== undefined) {
    return infos.some((info) => info.notClient)
      ? UNKNOWN(receiver)
      : { family, notClient: false, evidence, root: receiver, chain: undefined, cluster };
  }
  if (infos.length > 0 && infos.every((info) => info.notClient)) return { ...UNKNOWN(receiver), notClient: true, evidence: 'traced' };
  return UNKNOWN(receiver);
}

/** A factory's result, resolved in the module that declares it (this one when `module` is undefined). */
function factoryResult(resolver: ClientResolver, module: ProjectModule | undefined, fn: FunctionLike, depth: number): ReceiverInfo {
  if (!module) return resolver.returnsOf(fn, depth);
  try {
    return moduleResolver(module).returnsOf(fn, 0);
  } catch {
    return UNKNOWN(fn as unknown as TSESTree.Expression);
  }
}

function moduleResolver(module: ProjectModule): ClientResolver {
  let resolver = module.memo.get('clients') as ClientResolver | undefined;
  if (!resolver) {
    resolver = new ClientResolver(module.sourceCode, module.imports, null, module.filePath);
    module.memo.set('clients', resolver);
  }
  return resolver;
}

/** The identifier names the module-level binding (an import, a top-level `require`), not a local that shadows it. */
function isModuleBinding(sourceCode: Readonly<TSESLint.SourceCode>, identifier: TSESTree.Identifier): boolean {
  const definition = findVariable(sourceCode, identifier)?.defs[0];
  if (!definition) return false;
  if (definition.type === TSESLint.Scope.DefinitionType.ImportBinding) return true;
  return definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.parent.parent.type === AST_NODE_TYPES.Program;
}

const exportFamilies = new WeakMap<TSESTree.Node, ClientFamily | null>();

/** The client family of another module's exported value, resolved in that module (and memoised on its node). */
function familyOfExport(value: ExportedValue): ClientFamily | undefined {
  const known = exportFamilies.get(value.node);
  if (known !== undefined) return known ?? undefined;
  // Guards cycles of modules re-exporting each other's clients.
  exportFamilies.set(value.node, null);
  const resolver = moduleResolver(value.module);
  let family: ClientFamily | undefined;
  try {
    const info = value.node.type === AST_NODE_TYPES.Identifier ? resolver.resolve(value.node) : resolver.resolveValue(value.node);
    family = info.notClient ? undefined : info.family;
  } catch {
    // Another module's code, whatever shape it has, never makes this file's rules throw.
    family = undefined;
  }
  exportFamilies.set(value.node, family ?? null);
  return family;
}

const importedClientsOf = new WeakMap<TSESTree.Program, ReadonlyMap<string, ClientFamily>>();

/**
 * The file's imports from the project's own modules that are Redis clients or lock-library objects
 * there (`import { redlock } from './redlock'`, `const { redis } = require('../db')`), among those
 * the text calls a method on. A file whose only sign of Redis is such an import (a Redlock instance
 * another module makes, a client imported under a neutral name) still takes locks. Once per file.
 */
export function importedClients(
  sourceCode: Readonly<TSESLint.SourceCode>,
  imports: ImportTable,
  filename: string | undefined,
): ReadonlyMap<string, ClientFamily> {
  let clients = importedClientsOf.get(sourceCode.ast);
  if (!clients) {
    clients = filename === undefined ? new Map() : clientsImportedBy(sourceCode.text, imports, filename);
    importedClientsOf.set(sourceCode.ast, clients);
  }
  return clients;
}

function clientsImportedBy(text: string, imports: ImportTable, filename: string): Map<string, ClientFamily> {
  const clients = new Map<string, ClientFamily>();
  for (const [local, binding] of imports) {
    if (CLIENT_PACKAGES[binding.source] || !calledInText(text, local)) continue;
    let value: ExportedValue | undefined;
    try {
      value = importedValue(filename, binding, 'client');
    } catch {
      // Another module's code, whatever shape it has, never makes this file's rules throw.
      value = undefined;
    }
    const family = value ? familyOfExport(value) : undefined;
    if (family) clients.set(local, family);
  }
  return clients;
}

/**
 * Whether the file takes a lock through a client or lock-library object imported from the project's
 * own modules: a lock word in its code and a lock-named method called (`redlock.acquire(`,
 * `mutex.tryLock(`), the text screens the editor's lock map also reads, before any module is read.
 */
export function importsProjectClient(
  sourceCode: Readonly<TSESLint.SourceCode>,
  imports: ImportTable,
  filename: string | undefined,
): boolean {
  return mayNameLock(sourceCode) && callsLockNamedMethod(sourceCode.text) && importedClients(sourceCode, imports, filename).size > 0;
}

/**
 * The one call a function forwards to, unchanged: its whole body returns (or awaits) a call of the
 * same method name whose arguments are the function's parameters in order (`...args` spread as
 * given). A wrapper that adds, drops or reorders an argument is not a pass-through.
 */
function forwardingCall(fn: FunctionLike, method: string): TSESTree.CallExpression | undefined {
  let expression = onlyExpression(fn);
  // `return this.withLogging('EVAL', meta, async () => this.client.eval(s, n, ...a))`: a wrapper that
  // runs a callback taking no arguments (logging, metrics, retries) hands the call on all the same.
  if (expression?.type === AST_NODE_TYPES.CallExpression && methodCallParts(expression)?.method !== method) {
    const last = expression.arguments.at(-1);
    const callback = last ? skipTypeWrappers(last) : undefined;
    expression = callback && isFunctionLike(callback) && callback.params.length === 0 ? onlyExpression(callback) : undefined;
  }
  if (expression?.type !== AST_NODE_TYPES.CallExpression || methodCallParts(expression)?.method !== method) return undefined;
  if (expression.arguments.length !== fn.params.length) return undefined;
  const forwardsParameters = fn.params.every((parameter, index) => {
    const argument = expression.arguments[index]!;
    if (parameter.type === AST_NODE_TYPES.Identifier)
      return argument.type === AST_NODE_TYPES.Identifier && argument.name === parameter.name;
    return (
      parameter.type === AST_NODE_TYPES.RestElement &&
      parameter.argument.type === AST_NODE_TYPES.Identifier &&
      argument.type === AST_NODE_TYPES.SpreadElement &&
      argument.argument.type === AST_NODE_TYPES.Identifier &&
      argument.argument.name === parameter.argument.name
    );
  });
  return forwardsParameters ? expression : undefined;
}

/** The expression a function's whole body is: an arrow's expression, a lone `return x`/`x;`, awaited or not. */
function onlyExpression(fn: FunctionLike): TSESTree.Expression | undefined {
  let body: TSESTree.Node | null | undefined = fn.body;
  if (body.type === AST_NODE_TYPES.BlockStatement) {
    if (body.body.length !== 1) return undefined;
    const statement = body.body[0]!;
    body =
      statement.type === AST_NODE_TYPES.ReturnStatement
        ? statement.argument
        : statement.type === AST_NODE_TYPES.ExpressionStatement
          ? statement.expression
          : undefined;
  }
  let expression = body ? (skipTypeWrappers(body) as TSESTree.Expression) : undefined;
  if (expression?.type === AST_NODE_TYPES.AwaitExpression) expression = skipTypeWrappers(expression.argument) as TSESTree.Expression;
  return expression;
}

/** The type a function is declared to return, the awaited one for `Promise<T>`, when it names a type. */
function declaredReturnType(fn: FunctionLike): TSESTree.TSTypeReference | undefined {
  let type = fn.returnType?.typeAnnotation;
  if (
    type?.type === AST_NODE_TYPES.TSTypeReference &&
    type.typeName.type === AST_NODE_TYPES.Identifier &&
    type.typeName.name === 'Promise' &&
    type.typeArguments?.params.length === 1
  )
    type = type.typeArguments.params[0];
  return type?.type === AST_NODE_TYPES.TSTypeReference ? type : undefined;
}

/** Makers and types of cluster clients (ioredis `Cluster`, node-redis `createCluster`). */
const CLUSTER_MAKERS = new Set(['Cluster', 'createCluster', 'RedisClusterType']);

function makerName(callee: TSESTree.Node): string | undefined {
  const expression = skipTypeWrappers(callee);
  if (expression.type === AST_NODE_TYPES.Identifier) return expression.name;
  if (expression.type === AST_NODE_TYPES.MemberExpression) return propertyName(expression);
  return undefined;
}
