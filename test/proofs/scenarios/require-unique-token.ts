// require-unique-token: with a shared lock value, A (paused past its TTL) frees the lock B took since,
// even through the compare-and-delete script; with the fix's per-acquisition randomUUID token, A's
// release is refused.

import { randomUUID } from 'node:crypto';
import type { Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers, waitUntilLockLost } from '../redis-workers.js';

export const requireUniqueToken: Scenario = {
  id: 'require-unique-token',
  rule: 'require-unique-token',
  brokenShows: "A's release frees B's lock",
  fixedShows: "A's release is refused",
  fixSource: '`crypto.randomUUID()` per acquisition; acquire and release from `renderAtomicSet` / `renderEvalCall` + `RELEASE_SCRIPT`',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    const [holderA, holderB, observer] = await connectWorkers(context, 3);
    const key = context.key('lock');
    // The broken code stores the same literal for every holder; the fix mints a token per acquisition.
    const mintToken = (): string => (context.variant === 'broken' ? 'locked' : randomUUID());

    const tokenA = mintToken();
    context.tally.expect(await holderA!.acquire(key, tokenA, context.options.shortTtlMs), 'A could not take the free lock');
    // A is paused inside its critical section until its lock has expired.
    await context.waitUntil(`A's lock ${key} expires`, async () => (await observer!.pttl(key)) === -2);

    const tokenB = mintToken();
    context.tally.expect(await holderB!.acquire(key, tokenB, context.options.longTtlMs), 'B could not take the expired lock');
    // A wakes up and releases "its" lock while B is inside its critical section.
    const releasedByA = await holderA!.release(key, tokenA);
    context.tally.note(`A's release replied ${releasedByA}`);
    const heldForB = (await observer!.get(key)) === tokenB;
    context.tally.expect(heldForB && releasedByA === 0, "A's release freed B's lock while B was still working");

    const releasedByB = await holderB!.release(key, tokenB);
    if (context.variant === 'fixed') {
      context.tally.expect(releasedByB === 1, "B's own release was refused");
    }
    await waitUntilLockLost(context, observer!, key, tokenB);
  },
};
