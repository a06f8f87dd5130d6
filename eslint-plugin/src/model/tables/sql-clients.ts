import type { SqlLibrary, SenderKind } from '../nouns/vocabulary.js';

export interface SqlFactory {
  readonly library: SqlLibrary;
  /** Exported names (`default` for the default export, `*` for a whole-module require). */
  readonly exports: readonly string[];
  readonly create: 'new' | 'call';
  readonly kind: SenderKind;
}

/** package → how its clients are made. Packages matching a key prefix ending in `/` count too. */
export const SQL_PACKAGES: Readonly<Record<string, readonly SqlFactory[]>> = {
  pg: [
    { library: 'pg', exports: ['Pool'], create: 'new', kind: 'pool' },
    { library: 'pg', exports: ['Client'], create: 'new', kind: 'connection' },
  ],
  'pg-pool': [{ library: 'pg', exports: ['default', '*'], create: 'new', kind: 'pool' }],
  postgres: [{ library: 'postgres', exports: ['default', '*'], create: 'call', kind: 'pool' }],
  knex: [{ library: 'knex', exports: ['default', 'knex', '*'], create: 'call', kind: 'pool' }],
  '@prisma/client': [{ library: 'prisma', exports: ['PrismaClient'], create: 'new', kind: 'pool' }],
  typeorm: [{ library: 'typeorm', exports: ['DataSource', 'Connection'], create: 'new', kind: 'pool' }],
  sequelize: [{ library: 'sequelize', exports: ['Sequelize', 'default', '*'], create: 'new', kind: 'pool' }],
  '@sequelize/core': [{ library: 'sequelize', exports: ['Sequelize', 'default'], create: 'new', kind: 'pool' }],
  kysely: [{ library: 'kysely', exports: ['Kysely'], create: 'new', kind: 'pool' }],
  'drizzle-orm/': [{ library: 'drizzle', exports: ['drizzle'], create: 'call', kind: 'pool' }],
  slonik: [{ library: 'slonik', exports: ['createPool'], create: 'call', kind: 'pool' }],
};

/**
 * Exports that name a library's generated client wherever they are imported from: Prisma writes
 * `PrismaClient` into the project when its generator sets `output` (`import { PrismaClient } from
 * '../generated/prisma/client'`), a module of the project rather than `@prisma/client`.
 */
export const GENERATED_CLIENTS: Readonly<Record<string, readonly SqlFactory[]>> = {
  PrismaClient: [{ library: 'prisma', exports: ['PrismaClient'], create: 'new', kind: 'pool' }],
};

/** Packages whose `sql` export is a template builder: its templates are SQL, sent by whoever executes them. */
export const SQL_BUILDER_PACKAGES: ReadonlyMap<string, SqlLibrary> = new Map([
  ['kysely', 'kysely'],
  ['drizzle-orm', 'drizzle'],
  ['slonik', 'slonik'],
  ['@prisma/client', 'prisma'],
  ['@prisma/client/runtime/library', 'prisma'],
]);

/** Builder packages that export their `sql` from every module path starting with the name (`drizzle-orm/pg-core`). */
const SQL_BUILDER_PREFIXES: readonly string[] = ['drizzle-orm'];

/** The library whose `sql` builder a module exports (SQL_BUILDER_PACKAGES, prefixes counted), if any. */
export function sqlBuilderLibraryOf(source: string): SqlLibrary | undefined {
  return SQL_BUILDER_PACKAGES.get(SQL_BUILDER_PREFIXES.find((prefix) => source.startsWith(prefix)) ?? source);
}

/** Packages that declare a SQL client's types only (`import type { Pool } from '@types/pg'`). */
export const SQL_TYPE_PACKAGES: ReadonlySet<string> = new Set(['@types/pg']);

/** What one SQL library does with its pool and its transactions. */
export interface SqlClientSemantics {
  /**
   * The method that checks one dedicated connection out of the pool (`pool.connect()`), and, where
   * `release()` alone gives the connection back, the name the library's documentation gives it (a
   * fix then wraps code in checkout … `finally { release() }`).
   */
  readonly checkout?: { readonly method: string; readonly handle?: string };
  /**
   * The helper that runs a callback inside one transaction, as called on the client (`begin`,
   * `transaction().execute` for kysely's `db.transaction().execute(async (trx) => ...)`); none where
   * the code sends `BEGIN` … `COMMIT` itself (pg).
   */
  readonly transactionHelper?: string;
  /**
   * The helper's callback gets a Transaction object the queries name in their options, not a query
   * sender (Sequelize): a query joins a transaction through its options, on the same client.
   */
  readonly callbackGetsOptionsObject?: boolean;
  /** The fixes can write this library's transaction helper (slonik's needs its own `sql` tag, which they do not write). */
  readonly fixWritesTransaction: boolean;
  /** `await client.transaction()` without a callback returns the transaction's handle (knex). */
  readonly transactionWithoutCallback?: boolean;
  /**
   * A pool of `max: 1` keeps one session only while its idle client is not closed: the option that
   * says when it is, and whether leaving it out keeps the session (postgres.js) or closes it after
   * a default timeout (pg: 10 s).
   */
  readonly idleTimeout?: { readonly option: string; readonly unsetKeepsSession: boolean };
  /**
   * How raw SQL text given to the client binds values: `dollar` (`$1`), `question` (the driver's `?`
   * and `:name`: knex), or `either` (Sequelize's `?` replacements and `$n` binds both exist).
   */
  readonly rawBindings: 'dollar' | 'question' | 'either';
  /** The client (or its reserved connection, or a transaction's handle) is itself the tag that sends a template: postgres.js's sql`...`. */
  readonly sendsTaggedTemplates?: boolean;
  /** The method of the library's builder template that runs it on the client passed as its argument (kysely's sql`...`.execute(db)). */
  readonly templateRunMethod?: string;
  /**
   * A statement whose lock function returns `void` runs only through an execute method: the query
   * methods that cannot read a `void` column, and the method to use instead (Prisma's `$queryRaw`
   * fails to deserialise it; `$executeRaw` runs it).
   */
  readonly voidStatementMethods?: Readonly<Record<string, string>>;
  /** How the library writes rows without SQL text, if it does (an ORM or a query builder). */
  readonly ormWrites?: OrmWriteSpelling;
}

/**
 * The methods an ORM write ends in, and where they sit: `model` on a model member of the client
 * (`prisma.invoice.update(...)`); `table-call` at the end of a chain that starts by calling the client
 * with the table (`knex('t').where(...).update()`, whose statement knex-statements.ts reads);
 * `client` right on the client, the table their argument (`db.update(table)`, `db.updateTable('t')`).
 */
export interface OrmWriteSpelling {
  readonly methods: ReadonlySet<string>;
  readonly spelling: 'model' | 'table-call' | 'client';
  /** A sender inside a transaction whose text matches writes as this library, whatever its own (`tx.invoice.update`). */
  readonly transactionHandleName?: RegExp;
  /** A sender inside a transaction of unknown library writes as this library (`trx('t').update()`). */
  readonly claimsUnknownTransactionHandles?: boolean;
}

/** library → its pool and transaction semantics. */
export const SQL_CLIENTS: Readonly<Record<Exclude<SqlLibrary, 'unknown'>, SqlClientSemantics>> = {
  pg: {
    checkout: { method: 'connect', handle: 'client' },
    fixWritesTransaction: true,
    idleTimeout: { option: 'idleTimeoutMillis', unsetKeepsSession: false },
    rawBindings: 'dollar',
  },
  postgres: {
    checkout: { method: 'reserve', handle: 'reserved' },
    transactionHelper: 'begin',
    fixWritesTransaction: true,
    idleTimeout: { option: 'idle_timeout', unsetKeepsSession: true },
    rawBindings: 'dollar',
    sendsTaggedTemplates: true,
  },
  knex: {
    transactionHelper: 'transaction',
    fixWritesTransaction: true,
    transactionWithoutCallback: true,
    rawBindings: 'question',
    ormWrites: {
      methods: new Set(['update', 'insert', 'del', 'delete', 'upsert']),
      spelling: 'table-call',
      claimsUnknownTransactionHandles: true,
    },
  },
  prisma: {
    transactionHelper: '$transaction',
    fixWritesTransaction: true,
    rawBindings: 'dollar',
    voidStatementMethods: { $queryRaw: '$executeRaw', $queryRawUnsafe: '$executeRawUnsafe' },
    ormWrites: {
      methods: new Set(['update', 'updateMany', 'upsert', 'create', 'createMany', 'delete', 'deleteMany']),
      spelling: 'model',
      transactionHandleName: /^\$?tx$|^prisma/u,
    },
  },
  typeorm: {
    checkout: { method: 'createQueryRunner' },
    transactionHelper: 'transaction',
    fixWritesTransaction: true,
    rawBindings: 'dollar',
    // `repository.save(entity)`, `manager.update(Saga, id, changes)`: right on the repository or manager.
    ormWrites: {
      methods: new Set(['save', 'insert', 'update', 'upsert', 'delete', 'remove', 'softDelete', 'increment', 'decrement']),
      spelling: 'client',
    },
  },
  sequelize: { transactionHelper: 'transaction', callbackGetsOptionsObject: true, fixWritesTransaction: true, rawBindings: 'either' },
  kysely: {
    transactionHelper: 'transaction().execute',
    fixWritesTransaction: true,
    rawBindings: 'dollar',
    templateRunMethod: 'execute',
    ormWrites: { methods: new Set(['updateTable', 'insertInto', 'deleteFrom']), spelling: 'client' },
  },
  drizzle: {
    transactionHelper: 'transaction',
    fixWritesTransaction: true,
    rawBindings: 'dollar',
    ormWrites: { methods: new Set(['update', 'insert', 'delete']), spelling: 'client' },
  },
  slonik: { transactionHelper: 'transaction', fixWritesTransaction: false, rawBindings: 'dollar' },
};

/** What `library` does with its pool and transactions; nothing for a client of unknown library. */
export function sqlClientSemantics(library: SqlLibrary): SqlClientSemantics | undefined {
  return library === 'unknown' ? undefined : SQL_CLIENTS[library];
}

/** Whether the fixes can move code into `library`'s transaction (its helper, or pg's BEGIN … COMMIT). */
export function fixWritesTransaction(library: SqlLibrary): library is Exclude<SqlLibrary, 'unknown' | 'slonik'> {
  return sqlClientSemantics(library)?.fixWritesTransaction === true;
}

/** The calls of a transaction helper, outermost first: `transaction().execute` → `['transaction', 'execute']`. */
export function transactionHelperPath(library: SqlLibrary): readonly string[] {
  return sqlClientSemantics(library)?.transactionHelper?.split('().') ?? [];
}

const LIBRARIES = Object.keys(SQL_CLIENTS) as Exclude<SqlLibrary, 'unknown'>[];

/** Methods that turn a pool into one dedicated connection. */
export const CHECKOUT_METHODS: Readonly<Record<string, SqlLibrary>> = Object.fromEntries(
  LIBRARIES.flatMap((library) => {
    const checkout = SQL_CLIENTS[library].checkout;
    return checkout ? [[checkout.method, library]] : [];
  }),
);

/**
 * Methods that run a callback whose first parameter is a handle inside one transaction (the last
 * call of each helper); a client of unknown library counts with `transaction`, the common name.
 */
export const TRANSACTION_CALLBACK_METHODS: Readonly<Record<string, readonly SqlLibrary[]>> = (() => {
  const table: Record<string, SqlLibrary[]> = {};
  for (const library of LIBRARIES) {
    const method = transactionHelperPath(library).at(-1);
    if (method !== undefined) (table[method] ??= []).push(library);
  }
  table['transaction']!.push('unknown');
  return table;
})();

/**
 * Members of a pool that send through the same pool: TypeORM's `dataSource.manager` is the
 * DataSource's EntityManager, each query on a pooled connection. (An `EntityManager` by type alone
 * may be a transaction's, so the type name says nothing.)
 */
export const POOLED_MEMBERS: Readonly<Record<string, SqlLibrary>> = {
  manager: 'typeorm',
};

/** Methods that return a transaction handle without a callback (`await knex.transaction()`). */
export const TRANSACTION_HANDLE_METHODS: ReadonlySet<string> = new Set(['transaction', 'startTransaction']);

/** Methods whose first argument is SQL text (or a SQL template) sent by the receiver. */
export const QUERY_METHODS: ReadonlySet<string> = new Set([
  'query',
  'raw',
  'execute',
  'unsafe',
  '$queryRaw',
  '$executeRaw',
  '$queryRawUnsafe',
  '$executeRawUnsafe',
  // slonik
  'any',
  'anyFirst',
  'many',
  'manyFirst',
  'maybeOne',
  'maybeOneFirst',
  'one',
  'oneFirst',
  'exists',
]);

/** Tag members that send the template they tag (`prisma.$queryRaw\`...\``). */
export const TAG_QUERY_METHODS: ReadonlySet<string> = new Set(['$queryRaw', '$executeRaw']);

/** Which libraries use driver placeholders (`?`, `:name`) rather than `$n` in raw SQL (a client of unknown library may). */
export const DRIVER_PLACEHOLDER_LIBRARIES: ReadonlySet<SqlLibrary> = new Set<SqlLibrary>([
  ...LIBRARIES.filter((library) => SQL_CLIENTS[library].rawBindings !== 'dollar'),
  'unknown',
]);

/** Query methods that read driver placeholders and a named-bindings object whatever the client (knex's `raw(sql, bindings)`). */
export const DRIVER_PLACEHOLDER_METHODS: ReadonlySet<string> = new Set(['raw']);

/** Query methods that take the bound values as the arguments after the text (Prisma's `$queryRawUnsafe(sql, ...values)`). */
export const SPREAD_VALUES_METHODS: ReadonlySet<string> = new Set(['$queryRawUnsafe', '$executeRawUnsafe']);

/** Methods of a builder template that run it on the client passed as their argument (SqlClientSemantics' templateRunMethod). */
export const TEMPLATE_RUN_METHODS: ReadonlySet<string> = new Set(
  LIBRARIES.flatMap((library) => SQL_CLIENTS[library].templateRunMethod ?? []),
);

/** Whether a client of `library` (or of unknown library) may itself be the tag that sends a template (postgres.js). */
export function maySendTaggedTemplates(library: SqlLibrary): boolean {
  return library === 'unknown' || SQL_CLIENTS[library].sendsTaggedTemplates === true;
}

/** Type names (as annotated without a checker) → what the value is. */
export const SQL_TYPE_NAMES: Readonly<
  Record<
    string,
    {
      readonly library: SqlLibrary;
      readonly kind: SenderKind;
      readonly inTransaction?: boolean;
      /** A name common enough elsewhere that it counts only imported from these packages (TypeORM's `Repository`). */
      readonly onlyFrom?: readonly string[];
    }
  >
> = {
  Pool: { library: 'pg', kind: 'pool' },
  PoolClient: { library: 'pg', kind: 'connection' },
  Client: { library: 'pg', kind: 'connection' },
  Sql: { library: 'postgres', kind: 'pool' },
  ReservedSql: { library: 'postgres', kind: 'connection' },
  TransactionSql: { library: 'postgres', kind: 'connection', inTransaction: true },
  Knex: { library: 'knex', kind: 'pool' },
  PrismaClient: { library: 'prisma', kind: 'pool' },
  DataSource: { library: 'typeorm', kind: 'pool' },
  // A TypeORM repository or entity manager writes rows (ORM writes), through the data source's pool
  // or, when it is a transaction's manager handed along, through that transaction: its type alone does
  // not say which, so it is no pool (or connection) for the session and transaction rules.
  Repository: { library: 'typeorm', kind: 'unknown', onlyFrom: ['typeorm'] },
  EntityManager: { library: 'typeorm', kind: 'unknown', onlyFrom: ['typeorm'] },
  QueryRunner: { library: 'typeorm', kind: 'connection' },
  Sequelize: { library: 'sequelize', kind: 'pool' },
  Kysely: { library: 'kysely', kind: 'pool' },
  DatabasePool: { library: 'slonik', kind: 'pool' },
  // drizzle's database objects, per driver: each sends through the pool (or HTTP client) it wraps.
  NodePgDatabase: { library: 'drizzle', kind: 'pool' },
  PostgresJsDatabase: { library: 'drizzle', kind: 'pool' },
  NeonDatabase: { library: 'drizzle', kind: 'pool' },
  NeonHttpDatabase: { library: 'drizzle', kind: 'pool' },
  VercelPgDatabase: { library: 'drizzle', kind: 'pool' },
  PgDatabase: { library: 'drizzle', kind: 'pool' },
  DatabasePoolConnection: { library: 'slonik', kind: 'connection' },
  DatabaseTransactionConnection: { library: 'slonik', kind: 'connection', inTransaction: true },
};

/**
 * Conventional names of module-level pooled clients imported from the app's own modules
 * (`import { pool } from './db'`): by convention these are the pool, never one checked-out connection.
 */
export const POOL_NAMES: ReadonlyMap<RegExp, SqlLibrary> = new Map<RegExp, SqlLibrary>([
  [/^(?:pg)?pool$|Pool$/u, 'pg'],
  [/^prisma(?:Client)?$/u, 'prisma'],
  [/^knex$/u, 'knex'],
  [/^sequelize$/u, 'sequelize'],
  [/^(?:app)?dataSource$/iu, 'typeorm'],
  [/^sql$/u, 'postgres'],
]);

/** A library's ORM writes (SqlClientSemantics' ormWrites), with the library. */
export interface OrmWriter extends OrmWriteSpelling {
  readonly library: Exclude<SqlLibrary, 'unknown'>;
}

/** Every library that writes rows without SQL text, in table order. */
export const ORM_WRITERS: readonly OrmWriter[] = LIBRARIES.flatMap((library) => {
  const writes = SQL_CLIENTS[library].ormWrites;
  return writes ? [{ library, ...writes }] : [];
});

/** The ORM writes of `library`, if it makes any. */
export function ormWritesOf(library: SqlLibrary): OrmWriteSpelling | undefined {
  return sqlClientSemantics(library)?.ormWrites;
}

/** Every method an ORM write can end in, whatever the library. */
export const ANY_ORM_WRITE_METHOD: ReadonlySet<string> = new Set(ORM_WRITERS.flatMap((writer) => [...writer.methods]));

/** QueryRunner-style transaction boundaries (TypeORM): `startTransaction()` begins, `commitTransaction()` and `rollbackTransaction()` end. */
export const TRANSACTION_BOUNDARY_METHODS: Readonly<Record<string, 'begin' | 'end'>> = {
  startTransaction: 'begin',
  commitTransaction: 'end',
  rollbackTransaction: 'end',
};

/**
 * The only method names a call can have for the SQL model to learn anything from it: a query, an ORM
 * write, a transaction boundary. Large ORM files hold tens of thousands of other calls; this set lets
 * the model pass them by after reading one property name.
 */
export const SQL_CALL_METHODS: ReadonlySet<string> = new Set([
  ...QUERY_METHODS,
  ...ANY_ORM_WRITE_METHOD,
  ...Object.keys(TRANSACTION_BOUNDARY_METHODS),
]);

/**
 * Calls on a connection that end its session, and the session's advisory locks with it: pg's
 * `client.release(true)` (with an argument it destroys the connection rather than pooling it),
 * `end()`, `destroy()`.
 */
export const SESSION_ENDING_METHODS: Readonly<Record<string, { readonly needsArgument: boolean }>> = {
  release: { needsArgument: true },
  end: { needsArgument: false },
  destroy: { needsArgument: false },
};

/** Words in a table name that mark it as a lock table. */
export const LOCK_TABLE_WORDS: ReadonlySet<string> = new Set(['lock', 'locks', 'shedlock', 'mutex', 'mutexes', 'lease', 'leases']);
export const OWNER_COLUMNS: readonly string[] = [
  'owner',
  'locked_by',
  'lock_owner',
  'holder',
  'owner_id',
  'worker_id',
  'token',
  'lock_token',
];
export const EXPIRY_COLUMNS: readonly string[] = [
  'expires_at',
  'expires',
  'expiry',
  'expire_at',
  'lock_until',
  'locked_until',
  'valid_until',
  'lease_until',
  'expiration',
];
