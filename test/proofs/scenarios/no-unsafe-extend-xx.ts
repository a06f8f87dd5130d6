// no-unsafe-extend, the `SET … XX` form: A's renewal, run after A's lock expired and B took it,
// writes A's token over B's with `SET key tokenA XX PX ttl` (XX only asks whether the key exists):
// B's lock is gone while B still works, and B's own release is refused. The fix's compare-and-pexpire
// script refuses A's renewal and leaves B's token in place.

import { randomUUID } from 'node:crypto';
import type { Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers } from '../redis-workers.js';

export const noUnsafeExtendXx: Scenario = {
  id: 'no-unsafe-extend-xx',
  rule: 'no-unsafe-extend by SET XX',
  brokenShows: "A (expired) renews with `SET … XX` and takes B's lock over",
  fixedShows: "A's renewal is refused; B keeps its lock",
  fixSource: '`renderEvalCall` + `EXTEND_SCRIPT` (passed at the call with `renderScriptLiteral`)',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    const [holderA, holderB, observer] = await connectWorkers(context, 3);
    const key = context.key('lock');
    const { shortTtlMs, longTtlMs } = context.options;
    context.defer(() => observer!.del(key));

    const tokenA = randomUUID();
    context.tally.expect(await holderA!.acquire(key, tokenA, shortTtlMs), 'A could not take the free lock');
    // A's renewal timer is late (A paused): the lock expires and B takes it first.
    await context.waitUntil(`A's lock ${key} expires`, async () => (await observer!.pttl(key)) === -2);
    const tokenB = randomUUID();
    context.tally.expect(await holderB!.acquire(key, tokenB, longTtlMs), 'B could not take the expired lock');

    const renewed =
      context.variant === 'broken' ? await holderA!.setXxPx(key, tokenA, longTtlMs) : (await holderA!.extend(key, tokenA, longTtlMs)) === 1;
    const holder = await observer!.get(key);
    context.tally.note(
      `A's renewal ${renewed ? 'succeeded' : 'was refused'}; the key holds ${holder === tokenB ? "B's" : holder === tokenA ? "A's" : 'no'} token`,
    );
    context.tally.expect(!renewed, 'A, whose lock expired, was told its renewal succeeded');
    context.tally.expect(holder === tokenB, "A's renewal replaced B's token: B lost its lock while it still works");

    const releasedByB = await holderB!.release(key, tokenB);
    context.tally.expect(releasedByB === 1, "B's release of its own lock was refused");
  },
};
