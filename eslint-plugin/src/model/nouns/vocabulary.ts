// The vocabulary of the tables and settings: client families and dialects, the shared settings,
// the import table, the type oracle's answers. Types only, like the rest of nouns/.

import type { TSESTree } from '@typescript-eslint/utils';
// Which packages provide Redis clients and lock libraries, and how their clients are made.
// Recognition is data: add a package here, not a branch in the analysis.

/**
 * How a client spells commands (see fixes/templates.ts for what each spelling looks like); the model
 * decides it, fixes write in it.
 */
export type RedisDialect = 'ioredis' | 'node-redis' | 'node-redis-v5' | 'node-redis-v3' | 'upstash';

export type LockLibrary = 'redlock' | 'redis-semaphore';

export type ClientFamily = 'ioredis' | 'node-redis' | 'upstash' | LockLibrary;
// Which packages send SQL, how their pooled and dedicated handles are made, and which methods carry
// SQL text. Recognition is data: add a package or a method here, not a branch in the analysis.

export type SqlLibrary = 'pg' | 'postgres' | 'knex' | 'prisma' | 'typeorm' | 'sequelize' | 'kysely' | 'drizzle' | 'slonik' | 'unknown';

/** A pool hands each query to any free connection; a connection runs them all on one session. */
export type SenderKind = 'pool' | 'connection' | 'unknown';

export interface ImportBinding {
  readonly source: string;
  /** Exported name, `default`, or `*` for a namespace / whole-module require. */
  readonly imported: string;
}

export type ImportTable = ReadonlyMap<string, ImportBinding>;

export interface LockWrappers {
  /** Functions that take a lock; their first argument is the key. */
  readonly acquire: readonly string[];
  /** Functions that release a lock; their first argument is the key (or the lock handle). */
  readonly release: readonly string[];
  /** Functions that run a callback while holding a lock (`withLock(key, fn)`). */
  readonly withLock: readonly string[];
}

export interface SharedSettings {
  /** A key whose text matches this pattern is a lock key. */
  readonly lockKeyPattern: RegExp;
  /** Key patterns of locks held for efficiency only (exempt from require-fencing-token). */
  readonly efficiencyLocks: readonly RegExp[];
  /** Columns that hold a fencing token in SQL writes. */
  readonly fenceColumns: readonly string[];
  readonly lockWrappers: LockWrappers;
  /** The server the code runs against, for suggestions that use its own compare-first commands. */
  readonly redis: TargetServer | undefined;
  /** `redis.cluster`: every client is a cluster client, whatever the code shows (no-lua-reply-pitfalls' hash tags). */
  readonly redisCluster: boolean;
}

export type TypeVerdict = ClientFamily | 'other' | 'unknown';

export interface TypeOracle {
  /** The library that declared the expression's type; 'other' for a known non-client type. */
  familyOf(expression: TSESTree.Node): TypeVerdict;
}

/**
 * How a library hands back a SELECT's rows: `result` (`{ rows }`: pg, knex `raw` on pg, kysely),
 * `rows` (an array of rows: postgres.js, Prisma `$queryRaw`, TypeORM), or `unknown` (Sequelize's
 * `[rows, meta]` or rows by `type`, drizzle's per-driver result, ...).
 */
export type ResultShape = 'result' | 'rows' | 'unknown';
// Which server versions have the compare-first primitives (library semantics as data): suggestions
// offer a primitive only when `settings.locksmith.redis` names a server that runs it.

export type ServerKind = 'redis' | 'valkey' | 'dragonfly';

/** `DELEX k IFEQ v`, Valkey's `DELIFEQ k v`, and `SET k v IFEQ v PX ttl`. */
export type ServerPrimitive = 'DELEX' | 'DELIFEQ' | 'SET IFEQ';

export interface TargetServer {
  readonly server: ServerKind;
  /** Major, minor (and patch) as numbers; `[]` when no version was given (then nothing is admitted). */
  readonly version: readonly number[];
}
