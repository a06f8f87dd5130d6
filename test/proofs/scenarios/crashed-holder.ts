// What every crash scenario checks after the holder died: does the lock come free by itself, so the
// workers waiting for it get in? Shared by no-split-acquire and require-lock-ttl.

import { randomUUID } from 'node:crypto';
import type { ProofContext } from '../harness.js';
import { connectWorkers } from '../redis-workers.js';

const WAITERS = 3;
/** How many TTLs a crashed holder's lock may outlive it before the lock counts as leaked. */
const GRACE_TTLS = 5;

/** `acquisitionReply` is what the killed holder's acquisition returned (1 or 'OK' when it took the lock). */
export async function checkLockFreesAfterCrash(context: ProofContext, key: string, acquisitionReply: unknown): Promise<void> {
  if (acquisitionReply !== 1 && acquisitionReply !== 'OK') {
    throw new Error(`the holder did not take the lock before it was killed (reply ${JSON.stringify(acquisitionReply)})`);
  }
  const waiters = await connectWorkers(context, WAITERS);
  const observer = waiters[0]!;
  const ttlAfterCrash = await observer.pttl(key);
  context.tally.note(`PTTL right after the crash: ${ttlAfterCrash}`);
  context.tally.expect(ttlAfterCrash !== -1, 'the dead holder left a lock with no expiry (PTTL -1): it is never released');
  // A bounded wait on the observable event (the key is gone), not a sleep: it ends as soon as the
  // lock expires, and after GRACE_TTLS TTLs a lock that is still there has leaked.
  const graceMs = GRACE_TTLS * context.options.shortTtlMs;
  const deadline = Date.now() + graceMs;
  await context.waitUntil(`the crashed lock ${key} expires or ${graceMs} ms pass`, async () =>
    (await observer.pttl(key)) === -2 || Date.now() >= deadline);
  const winners = await Promise.all(waiters.map(async (waiter) =>
    (await waiter.acquire(key, randomUUID(), context.options.longTtlMs)) ? waiter.name : undefined));
  const got = winners.filter((name) => name !== undefined);
  context.tally.note(`waiters that acquired the lock after the crash: ${got.join(', ') || 'none'}`);
  if (got.length === 0) {
    context.tally.violation(`${GRACE_TTLS} TTLs after its holder died, none of ${WAITERS} waiters can take the lock`);
  }
  context.tally.expect(got.length <= 1, `after the crash ${got.length} waiters took the lock at once`);
}
