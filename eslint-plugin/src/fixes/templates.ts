// Code templates for the calls Locksmith's fixes write, one per client dialect. Rules render
// suggestions with these, and test/proofs runs the rendered code against a real Redis, so the two
// cannot drift apart.

import type { RedisDialect } from '../model/nouns/vocabulary.js';
import { DEFAULT_TTL_MS } from './scripts.js';

/**
 * The Redis client API families whose argument conventions differ:
 * - `ioredis`: positional string options (`'PX', ms, 'NX'`), `eval(script, numKeys, ...keys, ...args)`;
 * - `node-redis`: v4/v5 options objects (`{ NX: true, PX: ms }`), `eval(script, { keys, arguments })`;
 * - `node-redis-v5`: v5's `{ condition: 'NX', expiration: { type: 'PX', value } }` spelling;
 * - `node-redis-v3`: callback style, positional options like ioredis, callback last;
 * - `upstash`: lowercase options (`{ nx: true, px: ms }`), `eval(script, keys, args)`.
 */
export type { RedisDialect };

export interface ScriptCallParts {
  /** Source text of the client expression, e.g. `redis` or `this.client`. */
  readonly client: string;
  /** Source text of the script expression, usually the inserted constant's name. */
  readonly script: string;
  readonly keys: readonly string[];
  readonly args: readonly string[];
  /** node_redis v3 only: source text of the callback to pass last. */
  readonly callback?: string | undefined;
}

/** `client.eval(script, ...)` in the dialect's argument convention. */
export function renderEvalCall(dialect: RedisDialect, parts: ScriptCallParts): string {
  const { client, script, keys, args } = parts;
  switch (dialect) {
    case 'ioredis':
      return `${client}.eval(${[script, String(keys.length), ...keys, ...args].join(', ')})`;
    case 'node-redis-v3':
      return `${client}.eval(${[script, String(keys.length), ...keys, ...args, ...(parts.callback ? [parts.callback] : [])].join(', ')})`;
    case 'node-redis':
    case 'node-redis-v5':
      return `${client}.eval(${script}, { keys: [${keys.join(', ')}], arguments: [${args.join(', ')}] })`;
    case 'upstash':
      return `${client}.eval(${script}, [${keys.join(', ')}], [${args.join(', ')}])`;
  }
}

export interface AtomicSetParts {
  readonly client: string;
  readonly key: string;
  readonly value: string;
  /** Source text of the TTL in milliseconds. */
  readonly ttlMs?: string | undefined;
  readonly callback?: string | undefined;
}

/** One atomic `SET key value NX PX ttl` in the dialect's spelling. */
export function renderAtomicSet(dialect: RedisDialect, parts: AtomicSetParts): string {
  const { client, key, value } = parts;
  const ttl = parts.ttlMs ?? String(DEFAULT_TTL_MS);
  switch (dialect) {
    case 'ioredis':
      return `${client}.set(${key}, ${value}, 'PX', ${ttl}, 'NX')`;
    case 'node-redis-v3':
      return `${client}.set(${[key, value, `'NX'`, `'PX'`, ttl, ...(parts.callback ? [parts.callback] : [])].join(', ')})`;
    case 'node-redis':
      return `${client}.set(${key}, ${value}, { NX: true, PX: ${ttl} })`;
    case 'node-redis-v5':
      return `${client}.set(${key}, ${value}, { condition: 'NX', expiration: { type: 'PX', value: ${ttl} } })`;
    case 'upstash':
      return `${client}.set(${key}, ${value}, { nx: true, px: ${ttl} })`;
  }
}

/** The expiry options to add to an existing SET options list or object, in the dialect's spelling. */
export function renderTtlOption(dialect: RedisDialect, ttlMs: string): string {
  switch (dialect) {
    case 'ioredis':
    case 'node-redis-v3':
      return `'PX', ${ttlMs}`;
    case 'node-redis':
      return `PX: ${ttlMs}`;
    case 'node-redis-v5':
      return `expiration: { type: 'PX', value: ${ttlMs} }`;
    case 'upstash':
      return `px: ${ttlMs}`;
  }
}

/**
 * A Lua script as one single-quoted string literal, its lines joined by spaces, to pass at the call
 * itself. A fix writes it there rather than as a module constant: an insertion at the top of the
 * module would merge with the call's edit into one replacement spanning everything in between.
 */
export function renderScriptLiteral(script: string): string {
  // Lua needs no line breaks between statements; Locksmith's scripts hold no `--` comment that
  // joining the lines would extend over the code after it.
  const oneLine = script
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  return `'${oneLine.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/**
 * An argument as node-redis accepts it: node-redis sends only strings and buffers, so a number
 * (a TTL in a renewal) must be converted; string literals pass unchanged.
 */
export function asRedisStringArgument(dialect: RedisDialect, argumentText: string): string {
  if (dialect !== 'node-redis' && dialect !== 'node-redis-v5') return argumentText;
  if (/^(['"`])[^'"`]*\1$/u.test(argumentText)) return argumentText;
  if (/^\d+$/u.test(argumentText)) return `'${argumentText}'`;
  return `String(${argumentText})`;
}
