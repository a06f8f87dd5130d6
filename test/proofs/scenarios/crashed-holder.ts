// What every crash scenario does: one holder per client library, each in a child process SIGKILLed
// right after a given step, then a check that each lock frees itself so waiting workers get in.
// Shared by no-split-acquire and require-lock-ttl.

import { randomUUID } from 'node:crypto';
import { crashHolderAfterStep } from '../crash.js';
import { PROVEN_DIALECTS, type ProvenDialect } from '../fixed-code.js';
import type { ProofContext } from '../harness.js';
import { connectWorkers } from '../redis-workers.js';

const WAITERS = 3;
/** How many TTLs a crashed holder's lock may outlive it before the lock counts as leaked. */
const GRACE_TTLS = 5;

/**
 * For every dialect at once: a holder runs `stepsFor(dialect)` and is killed after step
 * `killAfterStep`; then three waiters (one per client library) try to take its lock.
 */
export async function crashHoldersAndWait(
  context: ProofContext,
  stepsFor: (dialect: ProvenDialect) => readonly string[],
  killAfterStep: number,
): Promise<void> {
  await Promise.all(
    PROVEN_DIALECTS.map(async (dialect) => {
      const key = context.key(`lock:${dialect}`);
      const steps = stepsFor(dialect);
      const reports = await crashHolderAfterStep(
        context,
        { dialect, key, token: randomUUID(), ttlMs: context.options.shortTtlMs, steps },
        killAfterStep,
      );
      const acquisitionReply = reports[0]?.reply;
      if (acquisitionReply !== 1 && acquisitionReply !== 'OK') {
        throw new Error(`the ${dialect} holder did not take the lock before it was killed (reply ${JSON.stringify(acquisitionReply)})`);
      }
      context.tally.note(`${dialect} holder killed after \`${steps[killAfterStep] ?? '?'}\``);
      await checkLockFreesAfterCrash(context, dialect, key);
    }),
  );
}

async function checkLockFreesAfterCrash(context: ProofContext, dialect: ProvenDialect, key: string): Promise<void> {
  const waiters = await connectWorkers(context, WAITERS);
  const observer = waiters[0]!;
  const ttlAfterCrash = await observer.pttl(key);
  context.tally.note(`${dialect}: PTTL right after the crash: ${ttlAfterCrash}`);
  context.tally.expect(ttlAfterCrash !== -1, `${dialect}: the dead holder left a lock with no expiry (PTTL -1): it is never released`);
  // A bounded wait on the observable event (the key is gone), not a sleep: it ends as soon as the
  // lock expires, and after GRACE_TTLS TTLs a lock that is still there has leaked.
  const graceMs = GRACE_TTLS * context.options.shortTtlMs;
  const deadline = Date.now() + graceMs;
  await context.waitUntil(
    `the crashed lock ${key} expires or ${graceMs} ms pass`,
    async () => (await observer.pttl(key)) === -2 || Date.now() >= deadline,
  );
  const winners = await Promise.all(
    waiters.map(async (waiter) => ((await waiter.acquire(key, randomUUID(), context.options.longTtlMs)) ? waiter.name : undefined)),
  );
  const got = winners.filter((name) => name !== undefined);
  context.tally.note(`${dialect}: waiters that acquired the lock after the crash: ${got.join(', ') || 'none'}`);
  context.tally.expect(
    got.length > 0,
    `${dialect}: ${GRACE_TTLS} TTLs after its holder died, none of ${WAITERS} waiters can take the lock`,
  );
  context.tally.expect(got.length <= 1, `${dialect}: after the crash ${got.length} waiters took the lock at once`);
}
