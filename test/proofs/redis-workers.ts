// A worker is one holder candidate with its own Redis connection in one client library: the plain
// commands user code calls (the broken patterns) and the fixes' calls rendered from the templates.

import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { dialectFor, fixedRedisCalls, type ProvenDialect } from './fixed-code.js';
import type { ProofContext } from './harness.js';

type NodeRedisClient = ReturnType<typeof createClient>;

export interface RedisWorker {
  readonly name: string;
  readonly dialect: ProvenDialect;
  /** The underlying client, as the compiled fix code receives it. */
  readonly client: Redis | NodeRedisClient;
  get(key: string): Promise<string | null>;
  /** Plain `SET key value` with no condition and no expiry. */
  set(key: string, value: string): Promise<void>;
  /** Plain `SET key value NX PX ttl` as user code writes it (acquisitions that are not under test). */
  setNxPx(key: string, value: string, ttlMs: number): Promise<boolean>;
  del(key: string): Promise<number>;
  pexpire(key: string, ttlMs: number): Promise<number>;
  /** `EVAL script` with the given keys and arguments, as user code calls its own script. */
  evalScript(script: string, keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** Plain `SET key value XX PX ttl` as user code renews with it: true when written. */
  setXxPx(key: string, value: string, ttlMs: number): Promise<boolean>;
  incr(key: string): Promise<number>;
  pttl(key: string): Promise<number>;
  /** The fix's `SET key token NX PX ttl`: true when acquired. */
  acquire(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** The fix's compare-and-delete: the script's reply (1 deleted, 0 refused). */
  release(key: string, token: string): Promise<number>;
  /** The fix's compare-and-pexpire: the script's reply (1 renewed, 0 refused). */
  extend(key: string, token: string, ttlMs: number): Promise<number>;
  /** The fix's fenced acquire: the fence, or 0 when not acquired. */
  acquireFenced(lockKey: string, fenceKey: string, token: string, ttlMs: number): Promise<number>;
}

function asNumber(reply: unknown, what: string): number {
  if (typeof reply === 'number') return reply;
  throw new Error(`${what} replied ${JSON.stringify(reply)}, expected an integer`);
}

/** Connects the `index`-th worker (its dialect follows `dialectFor`), closed after the variant. */
export async function connectWorker(context: ProofContext, name: string, index: number): Promise<RedisWorker> {
  return connectWorkerWithDialect(context, name, dialectFor(index + context.rotation));
}

export async function connectWorkerWithDialect(context: ProofContext, name: string, dialect: ProvenDialect): Promise<RedisWorker> {
  const { host, port } = context.servers.redis;
  const fixed = fixedRedisCalls(dialect);
  if (dialect === 'ioredis') {
    const client = new Redis({ host, port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    await client.connect();
    context.defer(() => {
      client.disconnect();
    });
    return {
      name,
      dialect,
      client,
      get: (key) => client.get(key),
      set: async (key, value) => {
        await client.set(key, value);
      },
      setNxPx: async (key, value, ttlMs) => (await client.set(key, value, 'PX', ttlMs, 'NX')) === 'OK',
      del: (key) => client.del(key),
      pexpire: (key, ttlMs) => client.pexpire(key, ttlMs),
      setXxPx: async (key, value, ttlMs) => (await client.set(key, value, 'PX', ttlMs, 'XX')) === 'OK',
      evalScript: (script, keys, args) => client.eval(script, keys.length, ...keys, ...args),
      incr: (key) => client.incr(key),
      pttl: (key) => client.pttl(key),
      acquire: async (key, token, ttlMs) => (await fixed.acquire(client, key, token, ttlMs)) === 'OK',
      release: async (key, token) => asNumber(await fixed.release(client, key, token), 'release script'),
      extend: async (key, token, ttlMs) => asNumber(await fixed.extend(client, key, token, ttlMs), 'extend script'),
      acquireFenced: async (lockKey, fenceKey, token, ttlMs) =>
        asNumber(await fixed.acquireFenced(client, lockKey, fenceKey, token, ttlMs), 'fenced acquire script'),
    };
  }
  const client = createClient({ socket: { host, port, reconnectStrategy: false } });
  client.on('error', () => undefined);
  await client.connect();
  context.defer(() => {
    client.destroy();
  });
  return {
    name,
    dialect,
    client,
    get: async (key) => {
      return client.get(key);
    },
    set: async (key, value) => {
      await client.set(key, value);
    },
    setNxPx: async (key, value, ttlMs) =>
      (await client.set(key, value, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } })) === 'OK',
    del: (key) => client.del(key),
    pexpire: (key, ttlMs) => client.pExpire(key, ttlMs),
    evalScript: (script, keys, args) => client.eval(script, { keys: [...keys], arguments: [...args] }),
    setXxPx: async (key, value, ttlMs) =>
      (await client.set(key, value, { condition: 'XX', expiration: { type: 'PX', value: ttlMs } })) === 'OK',
    incr: (key) => client.incr(key),
    pttl: (key) => client.pTTL(key),
    acquire: async (key, token, ttlMs) => (await fixed.acquire(client, key, token, ttlMs)) === 'OK',
    release: async (key, token) => asNumber(await fixed.release(client, key, token), 'release script'),
    extend: async (key, token, ttlMs) => asNumber(await fixed.extend(client, key, token, ttlMs), 'extend script'),
    acquireFenced: async (lockKey, fenceKey, token, ttlMs) =>
      asNumber(await fixed.acquireFenced(client, lockKey, fenceKey, token, ttlMs), 'fenced acquire script'),
  };
}

/** Connects `count` workers named A, B, C, ... with alternating client libraries. */
export async function connectWorkers(context: ProofContext, count: number): Promise<RedisWorker[]> {
  const workers: RedisWorker[] = [];
  for (let index = 0; index < count; index += 1) {
    workers.push(await connectWorker(context, String.fromCharCode(65 + index), index));
  }
  return workers;
}

/** Waits until `key` no longer holds `token`: the holder has been paused past its TTL. */
export async function waitUntilLockLost(context: ProofContext, observer: RedisWorker, key: string, token: string): Promise<void> {
  await context.waitUntil(`the lock ${key} held with ${token} expires`, async () => (await observer.get(key)) !== token);
}

/** A scenario's `rotations` that lets every client library play every worker's role in each run. */
export const EVERY_DIALECT_IN_EVERY_ROLE = 3;
