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

/** `lock` → `[lL]ock`: the word at the start of a name (`lockKey`) or after a lower-case part (`jobLock`). */
export function eitherInitialCase(word: string): string {
  const first = word[0]!;
  return `[${first}${first.toUpperCase()}]${word.slice(1)}`;
}
