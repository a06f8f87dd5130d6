// no-xact-lock-outside-transaction: pg_advisory_xact_lock outside a transaction is released when its
// own statement ends, so every worker gets in at once; inside the fix's transaction (postgres.js
// `sql.begin`, or pg's BEGIN/COMMIT on one checked-out client) the workers are serialised.

import { runTransactionWrappedXactLock } from '../fixed-sql.js';
import { Occupancy, type Scenario } from '../harness.js';

const WORKERS = 3;
/** Turn 0 runs through postgres.js, turn 1 through a pg Pool. */
const LIBRARIES = ['postgres', 'pg'] as const;

export const noXactLockOutsideTransaction: Scenario = {
  id: 'no-xact-lock-outside-transaction',
  rule: 'no-xact-lock-outside-transaction',
  brokenShows: 'two holders inside the "locked" section at once',
  fixedShows: 'serialised',
  fixSource: '`renderTransactionWrap` (sql-templates) for postgres.js and for pg',
  rotations: LIBRARIES.length,
  async run(context) {
    const library = LIBRARIES[context.rotation % LIBRARIES.length]!;
    const database =
      library === 'postgres'
        ? ({ library, sql: context.postgresJs(WORKERS + 1) } as const)
        : ({ library, pool: context.pgPool(WORKERS + 1) } as const);
    const monitor = await context.pgClient();
    const lockKey = context.uniqueNumber();
    const occupancy = new Occupancy();
    let finished = 0;

    // Workers waiting on the lock inside PostgreSQL (an ungranted advisory lock on this key). Workers
    // polling at once share one query: a pg client runs one query at a time.
    let inFlight: Promise<number> | undefined;
    const queryBlocked = async (): Promise<number> => {
      const { rows } = await monitor.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_locks
          WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = $1`,
        [lockKey],
      );
      return rows[0]?.waiting ?? 0;
    };
    const blockedOnLock = async (): Promise<number> => {
      inFlight ??= queryBlocked().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    };
    // Inside the section, a worker stays until every other worker is inside too, done, or blocked
    // on the lock: so the broken code's overlap is forced, and the fixed code cannot deadlock.
    const criticalSection = async (worker: string): Promise<void> => {
      occupancy.enter(worker);
      await context.waitUntil(
        'every worker is inside, finished or blocked on the lock',
        async () => occupancy.inside + finished + (await blockedOnLock()) >= WORKERS,
      );
      occupancy.leave(worker);
      finished += 1;
    };

    await Promise.all(
      Array.from({ length: WORKERS }, async (_, index) => {
        const worker = String.fromCharCode(65 + index);
        if (context.variant === 'fixed') {
          await runTransactionWrappedXactLock(database, lockKey, () => criticalSection(worker));
        } else if (database.library === 'postgres') {
          await database.sql`SELECT pg_advisory_xact_lock(${lockKey})`;
          await criticalSection(worker);
        } else {
          await database.pool.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
          await criticalSection(worker);
        }
      }),
    );
    context.tally.note(`${library}: most workers inside the section at once: ${occupancy.maxInside}`);
    context.tally.expect(occupancy.maxInside <= 1, `${library}: ${occupancy.maxInside} workers were inside the "locked" section at once`);
  },
};
