// A module's lock helpers applied to its own calls (helpers/module-helpers.ts): a call to a helper is
// the lock event its summary describes, helpers calling helpers are followed (`settle` → `takeBoth` →
// `acquireLock`), a configured wrapper wins over a summary, and a lock split over functions gets a
// split key — its key with the parameter part abstracted, qualified by the class or module — so that
// `acquire(name)` and `release(id)` pair. A function that only deletes a key it is given (`clear(key)`)
// is no helper, and a key that reads no parameter has no split key.

import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import type { RedisModel } from '../../../../eslint-plugin/src/model/nouns/redis-events.js';
import { readAtEnd, type ProbeOptions } from '../../../support/probe-rule.js';

const CODE = `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export class JobLock {
  async acquire(name: string, token: string) {
    return redis.set(\`lock:job:\${name}\`, token, 'PX', 30000, 'NX');
  }
  async release(id: string) {
    await redis.del(\`lock:job:\${id}\`);
  }
}
export async function acquireLock(key: string, ttl = 5000) {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttl, 'NX');
  return ok ? token : null;
}
export async function releaseLock(key: string) {
  await redis.del(key);
}
export async function clear(key: string) {
  await redis.del(key);
}
async function takeBoth(name: string) {
  return acquireLock(\`lock:both:\${name}\`);
}
export async function settle(id: string) {
  const token = await takeBoth(id);
  if (!token) return;
  try { await work(id); } finally { await releaseLock(\`lock:both:\${id}\`); }
  await clear(\`lock:both:\${id}\`);
}
export async function fixedKey(token: string) {
  await redis.set('lock:fixed', token, 'NX', 'PX', 1000);
}
declare function work(id: string): Promise<void>;
`;

function redisOf(code: string, options: ProbeOptions = { typescript: true }): RedisModel {
  return readAtEnd(code, (context) => getLockModel(context).redis, options);
}

const line = (node: TSESTree.Node): number => node.loc.start.line;

/** `line library/kind split` for each event; the split key's class offset is left out. */
function brief(events: readonly { node: TSESTree.Node; library: string; kind: string; splitKey?: string }[]): string[] {
  return events.map(
    (event) => `${line(event.node)} ${event.library}/${event.kind} ${event.splitKey?.replace(/^class@\d+/u, 'class') ?? '-'}`,
  );
}

describe('module-helpers', () => {
  it('calls to the module’s helpers are lock events, followed through helpers that call helpers', () => {
    const model = redisOf(CODE);
    assert.deepEqual(brief(model.acquisitions), [
      '6 redis/set-nx class|t:lock:job:${$}',
      '14 redis/set-nx module|$',
      // takeBoth calls acquireLock; settle calls takeBoth, a helper found a round later.
      '24 helper/helper module|t:lock:both:${$}',
      '27 helper/helper module|t:lock:both:${$}',
      // A key that reads no parameter is no split lock's.
      '33 redis/set-nx -',
    ]);
    assert.deepEqual(brief(model.releases), [
      '9 redis/del class|t:lock:job:${$}',
      '18 redis/del module|$',
      // `clear(key)` is named for no lock: its bare parameter key pairs with nothing, and calls to it are no releases.
      '21 redis/del -',
      '29 helper/helper module|t:lock:both:${$}',
    ]);
    assert.deepEqual([...model.lockHelpers.values()].map((summary) => `${summary.name} ${summary.role}`).sort(), [
      'acquire acquire',
      'acquireLock acquire',
      'release release',
      'releaseLock release',
      'takeBoth acquire',
    ]);
  });

  it('the acquisition in one method and the release in another share a split key, qualified by their class', () => {
    const model = redisOf(CODE);
    const acquire = model.acquisitions.find((event) => line(event.node) === 6)!;
    const release = model.releases.find((event) => line(event.node) === 9)!;
    assert.notEqual(acquire.keySignature, release.keySignature);
    assert.equal(acquire.splitKey, release.splitKey);
    assert.match(acquire.splitKey!, /^class@\d+\|/u);
    assert.ok(model.acquiredSplitKeys.has(acquire.splitKey!));
    assert.equal(model.splitKeyOfKey.get(release.key!), release.splitKey);
  });

  it('the same split key in another class is another lock', () => {
    const model = redisOf(`import Redis from 'ioredis';
const redis = new Redis();
export class A {
  async acquire(name: string, token: string) {
    return redis.set(\`lock:job:\${name}\`, token, 'PX', 30000, 'NX');
  }
}
export class B {
  async release(id: string) {
    await redis.del(\`lock:job:\${id}\`);
  }
}`);
    assert.notEqual(model.acquisitions[0]!.splitKey, undefined);
    assert.notEqual(model.releases[0]!.splitKey, undefined);
    assert.notEqual(model.acquisitions[0]!.splitKey, model.releases[0]!.splitKey);
  });

  it('a configured wrapper wins over the helper’s summary', () => {
    const model = redisOf(CODE, { typescript: true, settings: { locksmith: { lockWrappers: { acquire: ['takeBoth'], release: [] } } } });
    assert.deepEqual(
      brief(model.acquisitions).filter((event) => event.startsWith('27 ')),
      ['27 wrapper/wrapper -'],
    );
    // The helper's own body still calls acquireLock: that call stays a helper event.
    assert.ok(brief(model.acquisitions).includes('24 helper/helper module|t:lock:both:${$}'));
  });
});
