// The three Lua scripts Locksmith's fixes write (compare-and-delete, compare-and-pexpire, fenced
// acquire) and the TTL a fix writes when the code gives none: one source for the rules' suggestions
// and the runtime proofs in test/proofs, so a proof always runs exactly what a fix writes.

/** Compare-and-delete: frees the lock only while it still holds this holder's token. */
export const RELEASE_SCRIPT = `if redis.call("GET", KEYS[1]) == ARGV[1] then
    return redis.call("DEL", KEYS[1])
else
    return 0
end`;

/** Compare-and-pexpire: renews the lock only while it still holds this holder's token. */
export const EXTEND_SCRIPT = `if redis.call("GET", KEYS[1]) == ARGV[1] then
    return redis.call("PEXPIRE", KEYS[1], ARGV[2])
else
    return 0
end`;

/**
 * Acquire with a fence in one round trip: KEYS[1] is the lock, KEYS[2] the fence counter (same hash
 * tag, so one cluster slot), ARGV[1] the token, ARGV[2] the TTL in ms. Returns the new fence, or 0
 * when the lock is held by someone else.
 */
export const FENCED_ACQUIRE_SCRIPT = `if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
    return redis.call("INCR", KEYS[2])
else
    return 0
end`;

export type ScriptKind = 'release' | 'extend' | 'fencedAcquire';

export const SCRIPT_TEXTS: Readonly<Record<ScriptKind, string>> = {
  release: RELEASE_SCRIPT,
  extend: EXTEND_SCRIPT,
  fencedAcquire: FENCED_ACQUIRE_SCRIPT,
};

/** Default TTL a fix writes when the code gives none (rule option `defaultTtlMs`). */
export const DEFAULT_TTL_MS = 30_000;
