// What a try-acquisition's answer meets (tryAcquisitionFate) and the acquire helpers that fail open
// (failOpenReturn): a `catch` that reports the lock as taken when taking it threw.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { failOpenReturn, tryAcquisitionFate } from '../../../../eslint-plugin/src/model/questions/acquire-results.js';
import { TRY_ACQUISITION_SOURCES } from '../../../../eslint-plugin/src/model/questions/try-acquisitions.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** The fate of each try-acquisition's answer, by line. */
function fates(code: string): [number, string][] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context);
      return TRY_ACQUISITION_SOURCES.flatMap((source) => source.tries(model, context)).map((attempt): [number, string] => {
        const fate = tryAcquisitionFate(context.sourceCode, attempt);
        return [attempt.node.loc.start.line, fate.kind === 'unread' ? `unread ${fate.name}` : fate.kind];
      });
    },
    { typescript: true },
  );
}

/** The fail-open literal of each acquisition, by line (undefined when none). */
function failOpen(code: string): [number, string | undefined][] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context);
      return TRY_ACQUISITION_SOURCES.flatMap((source) => source.all(model, context)).map((acquisition): [number, string | undefined] => {
        const literal = failOpenReturn(context.sourceCode, acquisition);
        return [acquisition.node.loc.start.line, literal && context.sourceCode.getText(literal)];
      });
    },
    { typescript: true },
  );
}

const HEAD = `import Redis from 'ioredis';
const redis = new Redis();
`;

describe('tryAcquisitionFate', () => {
  it('checked, ignored, or bound and never read', () => {
    assert.deepEqual(
      fates(`${HEAD}export async function f(token: string) {
  if (!(await redis.set('lock:a', token, 'NX', 'PX', 1000))) return;
  await redis.set('lock:b', token, 'NX', 'PX', 1000);
  const taken = await redis.set('lock:c', token, 'NX', 'PX', 1000);
  await work();
}
declare function work(): Promise<void>;`),
      [
        [4, 'checked'],
        [5, 'ignored'],
        [6, 'unread taken'],
      ],
    );
  });

  it('a node_redis v3 callback that never reads its reply ignores it', () => {
    assert.deepEqual(
      fates(`const redis = require('redis');
const client = redis.createClient();
export function f(token: string, work: () => void) {
  client.set('lock:a', token, 'NX', 'PX', 1000, () => work());
  client.set('lock:b', token, 'NX', 'PX', 1000, (error: unknown, reply: unknown) => { if (reply) work(); });
}`),
      [
        [4, 'ignored'],
        [5, 'checked'],
      ],
    );
  });

  it("a try-lock's boolean column: read through `rows[0].locked`, or ignored", () => {
    assert.deepEqual(
      fates(`import { Pool } from 'pg';
const pool = new Pool();
export async function f(id: number) {
  const { rows } = await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [id]);
  if (!rows[0].locked) return;
  await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [id + 1]);
}`),
      [
        [4, 'checked'],
        [6, 'ignored'],
      ],
    );
  });
});

describe('failOpenReturn', () => {
  it('a helper named for acquiring whose catch returns true fails open', () => {
    assert.deepEqual(
      failOpen(`${HEAD}export async function acquireLock(key: string, token: string): Promise<boolean> {
  try {
    await redis.set(key, token, 'NX', 'PX', 1000);
    return true;
  } catch {
    return true;
  }
}`),
      [[5, 'true']],
    );
  });

  it('any function that returns the acquisition’s answer from its try, and a catch returning OK', () => {
    assert.deepEqual(
      failOpen(`${HEAD}export async function ensure(token: string) {
  try {
    return await redis.set('lock:a', token, 'NX', 'PX', 1000);
  } catch (error) {
    return 'OK';
  }
}`),
      [[5, "'OK'"]],
    );
  });

  it('silent on a catch returning false, and on a run-with-lock helper (`lockAndRun`) whose answer is the work’s', () => {
    assert.deepEqual(
      failOpen(`${HEAD}export async function acquireLock(token: string) {
  try {
    await redis.set('lock:a', token, 'NX', 'PX', 1000);
    return true;
  } catch {
    return false;
  }
}
export async function lockAndRun(token: string, work: () => Promise<void>) {
  try {
    await redis.set('lock:b', token, 'NX', 'PX', 1000);
    await work();
  } catch {
    return true;
  }
}`),
      [
        [5, undefined],
        [13, undefined],
      ],
    );
  });
});
