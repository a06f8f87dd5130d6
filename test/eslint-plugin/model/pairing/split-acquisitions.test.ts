// A split acquisition's pairing (splitAcquisitionOf): the SETNX without a TTL that a plain EXPIRE
// completes, as opposed to an EXPIRE that renews a lock.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { splitAcquisitionOf } from '../../../../eslint-plugin/src/model/pairing/split-acquisitions.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each expiry's line, with the line of the acquisition it completes (or undefined). */
function completions(code: string, typescript = true): [number, number | undefined][] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context).redis;
      return model.expiries.map((expiry): [number, number | undefined] => [
        expiry.node.loc.start.line,
        splitAcquisitionOf(model, expiry)?.node.loc.start.line,
      ]);
    },
    { typescript },
  );
}

const HEAD = `import Redis from 'ioredis';
const redis = new Redis();
`;

describe('splitAcquisitionOf', () => {
  it('pairs the first EXPIRE of the key after a SETNX in its function; a second one renews', () => {
    assert.deepEqual(
      completions(`${HEAD}export async function take(token: string) {
  const taken = await redis.setnx('lock:job', token);
  await redis.expire('lock:job', 30);
  await redis.expire('lock:job', 30);
  return taken;
}`),
      [
        [5, 4],
        [6, undefined],
      ],
    );
  });

  it('pairs SETNX then EXPIRE in a MULTI chain and in a node_redis v3 callback', () => {
    assert.deepEqual(
      completions(`${HEAD}export async function chained(token: string) {
  await redis.multi().setnx('lock:a', token).expire('lock:a', 30).exec();
}`),
      [[4, 4]],
    );
    assert.deepEqual(
      completions(
        `const redis = require('redis');
const client = redis.createClient();
function take(token, done) {
  client.setnx('lock:b', token, function () {
    client.expire('lock:b', 30, done);
  });
}`,
        false,
      ),
      [[5, 4]],
    );
  });

  it('an EXPIRE in a timer, of another key, before the SETNX, or after a SET NX with a TTL completes nothing', () => {
    assert.deepEqual(
      completions(`${HEAD}export async function f(token: string) {
  await redis.expire('lock:c', 30);
  await redis.setnx('lock:c', token);
  setInterval(() => redis.expire('lock:c', 30), 10000);
  await redis.expire('lock:other', 30);
}
export async function g(token: string) {
  await redis.set('lock:d', token, 'NX', 'PX', 30000);
  await redis.expire('lock:d', 30);
}`),
      [
        [4, undefined],
        [6, undefined],
        [7, undefined],
        [11, undefined],
      ],
    );
  });

  it('a compare-and-expire script is never a completion', () => {
    assert.deepEqual(
      completions(`${HEAD}const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end';
export async function f(token: string) {
  await redis.setnx('lock:e', token);
  await redis.eval(EXTEND, 1, 'lock:e', token, 30000);
}`),
      [[6, undefined]],
    );
  });
});
