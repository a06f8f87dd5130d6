// Which object sends a query, and whether it is a pool, one dedicated connection, or a transaction.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { collectNodes } from '../../util/collect-nodes.js';
import { callerArguments } from '../facts/parameter-callers.js';
import { findVariable, isFunctionLike, propertyName, skipTypeWrappers, type FunctionLike, propertyValue } from '../../util/ast.js';
import { assignedValues, calledFunction, enclosingClassBody, isNullish, returnedValues } from '../project/factories.js';
import type { ImportTable, SqlLibrary } from '../nouns/vocabulary.js';
import { importedValue, type ExportedValue, type ProjectModule } from '../project/modules.js';
import { resolveImport } from '../project/resolve.js';
import {
  CHECKOUT_METHODS,
  POOL_NAMES,
  POOLED_MEMBERS,
  SQL_BUILDER_PACKAGES,
  SQL_TYPE_PACKAGES,
  SQL_PACKAGES,
  GENERATED_CLIENTS,
  SQL_TYPE_NAMES,
  TRANSACTION_CALLBACK_METHODS,
  TRANSACTION_HANDLE_METHODS,
  sqlClientSemantics,
  transactionHelperPath,
  type SqlFactory,
} from '../tables/sql-clients.js';
import type { SqlHandle, SqlSender } from '../nouns/sql-items.js';

const { DefinitionType } = TSESLint.Scope;

const UNKNOWN: SqlHandle = { kind: 'unknown', library: 'unknown', inTransaction: false };

export class SenderResolver {
  private readonly variableHandles = new Map<TSESLint.Scope.Variable, SqlHandle>();
  private readonly memberInitializers = new Map<string, TSESTree.Expression>();
  /** What each of the module's functions returns, when asked as a factory. */
  private readonly factoryHandles = new WeakMap<FunctionLike, SqlHandle>();

  constructor(
    private readonly sourceCode: Readonly<TSESLint.SourceCode>,
    private readonly imports: ImportTable,
    /** The linted file's path, to follow imports of the project's own modules; undefined follows none. */
    private readonly filename?: string,
  ) {}

  /** `this.pool = new Pool()` and class fields `pool = new Pool()`, by property name. */
  noteMemberInitializer(name: string, init: TSESTree.Expression): void {
    if (!this.memberInitializers.has(name)) this.memberInitializers.set(name, init);
  }

  sender(node: TSESTree.Node): SqlSender {
    const expression = skipTypeWrappers(node);
    let identity: TSESLint.Scope.Variable | string = this.sourceCode.getText(expression);
    if (expression.type === AST_NODE_TYPES.Identifier) identity = findVariable(this.sourceCode, expression) ?? identity;
    return { ...this.handle(expression, 0), node: expression, text: this.sourceCode.getText(expression), identity };
  }

  handle(node: TSESTree.Node, depth: number): SqlHandle {
    if (depth > 6) return UNKNOWN;
    // `getDatabase() as NodePgDatabase<typeof schema>`: the type the code asserts says what it is.
    if (node.type === AST_NODE_TYPES.TSAsExpression || node.type === AST_NODE_TYPES.TSSatisfiesExpression) {
      const asserted = this.declaredTypeHandle(node.typeAnnotation, 0);
      if (asserted) return asserted;
    }
    const expression = skipTypeWrappers(node);
    switch (expression.type) {
      case AST_NODE_TYPES.AwaitExpression:
        return this.handle(expression.argument, depth + 1);
      case AST_NODE_TYPES.Identifier:
        return this.identifierHandle(expression, depth);
      case AST_NODE_TYPES.MemberExpression: {
        const name = propertyName(expression);
        if (expression.object.type === AST_NODE_TYPES.ThisExpression && name !== undefined) {
          const init = this.memberInitializers.get(name);
          if (init) return this.handle(init, depth + 1);
          // `constructor(private readonly db: Knex)`, `private pool: Pool;`: the declared type.
          const declared = this.declaredMemberHandle(expression, name);
          if (declared) return declared;
          return handleByName(name);
        }
        const pooledLibrary = name !== undefined && Object.hasOwn(POOLED_MEMBERS, name) ? POOLED_MEMBERS[name] : undefined;
        if (pooledLibrary !== undefined) {
          const owning = this.handle(expression.object, depth + 1);
          if (owning.kind === 'pool' && owning.library === pooledLibrary && !owning.inTransaction) return owning;
        }
        return UNKNOWN;
      }
      case AST_NODE_TYPES.NewExpression:
      case AST_NODE_TYPES.CallExpression:
        return this.createdHandle(expression, depth);
      case AST_NODE_TYPES.LogicalExpression:
        // `globalForPrisma.prisma ?? new PrismaClient()`: either side is the value.
        return expression.operator === '&&'
          ? UNKNOWN
          : combineHandles([this.handle(expression.left, depth + 1), this.handle(expression.right, depth + 1)]);
      case AST_NODE_TYPES.ConditionalExpression:
        return combineHandles([this.handle(expression.consequent, depth + 1), this.handle(expression.alternate, depth + 1)]);
      default:
        return UNKNOWN;
    }
  }

  /**
   * The declared type of a constructor parameter property or a field without an initialiser. A type
   * another package declares (`pool: Pool` of generic-pool) says the member is no SQL handle, whatever its name.
   */
  private declaredMemberHandle(member: TSESTree.MemberExpression, name: string): SqlHandle | undefined {
    const classBody = enclosingClassBody(member);
    let annotation: TSESTree.TypeNode | undefined;
    for (const element of classBody?.body ?? []) {
      if (
        element.type === AST_NODE_TYPES.PropertyDefinition &&
        !element.static &&
        element.key.type === AST_NODE_TYPES.Identifier &&
        element.key.name === name
      ) {
        annotation = element.typeAnnotation?.typeAnnotation;
      }
      if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor') {
        for (const parameter of element.value.params) {
          if (
            parameter.type === AST_NODE_TYPES.TSParameterProperty &&
            parameter.parameter.type === AST_NODE_TYPES.Identifier &&
            parameter.parameter.name === name
          ) {
            annotation = parameter.parameter.typeAnnotation?.typeAnnotation;
          }
        }
      }
    }
    if (annotation?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
    const handle = typeHandle(annotation, this.isForeignType);
    if (handle) return handle;
    // A SQL type's name (`Pool`) imported from another package: whatever the member is called, no SQL handle.
    const typeName =
      annotation.typeName.type === AST_NODE_TYPES.TSQualifiedName ? annotation.typeName.right.name : typeRoot(annotation.typeName);
    return typeName !== undefined && Object.hasOwn(SQL_TYPE_NAMES, typeName) ? UNKNOWN : undefined;
  }

  /** What a factory function of this module returns (`getPool()`), memoised per function. */
  returnsOf(fn: FunctionLike, depth: number): SqlHandle {
    const known = this.factoryHandles.get(fn);
    if (known) return known;
    this.factoryHandles.set(fn, UNKNOWN);
    const values = returnedValues(fn);
    const handle = values ? combineHandles(values.map((value) => this.handle(value, depth + 1))) : UNKNOWN;
    this.factoryHandles.set(fn, handle);
    return handle;
  }

  private identifierHandle(identifier: TSESTree.Identifier, depth: number): SqlHandle {
    const variable = findVariable(this.sourceCode, identifier);
    if (!variable) return handleByName(identifier.name);
    const cached = this.variableHandles.get(variable);
    if (cached) return cached;
    // Guards recursion through self-referencing definitions.
    this.variableHandles.set(variable, UNKNOWN);
    const handle = this.variableHandle(variable, depth);
    this.variableHandles.set(variable, handle);
    return handle;
  }

  private variableHandle(variable: TSESLint.Scope.Variable, depth: number): SqlHandle {
    const definition = variable.defs[0];
    if (!definition || variable.defs.length !== 1) return UNKNOWN;
    if (definition.type === DefinitionType.Parameter) {
      const passed = this.callersHandle(definition.name, depth);
      if (passed) return passed;
    }
    const annotated =
      annotationHandle(definition.name, this.isForeignType) ??
      (definition.name.type === AST_NODE_TYPES.Identifier
        ? this.aliasedTypeHandle(definition.name.typeAnnotation?.typeAnnotation)
        : undefined);
    if (annotated) return annotated;
    if (definition.type === DefinitionType.ImportBinding) {
      const imported = this.importedHandle(variable.name);
      if (imported.kind !== 'unknown') return imported;
      return this.isProjectImport(variable.name) ? handleByName(variable.name) : UNKNOWN;
    }
    if (definition.type === DefinitionType.Variable) {
      const declarator = definition.node;
      if (declarator.id.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
      // `let pool; export function init() { pool = new Pool() }`: what it is assigned once made.
      const assigned = declarator.parent.kind === 'const' ? undefined : assignedValues(variable);
      const init = declarator.init && !isNullish(declarator.init) ? declarator.init : undefined;
      if (!init) return assigned ? combineHandles(assigned.map((value) => this.handle(value, depth + 1))) : UNKNOWN;
      // `const db = require('./db')` at module level: what that module exports.
      if (declarator.parent.parent.type === AST_NODE_TYPES.Program && this.imports.has(variable.name)) {
        const imported = this.importedHandle(variable.name);
        if (imported.kind !== 'unknown') return imported;
      }
      const initial = this.handle(init, depth + 1);
      return assigned ? combineHandles([initial, ...assigned.map((value) => this.handle(value, depth + 1))]) : initial;
    }
    if (definition.type === DefinitionType.Parameter) return this.callbackParameterHandle(definition.node, definition.name, depth);
    return UNKNOWN;
  }

  /**
   * What every caller of a module-private function passes for its parameter, when they all agree
   * on a known handle: more than its declared type says (knex's \`Knex\` is also the type of a
   * transaction, so \`lockName(trx: Knex)\` called only with transactions runs inside one).
   */
  private callersHandle(parameter: TSESTree.Node, depth: number): SqlHandle | undefined {
    const passed = callerArguments(this.sourceCode, parameter);
    if (!passed) return undefined;
    const handles = passed.map((argument) => this.handle(argument, depth + 1));
    const first = handles[0];
    if (
      !first ||
      handles.some((handle) => handle.kind === 'unknown' || handle.kind !== first.kind || handle.inTransaction !== first.inTransaction)
    )
      return undefined;
    // Callers of one kind whose libraries are not all known (a transaction of a client this file cannot trace) agree on what matters here.
    const libraries = new Set(handles.map((handle) => handle.library).filter((library) => library !== 'unknown'));
    const library = libraries.size === 1 ? [...libraries][0]! : 'unknown';
    const reconnects = handles.every((handle) => handle.reconnects === true);
    return { kind: first.kind, library, inTransaction: first.inTransaction, ...(reconnects ? { reconnects } : {}) };
  }

  /**
   * The type's name is imported from a package that is not the library the name belongs to: neither
   * a project module, nor a SQL package, nor one named for the library (a fork: `@n8n/typeorm`).
   */
  private readonly isForeignType = (local: string, library: SqlLibrary, onlyFrom?: readonly string[]): boolean => {
    const source = this.imports.get(local)?.source;
    if (onlyFrom) return source === undefined || !onlyFrom.includes(source);
    return (
      source !== undefined && !source.startsWith('.') && !source.includes(library) && !isSqlPackage(source) && !this.isProjectImport(local)
    );
  };

  /** The binding is imported from one of the project's own modules (a relative path, an alias, a workspace package). */
  private isProjectImport(local: string): boolean {
    const source = this.imports.get(local)?.source;
    if (source === undefined) return false;
    if (source.startsWith('.')) return true;
    return this.filename !== undefined && resolveImport(this.filename, source) !== undefined;
  }

  /** The handle another project module exports under the binding (`export const db = drizzle(pool)`). */
  private importedHandle(local: string): SqlHandle {
    const binding = this.imports.get(local);
    if (!binding || this.filename === undefined) return UNKNOWN;
    try {
      const value = importedValue(this.filename, binding, 'client');
      return value ? handleOfExport(value) : UNKNOWN;
    } catch {
      // Another module's code, whatever shape it has, never makes this file's rules throw.
      return UNKNOWN;
    }
  }

  /** The first parameter of a transaction callback (`sql.begin(async (tx) => ...)`). */
  private callbackParameterHandle(owner: TSESTree.Node, name: TSESTree.Node, depth: number): SqlHandle {
    if (!isFunctionLike(owner) || owner.params[0] !== name) return UNKNOWN;
    const call = owner.parent;
    if (call.type !== AST_NODE_TYPES.CallExpression || !call.arguments.some((argument) => argument === owner)) return UNKNOWN;
    const callee = skipTypeWrappers(call.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return UNKNOWN;
    const method = propertyName(callee);
    if (method === undefined) return UNKNOWN;
    const libraries = TRANSACTION_CALLBACK_METHODS[method];
    if (!libraries) return UNKNOWN;
    // A helper reached through a call (kysely's `db.transaction().execute(cb)`): the call names the library.
    const chained = libraries.find((library) => transactionHelperPath(library).length > 1);
    if (chained !== undefined) {
      const inner = skipTypeWrappers(callee.object);
      if (inner.type !== AST_NODE_TYPES.CallExpression) return UNKNOWN;
      const innerCallee = skipTypeWrappers(inner.callee);
      if (innerCallee.type !== AST_NODE_TYPES.MemberExpression || propertyName(innerCallee) !== transactionHelperPath(chained)[0])
        return UNKNOWN;
      return { kind: 'connection', library: chained, inTransaction: true };
    }
    const owning = this.handle(callee.object, depth + 1);
    if (!libraries.includes(owning.library) && owning.library !== 'unknown') return UNKNOWN;
    // Sequelize passes a Transaction object, not a query sender; queries name it in their options.
    if (sqlClientSemantics(owning.library)?.callbackGetsOptionsObject) return UNKNOWN;
    return { kind: 'connection', library: owning.library, inTransaction: true };
  }

  private createdHandle(expression: TSESTree.NewExpression | TSESTree.CallExpression, depth: number): SqlHandle {
    const callee = skipTypeWrappers(expression.callee);
    const factory = this.factoryOf(callee, expression.type === AST_NODE_TYPES.NewExpression ? 'new' : 'call');
    if (factory) {
      if (factory.kind === 'pool' && isSingleSessionPool(factory.library, expression))
        return { kind: 'connection', library: factory.library, inTransaction: false, reconnects: true };
      return { kind: factory.kind, library: factory.library, inTransaction: false };
    }
    if (expression.type === AST_NODE_TYPES.CallExpression && depth < 6) {
      // `getPool().query(...)`, `const db = getDb()`: a factory of the project's own, by what it returns.
      const factory = calledFunction(this.sourceCode, this.imports, this.filename, expression);
      if (factory) return factoryHandle(this, factory.module, factory.fn, depth);
    }
    if (expression.type !== AST_NODE_TYPES.CallExpression || callee.type !== AST_NODE_TYPES.MemberExpression) return UNKNOWN;
    const method = propertyName(callee);
    if (method === undefined) return UNKNOWN;
    const owning = this.handle(callee.object, depth + 1);
    const checkoutLibrary = CHECKOUT_METHODS[method];
    if (checkoutLibrary !== undefined && owning.kind === 'pool' && (owning.library === checkoutLibrary || owning.library === 'unknown')) {
      // slonik's pool.connect takes a callback; pg's resolves to a client.
      if (expression.arguments.some((argument) => isFunctionLike(argument))) return UNKNOWN;
      return { kind: 'connection', library: owning.library, inTransaction: false };
    }
    if (
      TRANSACTION_HANDLE_METHODS.has(method) &&
      owning.kind === 'pool' &&
      sqlClientSemantics(owning.library)?.transactionWithoutCallback &&
      expression.arguments.length === 0
    ) {
      return { kind: 'connection', library: owning.library, inTransaction: true };
    }
    return UNKNOWN;
  }

  /**
   * What a declared or asserted type says the value is: a SQL type's name (`Pool`, `NodePgDatabase`),
   * `ReturnType<typeof drizzle>` (what a client factory makes), or a type alias of this module
   * naming either (`type Db = ReturnType<typeof drizzle>`).
   */
  private declaredTypeHandle(type: TSESTree.TypeNode | undefined, depth: number): SqlHandle | undefined {
    return typeHandle(type, this.isForeignType) ?? (depth < 4 ? this.aliasedTypeHandle(type, depth) : undefined);
  }

  private aliasedTypeHandle(type: TSESTree.TypeNode | undefined, depth = 0): SqlHandle | undefined {
    if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier) return undefined;
    const name = type.typeName.name;
    const argument = type.typeArguments?.params[0];
    if ((name === 'ReturnType' || name === 'InstanceType') && argument?.type === AST_NODE_TYPES.TSTypeQuery) {
      const factory = this.factoryOf(argument.exprName, name === 'ReturnType' ? 'call' : 'new');
      return factory ? { kind: factory.kind, library: factory.library, inTransaction: false } : undefined;
    }
    if (name === 'Awaited' || name === 'NonNullable') return this.declaredTypeHandle(argument, depth + 1);
    const alias = this.typeAliases().get(name);
    return alias ? this.declaredTypeHandle(alias.typeAnnotation, depth + 1) : undefined;
  }

  private aliases: Map<string, TSESTree.TSTypeAliasDeclaration> | undefined;

  /** The module's top-level type aliases (exported or not), by name. */
  private typeAliases(): ReadonlyMap<string, TSESTree.TSTypeAliasDeclaration> {
    if (this.aliases) return this.aliases;
    const aliases = new Map<string, TSESTree.TSTypeAliasDeclaration>();
    for (const statement of this.sourceCode.ast.body) {
      const declaration =
        statement.type === AST_NODE_TYPES.ExportNamedDeclaration && statement.declaration ? statement.declaration : statement;
      if (declaration.type === AST_NODE_TYPES.TSTypeAliasDeclaration) aliases.set(declaration.id.name, declaration);
    }
    this.aliases = aliases;
    return aliases;
  }

  private factoryOf(callee: TSESTree.Node, create: 'new' | 'call'): SqlFactory | undefined {
    let local: string | undefined;
    let member: string | undefined;
    if (callee.type === AST_NODE_TYPES.Identifier) local = callee.name;
    else if (callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier) {
      local = callee.object.name;
      member = propertyName(callee);
    }
    if (local === undefined) return undefined;
    const binding = this.imports.get(local);
    if (!binding) return undefined;
    const entries =
      SQL_PACKAGES[binding.source] ??
      Object.entries(SQL_PACKAGES).find(([name]) => name.endsWith('/') && binding.source.startsWith(name))?.[1] ??
      // Prisma's client generated to the project's own `output` path (`../generated/client`).
      (member === undefined ? GENERATED_CLIENTS[binding.imported] : undefined);
    if (!entries) return undefined;
    // `import pg from 'pg'; new pg.Pool()` names the export through the namespace or default.
    const exported = member !== undefined && (binding.imported === 'default' || binding.imported === '*') ? member : binding.imported;
    return entries.find((entry) => entry.create === create && entry.exports.includes(exported));
  }
}

/**
 * A pool that can only ever hold one session and does not close it for idling: every query and the
 * unlock run on the lock's session, so a session lock through it is not handed to other callers.
 * postgres.js with `max: 1` (its `idle_timeout` is off unless set); pg's `Pool` with `max: 1` only
 * with `idleTimeoutMillis: 0`, since by default it closes the idle client after 10 s, and the lock
 * with it. (postgres.js still retires a connection after `max_lifetime`, 30–60 min by default.)
 */
function isSingleSessionPool(library: SqlFactory['library'], creation: TSESTree.NewExpression | TSESTree.CallExpression): boolean {
  const options = creation.arguments
    .map((argument) => skipTypeWrappers(argument))
    .find((argument) => argument.type === AST_NODE_TYPES.ObjectExpression);
  if (options?.type !== AST_NODE_TYPES.ObjectExpression || !isLiteralNumber(propertyValue(options, 'max'), 1)) return false;
  const idleTimeout = sqlClientSemantics(library)?.idleTimeout;
  if (!idleTimeout) return false;
  const idle = propertyValue(options, idleTimeout.option);
  return idle === undefined ? idleTimeout.unsetKeepsSession : isLiteralNumber(idle, 0);
}

function isLiteralNumber(node: TSESTree.Node | undefined, value: number): boolean {
  const literal = node && skipTypeWrappers(node);
  return literal?.type === AST_NODE_TYPES.Literal && literal.value === value;
}

const exportHandles = new WeakMap<TSESTree.Node, SqlHandle>();

/** The handle another module's exported value is, resolved in that module (memoised on its node). */
function handleOfExport(value: ExportedValue): SqlHandle {
  const known = exportHandles.get(value.node);
  if (known) return known;
  // Guards cycles of modules re-exporting each other's pools.
  exportHandles.set(value.node, UNKNOWN);
  const handle = moduleSenders(value.module).handle(value.node, 0);
  exportHandles.set(value.node, handle);
  return handle;
}

function moduleSenders(module: ProjectModule): SenderResolver {
  let resolver = module.memo.get('senders') as SenderResolver | undefined;
  if (!resolver) {
    resolver = new SenderResolver(module.sourceCode, module.imports, module.filePath);
    // Another module's `this.pool = new Pool()` is seen by its own resolver as this file's are.
    for (const { name, value } of collectNodes(module.sourceCode).memberInitializers) resolver.noteMemberInitializer(name, value);
    module.memo.set('senders', resolver);
  }
  return resolver;
}

/** A factory's result, resolved in the module that declares it (this one when `module` is undefined). */
function factoryHandle(resolver: SenderResolver, module: ProjectModule | undefined, fn: FunctionLike, depth: number): SqlHandle {
  if (!module) return resolver.returnsOf(fn, depth);
  try {
    return moduleSenders(module).returnsOf(fn, 0);
  } catch {
    return UNKNOWN;
  }
}

/** The handle several origins agree on (unknown ones do not disagree), else unknown. */
function combineHandles(handles: readonly SqlHandle[]): SqlHandle {
  let found: SqlHandle | undefined;
  for (const handle of handles) {
    if (handle.kind === 'unknown' && handle.library === 'unknown') continue;
    if (found && (found.kind !== handle.kind || found.library !== handle.library || found.inTransaction !== handle.inTransaction))
      return UNKNOWN;
    // A one-connection pool only when every origin is one (a plain client on one path fails instead).
    found =
      found && found.reconnects !== handle.reconnects
        ? { kind: handle.kind, library: handle.library, inTransaction: handle.inTransaction }
        : handle;
  }
  return found ?? UNKNOWN;
}

function handleByName(name: string): SqlHandle {
  for (const [pattern, library] of POOL_NAMES) {
    if (pattern.test(name)) return { kind: 'pool', library, inTransaction: false };
  }
  return UNKNOWN;
}

function annotationHandle(
  name: TSESTree.Node,
  foreign: (local: string, library: SqlLibrary, onlyFrom?: readonly string[]) => boolean,
): SqlHandle | undefined {
  if (name.type !== AST_NODE_TYPES.Identifier) return undefined;
  return typeHandle(name.typeAnnotation?.typeAnnotation, foreign);
}

/**
 * What a declared type says the value is (`Pool`, `pg.Pool`, `Knex`, `Kysely<DB>`). A name imported
 * from a package that sends no SQL (`import { Pool } from 'generic-pool'`) is that package's, not a
 * pool of connections; names from the project's own modules or declared globally keep their meaning.
 */
function typeHandle(
  annotation: TSESTree.TypeNode | undefined,
  foreign: (local: string, library: SqlLibrary, onlyFrom?: readonly string[]) => boolean,
): SqlHandle | undefined {
  if (annotation?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const typeName = annotation.typeName;
  const name =
    typeName.type === AST_NODE_TYPES.Identifier
      ? typeName.name
      : typeName.type === AST_NODE_TYPES.TSQualifiedName
        ? typeName.right.name
        : undefined;
  if (name === undefined) return undefined;
  const entry = SQL_TYPE_NAMES[name];
  if (!entry) return undefined;
  const local = typeRoot(typeName);
  if (local !== undefined && foreign(local, entry.library, entry.onlyFrom)) return undefined;
  if (local === undefined && entry.onlyFrom) return undefined;
  return { kind: entry.kind, library: entry.library, inTransaction: entry.inTransaction ?? false };
}

/** The local name a type reference starts from: `Pool` of `Pool`, `pg` of `pg.Pool`. */
function typeRoot(typeName: TSESTree.EntityName): string | undefined {
  if (typeName.type === AST_NODE_TYPES.Identifier) return typeName.name;
  return typeName.type === AST_NODE_TYPES.TSQualifiedName && typeName.left.type === AST_NODE_TYPES.Identifier
    ? typeName.left.name
    : undefined;
}

function isSqlPackage(source: string): boolean {
  return (
    Object.hasOwn(SQL_PACKAGES, source) ||
    SQL_BUILDER_PACKAGES.has(source) ||
    SQL_TYPE_PACKAGES.has(source) ||
    Object.keys(SQL_PACKAGES).some((name) => source.startsWith(name.endsWith('/') ? name : `${name}/`))
  );
}
