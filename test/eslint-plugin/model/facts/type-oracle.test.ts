// The checker path of client recognition: with type information a call is Redis because its
// receiver's type is declared by a Redis library; without it, the shape decides.

import { RuleTester } from '../../support/rule-tester.js';
import { createTypedRuleTester } from '../../support/typed-rule-tester.js';
import noSplitAcquire from '../../../../eslint-plugin/src/rules/no-split-acquire.js';
import noUnsafeRelease from '../../../../eslint-plugin/src/rules/no-unsafe-release.js';

// The typed rule tester resolves file names against tsconfigRootDir.
const filename = 'file.ts';

const typed = createTypedRuleTester();
const untyped = new RuleTester();

// A Map subclass with Redis-like methods, held in a variable named `redis`.
const mapNamedRedis = `import { LocalLocks } from './local-locks';
export function release(redis: LocalLocks) {
  redis.del('lock:invoice');
}`;

// A real ioredis client whose name and origin say nothing: only its type does.
const ioredisNamedStore = `import { getStore } from './store';
const store = getStore();
export async function release() {
  await store.del('lock:invoice');
}`;

const mapSplitAcquire = `import { LocalLocks } from './local-locks';
export function acquire(redis: LocalLocks, token: string) {
  redis.setnx('lock:invoice', token);
  redis.expire('lock:invoice', 30);
}`;

// A project's own interface for its client: the checker says nothing either way, so the shape decides.
const clientShapedInterface = `interface RedisLike {
  set(key: string, value: string, ...options: unknown[]): Promise<unknown>;
  del(key: string): Promise<number>;
  eval(script: string, keyCount: number, ...args: string[]): Promise<unknown>;
}
export async function release(redis: RedisLike) {
  await redis.del('lock:invoice');
}`;

// A class with the same members is an implementation of something else.
const clientShapedClass = `class MemoryLocks {
  private readonly held = new Map<string, string>();
  async set(key: string, value: string) { this.held.set(key, value); }
  async del(key: string) { return this.held.delete(key) ? 1 : 0; }
  async eval() { return null; }
}
export async function release(redis: MemoryLocks) {
  await redis.del('lock:invoice');
}`;

typed.run('no-unsafe-release (type-aware)', noUnsafeRelease, {
  valid: [
    { code: mapNamedRedis, filename },
    { code: clientShapedClass, filename },
  ],
  invalid: [
    { code: ioredisNamedStore, filename, errors: [{ messageId: 'plainDelete', line: 4, suggestions: [] }] },
    { code: clientShapedInterface, filename, errors: [{ messageId: 'plainDelete', line: 7 }] },
  ],
});

typed.run('no-split-acquire (type-aware)', noSplitAcquire, {
  valid: [{ code: mapSplitAcquire, filename }],
  invalid: [
    {
      code: `import { Redis } from 'ioredis';
export async function acquire(store: Redis, token: string) {
  await store.setnx('lock:invoice', token);
  await store.expire('lock:invoice', 30);
}`,
      filename,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 4,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import { Redis } from 'ioredis';
export async function acquire(store: Redis, token: string) {
  await store.set('lock:invoice', token, 'PX', 30000, 'NX');
}`,
            },
          ],
        },
      ],
    },
  ],
});

// The same code without type information: the rules still run, from shape alone. The name
// `redis` and Redis-specific methods make the Map subclass look like a client, and the
// plain `store` gives no sign of being one — exactly the gap type information closes.
untyped.run('no-unsafe-release (shape only)', noUnsafeRelease, {
  valid: [{ code: ioredisNamedStore, filename }],
  invalid: [{ code: mapNamedRedis, filename, errors: [{ messageId: 'plainDelete', line: 3, suggestions: [] }] }],
});

untyped.run('no-split-acquire (shape only)', noSplitAcquire, {
  valid: [],
  invalid: [
    {
      code: mapSplitAcquire,
      filename,
      errors: [
        {
          messageId: 'splitAcquire',
          line: 4,
          suggestions: [
            {
              messageId: 'useAtomicSet',
              output: `import { LocalLocks } from './local-locks';
export function acquire(redis: LocalLocks, token: string) {
  redis.set('lock:invoice', token, 'PX', 30000, 'NX');
}`,
            },
          ],
        },
      ],
    },
  ],
});
