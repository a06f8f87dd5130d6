// Which Redis renewals can extend another holder's lock (isUnsafeRenewal), asked of each expiry the
// model finds: a plain EXPIRE, SET XX, a compare-and-set that drops the TTL, an unchecked script.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { isUnsafeRenewal } from '../../../../eslint-plugin/src/model/questions/renewals.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each expiry of `code` by line, with the answer `isUnsafeRenewal` gives it. */
function renewals(code: string): [number, boolean][] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context).redis;
      return model.expiries.map((expiry): [number, boolean] => [
        expiry.node.loc.start.line,
        isUnsafeRenewal(context.sourceCode, model, expiry),
      ]);
    },
    { typescript: true },
  );
}

const HEAD = `import Redis from 'ioredis';
const redis = new Redis();
`;

describe('isUnsafeRenewal', () => {
  it('a plain EXPIRE, a SET XX and a SET IFEQ without PX renew whoever holds the key', () => {
    assert.deepEqual(
      renewals(`${HEAD}export async function renew(token: string) {
  await redis.pexpire('lock:job', 30000);
  await redis.set('lock:job', token, 'XX', 'PX', 30000);
  await redis.set('lock:job', token, 'IFEQ', token);
}`),
      [
        [4, true],
        [5, true],
        [6, true],
      ],
    );
  });

  it('a compare-and-set with PX and the compare-and-expire script compare the owner', () => {
    assert.deepEqual(
      renewals(`${HEAD}const EXTEND = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end';
export async function renew(token: string) {
  await redis.set('lock:job', token, 'IFEQ', token, 'PX', 30000);
  await redis.eval(EXTEND, 1, 'lock:job', token, 30000);
}`),
      [
        [5, false],
        [6, false],
      ],
    );
  });

  it('the EXPIRE completing a SETNX is the acquisition, not a renewal', () => {
    assert.deepEqual(
      renewals(`${HEAD}export async function take(token: string) {
  if (!(await redis.setnx('lock:job', token))) return;
  await redis.expire('lock:job', 30);
  await redis.expire('lock:job', 30);
}`),
      // The first completes the split acquire; the second, later, renews.
      [
        [5, false],
        [6, true],
      ],
    );
  });

  it('EXPIRE … NX only sets a TTL on a key that has none: never another holder’s', () => {
    assert.deepEqual(renewals(`${HEAD}export async function net() { await redis.expire('lock:job', 30, 'NX'); }`), [[3, false]]);
  });

  it('a script that renews without comparing is unsafe; one that also sets or counts the key is not a renewal', () => {
    assert.deepEqual(
      renewals(`${HEAD}const RENEW = "return redis.call('PEXPIRE', KEYS[1], ARGV[1])";
const LIMIT = "local n = redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], ARGV[1]) return n";
export async function f() {
  await redis.eval(RENEW, 1, 'lock:job', 30000);
  await redis.eval(LIMIT, 1, 'rate:ip', 1000);
}`).filter(([line]) => line >= 6),
      [
        [6, true],
        [7, false],
      ],
    );
  });
});
