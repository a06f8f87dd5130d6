// require-release-check: the release answers whether the lock was still the caller's, and code that
// drops the answer reports a clean exclusive run when it was not. Redis: A's lock expires mid-job and
// B takes it; A's compare-and-delete replies 0. PostgreSQL: the unlock reaches another connection
// (as a pool hands out), pg_advisory_unlock returns false and the lock stays held. The fixed code
// reads the answer and reports the loss.

import { randomUUID } from 'node:crypto';
import type { ProofContext, Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers } from '../redis-workers.js';

type Outcome = 'held to the end' | 'lock lost';

async function redisJob(context: ProofContext): Promise<void> {
  const [holderA, holderB, observer] = await connectWorkers(context, 3);
  const key = context.key('lock');
  const { shortTtlMs, longTtlMs } = context.options;
  const tokenA = randomUUID();
  context.tally.expect(await holderA!.acquire(key, tokenA, shortTtlMs), 'A could not take the free lock');
  // A's work outlasts its TTL (a pause), and B takes the lock meanwhile.
  await context.waitUntil(`A's lock ${key} expires`, async () => (await observer!.pttl(key)) === -2);
  const tokenB = randomUUID();
  context.tally.expect(await holderB!.acquire(key, tokenB, longTtlMs), 'B could not take the expired lock');

  let outcome: Outcome;
  if (context.variant === 'broken') {
    await holderA!.release(key, tokenA);
    outcome = 'held to the end';
  } else {
    const released = await holderA!.release(key, tokenA);
    outcome = released === 1 ? 'held to the end' : 'lock lost';
  }
  context.tally.note(`A's job reported: ${outcome}`);
  context.tally.expect(outcome === 'lock lost', "A's job reported an exclusive run although B held the lock during it");
  context.tally.expect((await observer!.get(key)) === tokenB, "A's release touched B's lock");
  await holderB!.release(key, tokenB);
}

async function advisoryJob(context: ProofContext): Promise<void> {
  const lockKey = context.uniqueNumber();
  const holder = await context.pgClient();
  // The unlock is sent on another connection than the lock, as a pool hands them out.
  const other = await context.pgClient();
  await holder.query('SELECT pg_advisory_lock($1)', [lockKey]);
  let outcome: 'released' | 'unlock failed';
  if (context.variant === 'broken') {
    await other.query('SELECT pg_advisory_unlock($1)', [lockKey]);
    outcome = 'released';
  } else {
    const { rows } = await other.query<{ unlocked: boolean }>('SELECT pg_advisory_unlock($1) AS unlocked', [lockKey]);
    outcome = rows[0]?.unlocked === true ? 'released' : 'unlock failed';
  }
  const probe = await context.pgClient();
  const { rows } = await probe.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [lockKey]);
  const stillHeld = rows[0]?.locked !== true;
  if (!stillHeld) await probe.query('SELECT pg_advisory_unlock($1)', [lockKey]);
  context.tally.note(`the job reported: ${outcome}; the lock is ${stillHeld ? 'still held' : 'free'}`);
  context.tally.expect(!stillHeld || outcome === 'unlock failed', 'the job reported its advisory lock released while it is still held');
  await holder.query('SELECT pg_advisory_unlock($1)', [lockKey]);
}

export const requireReleaseCheck: Scenario = {
  id: 'require-release-check',
  rule: 'require-release-check',
  brokenShows:
    'a release that failed is dropped: the job reports an exclusive run (Redis) or a freed advisory lock (PostgreSQL) that was not',
  fixedShows: 'the release result read: the loss is reported',
  fixSource:
    'no suggestion: the reply read (`released !== 1`, `rows[0].unlocked`) beside the release `renderEvalCall` + `RELEASE_SCRIPT` writes',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    await redisJob(context);
    // The PostgreSQL half does not depend on the Redis client library: once per run.
    if (context.rotation === 0) await advisoryJob(context);
  },
};
