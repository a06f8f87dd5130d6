// Which acquisitions take a lock the library keeps extending while the work runs, and whether the code
// asked to hear of its loss (facts/auto-extension.ts): Redlock's `using(resources, duration, [settings,]
// routine)`, a redis-semaphore lock that refreshes (the default) with or without `onLockLost`, and a
// project helper whose summary says so. `redlock.acquire`, a refresh turned off, options the model
// cannot read, and a plain SET NX are none.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { autoExtensionOf, routineArgument } from '../../../../eslint-plugin/src/model/facts/auto-extension.js';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each acquisition: its line, the auto-extension's library and whether the loss is handled, and the routine's line and type. */
function extensions(code: string): unknown[][] {
  return readAtEnd(
    code,
    (context) =>
      getLockModel(context).redis.acquisitions.map((acquisition) => {
        const extension = autoExtensionOf(context.sourceCode, acquisition);
        const routine = routineArgument(acquisition);
        return [
          acquisition.node.loc.start.line,
          extension && `${extension.library}${extension.lossHandled ? ' handled' : ''}`,
          routine && `${routine.loc.start.line} ${routine.type}`,
        ];
      }),
    { typescript: true },
  );
}

describe('auto-extension', () => {
  it('Redlock’s using, refreshing redis-semaphore locks and auto-extending helpers; not what cannot be read', () => {
    assert.deepEqual(
      extensions(`import Redis from 'ioredis';
import Redlock from 'redlock';
import { Mutex as RedisMutex, Semaphore } from 'redis-semaphore';
const redis = new Redis();
const redlock = new Redlock([redis]);
declare const interval: number;
declare const shared: object;
export async function f(id: string) {
  await redlock.using([\`lock:a:\${id}\`], 1000, async (signal) => { if (signal.aborted) throw signal.error; });
  await redlock.using([\`lock:b:\${id}\`], 1000, { automaticExtensionThreshold: 200 }, async () => {});
  const lock = await redlock.acquire([\`lock:c:\${id}\`], 1000);
  await lock.release();
  const handled = new RedisMutex(redis, \`lock:e:\${id}\`, { onLockLost: (error) => console.error(error) });
  await handled.acquire();
  const off = new RedisMutex(redis, \`lock:f:\${id}\`, { refreshInterval: 0 });
  await off.acquire();
  const unknown = new RedisMutex(redis, \`lock:g:\${id}\`, { refreshInterval: interval });
  await unknown.acquire();
  const options = { lockTimeout: 5000, onLockLost: () => {} };
  const fromConst = new RedisMutex(redis, \`lock:h:\${id}\`, options);
  await fromConst.tryAcquire();
  const spread = new RedisMutex(redis, \`lock:i:\${id}\`, { ...shared });
  await spread.acquire();
  const semaphore = new Semaphore(redis, \`lock:j:\${id}\`, 3, { refreshInterval: 1000 });
  await semaphore.acquire();
  await redis.set(\`lock:k:\${id}\`, 'x', 'NX', 'PX', 1000);
}
export async function withLock<T>(key: string, work: (signal: AbortSignal) => Promise<T>) {
  return redlock.using([key], 1000, work);
}
export async function g(id: string) {
  await withLock(\`lock:l:\${id}\`, async () => {});
}
`),
      [
        // The routine is the last argument, after the settings when there are any.
        [9, 'redlock', '9 ArrowFunctionExpression'],
        [10, 'redlock', '10 ArrowFunctionExpression'],
        [11, undefined, undefined],
        [14, 'redis-semaphore handled', undefined],
        // refreshInterval 0 turns the refresh off; an interval in a variable may be 0.
        [16, undefined, undefined],
        [18, undefined, undefined],
        // Options in a const read nowhere else, through an aliased import.
        [21, 'redis-semaphore handled', undefined],
        [23, undefined, undefined],
        // A Semaphore's options come after its limit.
        [25, 'redis-semaphore', undefined],
        [26, undefined, undefined],
        [29, 'redlock', '29 Identifier'],
        // A call to the project's with-lock helper: its callback argument is the routine.
        [32, 'redlock', '32 ArrowFunctionExpression'],
      ],
    );
  });

  it('Redlock’s using without a routine extends nothing', () => {
    assert.deepEqual(
      extensions(`import Redis from 'ioredis';
import Redlock from 'redlock';
const redlock = new Redlock([new Redis()]);
export async function f() {
  await (redlock as any).using(['lock:a'], 1000);
}`),
      [[5, undefined, undefined]],
    );
  });
});
