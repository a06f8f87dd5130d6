// Lock helpers another module exports (model/project/imported-helpers.ts): methods of classes —
// a NestJS-style service injected through a constructor parameter, a lock class whose instance the
// caller makes, a class with static lock methods. Shapes modelled on public services (a
// `RedisLockService` with `acquireLock`/`releaseLock`, a `RedlockService#lock` returning Redlock's
// handle, a redis-semaphore wrapper with `tryLock`/`unlock`) — and PostgreSQL helpers (a run lock on
// `pg_try_advisory_lock`, a lock-table claim, as cron and job runners write them); the code is our own. The modules are
// written to a temporary directory and the caller is linted with the `strict` preset, untyped.

import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { TempProject } from '../project/temp-project.js';

let project: TempProject;

describe('project lock helpers: class methods and PostgreSQL helpers other modules export', () => {
  before(() => {
    project = new TempProject('locksmith-helpers-');
    project.write('package.json', JSON.stringify({ name: 'app', type: 'module' }));
    project.write(
      'src/redis/redis-lock.service.ts',
      [
        "import { Injectable } from '@nestjs/common';",
        "import Redis from 'ioredis';",
        '@Injectable()',
        'export class RedisLockService {',
        '  constructor(private readonly redis: Redis) {}',
        '  async acquireLock(key: string, ttl: number): Promise<boolean> {',
        "    const result = await this.redis.set(`lock:${key}`, crypto.randomUUID(), 'EX', ttl, 'NX');",
        "    return result === 'OK';",
        '  }',
        '  async releaseLock(key: string): Promise<void> {',
        '    await this.redis.del(`lock:${key}`);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    project.write(
      'src/redis/redlock.service.ts',
      [
        "import Redis from 'ioredis';",
        "import Redlock from 'redlock';",
        'export class RedlockService {',
        '  private readonly redlock: Redlock;',
        '  constructor(redis: Redis) {',
        '    this.redlock = new Redlock([redis], { retryCount: 5 });',
        '  }',
        '  async lock(resource: string, ttl = 5000) {',
        '    return this.redlock.acquire([resource], ttl);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    project.write(
      'src/redis/mutex.ts',
      [
        "import { Mutex } from 'redis-semaphore';",
        "import Redis from 'ioredis';",
        'const redis = new Redis();',
        'export class JobMutex {',
        '  private readonly mutex: Mutex;',
        '  constructor(jobId: string) {',
        '    this.mutex = new Mutex(redis, `job:${jobId}`, { lockTimeout: 30_000, onLockLost: () => process.exit(1) });',
        '  }',
        '  async tryLock(): Promise<boolean> {',
        '    return this.mutex.tryAcquire();',
        '  }',
        '  async unlock(): Promise<void> {',
        '    await this.mutex.release();',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    project.write(
      'src/redis/semaphore.ts',
      [
        "import Redis from 'ioredis';",
        "import { Mutex } from 'redis-semaphore';",
        'const redis = new Redis();',
        'export default class Semaphore {',
        '  static async lock(key: string): Promise<Mutex> {',
        '    const mutex = new Mutex(redis, key, { lockTimeout: 5000, onLockLost: () => undefined });',
        '    await mutex.acquire();',
        '    return mutex;',
        '  }',
        '  static async release(mutex: Mutex): Promise<void> {',
        '    await mutex.release();',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    project.write(
      'src/redis/locks.ts',
      [
        "import Redis from 'ioredis';",
        'const redis = new Redis();',
        'export class Locks {',
        '  static async acquire(name: string): Promise<string | null> {',
        '    const token = crypto.randomUUID();',
        "    const ok = await redis.set(`lock:${name}`, token, 'PX', 10_000, 'NX');",
        "    return ok === 'OK' ? token : null;",
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    // PostgreSQL helpers: session advisory locks through a pool, a lock table, a transaction-level lock.
    project.write('src/db/pool.ts', "import pg from 'pg';\nexport const pool = new pg.Pool();\n");
    project.write(
      'src/db/run-lock.ts',
      [
        "import { pool } from './pool';",
        'export async function acquireRunLock(key: string): Promise<boolean> {',
        "  const { rows } = await pool.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);",
        '  return rows[0]?.locked === true;',
        '}',
        'export async function releaseRunLock(key: string): Promise<void> {',
        "  await pool.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);",
        '}',
        'export async function withXactLock<T>(key: number, work: () => Promise<T>): Promise<T> {',
        '  const client = await pool.connect();',
        '  try {',
        "    await client.query('BEGIN');",
        "    await client.query('SELECT pg_advisory_xact_lock($1)', [key]);",
        '    const result = await work();',
        "    await client.query('COMMIT');",
        '    return result;',
        '  } finally {',
        '    client.release();',
        '  }',
        '}',
        'export async function listLocks() {',
        "  const { rows } = await pool.query('SELECT locktype, objid FROM pg_locks');",
        '  return rows;',
        '}',
        '',
      ].join('\n'),
    );
    project.write(
      'src/db/job-locks.ts',
      [
        "import { pool } from './pool';",
        'export async function claimJob(name: string, owner: string, ttlMs: number) {',
        "  const { rows } = await pool.query('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at WHERE job_locks.expires_at < now() RETURNING name', [name, owner, new Date(Date.now() + ttlMs)]);",
        '  return rows.length > 0;',
        '}',
        'export async function releaseJob(name: string, owner: string) {',
        "  await pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner]);",
        '}',
        '',
      ].join('\n'),
    );
    // Lookalikes: a rate limiter and a cache whose methods are named like lock methods.
    project.write(
      'src/redis/rate-limiter.ts',
      [
        "import Redis from 'ioredis';",
        'export class RateLimiter {',
        '  constructor(private readonly redis: Redis) {}',
        '  async acquire(ip: string): Promise<boolean> {',
        '    const count = await this.redis.incr(`rate:${ip}`);',
        '    if (count === 1) await this.redis.expire(`rate:${ip}`, 60);',
        '    return count <= 100;',
        '  }',
        '  async release(ip: string): Promise<void> {',
        '    await this.redis.decr(`rate:${ip}`);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    project.write(
      'src/redis/cache.service.ts',
      [
        "import Redis from 'ioredis';",
        'export class CacheService {',
        '  constructor(private readonly redis: Redis) {}',
        '  async lockIn(key: string, value: string): Promise<void> {',
        "    await this.redis.set(`cache:${key}`, value, 'EX', 300);",
        '  }',
        '  async release(key: string): Promise<void> {',
        '    await this.redis.del(`cache:${key}`);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  after(() => {
    project.remove();
  });

  it('an injected service: its dropped try is unchecked, its release off the success path, its body judged once in its own module', () => {
    const found = project.lint('src/orders/order.service.ts', [
      "import { Injectable } from '@nestjs/common';",
      "import { RedisLockService } from '../redis/redis-lock.service';",
      '@Injectable()',
      'export class OrderService {',
      '  constructor(private readonly lockService: RedisLockService) {}',
      '  async settle(orderId: string) {',
      '    await this.lockService.acquireLock(`order:${orderId}`, 30);',
      '    await this.charge(orderId);',
      '    await this.lockService.releaseLock(`order:${orderId}`);',
      '  }',
      '  async charge(orderId: string) { return orderId; }',
      '}',
    ]);
    // The plain DEL inside releaseLock is the service's finding (no-unsafe-release there), not the caller's.
    assert.deepEqual(found, ['7 locksmith/require-acquire-check', '7 locksmith/require-release-in-finally']);
  });

  it("a service method handing back Redlock's lock: `lock.release()` is its release, the writes under it are in its critical section", () => {
    const found = project.lint('src/stock/stock.service.ts', [
      "import { DataSource } from 'typeorm';",
      "import { RedlockService } from '../redis/redlock.service';",
      'export class StockService {',
      '  constructor(private readonly redlock: RedlockService, private readonly dataSource: DataSource) {}',
      '  async decrease(productId: number, quantity: number) {',
      '    const lock = await this.redlock.lock(`product:${productId}`);',
      "    await this.dataSource.query('UPDATE product SET stock = stock - $1 WHERE id = $2', [quantity, productId]);",
      '    await lock.release();',
      '  }',
      '  async restock(productId: number, quantity: number) {',
      '    const lock = await this.redlock.lock(`product:${productId}`);',
      '    try {',
      "      const [row] = await this.dataSource.query('SELECT stock FROM product WHERE id = $1', [productId]);",
      "      await this.dataSource.query('UPDATE product SET stock = $1 WHERE id = $2', [row.stock + quantity, productId]);",
      '    } finally {',
      '      await lock.release();',
      '    }',
      '  }',
      '}',
    ]);
    assert.deepEqual(found, [
      '14 locksmith/require-fencing-token',
      '6 locksmith/no-unneeded-lock',
      '6 locksmith/require-release-in-finally',
      '7 locksmith/require-fencing-token',
    ]);
  });

  it('an instance the caller makes (`new JobMutex(id)`) and a static method (`Locks.acquire`)', () => {
    const found = project.lint('src/jobs/run.ts', [
      "import { JobMutex } from '../redis/mutex';",
      "import { Locks } from '../redis/locks';",
      'export async function runIfIdle(jobId: string) {',
      '  const mutex = new JobMutex(jobId);',
      '  await mutex.tryLock();',
      '  try {',
      '    await work(jobId);',
      '  } finally {',
      '    await mutex.unlock();',
      '  }',
      '}',
      'export async function runChecked(jobId: string) {',
      '  const mutex = new JobMutex(jobId);',
      '  if (!(await mutex.tryLock())) return;',
      '  try {',
      '    await work(jobId);',
      '  } finally {',
      '    await mutex.unlock();',
      '  }',
      '}',
      'export async function nightly() {',
      "  await Locks.acquire('nightly');",
      "  await work('nightly');",
      '}',
      'declare function work(id: string): Promise<void>;',
    ]);
    assert.deepEqual(found, ['22 locksmith/require-acquire-check', '5 locksmith/require-acquire-check']);
  });

  it('PostgreSQL helpers: an advisory try-lock, a lock-table claim, a transaction-level lock that ends inside its helper', () => {
    const found = project.lint('src/jobs/import.ts', [
      "import { pool } from '../db/pool';",
      "import { acquireRunLock, releaseRunLock, withXactLock, listLocks } from '../db/run-lock';",
      "import { claimJob, releaseJob } from '../db/job-locks';",
      'export async function importRates(rows: Array<{ code: string; rate: number }>) {',
      "  if (!(await acquireRunLock('rates'))) return;",
      '  for (const row of rows) {',
      "    await pool.query('INSERT INTO rates (code, rate) VALUES ($1, $2) ON CONFLICT (code) DO UPDATE SET rate = EXCLUDED.rate', [row.code, row.rate]);",
      '  }',
      "  await releaseRunLock('rates');",
      '}',
      'export async function refresh() {',
      "  await acquireRunLock('refresh');",
      '  try {',
      "    await pool.query('DELETE FROM rates WHERE stale');",
      "    await pool.query('INSERT INTO rates (code, rate) SELECT code, rate FROM staging');",
      '  } finally {',
      "    await releaseRunLock('refresh');",
      '  }',
      '}',
      'export async function rollup(owner: string) {',
      "  if (!(await claimJob('rollup', owner, 60_000))) return;",
      '  try {',
      "    await pool.query('UPDATE totals SET n = n + 1 WHERE day = current_date');",
      '  } finally {',
      "    await releaseJob('rollup', owner);",
      '  }',
      '}',
      'export async function inTransaction() {',
      "  await withXactLock(7, async () => { await pool.query('UPDATE totals SET n = 0'); });",
      '  await listLocks();',
      '}',
    ]);
    // No fence is asked under the advisory lock (it ends with its connection), nor a second report of the helper's pool.
    assert.deepEqual(found, [
      '12 locksmith/require-acquire-check',
      '23 locksmith/require-fencing-token',
      '5 locksmith/require-release-in-finally',
    ]);
  });

  it("a helper's handle stored into a `let` inside a `try`, released by passing it to the class's release", () => {
    const found = project.lint('src/jobs/probe.ts', [
      "import Semaphore from '../redis/semaphore';",
      'export async function probe(id: string) {',
      '  let mutex = null;',
      '  try {',
      '    mutex = await Semaphore.lock(`probe:${id}`);',
      '  } catch {',
      '    return;',
      '  }',
      '  await work(id);',
      '  await Semaphore.release(mutex);',
      '}',
      'export async function probeSafely(id: string) {',
      '  const mutex = await Semaphore.lock(`probe:${id}`);',
      '  try {',
      '    await work(id);',
      '  } finally {',
      '    await Semaphore.release(mutex);',
      '  }',
      '}',
      'declare function work(id: string): Promise<void>;',
    ]);
    assert.deepEqual(found, ['5 locksmith/require-release-in-finally']);
  });

  it('lookalikes stay silent: a rate limiter and a cache with lock-like method names, a class from a package', () => {
    const found = project.lint('src/api/handler.ts', [
      "import Redlock from 'redlock';",
      "import { RateLimiter } from '../redis/rate-limiter';",
      "import { CacheService } from '../redis/cache.service';",
      'export class Handler {',
      '  constructor(private readonly limiter: RateLimiter, private readonly cache: CacheService, private readonly other: Redlock) {}',
      '  async handle(ip: string, key: string) {',
      '    await this.limiter.acquire(ip);',
      '    await this.cache.lockIn(key, ip);',
      '    await work(ip);',
      '    await this.limiter.release(ip);',
      '    await this.cache.release(key);',
      '  }',
      '}',
      'declare function work(id: string): Promise<void>;',
    ]);
    assert.deepEqual(found, []);
  });
});
