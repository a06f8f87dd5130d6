// What each fixture file holds: its rule's finding, the related locations it carries, what its preferred fix writes.
// Plain data (no `vscode`), shared by the real-VS-Code suite and the unit tests.

export interface ExpectedRelated {
  message: string;
  /** 1-based, as the editor shows it. */
  line: number;
  /** Text the related range starts with: the acquisition, release or read the finding is about. */
  text: string;
}

export interface Fixture {
  /** Relative to the fixture workspace. */
  file: string;
  /** Every related location of the rule's one finding in the file, in order. */
  related: ExpectedRelated[];
}

export interface QuickFixFixture extends Fixture {
  /** Text the file holds once the preferred quick fix is applied: evidence the fix did what it says. */
  afterPreferredFix: string;
}

/** Fixtures of the rules checked in depth (findings, each quick fix, disable, fix-all, fix-on-save, turning off), one per client dialect. */
export const FINDING_FIXTURES: Readonly<Record<string, readonly Fixture[]>> = {
  'no-split-acquire': [
    {
      file: 'no-split-acquire.ts',
      related: [{ message: '`SETNX` takes the lock here, with no expiry', line: 9, text: 'redis.setnx(lockKey, token)' }],
    },
  ],
  'no-unsafe-release': [
    {
      file: 'no-unsafe-release.ts',
      related: [{ message: 'The lock is acquired here', line: 9, text: "redis.set(lockKey, token, 'PX', 30000, 'NX')" }],
    },
    {
      file: 'no-unsafe-release.mjs',
      related: [{ message: 'The lock is acquired here', line: 9, text: 'client.set(lockKey, token, { NX: true, PX: 30000 })' }],
    },
  ],
};

/**
 * One small file per other recommended rule with suggestions, each with one finding of its rule
 * (no-pooled-advisory-lock: the lock and its unlock, which one fix mends) and no finding of another rule.
 */
export const QUICK_FIX_FIXTURES: Readonly<Record<string, QuickFixFixture>> = {
  'no-check-then-set': {
    file: 'quick-fixes/no-check-then-set.ts',
    related: [{ message: 'The `GET` that found the lock free', line: 10, text: 'redis.get(lockKey)' }],
    afterPreferredFix: "if (!(await redis.set(lockKey, token, 'PX', 60000, 'NX'))) return false;",
  },
  'no-lock-takeover': {
    file: 'quick-fixes/no-lock-takeover.js',
    related: [],
    afterPreferredFix: 'WHERE locks.expires_at < now()',
  },
  'no-pooled-advisory-lock': {
    file: 'quick-fixes/no-pooled-advisory-lock.ts',
    related: [],
    afterPreferredFix: "await client.query('SELECT pg_advisory_unlock(834721)');",
  },
  'no-unsafe-extend': {
    file: 'quick-fixes/no-unsafe-extend.js',
    related: [{ message: 'The lock is acquired here', line: 10, text: "redis.set(lockKey, token, 'PX', 30000, 'NX')" }],
    afterPreferredFix: `redis.eval('if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end', 1, lockKey, token, 30000);`,
  },
  'no-xact-lock-outside-transaction': {
    file: 'quick-fixes/no-xact-lock-outside-transaction.js',
    related: [],
    afterPreferredFix: "await client.query('BEGIN');",
  },
  'require-acquire-check': {
    file: 'quick-fixes/require-acquire-check.ts',
    related: [],
    afterPreferredFix: 'if (!(await mutex.tryAcquire())) return;',
  },
  'require-fencing-token': {
    file: 'quick-fixes/require-fencing-token.ts',
    related: [
      { message: 'The lock this write trusts is acquired here', line: 12, text: 'redis.set(lockKey, token, { NX: true, PX: 30000 })' },
    ],
    afterPreferredFix: 'AND fence < $4',
  },
  'require-lock-ttl': {
    file: 'quick-fixes/require-lock-ttl.ts',
    related: [],
    afterPreferredFix: "redis.set('lock:report-rebuild', instanceId, { nx: true, px: 30000 })",
  },
  'require-release-in-finally': {
    file: 'quick-fixes/require-release-in-finally.ts',
    related: [{ message: 'Released here, on the success path only', line: 11, text: 'lock.release()' }],
    afterPreferredFix: '} finally {\n    await lock.release();\n  }',
  },
  'require-unique-token': {
    file: 'quick-fixes/require-unique-token.js',
    related: [{ message: 'This release or renewal cannot tell holders apart by the value', line: 13, text: 'redis.eval(' }],
    afterPreferredFix: "const token = require('node:crypto').randomUUID();",
  },
};
