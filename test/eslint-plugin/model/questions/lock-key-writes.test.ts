// Writes of a held lock's own key inside its critical section (lockKeyWrites): the key doubling as a
// data key, so the value the release compares with the token is gone. Not the holder rewriting its
// own token, not the release or a renewal, not a write of another key or after the release.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { lockKeyWrites } from '../../../../eslint-plugin/src/model/questions/lock-key-writes.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each write: `line COMMAND (acquired at line)`. */
function writes(code: string): string[] {
  return readAtEnd(
    code,
    (context) =>
      lockKeyWrites(context.sourceCode, getLockModel(context).redis).map(
        (write) => `${write.call.loc.start.line} ${write.command} (acquired at ${write.acquisition.node.loc.start.line})`,
      ),
    { typescript: true },
  );
}

const HEAD = `import Redis from 'ioredis';
const redis = new Redis();
`;

describe('lockKeyWrites', () => {
  it('a SET, HSET or INCR of the lock key between acquiring and releasing', () => {
    assert.deepEqual(
      writes(`${HEAD}export async function run(token: string) {
  if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return;
  await redis.set('lock:job', 'progress: 50%');
  await redis.hset('lock:job', 'step', '2');
  await redis.incr('lock:job');
  await redis.set('job:result', 'done');
  await redis.del('lock:job');
}`),
      ['5 SET (acquired at 4)', '6 HSET (acquired at 4)', '7 INCR (acquired at 4)'],
    );
  });

  it('not the release, a renewal, a SET XX/IFEQ of the token, or a write after the release', () => {
    assert.deepEqual(
      writes(`${HEAD}export async function run(token: string) {
  if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return;
  await redis.pexpire('lock:job', 30000);
  await redis.set('lock:job', token, 'XX', 'PX', 30000);
  await redis.set('lock:job', token, 'IFEQ', token, 'PX', 30000);
  await redis.del('lock:job');
  await redis.set('lock:job', 'free');
}`),
      [],
    );
  });

  it('writing the token itself again is a renewal, not data', () => {
    assert.deepEqual(
      writes(`${HEAD}export async function run(token: string) {
  if (!(await redis.set('lock:job', token, 'NX', 'PX', 30000))) return;
  await redis.set('lock:job', token, 'PX', 30000);
  await redis.del('lock:job');
}`),
      [],
    );
  });
});
