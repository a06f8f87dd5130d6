import type { RedisDialect, ClientFamily, LockLibrary } from '../nouns/vocabulary.js';
import type { LockLibraryKind, SetOptions } from '../nouns/redis-events.js';

export interface PackageEntry {
  readonly family: ClientFamily;
  /** Exported names that construct or create a client (`default` for the default export). */
  readonly makers: readonly string[];
  /** Exported type names that denote a client, for TypeScript annotations without a checker. */
  readonly typeNames: readonly string[];
}

export const CLIENT_PACKAGES: Readonly<Record<string, PackageEntry>> = {
  ioredis: { family: 'ioredis', makers: ['default', 'Redis', 'Cluster'], typeNames: ['Redis', 'Cluster', 'RedisOptions'] },
  // iovalkey is Valkey's fork of ioredis: the same classes, options and command spelling.
  iovalkey: { family: 'ioredis', makers: ['default', 'Redis', 'Cluster'], typeNames: ['Redis', 'Cluster', 'RedisOptions'] },
  redis: { family: 'node-redis', makers: ['createClient', 'createCluster'], typeNames: ['RedisClientType', 'RedisClusterType'] },
  '@redis/client': { family: 'node-redis', makers: ['createClient', 'createCluster'], typeNames: ['RedisClientType', 'RedisClusterType'] },
  '@upstash/redis': { family: 'upstash', makers: ['Redis'], typeNames: ['Redis'] },
  '@upstash/redis/nodejs': { family: 'upstash', makers: ['Redis'], typeNames: ['Redis'] },
  '@upstash/redis/cloudflare': { family: 'upstash', makers: ['Redis'], typeNames: ['Redis'] },
  redlock: { family: 'redlock', makers: ['default', 'Redlock'], typeNames: ['Redlock', 'Lock'] },
  '@sesamecare-oss/redlock': { family: 'redlock', makers: ['default', 'Redlock'], typeNames: ['Redlock', 'Lock'] },
  'redis-semaphore': {
    family: 'redis-semaphore',
    makers: ['Mutex', 'Semaphore', 'MultiSemaphore', 'RedlockMutex', 'RedlockSemaphore', 'RedlockMultiSemaphore'],
    typeNames: ['Mutex', 'Semaphore', 'MultiSemaphore', 'RedlockMutex', 'RedlockSemaphore'],
  },
};

/** Where a declaration file lives tells which library declared a type (for the checker path). */
export const DECLARATION_PATH_FAMILIES: readonly (readonly [RegExp, ClientFamily])[] = [
  [/[\\/]node_modules[\\/]ioredis[\\/]/u, 'ioredis'],
  [/[\\/]node_modules[\\/]iovalkey[\\/]/u, 'ioredis'],
  [/[\\/]node_modules[\\/]@redis[\\/]/u, 'node-redis'],
  [/[\\/]node_modules[\\/]redis[\\/]/u, 'node-redis'],
  [/[\\/]node_modules[\\/]@upstash[\\/]redis[\\/]/u, 'upstash'],
  [/[\\/]node_modules[\\/](?:@sesamecare-oss[\\/])?redlock[\\/]/u, 'redlock'],
  [/[\\/]node_modules[\\/]redis-semaphore[\\/]/u, 'redis-semaphore'],
];

/** What a client dialect does that the model and the fixes must know (fixes/templates.ts writes its calls). */
export interface RedisDialectEntry {
  /**
   * How SET takes its options: positional strings (`'PX', ms, 'NX'`), an object of flags
   * (`{ NX: true, PX: ms }`, Upstash's `{ nx: true, px: ms }`), or node-redis 5's
   * `{ condition: 'NX', expiration: { type: 'PX', value } }`.
   */
  readonly setOptions: 'positional' | 'object' | 'condition-object';
  /** `exec()` of a pipeline or MULTI resolves to `[error, reply]` pairs, not to the replies alone. */
  readonly pipelineRepliesArePairs: boolean;
  /** The client sends only strings and buffers: a number argument (a TTL) must be converted first. */
  readonly stringArgumentsOnly: boolean;
  /** The dialect of the same family's version whose calls take a trailing callback (node-redis v3). */
  readonly callbackVersion?: RedisDialect;
  /** The dialect of the same family's version that spells options as `{ condition, expiration }` (node-redis 5). */
  readonly conditionObjectVersion?: RedisDialect;
}

/** Client dialects (see RedisDialect) → what each does. */
export const REDIS_DIALECTS: Readonly<Record<RedisDialect, RedisDialectEntry>> = {
  ioredis: { setOptions: 'positional', pipelineRepliesArePairs: true, stringArgumentsOnly: false },
  'node-redis': {
    setOptions: 'object',
    pipelineRepliesArePairs: false,
    stringArgumentsOnly: true,
    callbackVersion: 'node-redis-v3',
    conditionObjectVersion: 'node-redis-v5',
  },
  'node-redis-v5': { setOptions: 'condition-object', pipelineRepliesArePairs: false, stringArgumentsOnly: true },
  'node-redis-v3': { setOptions: 'positional', pipelineRepliesArePairs: false, stringArgumentsOnly: false },
  upstash: { setOptions: 'object', pipelineRepliesArePairs: false, stringArgumentsOnly: false },
};

/** A SET's options spelled as `{ condition, expiration }`: the call is in a version that spells them so (node-redis 5). */
export function isConditionObjectSpelling(spelling: SetOptions['spelling']): boolean {
  return spelling !== undefined && spelling !== 'positional' && REDIS_DIALECTS[spelling].setOptions === 'condition-object';
}

/** The dialect a client family's calls are written in (a family is named as its dialect); none for a lock library. */
export function dialectOfFamily(family: ClientFamily): RedisDialect | undefined {
  return Object.hasOwn(REDIS_DIALECTS, family) ? (family as RedisDialect) : undefined;
}

/**
 * Writes that store data under a key, read only so that no-lock-key-write can ask whether one lands
 * on a held lock's key. Lists, sets and counters are what every other object has too
 * (`formData.append`, `fs.rename`, `em.persist`), so these count as generic names: on a receiver of
 * unknown origin only when it is named like a client, and they never make a file worth screening.
 */
const DATA_WRITE_COMMANDS = [
  'APPEND',
  'INCRBYFLOAT',
  'DECR',
  'DECRBY',
  'SETRANGE',
  'HDEL',
  'HINCRBY',
  'LPUSH',
  'RPUSH',
  'SADD',
  'ZADD',
  'RENAME',
  'RENAMENX',
];
const DATA_WRITE_CAMEL: Readonly<Record<string, string>> = {
  incrByFloat: 'INCRBYFLOAT',
  decrBy: 'DECRBY',
  setRange: 'SETRANGE',
  hDel: 'HDEL',
  hIncrBy: 'HINCRBY',
  lPush: 'LPUSH',
  rPush: 'RPUSH',
  sAdd: 'SADD',
  zAdd: 'ZADD',
  renameNX: 'RENAMENX',
};

/** Method names (as written in any dialect) → the Redis command they send. */
export const REDIS_METHODS: Readonly<Record<string, string>> = (() => {
  const commands = [
    'SET',
    'GET',
    'SETNX',
    'SETEX',
    'PSETEX',
    'EXPIRE',
    'PEXPIRE',
    'EXPIREAT',
    'PEXPIREAT',
    'PERSIST',
    'DEL',
    'UNLINK',
    'EXISTS',
    'EVAL',
    'EVALSHA',
    'EVAL_RO',
    'EVALSHA_RO',
    'FCALL',
    'INCR',
    'INCRBY',
    'GETDEL',
    'GETSET',
    'GETEX',
    'TTL',
    'PTTL',
    // Compare-and-delete commands of newer servers (Redis 8.4 / Valkey 9.2 / Dragonfly 1.37, Valkey 9.0).
    'DELEX',
    'DELIFEQ',
    ...DATA_WRITE_COMMANDS,
  ];
  // node-redis v4+ spells commands in camelCase as well as upper case.
  const camel: Record<string, string> = {
    setNX: 'SETNX',
    setEx: 'SETEX',
    pSetEx: 'PSETEX',
    pExpire: 'PEXPIRE',
    expireAt: 'EXPIREAT',
    pExpireAt: 'PEXPIREAT',
    evalSha: 'EVALSHA',
    evalRo: 'EVAL_RO',
    evalShaRo: 'EVALSHA_RO',
    fCall: 'FCALL',
    incrBy: 'INCRBY',
    incrByFloat: 'INCRBYFLOAT',
    decrBy: 'DECRBY',
    setRange: 'SETRANGE',
    hDel: 'HDEL',
    hIncrBy: 'HINCRBY',
    ...DATA_WRITE_CAMEL,
    getDel: 'GETDEL',
    getSet: 'GETSET',
    getEx: 'GETEX',
    pTTL: 'PTTL',
    delEx: 'DELEX',
  };
  const table: Record<string, string> = { ...camel };
  for (const command of commands) {
    table[command] = command;
    table[command.toLowerCase()] = command;
  }
  return table;
})();

/** Methods that send an arbitrary command given as a name plus arguments. */
export const GENERIC_COMMAND_METHODS = new Set(['call', 'sendCommand', 'send_command', 'callBuffer', 'exec']);
/**
 * Generic methods that count only with the command as an array literal: Upstash's `exec(['DELEX', k])`
 * (a `multi().exec()`, `regex.exec(text)` or `child_process.exec(cmd)` never passes one).
 */
export const ARRAY_ONLY_COMMAND_METHODS: ReadonlySet<string> = new Set(['exec']);
/** Methods that start a queued transaction or pipeline. */
export const CHAIN_METHODS = new Set(['multi', 'pipeline', 'MULTI', 'batch']);

/**
 * Methods that many non-Redis objects also have (caches, stores, HTTP clients): on a receiver of
 * unknown origin they count only when the receiver is named like a Redis client.
 */
export const GENERIC_METHOD_NAMES: ReadonlySet<string> = new Set([
  'get',
  'set',
  'del',
  'exists',
  'expire',
  'incr',
  'ttl',
  'call',
  'send_command',
  'sendCommand',
  // Upstash's raw form, `redis.exec([...])`: only an array literal counts (commands.ts).
  'exec',
  // `em.persist` of an ORM; and the data writes above in every spelling.
  'persist',
  ...DATA_WRITE_COMMANDS.flatMap((command) => [command, command.toLowerCase()]),
  ...Object.keys(DATA_WRITE_CAMEL),
]);
export const CLIENT_LIKE_NAME = /redis|valkey|upstash|cluster|^(?:redis_?)?client$|^conn(?:ection)?$|^kv$/iu;
/**
 * What the maker of a constructed object may be called when the object may be a Redis client or a
 * lock (`new Redis()`, `new Redlock()`, `new Mutex()`): any other `new X()` (`new Map()`, `new
 * LRUCache()`) makes an object of a known other kind.
 */
export const CLIENT_OR_LOCK_MAKER_NAME = /redis|cluster|client|valkey|dragonfly|lock|mutex|semaphore/iu;

/** Methods whose result is the client they are called on (`createClient().connect()`, `await client.duplicate()`, `client.on(…)`): it keeps the client's family. */
export const SAME_CLIENT_METHODS: ReadonlySet<string> = new Set(['connect', 'duplicate', 'on']);

/** `WATCH key` written as a method, in either case. */
export const WATCH_METHODS: ReadonlySet<string> = new Set(['watch', 'WATCH']);
/** The method that sends a queued MULTI transaction and answers its replies (`multi().del(k).exec()`). */
export const TRANSACTION_EXEC_METHODS: ReadonlySet<string> = new Set(['exec']);
/** Calls whose result is a connection of the caller's own: ioredis/node-redis `duplicate()`, a pool's `acquire()`, node-redis 4 `isolated()`. */
export const DEDICATED_CONNECTION_METHODS: ReadonlySet<string> = new Set(['duplicate', 'acquire', 'isolated']);
/** Methods that run a callback on a connection of its own, its first parameter (node-redis 4 `executeIsolated(async (isolated) => …)`). */
export const ISOLATED_CALLBACK_METHODS: ReadonlySet<string> = new Set(['executeIsolated']);
/** A client pool's methods that run a callback on a connection checked out for it (`pool.execute(client => …)`), on a receiver named like a pool. */
export const POOL_CALLBACK_METHODS: ReadonlySet<string> = new Set(['execute']);
export const POOL_RECEIVER_NAME = /pool/iu;

/** What one method of a lock library does. */
export interface LockLibraryMethod {
  readonly acts: 'acquire' | 'release' | 'extend';
  /** The acquisition may fail without throwing (`mutex.tryAcquire()`). */
  readonly isTry?: boolean;
  /** It returns the lock handle (`const lock = await redlock.acquire(...)`), whose methods release and extend. */
  readonly returnsHandle?: boolean;
  /** It runs a routine under the lock and releases the lock after it (`redlock.using(keys, ttl, routine)`). */
  readonly runsRoutine?: boolean;
  /** It is a method of the handle an acquisition returned (`lock.release()`), whatever the receiver's origin. */
  readonly onHandle?: boolean;
}

export interface LockLibraryEntry {
  /** The acquisition kind the model records for this library. */
  readonly acquisitionKind: 'redlock' | 'semaphore';
  /**
   * Which object holds the lock: the handle the acquisition returns (Redlock's `lock`, its key in the
   * acquisition's first argument), or the object the acquisition was called on (redis-semaphore's
   * `new Mutex(client, key)`, its key in the maker's arguments).
   */
  readonly heldBy: 'handle' | 'maker';
  /** Which argument of an acquisition gives the lock's duration in milliseconds (`redlock.acquire(resources, duration)`), if one does. */
  readonly durationArgument?: number;
  readonly methods: Readonly<Record<string, LockLibraryMethod>>;
  /** How the library's name reads in a message (`Redlock`). */
  readonly displayName: string;
  /** How the library keeps a held lock extended while the work runs, if it does (require-lock-loss-handling). */
  readonly autoExtension?: RoutineExtension | TimerExtension;
}

/**
 * The lock is extended while a routine passed to one of the library's `runsRoutine` methods runs
 * (Redlock v5's `using(resources, duration, [settings,] routine)`), and the routine learns of a lost
 * lock through the abort signal handed to it as its first parameter.
 */
export interface RoutineExtension {
  readonly by: 'routine';
  /** The fewest arguments a call has when it passes a routine to extend under. */
  readonly minArguments: number;
}

/**
 * The lock refreshes itself on a timer the maker's options configure, on unless turned off
 * (redis-semaphore), and a lost lock is told through a handler option (by default: a throw from the
 * timer) and a property of the lock object the work can read.
 */
export interface TimerExtension {
  readonly by: 'timer';
  /** Where each maker takes its options object (`new Semaphore(client, key, limit, options)`). */
  readonly optionsArgument: Readonly<Record<string, number>>;
  /** The option whose value `0` turns the refresh off. */
  readonly refreshOption: string;
  /** The option that hands the code a lost lock. */
  readonly lostHandlerOption: string;
  /** The property of the lock object that says whether it is still held. */
  readonly acquiredProperty: string;
}

/** Lock libraries by name → what their methods do (a trace map of the lock object and its handle). */
export const LOCK_LIBRARIES: Readonly<Record<LockLibrary, LockLibraryEntry>> = {
  redlock: {
    acquisitionKind: 'redlock',
    heldBy: 'handle',
    durationArgument: 1,
    methods: {
      acquire: { acts: 'acquire', returnsHandle: true },
      lock: { acts: 'acquire', returnsHandle: true },
      using: { acts: 'acquire', runsRoutine: true },
      // Redlock's `tryAcquire` throws when the lock is taken, as `acquire` does.
      tryAcquire: { acts: 'acquire' },
      release: { acts: 'release', onHandle: true },
      unlock: { acts: 'release', onHandle: true },
      extend: { acts: 'extend', onHandle: true },
    },
    displayName: 'Redlock',
    autoExtension: { by: 'routine', minArguments: 3 },
  },
  'redis-semaphore': {
    acquisitionKind: 'semaphore',
    heldBy: 'maker',
    methods: {
      acquire: { acts: 'acquire' },
      tryAcquire: { acts: 'acquire', isTry: true },
      release: { acts: 'release' },
    },
    displayName: 'redis-semaphore',
    autoExtension: {
      by: 'timer',
      optionsArgument: {
        Mutex: 2,
        Semaphore: 3,
        MultiSemaphore: 4,
        RedlockMutex: 2,
        RedlockSemaphore: 3,
        RedlockMultiSemaphore: 4,
      },
      refreshOption: 'refreshInterval',
      lostHandlerOption: 'onLockLost',
      acquiredProperty: 'isAcquired',
    },
  },
};

/** Whether a client family (or an acquisition's library) is a lock library rather than a Redis client. */
export function isLockLibrary(library: string | undefined): library is LockLibrary {
  return library !== undefined && Object.hasOwn(LOCK_LIBRARIES, library);
}

/**
 * The `library` of a lock event made of the code's own Redis commands (`SET NX PX`, `DEL`, an
 * owner-comparing script), rather than of a lock library's call, a configured wrapper's or a project
 * helper's.
 */
export const RAW_COMMANDS: Extract<LockLibraryKind, 'redis'> = 'redis';

/**
 * The event (or lock, or helper summary) is made of the code's own Redis commands: the rules about a
 * command's shape, its key and its TTL judge these, and leave a library's or a helper's to the library.
 */
export function isRawCommand(event: { readonly library: string }): boolean {
  return event.library === RAW_COMMANDS;
}

/** What `method` does on an object of `library`, if the library has it. */
export function lockLibraryMethod(library: string | undefined, method: string | undefined): LockLibraryMethod | undefined {
  if (!isLockLibrary(library) || method === undefined) return undefined;
  const methods = LOCK_LIBRARIES[library].methods;
  return Object.hasOwn(methods, method) ? methods[method] : undefined;
}

/** Methods that release the lock they are called on (`lock.release()`, `mutex.release()`), by library. */
export function releaseMethodsOf(library: LockLibrary): string[] {
  return Object.entries(LOCK_LIBRARIES[library].methods)
    .filter(([, method]) => method.acts === 'release')
    .map(([name]) => name);
}

/** Which object holds a lock of `library` (undefined when it is no lock library): see LockLibraryEntry. */
export function lockHeldBy(library: string | undefined): LockLibraryEntry['heldBy'] | undefined {
  return isLockLibrary(library) ? LOCK_LIBRARIES[library].heldBy : undefined;
}

/** How a lock library's name reads in a message (`Redlock`); undefined for anything else. */
export function lockLibraryDisplayName(library: string): string | undefined {
  return isLockLibrary(library) ? LOCK_LIBRARIES[library].displayName : undefined;
}

/** Every method name of every lock library. */
export const LOCK_LIBRARY_METHOD_NAMES: readonly string[] = [
  ...new Set(Object.values(LOCK_LIBRARIES).flatMap((entry) => Object.keys(entry.methods))),
];

/**
 * The methods of `library` that run a routine the library extends the lock under (Redlock's `using`),
 * when the library extends that way (see RoutineExtension).
 */
export function routineMethodsOf(library: LockLibrary): readonly string[] {
  return Object.entries(LOCK_LIBRARIES[library].methods)
    .filter(([, method]) => method.runsRoutine)
    .map(([name]) => name);
}

/** Redis commands that change data: a write made under a lock that may already be lost. */
export const REDIS_WRITE_COMMANDS: ReadonlySet<string> = new Set([
  'SET',
  'SETNX',
  'SETEX',
  'PSETEX',
  'DEL',
  'UNLINK',
  'INCR',
  'INCRBY',
  'GETDEL',
  'GETSET',
  'GETEX',
]);

export const HASH_WRITE_METHODS: ReadonlySet<string> = new Set(['hset', 'hSet', 'HSET', 'hmset', 'hMSet', 'HMSET']);

/** Methods that define a named Lua command on a client: ioredis's `defineCommand(name, { lua })`, node-redis's `defineScript({...})`. */
export const SCRIPT_DEFINING_METHODS: Readonly<Record<string, ClientFamily>> = {
  defineCommand: 'ioredis',
  defineScript: 'node-redis',
};
