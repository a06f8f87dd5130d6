// require-release-in-finally: a critical section that throws skips a release written only on the
// success path, so the lock stays held (until the TTL for Redis, for good for an advisory lock on a
// pooled connection); the fix's release in `finally` frees it at once.

import { randomUUID } from 'node:crypto';
import type { Scenario, ProofContext } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers } from '../redis-workers.js';

class JobFailed extends Error {}

async function failingJob(): Promise<never> {
  await Promise.resolve();
  throw new JobFailed('the job failed inside the critical section');
}

/** Runs `job` between `acquire` and `release`, written the broken or the fixed way. */
async function withLock(context: ProofContext, release: () => Promise<unknown>, job: () => Promise<void>): Promise<void> {
  if (context.variant === 'broken') {
    await job();
    await release();
  } else {
    try {
      await job();
    } finally {
      await release();
    }
  }
}

async function swallowJobFailure(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (!(error instanceof JobFailed)) throw error;
  }
}

export const requireReleaseInFinally: Scenario = {
  id: 'require-release-in-finally',
  rule: 'require-release-in-finally',
  brokenShows: 'exception leaks the lock until TTL / forever',
  fixedShows: 'released at once',
  fixSource:
    '`try { … } finally { <release> }` around the critical section; Redis release from `renderEvalCall` + `RELEASE_SCRIPT`, advisory `pg_advisory_unlock` on the same client',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    // Redis: A's job throws; B, C, D (other client libraries) try to take the lock right away.
    const [holderA, ...others] = await connectWorkers(context, 4);
    const key = context.key('lock');
    const tokenA = randomUUID();
    context.tally.expect(await holderA!.acquire(key, tokenA, context.options.longTtlMs), 'A could not take the free lock');
    await swallowJobFailure(withLock(context, () => holderA!.release(key, tokenA), failingJob));
    const takers: string[] = [];
    for (const other of others) {
      const token = randomUUID();
      if (await other.acquire(key, token, context.options.longTtlMs)) {
        takers.push(other.name);
        await other.release(key, token);
      }
    }
    context.tally.note(`Redis: workers that got the lock after A's job threw: ${takers.join(', ') || 'none'}`);
    context.tally.expect(
      takers.length === others.length,
      `Redis: after A's job threw, its lock stays held for ${context.options.longTtlMs} ms`,
    );

    // PostgreSQL: the session lock sits on a pooled connection that goes back to the pool.
    const pool = context.pgPool(2);
    const lockKey = context.uniqueNumber();
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
      await swallowJobFailure(withLock(context, () => client.query('SELECT pg_advisory_unlock($1)', [lockKey]), failingJob));
    } finally {
      client.release();
    }
    const nextCaller = await context.pgClient();
    const { rows } = await nextCaller.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [lockKey]);
    const acquired = rows[0]?.locked === true;
    context.tally.note(`PostgreSQL: the next caller ${acquired ? 'got' : 'could not get'} the advisory lock`);
    context.tally.expect(acquired, 'PostgreSQL: after the job threw, the advisory lock stays held by a pooled connection');
    if (acquired) await nextCaller.query('SELECT pg_advisory_unlock($1)', [lockKey]);
  },
};
