// no-pooled-advisory-lock: lock and unlock sent through a pg Pool land on different connections while
// the application's other queries share the pool, so the unlock frees nothing and the lock leaks; the
// fix checks out one client and locks, works and unlocks on it.

import type pg from 'pg';
import { runCheckoutWrappedLock } from '../fixed-sql.js';
import { Gate, type Scenario } from '../harness.js';

export const noPooledAdvisoryLock: Scenario = {
  id: 'no-pooled-advisory-lock',
  rule: 'no-pooled-advisory-lock',
  brokenShows: 'unlock runs on another connection: lock leaks, the next caller blocks',
  fixedShows: 'lock and unlock on one client: released',
  fixSource: "`renderCheckoutWrap('pg', …)` (sql-templates) around the lock, the work and the unlock",
  async run(context) {
    // Two connections; two other parts of the application use the pool while the job holds its lock.
    const pool = context.pgPool(2);
    const lockKey = context.uniqueNumber();
    const otherUser1 = await pool.connect();
    let otherUser2: Promise<pg.PoolClient> | undefined;
    const workDone = new Gate();
    let unlocked: boolean;

    // The job's critical section: other users take and give back connections meanwhile. With the
    // pool full, each checkout gets the one connection left, so which connection runs what is forced.
    const work = async (): Promise<void> => {
      let checkedOut = false;
      otherUser2 = pool.connect().then((client) => {
        checkedOut = true;
        return client;
      });
      // User 2 has taken the idle connection (broken) or queues for one (fixed) before user 1 gives
      // its connection back; otherwise the pool could hand user 1's connection to user 2 instead.
      await context.waitUntil(
        'the second pool user holds or waits for a connection',
        () => pool.idleCount === 0 && (checkedOut || pool.waitingCount > 0),
      );
      otherUser1.release();
      await otherUser2;
      workDone.open();
    };

    if (context.variant === 'broken') {
      await pool.query('SELECT pg_advisory_lock($1)', [lockKey]);
      await work();
      const { rows } = await pool.query<{ unlocked: boolean }>('SELECT pg_advisory_unlock($1) AS unlocked', [lockKey]);
      unlocked = rows[0]?.unlocked === true;
    } else {
      unlocked = await runCheckoutWrappedLock(pool, lockKey, work);
    }
    await workDone.wait();
    (await otherUser2!).release();
    context.tally.expect(
      pool.idleCount === pool.totalCount,
      `the job kept ${pool.totalCount - pool.idleCount} pooled connection(s) checked out`,
    );
    context.tally.note(`pg_advisory_unlock returned ${String(unlocked)}`);
    context.tally.expect(unlocked, 'the unlock ran on a connection that did not hold the lock');

    // The next job, on its own connection, finds the lock free or leaked.
    const nextCaller = await context.pgClient();
    const { rows } = await nextCaller.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [lockKey]);
    const acquired = rows[0]?.locked === true;
    context.tally.note(`the next caller ${acquired ? 'got' : 'is blocked from'} the lock`);
    context.tally.expect(acquired, 'the lock leaked into the pool: the next caller blocks although the job finished');
    if (acquired) await nextCaller.query('SELECT pg_advisory_unlock($1)', [lockKey]);
  },
};
