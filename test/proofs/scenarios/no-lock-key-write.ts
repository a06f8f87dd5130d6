// no-lock-key-write: A stores its job's status under the lock's own key while it holds the lock; the
// plain SET replaces A's token and drops the TTL, so A's compare-and-delete is refused and the key is
// locked for good. With the status under a key of its own, A's release frees the lock and B takes it.

import { randomUUID } from 'node:crypto';
import type { Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers } from '../redis-workers.js';

export const noLockKeyWrite: Scenario = {
  id: 'no-lock-key-write',
  rule: 'no-lock-key-write',
  brokenShows: "A's status `SET` on the lock key: its release is refused, the lock never expires, B is locked out",
  fixedShows: 'status under its own key: released, B takes the lock',
  fixSource: 'no suggestion: the status written under a key of its own, the release unchanged (`renderEvalCall` + `RELEASE_SCRIPT`)',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    const [holderA, holderB, observer] = await connectWorkers(context, 3);
    const lockKey = context.key('lock');
    const stateKey = context.key('state');
    const { longTtlMs } = context.options;
    context.defer(() => observer!.del(lockKey));

    const tokenA = randomUUID();
    context.tally.expect(await holderA!.acquire(lockKey, tokenA, longTtlMs), 'A could not take the free lock');
    // The critical section: A records that its job runs.
    await holderA!.set(context.variant === 'broken' ? lockKey : stateKey, 'running');
    const released = await holderA!.release(lockKey, tokenA);
    const ttl = await observer!.pttl(lockKey);
    context.tally.note(`A's release replied ${released}; the lock key's PTTL afterwards ${ttl}`);
    context.tally.expect(released === 1, "A's release of its own lock was refused");
    context.tally.expect(
      ttl === -2,
      ttl === -1 ? 'the lock key outlived its holder with no expiry left' : `the lock key outlived its holder (PTTL ${ttl})`,
    );

    const tokenB = randomUUID();
    const acquiredByB = await holderB!.acquire(lockKey, tokenB, longTtlMs);
    context.tally.expect(acquiredByB, 'B is locked out although A finished');
    if (acquiredByB) await holderB!.release(lockKey, tokenB);
  },
};
