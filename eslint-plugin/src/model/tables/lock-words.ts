// The words lock code is named with: one list, from which each text screen and name test builds
// its pattern (redis-gate.ts's file screen, project/modules.ts's module screen, project/lock-names.ts's
// helper names), so a word added here reaches all of them and none admits a word another lacks.

/** What a lock is called: `jobLock`, `Mutex`, `semaphore`, `leaseStore`. */
export const LOCK_NOUNS = ['lock', 'mutex', 'semaphore', 'lease'] as const;

/** What is done with a lock, or what holding one makes a worker: `acquireLock`, `release`, `leader.elect`, `claimJob`. */
export const LOCK_ACTS = ['leader', 'acquire', 'release', 'claim'] as const;

/**
 * Words of lock code that name no helper: a SQL advisory lock (`pg_advisory_lock`), an expiry column
 * (`expires_at`), a deadline (`locked_until`). The file screen admits them; a helper's name needs more.
 */
export const LOCK_TABLE_WORDS = ['advisory', 'expir', 'until'] as const;

/**
 * Words in a callee's name (any case, anywhere in it) that mark the value it returns as random, unique
 * to each holder: `randomUUID()`, `uuidv4()`, `nanoid()`, `generateUlid()` (token-origin.ts's
 * mintsRandomly). Broad on purpose: a match only ever keeps a finding away (require-unique-token) or
 * labels a token unique in the lock map.
 *
 * Not the same fact as the token minters in the machinery lists of helpers/helper-summaries.ts and
 * questions/single-statement.ts, which ask whether a call is the lock's own plumbing rather than work
 * under it: they match exact names (`random` but not `randomInt`), and there a match can make
 * no-unneeded-lock report, so each keeps its own narrower list; merging them would change findings.
 */
export const RANDOM_TOKEN_WORDS = /uuid|random|nanoid|cuid|ulid|ksuid|objectid/iu;

/** `lock` → `[lL]ock`: the word at the start of a name (`lockKey`) or after a lower-case part (`jobLock`). */
export function eitherInitialCase(word: string): string {
  const first = word[0]!;
  return `[${first}${first.toUpperCase()}]${word.slice(1)}`;
}
