// What an acquire helper hands back to its callers (helpers/helper-returns.ts): a handle that releases
// the lock — an unlock function, an object with a releasing member, a Redlock lock, a redis-semaphore
// mutex — the token it stored, the try's answer, or nothing; and whether it can answer "not taken"
// (a return that reads the reply, or a falsy return). A helper that throws when the lock is taken,
// or returns nothing either way, reports no failed try; an object without a releasing member is no handle.

import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { boundNames, mentions } from '../../../../eslint-plugin/src/model/helpers/helper-returns.js';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** The module's acquire helpers by name: what they return, the members that release a handle, and whether they are tries. */
function returns(code: string): Record<string, [string, readonly string[], boolean]> {
  return readAtEnd(
    code,
    (context) => {
      const found: Record<string, [string, readonly string[], boolean]> = {};
      for (const summary of getLockModel(context).redis.lockHelpers.values())
        if (summary.role === 'acquire') found[summary.name ?? '?'] = [summary.returns, summary.handleRelease, summary.isTry];
      return found;
    },
    { typescript: true },
  );
}

describe('helper-returns', () => {
  it('handles, tokens, results and nothing; tries only where a return can say "not taken"', () => {
    assert.deepEqual(
      returns(`import Redis from 'ioredis';
import Redlock from 'redlock';
import { Mutex } from 'redis-semaphore';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
const redlock = new Redlock([redis]);
export async function lockWithUnlock(key: string) {
  await redis.set(key, 'x', 'PX', 1000, 'NX');
  return () => redis.del(key);
}
export async function lockWithHandle(key: string) {
  await redis.set(key, 'x', 'PX', 1000, 'NX');
  return { key, release: async () => { await redis.del(key); } };
}
export async function lockWithLocal(key: string) {
  await redis.set(key, 'x', 'PX', 1000, 'NX');
  const lock = { unlock: () => redis.del(key) };
  return lock;
}
export async function lockRedlock(key: string) {
  return redlock.acquire([key], 1000);
}
export async function lockRedlockLocal(key: string) {
  const lock = await redlock.acquire([key], 1000);
  return lock;
}
export async function lockMutex(key: string) {
  const mutex = new Mutex(redis, key);
  await mutex.acquire();
  return mutex;
}
export async function lockToken(key: string) {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', 1000, 'NX');
  if (!ok) return null;
  return token;
}
export async function lockResult(key: string) {
  return redis.set(key, 'x', 'PX', 1000, 'NX');
}
export async function lockCompared(key: string) {
  const ok = await redis.set(key, 'x', 'PX', 1000, 'NX');
  return ok === 'OK';
}
export async function lockThrows(key: string) {
  const ok = await redis.set(key, 'x', 'PX', 1000, 'NX');
  if (!ok) throw new Error('taken');
  return { key, ttl: 1000 };
}
export async function lockFalse(key: string) {
  const ok = await redis.set(key, 'x', 'PX', 1000, 'NX');
  if (!ok) return false;
  await redis.incr('stats');
  return true;
}
export async function lockBare(key: string) {
  const ok = await redis.set(key, 'x', 'PX', 1000, 'NX');
  if (!ok) return;
  await redis.incr('stats');
}
export async function lockNothing(key: string) {
  await redis.set(key, 'x', 'PX', 1000, 'NX');
}
`),
      {
        lockWithUnlock: ['handle', ['call'], false],
        lockWithHandle: ['handle', ['release'], false],
        lockWithLocal: ['handle', ['unlock'], false],
        lockRedlock: ['handle', ['release', 'unlock'], false],
        lockRedlockLocal: ['handle', ['release', 'unlock'], false],
        lockMutex: ['handle', ['release'], false],
        lockToken: ['token', [], true],
        lockResult: ['result', [], true],
        lockCompared: ['result', [], true],
        // Throws when taken: the object it returns says nothing, and releases nothing.
        lockThrows: ['result', [], false],
        lockFalse: ['result', [], true],
        // `return;` on both paths: the caller cannot tell.
        lockBare: ['nothing', [], false],
        lockNothing: ['nothing', [], false],
      },
    );
  });

  it('what Redlock’s `using` returns is its routine’s value, not a handle', () => {
    const found = returns(`import Redis from 'ioredis';
import Redlock from 'redlock';
const redis = new Redis();
const redlock = new Redlock([redis]);
export async function takeLock(key: string) {
  return redlock.using([key], 1000, async () => 1);
}
export async function holdLock(key: string) {
  return redlock.acquire([key], 1000);
}`);
    assert.deepEqual(found, { takeLock: ['result', [], false], holdLock: ['handle', ['release', 'unlock'], false] });
  });

  it('boundNames: the names a declarator binds; mentions: a name read outside nested functions', () => {
    const answer = readAtEnd(
      `const reply = 1;
const { rows, rowCount: count } = { rows: [], rowCount: 0 };
const [first, , third] = [1, 2, 3];
const outer = [reply, () => first];`,
      (context) => {
        const declarations = context.sourceCode.ast.body as TSESTree.VariableDeclaration[];
        const names = declarations.slice(0, 3).map((declaration) => boundNames(declaration.declarations[0].id));
        const last = declarations[3]!.declarations[0].init!;
        return {
          names,
          mentionsReply: mentions(context.sourceCode, last, 'reply'),
          mentionsFirst: mentions(context.sourceCode, last, 'first'),
        };
      },
    );
    assert.deepEqual(answer, { names: [['reply'], ['rows', 'count'], ['first', 'third']], mentionsReply: true, mentionsFirst: false });
  });
});
