// no-check-then-set: GET-then-SET lets every worker that read "free" believe it holds the lock; the
// fix's single atomic SET NX PX lets exactly one in.

import { randomUUID } from 'node:crypto';
import { Barrier, type Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers } from '../redis-workers.js';

const WORKERS = 4;

export const noCheckThenSet: Scenario = {
  id: 'no-check-then-set',
  rule: 'no-check-then-set',
  brokenShows: 'two workers both believe they hold the lock',
  fixedShows: 'exactly one holder',
  fixSource: '`renderAtomicSet` (ioredis, node-redis, node-redis-v5)',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    const workers = await connectWorkers(context, WORKERS);
    const key = context.key('lock');
    // Every worker has made its decision (read and written, or tried to) before any releases.
    const allDecided = new Barrier(WORKERS);
    // Broken only: every worker has read the key before any writes it (the gap the rule is about).
    const allChecked = new Barrier(WORKERS);
    const everyoneReady = new Barrier(WORKERS);
    const holders: string[] = [];
    await Promise.all(
      workers.map(async (worker) => {
        const token = randomUUID();
        await everyoneReady.arrive();
        let acquired: boolean;
        if (context.variant === 'broken') {
          const current = await worker.get(key);
          await allChecked.arrive();
          acquired = current === null;
          if (acquired) await worker.set(key, token);
        } else {
          acquired = await worker.acquire(key, token, context.options.longTtlMs);
        }
        if (acquired) {
          holders.push(worker.name);
          if (context.variant === 'fixed') {
            // The fix's acquisition must also expire on its own (its PX), not only exclude.
            const ttl = await worker.pttl(key);
            context.tally.expect(ttl > 0 && ttl <= context.options.longTtlMs, `${worker.name}'s lock has no valid expiry (PTTL ${ttl})`);
          }
        }
        await allDecided.arrive();
        if (acquired) await worker.release(key, token);
      }),
    );
    context.tally.note(`holders: ${holders.join(', ') || 'none'}`);
    context.tally.expect(holders.length > 0, 'no worker acquired the free lock');
    for (const extra of holders.slice(1)) {
      context.tally.violation(`${extra} believes it holds the lock while ${holders[0]!} does too`);
    }
  },
};
