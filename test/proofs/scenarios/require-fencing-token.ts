// require-fencing-token: A, paused past its TTL, writes after B and its stale write lands; with the
// fence from the fix's acquire script and the fenced UPDATE, A's write affects 0 rows.

import { randomUUID } from 'node:crypto';
import { FENCED_WRITE_PG_TEXT, runFencedWritePostgresJs } from '../fixed-sql.js';
import type { Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers } from '../redis-workers.js';
import { insertInvoiceRow } from '../schema.js';

/** The write as the broken code sends it: correct lock, no fencing condition. */
const UNFENCED_UPDATE_SQL = `UPDATE invoice_state SET last_run = $1 WHERE id = $2`;

export const requireFencingToken: Scenario = {
  id: 'require-fencing-token',
  rule: 'require-fencing-token',
  brokenShows: 'A paused past TTL writes after B: stale write accepted',
  fixedShows: "A's write affects 0 rows",
  fixSource:
    '`renderEvalCall` + `FENCED_ACQUIRE_SCRIPT`; the write from `renderFencedUpdate` + `renderPlaceholder` (sql-templates), A through pg (`$n`), B through postgres.js (tagged template)',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    const [holderA, holderB, holderC, observer] = await connectWorkers(context, 4);
    const databaseA = await context.pgClient();
    const databaseB = context.postgresJs(1);
    const rowId = await insertInvoiceRow(databaseA, context.uniqueNumber());
    // Both keys share a hash tag, as the fix requires for Redis Cluster.
    const lockKey = context.key('{invoice}:lock');
    const fenceKey = context.key('{invoice}:fence');
    const fenced = context.variant === 'fixed';

    const tokenA = randomUUID();
    const fenceA = fenced
      ? await holderA!.acquireFenced(lockKey, fenceKey, tokenA, context.options.shortTtlMs)
      : Number(await holderA!.acquire(lockKey, tokenA, context.options.shortTtlMs));
    context.tally.expect(fenceA > 0, 'A could not take the free lock');
    // A pauses before its write (a GC pause, a slow call) until its lock has expired.
    await context.waitUntil(`A's lock ${lockKey} expires`, async () => (await observer!.pttl(lockKey)) === -2);

    const tokenB = randomUUID();
    const fenceB = fenced
      ? await holderB!.acquireFenced(lockKey, fenceKey, tokenB, context.options.longTtlMs)
      : Number(await holderB!.acquire(lockKey, tokenB, context.options.longTtlMs));
    context.tally.expect(fenceB > 0, 'B could not take the expired lock');
    if (fenced) context.tally.expect(fenceB > fenceA, `B's fence ${fenceB} is not larger than A's ${fenceA}`);
    // The lock still excludes: C cannot take it while B holds it.
    const fenceC = fenced
      ? await holderC!.acquireFenced(lockKey, fenceKey, randomUUID(), context.options.longTtlMs)
      : Number(await holderC!.acquire(lockKey, randomUUID(), context.options.longTtlMs));
    context.tally.expect(fenceC === 0, 'C took the lock while B held it');
    const writeB = fenced
      ? await runFencedWritePostgresJs(databaseB, fenceB, rowId)
      : (await databaseB.unsafe(UNFENCED_UPDATE_SQL, ['B', rowId])).count;
    context.tally.expect(writeB === 1, "B's write under its live lock was rejected");
    await holderB!.release(lockKey, tokenB);

    // A wakes up and writes as if it still held the lock.
    const writeA = fenced
      ? await databaseA.query(FENCED_WRITE_PG_TEXT, [fenceA, rowId])
      : await databaseA.query(UNFENCED_UPDATE_SQL, ['A', rowId]);
    context.tally.note(`fences: A ${fenceA}, B ${fenceB}; A's late write affected ${writeA.rowCount ?? 0} rows`);
    context.tally.expect(writeA.rowCount === 0, "A's stale write, made after its lock expired and B wrote, was accepted");
  },
};
