// How a GET's or EXISTS's result decides a later write of the same key (questions/read-decides.ts):
// check-then-set — the write in the branch where the key was absent, after an early exit where it was
// present, or after a wait loop — and the reads that decide nothing: a cache read whose value is used as
// data, a cache hit that reads the key again, a comparison with a token, another key's read.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { checkThenSetRead } from '../../../../eslint-plugin/src/model/questions/read-decides.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** For each SET of the file: its line, and the read that decides it (line, command, shape, simple test, present when true). */
function decisions(code: string, typescript = true): unknown[] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context).redis;
      return model.commands
        .filter((command) => command.name === 'SET')
        .map((write) => {
          const decider = checkThenSetRead(context.sourceCode, model, write);
          const decision = decider?.decision;
          return [
            write.call.loc.start.line,
            decider && [
              decider.read.call.loc.start.line,
              decider.read.name,
              decision!.shape,
              decision!.simpleTest,
              decision!.presentWhenTrue,
            ],
          ];
        });
    },
    { typescript },
  );
}

describe('read-decides: checkThenSetRead', () => {
  it('finds the read whose result alone decides the write, and how the write is reached', () => {
    assert.deepEqual(
      decisions(`import Redis from 'ioredis';
const redis = new Redis();
declare function sleep(ms: number): Promise<void>;
declare function compute(): string;
export async function branch(k: string) {
  if (!(await redis.get(k))) await redis.set(k, 'me');
}
export async function earlyExit(k: string) {
  const held = await redis.get(k);
  if (held) return;
  await redis.set(k, 'me');
}
export async function waitLoop(k: string) {
  while (await redis.exists(k)) await sleep(50);
  await redis.set(k, 'me');
}
export async function countZero(k: string) {
  if ((await redis.exists(k)) === 0) {
    await redis.set(k, 'me');
  }
}
export async function logged(k: string) {
  const holder = await redis.get(k);
  if (holder) {
    console.log('held by', holder);
    return;
  }
  await redis.set(k, 'me');
}
export async function compound(k: string, force: boolean) {
  const held = await redis.get(k);
  if (!held && !force) await redis.set(k, 'me');
}
`),
      [
        [6, [6, 'GET', 'branch', true, false]],
        [11, [9, 'GET', 'early-exit', true, true]],
        [15, [14, 'EXISTS', 'wait-loop', true, true]],
        [19, [18, 'EXISTS', 'branch', true, false]],
        // Logging the holder is no use of the value as data.
        [28, [23, 'GET', 'early-exit', true, true]],
        // `!held && !force`: still decided on the branch, but the test is not the read alone.
        [32, [31, 'GET', 'branch', false, false]],
      ],
    );
  });

  it('leaves alone a cache read, a cache hit, another key, a token comparison, the present branch and an `||`', () => {
    assert.deepEqual(
      decisions(`import Redis from 'ioredis';
const redis = new Redis();
declare function compute(): string;
export async function cacheRead(k: string) {
  const cached = await redis.get(k);
  if (cached) return JSON.parse(cached);
  const value = compute();
  await redis.set(k, value);
  return value;
}
export async function cacheHit(k: string) {
  if (await redis.exists(k)) return redis.get(k);
  await redis.set(k, compute());
}
export async function otherKey(k: string) {
  if (!(await redis.get(\`x:\${k}\`))) await redis.set(k, 'me');
}
export async function compared(k: string, token: string) {
  const held = await redis.get(k);
  if (held === token) return;
  await redis.set(k, 'me');
}
export async function presentBranch(k: string) {
  const held = await redis.get(k);
  if (held) await redis.set(k, 'again');
}
export async function orTest(k: string, force: boolean) {
  const held = await redis.get(k);
  if (!held || force) await redis.set(k, 'me');
}
`),
      [
        [8, undefined],
        [13, undefined],
        [16, undefined],
        [21, undefined],
        [25, undefined],
        [29, undefined],
      ],
    );
  });

  it('node_redis v3: the value handed to the GET callback decides the SET inside it', () => {
    assert.deepEqual(
      decisions(
        `const redis = require('redis');
const client = redis.createClient();
function take(k, done) {
  client.get(k, (err, value) => {
    if (!value) client.set(k, 'me', done);
    else done();
  });
}
function notRead(k, done) {
  client.get(k, (err) => {
    client.set(k, 'me', done);
  });
}
module.exports = { take, notRead };`,
        false,
      ),
      [
        [5, [4, 'GET', 'branch', true, false]],
        [11, undefined],
      ],
    );
  });
});
