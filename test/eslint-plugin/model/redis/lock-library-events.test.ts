// Lock events of the lock libraries and of configured wrappers (redis/lock-library-events.ts):
// Redlock's acquire/using and the release and extend of the handle it returns, redis-semaphore's
// acquire/tryAcquire/release keyed by the `new Mutex(client, key)` that made the lock, and calls to
// the wrappers the settings name. A `release()` on anything that is not such a handle (a pooled
// connection, a session object) is no lock event.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { isLockHandle, semaphoreKey, wrapperEvent } from '../../../../eslint-plugin/src/model/redis/lock-library-events.js';
import { collectNodes } from '../../../../eslint-plugin/src/util/collect-nodes.js';
import { readAtEnd } from '../../../support/probe-rule.js';

const line = (node: TSESTree.Node): number => node.loc.start.line;

const LIBRARIES = `import Redis from 'ioredis';
import Redlock from 'redlock';
import { Mutex } from 'redis-semaphore';
import { Pool } from 'pg';
const redis = new Redis();
const redlock = new Redlock([redis]);
const pool = new Pool();
`;

describe('lock-library-events', () => {
  it('Redlock: acquire keyed by its first resource with its TTL, using, and the extend and release of the handle', () => {
    const model = readAtEnd(
      `${LIBRARIES}export async function f(id: string) {
  const lock = await redlock.acquire([\`lock:\${id}\`, 'lock:other'], 5000);
  await lock.extend(5000);
  await lock.release();
  await redlock.using([\`lock:u:\${id}\`], 5000, async () => {});
}`,
      (context) => getLockModel(context).redis,
      { typescript: true },
    );
    assert.deepEqual(
      model.acquisitions.map((event) => [line(event.node), event.kind, event.library, event.hasTtl, event.isTry]),
      [
        [9, 'redlock', 'redlock', true, false],
        [12, 'redlock', 'redlock', true, false],
      ],
    );
    assert.equal(model.acquisitions[0]!.key?.type, AST_NODE_TYPES.TemplateLiteral);
    assert.match(model.acquisitions[0]!.keySignature!, /^t:lock:\$\{v:id@\d+\}$/u);
    // The handle's calls name no key: the pairing follows the handle.
    assert.deepEqual(
      model.releases.map((event) => [line(event.node), event.kind, event.library, event.safe, event.keySignature]),
      [[11, 'library', 'redlock', true, undefined]],
    );
    assert.deepEqual(
      model.expiries.map((event) => [line(event.node), event.kind, event.library, event.safe]),
      [[10, 'library', 'redlock', true]],
    );
    assert.deepEqual(model.commands, []);
  });

  it('redis-semaphore: the maker’s key on every call; tryAcquire is a try, acquire is not', () => {
    const model = readAtEnd(
      `${LIBRARIES}export async function f(id: string) {
  const mutex = new Mutex(redis, \`lock:m:\${id}\`);
  await mutex.acquire();
  if (await mutex.tryAcquire()) await mutex.release();
}`,
      (context) => getLockModel(context).redis,
      { typescript: true },
    );
    assert.deepEqual(
      model.acquisitions.map((event) => [line(event.node), event.kind, event.library, event.isTry]),
      [
        [10, 'semaphore', 'redis-semaphore', false],
        [11, 'semaphore', 'redis-semaphore', true],
      ],
    );
    const [release] = model.releases;
    assert.deepEqual([line(release!.node), release!.kind, release!.safe], [11, 'library', true]);
    assert.equal(release!.keySignature, model.acquisitions[0]!.keySignature);
    assert.match(release!.keySignature!, /^t:lock:m:/u);
  });

  it('a pooled connection’s release and an unknown session’s release are no lock events', () => {
    const model = readAtEnd(
      `${LIBRARIES}export async function f(id: string) {
  const lock = await redlock.acquire([\`lock:\${id}\`], 5000);
  const conn = await pool.connect();
  conn.release();
  const session = await openSession(id);
  await session.release();
  await session.extend(100);
  await lock.release();
}`,
      (context) => getLockModel(context).redis,
      { typescript: true },
    );
    assert.deepEqual(
      model.releases.map((event) => line(event.node)),
      [15],
    );
    assert.deepEqual(model.expiries, []);
  });

  it('isLockHandle and semaphoreKey read the declaration the receiver comes from', () => {
    const answers = readAtEnd(
      `${LIBRARIES}export async function f(id: string) {
  const lock = await redlock.acquire(['lock:a'], 5000);
  const other = await redlock.using(['lock:b'], 5000, async () => 1);
  const mutex = new Mutex(redis, 'lock:m');
  const plain = await fetchLock();
  lock.release();
  other.release();
  mutex.release();
  plain.release();
}`,
      (context) => {
        const sourceCode = context.sourceCode;
        return collectNodes(sourceCode)
          .calls.filter((call) => call.callee.type === AST_NODE_TYPES.MemberExpression && call.arguments.length === 0)
          .filter((call) => (call.callee as TSESTree.MemberExpression).property.type === AST_NODE_TYPES.Identifier)
          .filter((call) => ((call.callee as TSESTree.MemberExpression).property as TSESTree.Identifier).name === 'release')
          .map((call) => {
            const root = (call.callee as TSESTree.MemberExpression).object;
            const key = semaphoreKey(root, sourceCode);
            return [
              sourceCode.getText(root),
              isLockHandle(root, sourceCode, 'redlock'),
              isLockHandle(root, sourceCode, 'redis-semaphore'),
              key && sourceCode.getText(key),
            ];
          });
      },
      { typescript: true },
    );
    // `using` returns the routine's value, not a handle; a Mutex is its own lock, made with its key.
    assert.deepEqual(answers, [
      ['lock', true, false, undefined],
      ['other', false, false, undefined],
      ['mutex', false, false, "'lock:m'"],
      ['plain', false, false, undefined],
    ]);
  });

  it('wrapperEvent: nothing without configured wrappers; with them, the key is the first argument, by name or method', () => {
    const code = `export async function f(id: string, locks: { take(key: string): Promise<void> }) {
  await takeLock(\`job:\${id}\`);
  await locks.take(\`job:\${id}\`);
  await dropLock();
  await unrelated(id);
}`;
    const read = (acquire: string[], release: string[]) =>
      readAtEnd(
        code,
        (context) =>
          collectNodes(context.sourceCode).calls.map((call) => {
            const event = wrapperEvent(context.sourceCode, call, {
              ...getLockModel(context).settings,
              lockWrappers: { acquire, release, withLock: [] },
            });
            return event && `${line(call)} ${event.kind} ${event.base.library} ${event.base.key ? 'keyed' : 'no-key'}`;
          }),
        { typescript: true },
      );
    assert.deepEqual(read([], []), [undefined, undefined, undefined, undefined]);
    assert.deepEqual(read(['takeLock', '/^take$/'], ['dropLock']), [
      '2 acquire wrapper keyed',
      '3 acquire wrapper keyed',
      '4 release wrapper no-key',
      undefined,
    ]);
  });
});
