// Redis clients and SQL pools that reach a call from somewhere other than the call's own function:
// factories (in this module or imported), module state set by an `init()`, lazy singletons,
// `module.exports = { client }`, class members assigned in any method, `??`/`||` defaults and
// typed constructor parameter properties. The project's modules are written to a temporary
// directory and the caller is linted through ESLint with the plugin, with no type information.
// Lookalikes (a Map behind a factory named for Redis, an LRU cache in a field named `redis`, a
// rate limiter, a `Pool` of generic-pool) stay silent.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import { after, before, describe, it } from 'mocha';
import plugin from '../../../../eslint-plugin/src/index.js';
import { clearModules } from '../../../../eslint-plugin/src/model/project/modules.js';
import { clearResolutions } from '../../../../eslint-plugin/src/model/project/resolve.js';

let root = '';

function write(relative: string, lines: readonly string[]): string {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

function lint(relative: string, lines: readonly string[]): string[] {
  const file = write(relative, lines);
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [
    plugin.configs.strict as unknown as Linter.Config,
    { files: ['**/*.ts'], languageOptions: { parser: typescriptParser as unknown as Linter.Parser } },
    { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' as const } },
  ];
  const messages = linter.verify(lines.join('\n'), config, { filename: file });
  for (const message of messages) assert.notEqual(message.fatal, true, message.message);
  return messages.map((message) => `${message.line} ${message.ruleId ?? ''}`).sort();
}

describe('client origins: clients and pools made outside the calling function', () => {
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-origins-'));
    write('package.json', [JSON.stringify({ name: 'app', type: 'module' })]);
    write('tsconfig.json', ['{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] } } }']);
    // The lazy singleton most Next.js and Express apps write.
    write('src/lib/redis.ts', [
      "import { createClient } from 'redis';",
      'let client: ReturnType<typeof createClient> | null = null;',
      'export async function getRedisClient() {',
      '  if (!client) {',
      '    client = createClient({ url: process.env.REDIS_URL });',
      "    client.on('error', (error) => console.error(error));",
      '    await client.connect();',
      '  }',
      '  return client;',
      '}',
    ]);
    write('src/lib/store.cjs', [
      "'use strict';",
      "const Redis = require('ioredis');",
      'const store = new Redis(process.env.REDIS_URL);',
      'module.exports = { store };',
    ]);
    write('src/lib/db.ts', [
      "import pg from 'pg';",
      'let pool: pg.Pool | undefined;',
      'export function getPool() {',
      '  pool ??= new pg.Pool({ connectionString: process.env.DATABASE_URL });',
      '  return pool;',
      '}',
    ]);
    // Lookalikes behind factory names that promise Redis.
    write('src/lib/memory.ts', ['const entries = new Map<string, string>();', 'export function getRedis() {', '  return entries;', '}']);
  });

  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
    clearModules();
    clearResolutions();
  });

  it('a factory in the same module, a cached singleton, is followed to the client it makes', () => {
    const found = lint('src/jobs/local-factory.ts', [
      "import Redis from 'ioredis';",
      'let instance: Redis | undefined;',
      'function getRedis() {',
      '  if (!instance) instance = new Redis();',
      '  return instance;',
      '}',
      'export async function unlock(id: string) {',
      '  await getRedis().del(`lock:job:${id}`);',
      '}',
    ]);
    assert.deepEqual(found, ['8 locksmith/no-unsafe-release']);
  });

  it('an imported factory makes a receiver of any name a client: `const cache = await getRedisClient()`', () => {
    const found = lint('src/jobs/imported-factory.ts', [
      "import { getRedisClient } from '@/lib/redis';",
      'export async function release(id: string) {',
      '  const cache = await getRedisClient();',
      '  await cache.del(`lock:report:${id}`);',
      '}',
    ]);
    assert.deepEqual(found, ['4 locksmith/no-unsafe-release']);
  });

  it('a client in `module.exports = { store }` of another module', () => {
    // The file shows Redis by a command only Redis has (the per-file screen reads text, not imports);
    // the plain DEL is a Redis call only because `store` is followed to the module that makes it.
    const found = lint('src/jobs/cjs.cjs', [
      "'use strict';",
      "const { store } = require('../lib/store.cjs');",
      'async function refresh(id) {',
      '  await store.pexpire(`lock:sync:${id}`, 30000);',
      '}',
      'async function release(id) {',
      '  await store.del(`lock:sync:${id}`);',
      '}',
      'module.exports = { refresh, release };',
    ]);
    assert.ok(found.includes('7 locksmith/no-unsafe-release'), found.join('\n'));
  });

  it('module state set by an init() and a class member set in a method other than the constructor', () => {
    const found = lint('src/jobs/state.ts', [
      "import { createClient } from 'redis';",
      'let store;',
      'export async function init() {',
      '  store = await createClient().connect();',
      '}',
      'export async function release(id: string) {',
      '  await store.del(`lock:import:${id}`);',
      '}',
      'export class Locks {',
      '  private backend;',
      '  async start() {',
      '    this.backend = createClient();',
      '  }',
      '  async release(id: string) {',
      '    await this.backend.del(`lock:export:${id}`);',
      '  }',
      '}',
    ]);
    assert.deepEqual(found, ['15 locksmith/no-unsafe-release', '7 locksmith/no-unsafe-release']);
  });

  it('injected and defaulted clients: a typed parameter property and an `options.store ?? new Redis()`', () => {
    const found = lint('src/jobs/injected.ts', [
      "import Redis from 'ioredis';",
      "import { Inject } from '@nestjs/common';",
      'export class Injected {',
      "  constructor(@Inject('REDIS') private readonly backend: Redis) {}",
      '  async release(id: string) {',
      '    await this.backend.del(`lock:a:${id}`);',
      '  }',
      '}',
      'export class Defaulted {',
      '  private readonly backend;',
      '  constructor(options: { backend?: Redis }) {',
      '    this.backend = options.backend ?? new Redis();',
      '  }',
      '  async release(id: string) {',
      '    await this.backend.del(`lock:b:${id}`);',
      '  }',
      '}',
    ]);
    assert.deepEqual(found, ['15 locksmith/no-unsafe-release', '6 locksmith/no-unsafe-release']);
  });

  it('a pool from an imported factory, and knex and Kysely injected by type into a constructor', () => {
    const found = lint('src/jobs/pools.ts', [
      "import type { Knex } from 'knex';",
      "import { sql, type Kysely } from 'kysely';",
      "import { getPool } from '../lib/db.js';",
      'export async function tryLead(key: number) {',
      "  const { rows } = await getPool().query('SELECT pg_try_advisory_lock($1) AS locked', [key]);",
      '  return rows[0].locked === true;',
      '}',
      'export class SchedulerLock {',
      '  constructor(private readonly db: Knex, private readonly kysely: Kysely<Record<string, never>>) {}',
      '  async tryLock(id: number) {',
      "    return this.db.raw('SELECT pg_try_advisory_lock(?) AS locked', [id]);",
      '  }',
      '  async lock(id: number) {',
      '    await sql`select pg_advisory_lock(${id})`.execute(this.kysely);',
      '  }',
      '}',
    ]);
    for (const line of [5, 11, 14]) assert.ok(found.includes(`${line} locksmith/no-pooled-advisory-lock`), found.join('\n'));
  });

  it('lookalikes stay silent: a Map behind getRedis(), an LRU cache in a field named redis, a rate limiter, a generic-pool Pool', () => {
    const found = lint('src/jobs/quiet.ts', [
      "import { getRedis } from '../lib/memory.js';",
      "import { LRUCache } from 'lru-cache';",
      "import { RateLimiterMemory } from 'rate-limiter-flexible';",
      "import { Pool } from 'generic-pool';",
      'let limiter: RateLimiterMemory | undefined;',
      'function getLimiter() {',
      '  limiter ??= new RateLimiterMemory({ points: 5, duration: 1 });',
      '  return limiter;',
      '}',
      'let cache;',
      'function getCache() {',
      '  if (!cache) cache = new Map<string, string>();',
      '  return cache;',
      '}',
      'export class Quiet {',
      '  private redis = new LRUCache<string, string>({ max: 100 });',
      '  constructor(private readonly pool: Pool<unknown>) {}',
      '  async run(id: string) {',
      "    getRedis().set(`lock:${id}`, '1');",
      '    getRedis().delete(`lock:${id}`);',
      "    getCache().set(`lock:${id}`, 'held');",
      '    await getLimiter().get(`lock:${id}`);',
      "    this.redis.set(`lock:${id}`, 'held');",
      '    this.redis.del(`lock:${id}`);',
      "    await this.pool.query('SELECT pg_advisory_lock(1)');",
      '  }',
      '}',
    ]);
    assert.deepEqual(found, []);
  });
  it('a wrapper method that hands its arguments on unchanged is its client; one that reorders, adds or computes is not', () => {
    write('src/infra/redis-cache.ts', [
      "import Redis from 'ioredis';",
      'export class RedisCache {',
      '  private readonly redis = new Redis();',
      '  del(key: string) { return this.redis.del(key); }',
      '  remove(key: string) { return this.redis.del(`cache:${key}`); }',
      '  set(key: string, value: string) { return this.redis.set(key, value, "EX", 60); }',
      '  get(key: string, fallback: string) { return this.redis.get(fallback); }',
      '}',
      '',
    ]);
    const found = lint('src/jobs/sweep.ts', [
      "import { RedisCache } from '../infra/redis-cache.js';",
      'export class Sweep {',
      '  constructor(private readonly redisCache: RedisCache) {}',
      '  async run(id: string) {',
      "    await this.redisCache.set(`sweep:last:${id}`, 'x');",
      '    await this.redisCache.get(`sweep:last:${id}`, id);',
      '    await this.redisCache.remove(`lock:sweep:${id}`);',
      '    await this.redisCache.del(`lock:sweep:${id}`);',
      '  }',
      '}',
      '',
    ]);
    // Only the pass-through `del` is a Redis DEL of the lock key: `remove` deletes a key of its own making.
    assert.deepEqual(found, ['8 locksmith/no-unsafe-release']);
  });
});
