// The options every rule shares, read from `settings.locksmith` so one entry configures them all.

import { parseVersion, SERVER_KINDS } from '../tables/servers.js';
import type { ServerKind, TargetServer, LockWrappers, SharedSettings } from '../nouns/vocabulary.js';
import type { LocksmithRuleContext } from '../../util/rule-context.js';

export interface RawSharedSettings {
  lockKeyPattern?: string;
  efficiencyLocks?: string[];
  fenceColumns?: string[];
  lockWrappers?: Partial<Record<keyof LockWrappers, string[]>>;
  redis?: { server?: string; version?: string; cluster?: boolean };
}

/**
 * "lock" as a word of the key, not inside another word: `lock:job`, `jobLock`, `locks:42`, `mylock`
 * and `{redlock}a` match; `block`, `clock`, `unlock`, `deadlock`, `lockout` and `locked` (a blocklist,
 * a clock, an account lockout, a `user:locked` flag) do not. Words are also tried with their camelCase
 * humps apart (`jobLock` as `job Lock`), hence the optional space before `out`.
 */
export const DEFAULT_LOCK_KEY_PATTERN = '(?<![bc]|un|dead)lock(?! ?out|ed)';
export const DEFAULT_FENCE_COLUMNS: readonly string[] = ['fence', 'fencing_token'];

/** JSON schema fragment for `settings.locksmith`-style shared options, reused by rule schemas. */
export const sharedOptionSchema = {
  lockKeyPattern: {
    type: 'string',
    description:
      'Regular expression (case-insensitive) that marks a key as a lock key, tested against each word of the key (literal text, names) as written and with camelCase humps apart. Default: `lock` as a word, not inside `block`, `clock`, `unlock`, `deadlock`, `lockout` or `locked`.',
  },
  lockWrappers: {
    type: 'object',
    description: 'Names or /patterns/ of your own lock helpers, seen as acquisitions, releases, and run-with-lock functions.',
    additionalProperties: false,
    properties: {
      acquire: { type: 'array', items: { type: 'string' }, description: 'Functions that acquire a lock (key as first argument).' },
      release: {
        type: 'array',
        items: { type: 'string' },
        description: 'Functions that release a lock (key or handle as first argument).',
      },
      withLock: { type: 'array', items: { type: 'string' }, description: 'Functions that run a callback while holding a lock.' },
    },
  },
} as const;

/**
 * JSON schema of the whole `settings.locksmith` object, one entry per key of RawSharedSettings (the
 * `satisfies` makes a new setting fail to compile until it is described here). The project
 * configuration (`locksmith.json`) and its shipped schema are built from it, so they cannot drift.
 */
export const sharedSettingsSchema = {
  lockKeyPattern: sharedOptionSchema.lockKeyPattern,
  efficiencyLocks: {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    description: 'Key patterns of locks held for efficiency only: writes under them need no fencing token (require-fencing-token).',
  },
  fenceColumns: {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    description: 'SQL columns that hold a fencing token. Default: `["fence", "fencing_token"]`.',
  },
  lockWrappers: sharedOptionSchema.lockWrappers,
  redis: {
    type: 'object',
    description:
      'The Redis deployment the code talks to. With `server`/`version` naming a server that has its own compare-and-delete (Redis ≥ 8.4 and Dragonfly ≥ 1.37 `DELEX`, Valkey ≥ 9.0 `DELIFEQ`, ≥ 9.2 `DELEX`) or compare-and-set (Redis ≥ 8.4, Valkey ≥ 8.1 `SET … IFEQ`), no-unsafe-release and no-unsafe-extend suggest it before the Lua script. Default: none (Lua scripts only).',
    additionalProperties: false,
    properties: {
      server: { enum: SERVER_KINDS, description: '"redis", "valkey" or "dragonfly".' },
      version: { type: 'string', minLength: 1, description: 'The server version as a string, e.g. "8.4" or "9.0.1".' },
      cluster: {
        type: 'boolean',
        description:
          'Treat every Redis client as a cluster client: a script call whose keys share no hash tag is reported (no-lua-reply-pitfalls). Default: only clients made with `new Cluster`/`createCluster`.',
      },
    },
  },
} as const satisfies Record<keyof RawSharedSettings, object>;

// Keyed by the settings' JSON: ESLint hands each rule its own settings object, so identity would
// never hit and every rule would rebuild the file's model.
const cache = new Map<string, SharedSettings>();
// ESLint passes one settings object to every rule of a file: the identity lookup is the fast path.
const byObject = new WeakMap<object, SharedSettings>();
const NO_SETTINGS: RawSharedSettings = {};

/** Shared settings from `settings.locksmith`, with rule options (when given) taking precedence. */
export function readSharedSettings(context: Pick<LocksmithRuleContext, 'settings'>, ruleOverrides?: RawSharedSettings): SharedSettings {
  const settingsObject = context.settings as Record<string, unknown>;
  const raw = (settingsObject['locksmith'] ?? NO_SETTINGS) as RawSharedSettings;
  // Asked once per file and rule: the common call (no overrides) allocates nothing before the lookup.
  const noOverrides = ruleOverrides === undefined || Object.keys(ruleOverrides).length === 0;
  if (noOverrides) {
    const known = byObject.get(raw);
    if (known) return known;
  }
  const cacheKey = noOverrides ? JSON.stringify(raw) : JSON.stringify([raw, ruleOverrides]);
  const cached = cache.get(cacheKey);
  if (cached) {
    if (noOverrides) byObject.set(raw, cached);
    return cached;
  }
  const merged: RawSharedSettings = noOverrides ? raw : { ...raw, ...ruleOverrides };
  const result: SharedSettings = {
    lockKeyPattern: toRegExp(merged.lockKeyPattern ?? DEFAULT_LOCK_KEY_PATTERN) ?? /lock/iu,
    efficiencyLocks: (merged.efficiencyLocks ?? []).map(toRegExp).filter((pattern) => pattern !== undefined),
    fenceColumns: merged.fenceColumns ?? DEFAULT_FENCE_COLUMNS,
    lockWrappers: {
      acquire: merged.lockWrappers?.acquire ?? [],
      release: merged.lockWrappers?.release ?? [],
      withLock: merged.lockWrappers?.withLock ?? [],
    },
    redis: readTargetServer(merged.redis),
    redisCluster: merged.redis?.cluster === true,
  };
  if (cache.size > 100) cache.clear();
  cache.set(cacheKey, result);
  if (noOverrides) byObject.set(raw, result);
  return result;
}

/**
 * The target server, or undefined when the setting is missing or malformed: a rule never throws, and
 * the CLI reports a malformed one as a configuration error first (project-config/load.ts).
 */
function readTargetServer(raw: unknown): TargetServer | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { server: serverValue, version: versionValue } = raw as { server?: unknown; version?: unknown };
  const server = serverValue ?? 'redis';
  if (!SERVER_KINDS.includes(server as ServerKind)) return undefined;
  const version = typeof versionValue === 'string' ? parseVersion(versionValue) : undefined;
  return { server: server as ServerKind, version: version ?? [] };
}

/** `'lock'` or `'/^lock:/i'`; an invalid pattern yields undefined rather than a crash. */
export function toRegExp(pattern: string): RegExp | undefined {
  try {
    const literal = /^\/(.+)\/([a-z]*)$/u.exec(pattern);
    if (literal) return new RegExp(literal[1]!, literal[2]!.includes('i') ? literal[2] : `${literal[2]!}i`);
    return new RegExp(pattern, 'iu');
  } catch {
    return undefined;
  }
}

/** Whether a function name matches a wrapper list entry (a name, or a /pattern/). */
export function matchesName(name: string, entries: readonly string[]): boolean {
  return entries.some((entry) => {
    if (entry.startsWith('/')) return toRegExp(entry)?.test(name) ?? false;
    return entry === name;
  });
}
