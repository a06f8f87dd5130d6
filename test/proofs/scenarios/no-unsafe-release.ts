// no-unsafe-release: A, paused past its TTL, releases with a plain DEL (or a check-then-delete done in
// JavaScript) and deletes B's lock, so C enters while B still runs; the fix's compare-and-delete script
// is a no-op for A and C stays out.

import { randomUUID } from 'node:crypto';
import { Occupancy, type ProofContext, type Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers, type RedisWorker } from '../redis-workers.js';

/** Returns false when A's own check already saw its lock gone, so the race was not reached. */
type UnsafeRelease = (worker: RedisWorker, key: string, token: string, pause: () => Promise<void>) => Promise<boolean>;

/** The two unsafe releases the rule reports, each paused where the race bites. */
const UNSAFE_RELEASES: readonly { readonly name: string; readonly release: UnsafeRelease }[] = [
  {
    name: 'plain DEL',
    release: async (worker, key, _token, pause) => {
      await pause();
      await worker.del(key);
      return true;
    },
  },
  {
    name: 'check-then-delete in JavaScript',
    release: async (worker, key, token, pause) => {
      if ((await worker.get(key)) !== token) return false;
      await pause();
      await worker.del(key);
      return true;
    },
  },
];

/** A's check must run before its lock expires; on a machine too slow for that, the TTL doubles. */
const MAX_ATTEMPTS = 5;

async function attempt(context: ProofContext, workers: readonly RedisWorker[], attemptIndex: number): Promise<boolean> {
  const [holderA, holderB, holderC, observer] = workers;
  const key = context.key(`lock:${attemptIndex}`);
  const occupancy = new Occupancy();
  const unsafe = UNSAFE_RELEASES[(context.run + context.rotation) % UNSAFE_RELEASES.length]!;

  const tokenA = randomUUID();
  context.tally.expect(
    await holderA!.acquire(key, tokenA, context.options.shortTtlMs * 2 ** attemptIndex),
    'A could not take the free lock',
  );
  const tokenB = randomUUID();
  // A finishes its work late: its lock expires and B takes it before A's release reaches Redis.
  const pauseUntilBHolds = async (): Promise<void> => {
    await context.waitUntil(`A's lock ${key} expires`, async () => (await observer!.pttl(key)) === -2);
    context.tally.expect(await holderB!.acquire(key, tokenB, context.options.longTtlMs), 'B could not take the expired lock');
    occupancy.enter('B');
  };
  if (context.variant === 'broken') {
    if (!(await unsafe.release(holderA!, key, tokenA, pauseUntilBHolds))) return false;
    context.tally.note(`A released with ${unsafe.name}`);
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
  return true;
}

export const noUnsafeRelease: Scenario = {
  id: 'no-unsafe-release',
  rule: 'no-unsafe-release',
  brokenShows: "A (expired) deletes B's lock; C enters while B runs",
  fixedShows: "A's delete is a no-op; no overlap",
  fixSource: '`renderEvalCall` + `RELEASE_SCRIPT` (passed at the call with `renderScriptLiteral`)',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    const workers = await connectWorkers(context, 4);
    for (let attemptIndex = 0; attemptIndex < MAX_ATTEMPTS; attemptIndex += 1) {
      if (await attempt(context, workers, attemptIndex)) return;
      context.tally.note(`attempt ${attemptIndex + 1}: A's check ran after its lock expired; retrying with a longer TTL`);
    }
    throw new Error(`A's check never ran before its lock expired in ${MAX_ATTEMPTS} attempts`);
  },
};
