// Questions of one lock's identity (questions/same-lock.ts): whether a release or renewal sits under a
// JavaScript comparison of the stored value with the caller's token (ownerCheckAround), which
// releases and renewals may be an acquisition's own lock (eventsOfSameLock, writtenKeyEvents), the
// arguments they pass by text, whether the acquisition's function compares the stored value with a
// given value, and which commands on the lock's own key are its machinery rather than work.

import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel, type LockModel } from '../../../../eslint-plugin/src/model/index.js';
import {
  argumentsByText,
  comparesStoredValue,
  eventsOfSameLock,
  lockMachinery,
  ownerCheckAround,
  writtenKeyEvents,
} from '../../../../eslint-plugin/src/model/questions/same-lock.js';
import type { ProbeContext } from '../../../support/probe-rule.js';
import { readAtEnd } from '../../../support/probe-rule.js';

function ask<T>(code: string, read: (model: LockModel, context: ProbeContext) => T): T {
  return readAtEnd(code, (context) => read(getLockModel(context), context), { typescript: true });
}

const line = (node: TSESTree.Node): number => node.loc.start.line;

const HEAD = `import Redis from 'ioredis';
const redis = new Redis();
`;

describe('same-lock: ownerCheckAround', () => {
  it('a GET of the same key compared with the caller’s value guards the DEL or PEXPIRE under it', () => {
    const answers = ask(
      `${HEAD}export async function release(key: string, token: string, other: string) {
  if ((await redis.get(key)) === token) await redis.del(key);
  if (ready && token == (await redis.get(key))) {
    await redis.pexpire(key, 1000);
  }
  if ((await redis.get(key)) === null) await redis.del(key);
  if ((await redis.get(key)) === 'held') await redis.del(key);
  if (await redis.get(key)) await redis.del(key);
  if ((await redis.get(other)) === token) await redis.del(key);
  if ((await redis.get(key)) !== token) await redis.del(key);
  if ((await redis.get(key)) === token) {
  } else {
    await redis.del(key);
  }
}
declare const ready: boolean;`,
      (model, context) =>
        [...model.redis.releases, ...model.redis.expiries]
          .sort((left, right) => left.node.range[0] - right.node.range[0])
          .map((event) => {
            const compared = ownerCheckAround(context.sourceCode, model.redis, event);
            return [line(event.node), compared && context.sourceCode.getText(compared)];
          }),
    );
    // Only an equality with a value that could be a token, on the path where it holds, is an owner check.
    assert.deepEqual(answers, [
      [4, 'token'],
      [6, 'token'],
      [8, undefined],
      [9, undefined],
      [10, undefined],
      [11, undefined],
      [12, undefined],
      [15, undefined],
    ]);
  });

  it('a GET sent in a transaction before: its reply in the exec() results is the stored value', () => {
    const answers = ask(
      `${HEAD}export async function release(key: string, token: string) {
  const results = await redis.multi().get(key).pttl(key).exec();
  if (results && results[0][1] === token) await redis.del(key);
  if (results && results[1][1] === token) await redis.del(key);
}`,
      (model, context) =>
        model.redis.releases.map((event) => {
          const compared = ownerCheckAround(context.sourceCode, model.redis, event);
          return compared && context.sourceCode.getText(compared);
        }),
    );
    assert.deepEqual(answers, ['token', undefined]);
  });
});

describe('same-lock: eventsOfSameLock and writtenKeyEvents', () => {
  const code = `${HEAD}export async function run(id: string, token: string) {
  await redis.set(\`job:\${id}\`, token, 'NX', 'PX', 1000);
  await redis.del(\`job:\${id}\`);
}
export async function evict(id: string) {
  await redis.del(\`cache:\${id}\`);
}
export async function releaseLock(key: string) {
  await redis.del(key);
}
export async function clearAll() {
  await redis.del('lock:global');
  await redis.pexpire('lock:global', 1000);
}
export async function anyKey(keys: string[], token: string) {
  await redis.set(keys[0]!, token, 'NX');
}`;

  it('the events of the same key, plus those that may be any lock’s; never another key’s that names no lock', () => {
    const answer = ask(code, (model, context) => {
      const [job, any] = model.redis.acquisitions;
      const ofJob = eventsOfSameLock(context.sourceCode, model.redis, model.settings.lockKeyPattern, job!);
      const ofAny = eventsOfSameLock(context.sourceCode, model.redis, model.settings.lockKeyPattern, any!);
      return {
        count: ofJob.count,
        lines: ofJob.first(10).map(line0),
        firstTwo: ofJob.first(2).map(line0),
        insideRun: ofJob.allInside(job!.owner),
        anyLines: ofAny.first(10).map(line0),
      };
    });
    // Releases come first, in source order, then renewals; the cache eviction is never the job lock's.
    assert.deepEqual(answer, {
      count: 4,
      lines: [5, 11, 14, 15],
      firstTwo: [5, 11],
      insideRun: false,
      // An acquisition whose key has no signature may be any lock: every release and renewal.
      anyLines: [5, 8, 11, 14, 15],
    });
  });

  it('writtenKeyEvents: of the events that may be any lock’s, those that write their key out', () => {
    const lines = ask(code, (model, context) =>
      writtenKeyEvents(context.sourceCode, model.redis, model.settings.lockKeyPattern).first(10).map(line0),
    );
    // The `job:` key is a lock's (the module acquires it) and `lock:global` names one; `releaseLock(key)`
    // takes its key as a parameter, and the `cache:` key is no lock's at all.
    assert.deepEqual(lines, [5, 14, 15]);
  });

  it('allInside holds when every event lies in the acquisition’s function', () => {
    const inside = ask(
      `${HEAD}export async function run(id: string, token: string) {
  await redis.set(\`job:\${id}\`, token, 'NX', 'PX', 1000);
  await redis.pexpire(\`job:\${id}\`, 1000);
  await redis.del(\`job:\${id}\`);
}
export async function evict(id: string) {
  await redis.del(\`cache:\${id}\`);
}`,
      (model, context) => {
        const [job] = model.redis.acquisitions;
        const events = eventsOfSameLock(context.sourceCode, model.redis, model.settings.lockKeyPattern, job!);
        return [events.count, events.allInside(job!.owner)];
      },
    );
    assert.deepEqual(inside, [2, true]);
  });
});

function line0(event: { readonly node: TSESTree.Node }): number {
  return event.node.loc.start.line;
}

describe('same-lock: argumentsByText, comparesStoredValue, lockMachinery', () => {
  it('argumentsByText: each release and renewal argument by its text, scripts by their ARGV', () => {
    const answer = ask(
      `${HEAD}const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
export async function f(key: string, token: string) {
  await redis.pexpire(key, 1000);
  await redis.eval(RELEASE, 1, key, token);
  await redis.del(key);
}`,
      (model, context) =>
        Object.fromEntries(
          [...argumentsByText(context.sourceCode, model.redis)].map(([text, uses]) => [text, uses.map((use) => line0(use.event))]),
        ),
    );
    assert.deepEqual(answer, { token: [6], key: [7, 5], '1000': [5] });
  });

  it('comparesStoredValue: a GET of the lock’s key compared with that very text, in the acquisition’s function', () => {
    const answer = ask(
      `${HEAD}const WORKER_ID = 'worker-1';
export async function take(key: string) {
  await redis.set(key, WORKER_ID, 'NX', 'PX', 1000);
  if ((await redis.get(key)) === WORKER_ID) return true;
  return false;
}
export async function other(key: string) {
  await redis.set(key, WORKER_ID, 'NX', 'PX', 1000);
  if ((await redis.get(\`x:\${key}\`)) === WORKER_ID) return true;
  return false;
}`,
      (model, context) =>
        model.redis.acquisitions.map((acquisition) => [
          comparesStoredValue(context.sourceCode, model.redis, acquisition, 'WORKER_ID'),
          comparesStoredValue(context.sourceCode, model.redis, acquisition, 'token'),
        ]),
    );
    assert.deepEqual(answer, [
      [true, false],
      [false, false],
    ]);
  });

  it('lockMachinery: the commands on the lock’s own key in its function, not other keys’ nor other functions’', () => {
    const answer = ask(
      `${HEAD}export async function run(id: string, token: string) {
  await redis.set(\`lock:\${id}\`, token, 'NX', 'PX', 1000);
  await redis.pexpire(\`lock:\${id}\`, 1000);
  await redis.incr(\`count:\${id}\`);
  const holder = await redis.get(\`lock:\${id}\`);
  return holder;
}
export async function elsewhere(id: string) {
  await redis.get(\`lock:\${id}\`);
}
export async function anyKey(keys: string[], token: string) {
  await redis.set(keys[0]!, token, 'NX');
}`,
      (model) => model.redis.acquisitions.map((acquisition) => [...lockMachinery(model.redis, acquisition)].map(line).sort()),
    );
    assert.deepEqual(answer, [[4, 5, 7], []]);
  });
});
