// no-unsafe-release: A, paused past its TTL, releases with a plain DEL (or a check-then-delete done in
// JavaScript) and deletes B's lock, so C enters while B still runs; the fix's compare-and-delete script
// is a no-op for A and C stays out.

import { randomUUID } from 'node:crypto';
import { Occupancy, type Scenario } from '../harness.js';
import { connectWorkers, type RedisWorker } from '../redis-workers.js';

type UnsafeRelease = (worker: RedisWorker, key: string, token: string, pause: () => Promise<void>) => Promise<void>;

/** The two unsafe releases the rule reports, each paused where the race bites. */
const UNSAFE_RELEASES: readonly { readonly name: string; readonly release: UnsafeRelease }[] = [
  {
    name: 'plain DEL',
    release: async (worker, key, _token, pause) => {
      await pause();
      await worker.del(key);
    },
  },
  {
    name: 'check-then-delete in JavaScript',
    release: async (worker, key, token, pause) => {
      if ((await worker.get(key)) === token) {
        await pause();
        await worker.del(key);
      }
    },
  },
];

export const noUnsafeRelease: Scenario = {
  id: 'no-unsafe-release',
  rule: 'no-unsafe-release',
  brokenShows: "A (expired) deletes B's lock; C enters while B runs",
  fixedShows: "A's delete is a no-op; no overlap",
  fixSource: '`renderEvalCall` + `RELEASE_SCRIPT` (inserted with `renderScriptConstant`)',
  async run(context) {
    const [holderA, holderB, holderC, observer] = await connectWorkers(context, 4);
    const key = context.key('lock');
    const occupancy = new Occupancy();
    const unsafe = UNSAFE_RELEASES[context.run % UNSAFE_RELEASES.length]!;

    const tokenA = randomUUID();
    context.tally.expect(await holderA!.acquire(key, tokenA, context.options.shortTtlMs), 'A could not take the free lock');
    const tokenB = randomUUID();
    // A finishes its work late: its lock expires and B takes it before A's release reaches Redis.
    const pauseUntilBHolds = async (): Promise<void> => {
      await context.waitUntil(`A's lock ${key} expires`, async () => (await observer!.pttl(key)) === -2);
      context.tally.expect(await holderB!.acquire(key, tokenB, context.options.longTtlMs), 'B could not take the expired lock');
      occupancy.enter('B');
    };
    if (context.variant === 'broken') {
      context.tally.note(`A releases with ${unsafe.name}`);
      await unsafe.release(holderA!, key, tokenA, pauseUntilBHolds);
    } else {
      await pauseUntilBHolds();
      const reply = await holderA!.release(key, tokenA);
      context.tally.note(`A's compare-and-delete replied ${reply}`);
    }
    context.tally.expect((await observer!.get(key)) === tokenB, "A's release deleted B's lock");

    // C tries while B is still inside its critical section.
    const tokenC = randomUUID();
    if (await holderC!.acquire(key, tokenC, context.options.longTtlMs)) {
      occupancy.enter('C');
      context.tally.violation('C entered the critical section while B was still running');
      occupancy.leave('C');
      await holderC!.release(key, tokenC);
    }
    occupancy.leave('B');
    const releasedByB = await holderB!.release(key, tokenB);
    if (context.variant === 'fixed') {
      context.tally.expect(releasedByB === 1, "B's own release was refused");
    }
    context.tally.note(`most holders inside at once: ${occupancy.maxInside}`);
  },
};
