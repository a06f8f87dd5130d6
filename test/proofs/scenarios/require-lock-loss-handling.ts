// require-lock-loss-handling: A holds a redis-semaphore Mutex that refreshes itself. Its lock is lost
// while the work runs (the key is gone, as after a failover that dropped it, and B takes the lock), and
// A's next refresh finds B's identifier. The reported code passes no `onLockLost` and never checks
// `isAcquired`: the library's LostLockError is thrown from the refresh timer, where no `try` of the work
// sees it (here a process handler logs it and carries on), and A's work writes on next to B's. The code
// the message asks for checks `isAcquired` before the write and stops.

import { randomUUID } from 'node:crypto';
import { LostLockError, Mutex } from 'redis-semaphore';
import type { Redis } from 'ioredis';
import type { Scenario } from '../harness.js';
import { connectWorkerWithDialect } from '../redis-workers.js';

/** redis-semaphore refreshes at this interval; the proof waits for the refresh that notices the loss. */
const REFRESH_INTERVAL_MS = 50;

export const requireLockLossHandling: Scenario = {
  id: 'require-lock-loss-handling',
  rule: 'require-lock-loss-handling',
  brokenShows: 'the auto-refreshed lock is lost mid-work; A writes on while B holds it',
  fixedShows: '`isAcquired` checked before the write: A stops',
  fixSource: 'no suggestion: `if (!mutex.isAcquired) return` before the write, as the message says',
  async run(context) {
    // redis-semaphore takes an ioredis client.
    const holderA = await connectWorkerWithDialect(context, 'A', 'ioredis');
    const holderB = await connectWorkerWithDialect(context, 'B', 'ioredis');
    const observer = await connectWorkerWithDialect(context, 'observer', 'ioredis');
    const name = context.key('job');
    const dataKey = context.key('ledger');
    const { longTtlMs } = context.options;
    context.defer(() => observer.del(dataKey));

    // Without onLockLost the library throws from its timer: an unhandled rejection. The process-wide
    // handler an application keeps to log and carry on stands in for it, for this run only.
    const thrownFromTimer: LostLockError[] = [];
    const logAndCarryOn = (reason: unknown): void => {
      if (reason instanceof LostLockError) thrownFromTimer.push(reason);
      else context.tally.expect(false, `unexpected unhandled rejection: ${String(reason)}`);
    };
    process.on('unhandledRejection', logAndCarryOn);
    context.defer(() => {
      process.off('unhandledRejection', logAndCarryOn);
    });

    const mutexA = new Mutex(holderA.client as Redis, name, { lockTimeout: longTtlMs, refreshInterval: REFRESH_INTERVAL_MS });
    const mutexB = new Mutex(holderB.client as Redis, name, { lockTimeout: longTtlMs, refreshInterval: 0, acquireTimeout: longTtlMs });
    context.defer(() => {
      mutexA.stopRefresh();
    });
    await mutexA.acquire();
    context.tally.expect(mutexA.isAcquired, 'A could not take the free lock');

    // The lock is lost while A's work runs: its key is gone and B takes the lock.
    await observer.del(`mutex:${name}`);
    await mutexB.acquire();
    await context.waitUntil("A's refresh notices the lost lock", () => !mutexA.isAcquired);
    const tokenB = randomUUID();
    await holderB.set(dataKey, tokenB);

    // A's work reaches its write.
    const writes = context.variant === 'broken' || mutexA.isAcquired;
    if (writes) await holderA.set(dataKey, 'A');
    const stored = await observer.get(dataKey);
    context.tally.note(
      `A's lock lost (${thrownFromTimer.length} LostLockError thrown from the refresh timer); A ${writes ? 'wrote' : 'stopped'}; the ledger holds ${stored === tokenB ? "B's" : "A's"} value`,
    );
    context.tally.expect(stored === tokenB, "A wrote after its lock was lost, over B's write while B held the lock");

    await mutexB.release();
  },
};
