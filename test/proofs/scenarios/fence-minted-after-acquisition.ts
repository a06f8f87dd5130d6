// require-fencing-token, second case: a fence minted by a separate INCR after SET NX lets a holder
// paused between the two mint a larger fence than its successor, so its stale fenced write wins; the
// fix's acquire script mints the fence atomically with the lock and A's write loses.

import { randomUUID } from 'node:crypto';
import { FENCED_UPDATE_SQL } from '../../../eslint-plugin/src/fixes/sql-templates.js';
import type { ProofContext, Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers, type RedisWorker } from '../redis-workers.js';
import { insertInvoiceRow } from '../schema.js';

/** Takes the lock and its fence the variant's way; `pause` runs right after the lock is taken. */
async function acquireWithFence(
  context: ProofContext,
  worker: RedisWorker,
  keys: { readonly lockKey: string; readonly fenceKey: string },
  token: string,
  ttlMs: number,
  pause: () => Promise<void>,
): Promise<number> {
  if (context.variant === 'fixed') {
    const fence = await worker.acquireFenced(keys.lockKey, keys.fenceKey, token, ttlMs);
    await pause();
    return fence;
  }
  if (!(await worker.setNxPx(keys.lockKey, token, ttlMs))) return 0;
  await pause();
  return worker.incr(keys.fenceKey);
}

export const fenceMintedAfterAcquisition: Scenario = {
  id: 'fence-minted-after-acquisition',
  rule: 'fence minted after acquisition',
  brokenShows: 'A mints a larger fence than B and its stale write wins',
  fixedShows: 'fence from the acquire script: A loses',
  fixSource: '`renderEvalCall` + `FENCED_ACQUIRE_SCRIPT`; the write is `FENCED_UPDATE_SQL` (sql-templates) in both variants',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    const [holderA, holderB, holderC, observer] = await connectWorkers(context, 4);
    const database = context.postgresJs(2);
    const setupClient = await context.pgClient();
    const rowId = await insertInvoiceRow(setupClient, context.uniqueNumber());
    const keys = { lockKey: context.key('{invoice}:lock'), fenceKey: context.key('{invoice}:fence') };

    let fenceB = 0;
    let writeBCount = 0;
    // A is paused right after taking the lock, until its lock expired and B took it and wrote.
    const pauseA = async (): Promise<void> => {
      await context.waitUntil(`A's lock ${keys.lockKey} expires`, async () => (await observer!.pttl(keys.lockKey)) === -2);
      const tokenB = randomUUID();
      fenceB = await acquireWithFence(context, holderB!, keys, tokenB, context.options.longTtlMs, () => Promise.resolve());
      context.tally.expect(fenceB > 0, 'B could not take the expired lock');
      // The lock still excludes: C cannot take it while B holds it.
      const fenceC = await acquireWithFence(context, holderC!, keys, randomUUID(), context.options.longTtlMs, () => Promise.resolve());
      context.tally.expect(fenceC === 0, 'C took the lock while B held it');
      writeBCount = (await database.unsafe(FENCED_UPDATE_SQL, [fenceB, rowId])).count;
      await holderB!.release(keys.lockKey, tokenB);
    };
    const fenceA = await acquireWithFence(context, holderA!, keys, randomUUID(), context.options.shortTtlMs, pauseA);
    context.tally.expect(fenceA > 0, 'A could not take the free lock');
    context.tally.expect(writeBCount === 1, "B's fenced write under its live lock was rejected");
    context.tally.expect(fenceB > fenceA, `A's fence ${fenceA} is larger than that of B, who took the lock after A lost it`);

    const writeA = await database.unsafe(FENCED_UPDATE_SQL, [fenceA, rowId]);
    context.tally.note(`fences: A ${fenceA}, B ${fenceB}; A's late write affected ${writeA.count} rows`);
    context.tally.expect(writeA.count === 0, `A's stale write won: its fence ${fenceA} was minted after B's ${fenceB}`);
  },
};
