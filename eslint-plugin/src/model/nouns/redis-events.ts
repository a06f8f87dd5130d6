// The Redis half's nouns: the commands a file sends and the lock events built from them, with the
// payloads they carry (receiver, SET options, resolved script, helper summary). Types only: this
// folder imports no model code, so builders, pairing and questions can all import it.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { LuaScriptSummary } from '../../lua/analyze-script.js';
import type { FunctionLike, ScopeOwner } from '../../util/ast.js';
import type { ClientFamily, ImportTable, RedisDialect, SharedSettings } from './vocabulary.js';

export interface ScriptCall {
  readonly script: ResolvedScript | undefined;
  readonly scriptNode: TSESTree.Node | undefined;
  readonly keys: readonly TSESTree.Node[];
  readonly args: readonly TSESTree.Node[];
  /** Name of the `defineCommand`/`defineScript` command the call invokes, if it is one. */
  readonly definedCommand: string | undefined;
}

export interface RedisCommand {
  readonly call: TSESTree.CallExpression;
  /** Upper-case Redis command (`SET`, `DEL`, `EVAL`, ...). Defined scripts are `EVAL`. */
  readonly name: string;
  readonly method: string;
  readonly form: 'method' | 'generic' | 'defined-script';
  readonly client: ReceiverInfo;
  /** The receiver as written, for fixes (`redis`, `this.client`, `redis.multi()`). */
  readonly receiver: TSESTree.Expression;
  readonly dialect: RedisDialect;
  readonly args: readonly TSESTree.Node[];
  readonly key: TSESTree.Node | undefined;
  readonly keySignature: string | undefined;
  readonly value: TSESTree.Node | undefined;
  readonly set: SetOptions | undefined;
  /** The value condition of `SET … IFEQ`, `DELEX … IFEQ`, `DELIFEQ` (commands.ts). */
  readonly compare: SetOptions['compare'];
  readonly callback: TSESTree.Node | undefined;
  readonly owner: ScopeOwner;
  readonly resultUsed: boolean;
  readonly script: ScriptCall | undefined;
}

/** `helper`: a call to one of the project's own lock helpers, summarised from its body (helpers/). */
export type LockLibraryKind = 'redis' | 'redlock' | 'redis-semaphore' | 'wrapper' | 'helper';

export interface LockEventBase {
  readonly node: TSESTree.CallExpression;
  readonly library: LockLibraryKind;
  readonly command: RedisCommand | undefined;
  readonly key: TSESTree.Node | undefined;
  readonly keySignature: string | undefined;
  readonly owner: ScopeOwner;
  /** The key with its function's parameters abstracted, for a lock split over functions (helpers/). */
  readonly splitKey?: string;
  /** For a call to a lock helper: the helper's summary. */
  readonly helper?: LockHelperSummary;
}

export interface Acquisition extends LockEventBase {
  readonly kind: 'set-nx' | 'setnx' | 'script' | 'redlock' | 'semaphore' | 'wrapper' | 'helper';
  readonly value: TSESTree.Node | undefined;
  /** The acquisition itself sets an expiry (PX/EX, a script's SET NX PX, library TTLs). */
  readonly hasTtl: boolean;
  /** The call may fail to take the lock and says so through its result. */
  readonly isTry: boolean;
  /** A Lua acquisition that also mints a fence (`INCR`) atomically. */
  readonly mintsFence: boolean;
}

export interface Release extends LockEventBase {
  /** `compare`: a server primitive that deletes only on a matching value (`DELEX … IFEQ`, `DELIFEQ`). */
  readonly kind: 'del' | 'compare' | 'script' | 'library' | 'wrapper' | 'helper';
  /** Compares the owner atomically before deleting (compare-and-delete, library release). */
  readonly safe: boolean;
}

export interface Expiry extends LockEventBase {
  /**
   * `compare`: `SET key token IFEQ token PX ttl`, a renewal the server makes only on a matching value.
   * `overwrite`: `SET key token XX PX ttl`, a renewal that only asks whether the key exists.
   */
  readonly kind: 'expire' | 'compare' | 'overwrite' | 'script' | 'library' | 'helper';
  readonly safe: boolean;
  /** A `SET … IFEQ` with no expiry option: it compares, but leaves the lock with no TTL at all. */
  readonly dropsTtl?: boolean;
}

export interface RedisModel {
  readonly commands: readonly RedisCommand[];
  readonly acquisitions: readonly Acquisition[];
  readonly releases: readonly Release[];
  readonly expiries: readonly Expiry[];
  /** Key signatures some acquisition in this module takes. */
  readonly acquiredKeys: ReadonlySet<string>;
  /** The module's own lock helpers, by function (helpers/). */
  readonly lockHelpers: ReadonlyMap<FunctionLike, LockHelperSummary>;
  /** Module-level constants holding a compare-and-delete or compare-and-expire script, by kind. */
  readonly scriptConstants: { readonly release: string | undefined; readonly extend: string | undefined };
  /** Commands registered with `defineCommand`/`defineScript` whose script is safe, by kind. */
  readonly definedCommands: ReadonlyMap<
    string,
    { readonly summary: LuaScriptSummary | undefined; readonly numberOfKeys: number | undefined }
  >;
  readonly fileDialect: RedisDialect | undefined;
  readonly imports: ImportTable;
  /** `HSET`/`HMSET` calls: not lock commands, only a sign that their key holds data. */
  readonly hashWrites: readonly HashWrite[];
  /** The file the model was built from: questions read it, so rules never hand it back. */
  readonly sourceCode: Readonly<TSESLint.SourceCode>;
  /** `settings.locksmith.lockKeyPattern`, compiled: what names a key as a lock's. */
  readonly lockKeyPattern: RegExp;
  /** Split keys (lock-helpers): the key of each release or renewal built from its function's parameters. */
  readonly splitKeyOfKey: ReadonlyMap<TSESTree.Node, string>;
  /** The split keys some acquisition in this module takes. */
  readonly acquiredSplitKeys: ReadonlySet<string>;
}

/** How sure the analysis is that a receiver is a client of the family. */
export type Evidence = 'type' | 'traced' | 'unknown';

export interface ReceiverInfo {
  /** The family, or undefined when nothing says (shape decides then). */
  readonly family: ClientFamily | undefined;
  /** True when the receiver is known not to be a client (a `Map`, a cache, a user type). */
  readonly notClient: boolean;
  readonly evidence: Evidence;
  /** The client expression a `multi()`/`pipeline()` chain started from. */
  readonly root: TSESTree.Expression;
  /** The call or declarator that opened the chain this receiver belongs to. */
  readonly chain: TSESTree.Node | undefined;
  /** True when the client was made as a cluster client (`new Cluster`, `createCluster`, a `Cluster` type). */
  readonly cluster?: boolean;
}

export type ExpiryUnit = 'PX' | 'EX' | 'PXAT' | 'EXAT';

/** The value conditions of Redis 8.4's `SET`/`DELEX` (Valkey has `IFEQ`/`IFNE`): write only if the stored value (or its digest) is or is not the one given. */
export type CompareCondition = 'IFEQ' | 'IFNE' | 'IFDEQ' | 'IFDNE';

export interface SetOptions {
  readonly nx: boolean;
  readonly xx: boolean;
  readonly get: boolean;
  readonly keepTtl: boolean;
  readonly expiry: { readonly unit: ExpiryUnit; readonly value: TSESTree.Node | undefined } | undefined;
  /** `IFEQ token` and the like: the write happens only if the stored value compares so. */
  readonly compare: { readonly condition: CompareCondition; readonly value: TSESTree.Node | undefined } | undefined;
  /** An option could not be read statically (a variable, a spread): assume anything. */
  readonly opaque: boolean;
  /** The options object (node-redis, Upstash), for fixes that add to it. */
  readonly optionsObject: TSESTree.ObjectExpression | undefined;
  /** Which spelling the options use, when the call shows it. */
  readonly spelling: 'positional' | 'node-redis' | 'node-redis-v5' | 'upstash' | undefined;
}

export interface ResolvedScript {
  readonly source: string;
  readonly summary: LuaScriptSummary | undefined;
}

export type HelperRole = 'acquire' | 'release' | 'extend' | 'with-lock';

/**
 * What an acquire helper hands back: the try's answer (`true`/`'OK'`/the reply), the token it
 * minted, a handle that releases the lock (an unlock function, `{ release }`), or nothing. For a
 * release or renewal helper, `result` is its answer to "was the lock still mine?" (the
 * compare-and-delete reply, or `false` when the release failed), which its callers should read.
 */
export type HelperReturn = 'result' | 'token' | 'handle' | 'nothing';

/** A parameter by position, or a property of a destructured parameter (`{ key }` is `{ index: 0, property: 'key' }`). */
export interface ParameterRef {
  readonly index: number;
  readonly property: string | undefined;
}

export interface LockHelperSummary {
  readonly role: HelperRole;
  /** The name calls use (`acquireLock`, `release`); undefined for an anonymous function. */
  readonly name: string | undefined;
  /** The parameters the key is built from, in the order the key uses them. */
  readonly keyParameters: readonly ParameterRef[];
  /**
   * The key signature the body builds, each parameter written `$0`, `$1.key` (see keys.ts for the
   * rest of the notation); undefined when the key cannot be compared.
   */
  readonly keyPattern: string | undefined;
  /** The key reads the instance (`this.key`): the same call on two receivers names two locks. */
  readonly keyOfInstance: boolean;
  readonly tokenParameter: ParameterRef | undefined;
  readonly ttlParameter: ParameterRef | undefined;
  /** Acquire and with-lock: the lock is taken with an expiry. */
  readonly hasTtl: boolean;
  /** Acquire: the helper may fail to take the lock and says so through what it returns. */
  readonly isTry: boolean;
  readonly returns: HelperReturn;
  /** A handle's releasing member (`release`, `unlock`), or `call` for an unlock function. */
  readonly handleRelease: readonly string[];
  readonly mintsFence: boolean;
  /** Release and extend: the body compares the owner atomically (compare-and-delete, a library release). */
  readonly safe: boolean;
  /** With-lock: the parameter holding the work that runs under the lock. */
  readonly callbackParameter: number | undefined;
  /**
   * A PostgreSQL lock (helpers/sql-helper-summaries.ts): a session advisory lock, which ends with its
   * connection (no fence needed), or a lock-table row. Undefined for Redis and its libraries.
   */
  readonly family?: 'advisory' | 'lock-table';
  /**
   * The library the helper's lock comes from (`redlock`, `redis-semaphore`, `redis` for its own
   * commands, `wrapper` for a configured wrapper or a PostgreSQL lock), through helpers it calls.
   */
  readonly library: Exclude<LockLibraryKind, 'helper'>;
  /**
   * Acquire and with-lock: the lock the callers hold keeps being extended by the library while
   * their work runs (auto-extension.ts) — a refreshing redis-semaphore lock handed back, or the
   * caller's callback run as Redlock's `using` routine (and so handed its abort signal).
   */
  readonly autoExtending: boolean;
  /** An auto-extending lock whose loss the helper handles itself (`onLockLost`). */
  readonly lossHandled: boolean;
  /** The function summarised. */
  readonly fn: FunctionLike;
  /** The body's own event the summary stands for (the related location "the helper does it here"). */
  readonly event: Acquisition | Release | Expiry;
}

/** `HSET`/`HMSET` of a key: not a lock command, only a sign that the key holds data. */
export interface HashWrite {
  readonly call: TSESTree.CallExpression;
  readonly keySignature: string | undefined;
  readonly owner: ScopeOwner;
}

/**
 * Another module's lock helpers, Redis and PostgreSQL alike, by function: what a call to an imported
 * helper is summarised from. The model's assembly (lock-model.ts) supplies it, so the builders that
 * follow imports never import each other.
 */
export type ModuleHelperSummaries = (
  sourceCode: Readonly<TSESLint.SourceCode>,
  filePath: string,
  settings: SharedSettings,
) => ReadonlyMap<FunctionLike, LockHelperSummary>;
