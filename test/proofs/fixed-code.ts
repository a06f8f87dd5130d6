// Turns the code Locksmith's suggestions write into callable functions: the call text is rendered by
// the same templates and script constants the rules use, then evaluated with the client bound, so a
// template or script change that breaks the fix breaks the proof too.

import { EXTEND_SCRIPT, FENCED_ACQUIRE_SCRIPT, RELEASE_SCRIPT, type ScriptKind } from '../../eslint-plugin/src/fixes/scripts.js';
import {
  asRedisStringArgument,
  renderAtomicSet,
  renderEvalCall,
  renderScriptLiteral,
  renderTtlOption,
  type RedisDialect,
} from '../../eslint-plugin/src/fixes/templates.js';

/** The dialects the proofs run against a live server (node_redis v3 and Upstash need other servers). */
export const PROVEN_DIALECTS = ['ioredis', 'node-redis', 'node-redis-v5'] as const satisfies readonly RedisDialect[];
export type ProvenDialect = (typeof PROVEN_DIALECTS)[number];

/** The dialect of the `index`-th worker: workers take turns so every run mixes client libraries. */
export function dialectFor(index: number): ProvenDialect {
  return PROVEN_DIALECTS[index % PROVEN_DIALECTS.length]!;
}

type CompiledCall = (client: unknown, ...values: unknown[]) => Promise<unknown>;

/**
 * Compiles `body` (JavaScript source using `redis` and the named parameters) into a function.
 * This is the one place the proofs evaluate generated code; it is code our own templates rendered.
 */
export function compileCall(parameters: readonly string[], body: string): CompiledCall {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the fix's rendered text is the point of the proof
  const compiled = new Function('redis', ...parameters, body) as (...values: unknown[]) => unknown;
  return (client, ...values) => Promise.resolve(compiled(client, ...values));
}

const SCRIPTS: Readonly<Record<ScriptKind, string>> = {
  release: RELEASE_SCRIPT,
  extend: EXTEND_SCRIPT,
  fencedAcquire: FENCED_ACQUIRE_SCRIPT,
};

/**
 * The eval call a fix writes, with the script as the literal it passes at the call, as one function
 * body. The arguments go through `asRedisStringArgument` as the fixes' callers pass them (node-redis
 * rejects numbers, and `renderEvalCall` leaves that conversion to its caller).
 */
function scriptCallBody(dialect: ProvenDialect, kind: ScriptKind, keys: readonly string[], args: readonly string[]): string {
  const argumentTexts = args.map((argument) => asRedisStringArgument(dialect, argument));
  const call = renderEvalCall(dialect, { client: 'redis', script: renderScriptLiteral(SCRIPTS[kind]), keys, args: argumentTexts });
  return `return ${call};`;
}

/** The source text of the fixed acquisition `SET key token NX PX ttl` in `dialect`. */
export function atomicSetText(dialect: ProvenDialect): string {
  return renderAtomicSet(dialect, { client: 'redis', key: 'key', value: 'token', ttlMs: 'ttl' });
}

/**
 * The broken acquisition `SET key token NX` (no expiry) as user code writes it in `dialect`, and the
 * same call with the expiry option the require-lock-ttl fix adds (`renderTtlOption`).
 */
export function setNxWithoutTtlText(dialect: ProvenDialect): { readonly broken: string; readonly fixed: string } {
  const ttl = renderTtlOption(dialect, 'ttl');
  switch (dialect) {
    case 'ioredis':
      return { broken: `redis.set(key, token, 'NX')`, fixed: `redis.set(key, token, 'NX', ${ttl})` };
    case 'node-redis':
      return { broken: `redis.set(key, token, { NX: true })`, fixed: `redis.set(key, token, { NX: true, ${ttl} })` };
    case 'node-redis-v5':
      return { broken: `redis.set(key, token, { condition: 'NX' })`, fixed: `redis.set(key, token, { condition: 'NX', ${ttl} })` };
  }
}

/** The broken two-command acquisition `SETNX` then `PEXPIRE`, as user code writes it in `dialect`. */
export function splitAcquireTexts(dialect: ProvenDialect): readonly [string, string] {
  return dialect === 'ioredis'
    ? ['redis.setnx(key, token)', 'redis.pexpire(key, ttl)']
    : ['redis.setNX(key, token)', 'redis.pExpire(key, ttl)'];
}

/** Callable versions of every call the Redis fixes write, for one dialect. */
export interface FixedRedisCalls {
  /** `SET key token NX PX ttl`; the client's reply (`'OK'` or null). */
  readonly acquire: (client: unknown, key: string, token: string, ttlMs: number) => Promise<unknown>;
  /** The compare-and-delete script; 1 when it deleted, 0 when the lock was not ours. */
  readonly release: (client: unknown, key: string, token: string) => Promise<unknown>;
  /** The compare-and-pexpire script; 1 when it renewed, 0 when the lock was not ours. */
  readonly extend: (client: unknown, key: string, token: string, ttlMs: number) => Promise<unknown>;
  /** The fenced acquire script; the new fence, or 0 when someone else holds the lock. */
  readonly acquireFenced: (client: unknown, lockKey: string, fenceKey: string, token: string, ttlMs: number) => Promise<unknown>;
}

const compiledByDialect = new Map<ProvenDialect, FixedRedisCalls>();

export function fixedRedisCalls(dialect: ProvenDialect): FixedRedisCalls {
  const cached = compiledByDialect.get(dialect);
  if (cached) return cached;
  const acquire = compileCall(['key', 'token', 'ttl'], `return ${atomicSetText(dialect)};`);
  const release = compileCall(['key', 'token'], scriptCallBody(dialect, 'release', ['key'], ['token']));
  const extend = compileCall(['key', 'token', 'ttl'], scriptCallBody(dialect, 'extend', ['key'], ['token', 'ttl']));
  const acquireFenced = compileCall(
    ['lockKey', 'fenceKey', 'token', 'ttl'],
    scriptCallBody(dialect, 'fencedAcquire', ['lockKey', 'fenceKey'], ['token', 'ttl']),
  );
  const calls: FixedRedisCalls = {
    acquire: (client, key, token, ttlMs) => acquire(client, key, token, ttlMs),
    release: (client, key, token) => release(client, key, token),
    extend: (client, key, token, ttlMs) => extend(client, key, token, ttlMs),
    acquireFenced: (client, lockKey, fenceKey, token, ttlMs) => acquireFenced(client, lockKey, fenceKey, token, ttlMs),
  };
  compiledByDialect.set(dialect, calls);
  return calls;
}
