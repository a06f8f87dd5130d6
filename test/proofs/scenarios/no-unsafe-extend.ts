// no-unsafe-extend: A's renewal, run after A's lock expired and B took it, extends B's lock with a
// plain PEXPIRE; the fix's compare-and-pexpire script refuses it and still renews B's own lock.

import { randomUUID } from 'node:crypto';
import type { Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers } from '../redis-workers.js';

export const noUnsafeExtend: Scenario = {
  id: 'no-unsafe-extend',
  rule: 'no-unsafe-extend',
  brokenShows: "A (expired) extends B's lock",
  fixedShows: "A's extend is refused",
  fixSource: '`renderEvalCall` + `EXTEND_SCRIPT` (passed at the call with `renderScriptLiteral`)',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    const [holderA, holderB, observer] = await connectWorkers(context, 3);
    const key = context.key('lock');
    const { shortTtlMs, longTtlMs } = context.options;
    // A renews far beyond anything B asked for, so a renewal of B's lock is visible in its PTTL.
    const renewalMs = longTtlMs * 4;

    const tokenA = randomUUID();
    context.tally.expect(await holderA!.acquire(key, tokenA, shortTtlMs), 'A could not take the free lock');
    // A's renewal timer is late (A paused): the lock expires and B takes it first.
    await context.waitUntil(`A's lock ${key} expires`, async () => (await observer!.pttl(key)) === -2);
    const tokenB = randomUUID();
    context.tally.expect(await holderB!.acquire(key, tokenB, longTtlMs), 'B could not take the expired lock');

    const reply = context.variant === 'broken' ? await holderA!.pexpire(key, renewalMs) : await holderA!.extend(key, tokenA, renewalMs);
    const ttlOfB = await observer!.pttl(key);
    context.tally.note(`A's renewal replied ${reply}; B's lock PTTL afterwards ${ttlOfB} ms (B asked for ${longTtlMs})`);
    context.tally.expect(reply === 0 && ttlOfB <= longTtlMs, "A's renewal extended B's lock");

    if (context.variant === 'fixed') {
      // The fix must still renew a lock that is the caller's own.
      const renewedByB = await holderB!.extend(key, tokenB, renewalMs);
      context.tally.expect(renewedByB === 1 && (await observer!.pttl(key)) > longTtlMs, "B's renewal of its own lock was refused");
    }
    await holderB!.release(key, tokenB);
  },
};
