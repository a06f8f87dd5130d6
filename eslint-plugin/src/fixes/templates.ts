// Code templates for the calls Locksmith's fixes write, one per client dialect. Rules render
// suggestions with these, and test/proofs runs the rendered code against a real Redis, so the two
// cannot drift apart.

import type { RedisDialect } from '../model/nouns/vocabulary.js';
import { DEFAULT_TTL_MS } from './scripts.js';
import { REDIS_DIALECTS } from '../model/tables/redis-clients.js';

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
  return SPELLINGS[dialect].evalCall(parts);
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
  return SPELLINGS[dialect].atomicSet(parts, parts.ttlMs ?? String(DEFAULT_TTL_MS));
}

/** The expiry options to add to an existing SET options list or object, in the dialect's spelling. */
export function renderTtlOption(dialect: RedisDialect, ttlMs: string): string {
  return SPELLINGS[dialect].ttlOption(ttlMs);
}

/** The expiry options to add to a positional SET options list (`'PX', ms`), whatever the client. */
export function renderPositionalTtlOption(ttlMs: string): string {
  return `'PX', ${ttlMs}`;
}

/** A command the client has no method for, in its raw form: ioredis `call`, node-redis `sendCommand`, Upstash `exec`. */
export function renderRawCommand(dialect: RedisDialect, client: string, name: string, args: readonly string[], callback?: string): string {
  return SPELLINGS[dialect].rawCommand(client, [`'${name}'`, ...args], callback);
}

/**
 * A call of a script the code registered under a name (`defineCommand`), as a method of that name
 * (`redis.releaseLock(key, token)`); undefined where the dialect calls registered scripts otherwise.
 */
export function renderDefinedCommandCall(dialect: RedisDialect, client: string, name: string, args: readonly string[]): string | undefined {
  return SPELLINGS[dialect].definedCommandCall?.(client, name, args);
}

/** `DELEX key IFEQ token` through the client's typed method, if it has one (else the raw command). */
export function renderTypedCompareDelete(dialect: RedisDialect, client: string, key: string, token: string): string | undefined {
  return SPELLINGS[dialect].compareDelete?.(client, key, token);
}

/** `SET key token IFEQ token PX ttl` through the client's typed options, if it has them (else the raw command). */
export function renderTypedCompareSet(dialect: RedisDialect, client: string, key: string, token: string, ttl: string): string | undefined {
  return SPELLINGS[dialect].compareSet?.(client, key, token, ttl);
}

/** The TTL as the compare-and-set call takes it: a number in typed options, else an argument as the client sends it. */
export function compareSetTtlArgument(dialect: RedisDialect, ttlText: string): string {
  return SPELLINGS[dialect].compareSet ? ttlText : asRedisStringArgument(dialect, ttlText);
}

/** How one dialect spells each call a fix writes. */
interface DialectSpelling {
  readonly evalCall: (parts: ScriptCallParts) => string;
  readonly atomicSet: (parts: AtomicSetParts, ttl: string) => string;
  readonly ttlOption: (ttlMs: string) => string;
  /** `words`: the command's name (quoted) and its arguments. */
  readonly rawCommand: (client: string, words: readonly string[], callback: string | undefined) => string;
  readonly definedCommandCall?: (client: string, name: string, args: readonly string[]) => string;
  /** A typed method for `DELEX key IFEQ token` (node-redis 5's `delEx`), where the client has one. */
  readonly compareDelete?: (client: string, key: string, token: string) => string;
  /** A typed form of `SET key token IFEQ token PX ttl` (`ttl` a number), where the client has one. */
  readonly compareSet?: (client: string, key: string, token: string, ttl: string) => string;
}

const withCallback = (texts: readonly string[], callback: string | undefined): string[] => [...texts, ...(callback ? [callback] : [])];

/** node-redis v4 and v5 share their eval and raw forms; only their SET options differ. */
const NODE_REDIS_CALLS = {
  evalCall: ({ client, script, keys, args }: ScriptCallParts) =>
    `${client}.eval(${script}, { keys: [${keys.join(', ')}], arguments: [${args.join(', ')}] })`,
  rawCommand: (client: string, words: readonly string[]) => `${client}.sendCommand([${words.join(', ')}])`,
};

const SPELLINGS: Readonly<Record<RedisDialect, DialectSpelling>> = {
  ioredis: {
    evalCall: ({ client, script, keys, args }) => `${client}.eval(${[script, String(keys.length), ...keys, ...args].join(', ')})`,
    atomicSet: ({ client, key, value }, ttl) => `${client}.set(${key}, ${value}, 'PX', ${ttl}, 'NX')`,
    ttlOption: renderPositionalTtlOption,
    rawCommand: (client, words) => `${client}.call(${words.join(', ')})`,
    definedCommandCall: (client, name, args) => `${client}.${name}(${args.join(', ')})`,
  },
  'node-redis-v3': {
    evalCall: ({ client, script, keys, args, callback }) =>
      `${client}.eval(${withCallback([script, String(keys.length), ...keys, ...args], callback).join(', ')})`,
    atomicSet: ({ client, key, value, callback }, ttl) =>
      `${client}.set(${withCallback([key, value, `'NX'`, `'PX'`, ttl], callback).join(', ')})`,
    ttlOption: renderPositionalTtlOption,
    rawCommand: (client, [name, ...args], callback) =>
      `${client}.send_command(${withCallback([name!, `[${args.join(', ')}]`], callback).join(', ')})`,
  },
  'node-redis': {
    ...NODE_REDIS_CALLS,
    atomicSet: ({ client, key, value }, ttl) => `${client}.set(${key}, ${value}, { NX: true, PX: ${ttl} })`,
    ttlOption: (ttlMs) => `PX: ${ttlMs}`,
  },
  'node-redis-v5': {
    ...NODE_REDIS_CALLS,
    atomicSet: ({ client, key, value }, ttl) =>
      `${client}.set(${key}, ${value}, { condition: 'NX', expiration: { type: 'PX', value: ${ttl} } })`,
    ttlOption: (ttlMs) => `expiration: { type: 'PX', value: ${ttlMs} }`,
    compareDelete: (client, key, token) => `${client}.delEx(${key}, { condition: 'IFEQ', matchValue: ${token} })`,
    compareSet: (client, key, token, ttl) =>
      `${client}.set(${key}, ${token}, { condition: 'IFEQ', matchValue: ${token}, expiration: { type: 'PX', value: ${ttl} } })`,
  },
  upstash: {
    evalCall: ({ client, script, keys, args }) => `${client}.eval(${script}, [${keys.join(', ')}], [${args.join(', ')}])`,
    atomicSet: ({ client, key, value }, ttl) => `${client}.set(${key}, ${value}, { nx: true, px: ${ttl} })`,
    ttlOption: (ttlMs) => `px: ${ttlMs}`,
    rawCommand: (client, words) => `${client}.exec([${words.join(', ')}])`,
  },
};

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
  return REDIS_DIALECTS[dialect].stringArgumentsOnly ? asStringArgument(argumentText) : argumentText;
}

/** An argument as a string: string literals unchanged, a number literal quoted, anything else through `String()`. */
export function asStringArgument(argumentText: string): string {
  if (/^(['"`])[^'"`]*\1$/u.test(argumentText)) return argumentText;
  if (/^\d+$/u.test(argumentText)) return `'${argumentText}'`;
  return `String(${argumentText})`;
}
