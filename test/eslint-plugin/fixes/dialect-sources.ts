// One small module per Redis client dialect, for the fixes tests: a client `redis` (`client` for
// node_redis v3) and a function whose body the case supplies. The model decides the dialect from
// these, as it does in users' code.

import type { RedisDialect } from '../../../eslint-plugin/src/fixes/templates.js';
import type { ProbeOptions } from '../support/fix-probe.js';

export interface DialectSource {
  readonly dialect: RedisDialect;
  /** The module around `body`, which runs in `async function run(key: string, token: string, ttl: number)`. */
  readonly code: (body: string) => string;
  /** The client's name in the module. */
  readonly client: string;
  readonly options: ProbeOptions;
}

export const DIALECT_SOURCES: readonly DialectSource[] = [
  {
    dialect: 'ioredis',
    client: 'redis',
    code: (body) => `import Redis from 'ioredis';
const redis = new Redis();
export async function run(key: string, token: string, ttl: number) {
  ${body}
}`,
    options: {},
  },
  {
    dialect: 'node-redis',
    client: 'redis',
    code: (body) => `import { createClient } from 'redis';
const redis = createClient();
export async function run(key: string, token: string, ttl: number) {
  ${body}
}`,
    options: {},
  },
  {
    // node-redis 5 is told from 4 by the options it spells elsewhere in the file.
    dialect: 'node-redis-v5',
    client: 'redis',
    code: (body) => `import { createClient } from 'redis';
const redis = createClient();
export async function take(key: string, token: string) {
  return redis.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: 30000 } });
}
export async function run(key: string, token: string, ttl: number) {
  ${body}
}`,
    options: {},
  },
  {
    dialect: 'node-redis-v3',
    client: 'client',
    code: (body) => `const redis = require('redis');
const client = redis.createClient();
async function run(key, token, ttl, done) {
  ${body}
}
module.exports = { run };`,
    options: { filename: 'file.cjs', sourceType: 'commonjs' },
  },
  {
    dialect: 'upstash',
    client: 'redis',
    code: (body) => `import { Redis } from '@upstash/redis';
const redis = Redis.fromEnv();
export async function run(key: string, token: string, ttl: number) {
  ${body}
}`,
    options: {},
  },
];

/** The module for `dialect`. */
export function dialectSource(dialect: RedisDialect): DialectSource {
  const source = DIALECT_SOURCES.find((candidate) => candidate.dialect === dialect);
  if (!source) throw new Error(`no source for ${dialect}`);
  return source;
}
