import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import type { LockModel } from '../../../../eslint-plugin/src/model/nouns/lock-types.js';
import { keyedReleasesAndRenewals, releasesAfterAcquisition } from '../../../../eslint-plugin/src/model/pairing/locks.js';
import type { Lock } from '../../../../eslint-plugin/src/model/nouns/lock-types.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** The lock model of `code`, read by a probe rule at the end of the file. */
function modelOf(code: string): LockModel {
  return readAtEnd(code, getLockModel, { typescript: true, filename: 'locks.ts' });
}

const line = (node: TSESTree.Node | undefined): number | undefined => node?.loc.start.line;
const lines = (events: readonly { readonly node: TSESTree.Node }[]): number[] => events.map((event) => line(event.node)!);

/** What a rule sees of a lock: kind, acquisition line, key, the paired releases and renewals by line, the section's end. */
function brief(lock: Lock): Record<string, unknown> {
  return {
    kind: lock.kind,
    line: line(lock.node),
    keyText: lock.keyText,
    releases: lines(lock.releases),
    renewals: lines(lock.renewals),
    sectionEnd: line(lock.release),
  };
}

describe('locks (the one pairing of a lock with its releases and renewals)', () => {
  it('pairs a lock taken in one method with its release in another method of the class (the key built from the same parameter)', () => {
    const model = modelOf(`import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
export class JobLock {
  private readonly redis = new Redis();
  private readonly token = randomUUID();
  async acquire(name: string): Promise<boolean> {
    return (await this.redis.set(\`lock:job:\${name}\`, this.token, 'PX', 30000, 'NX')) === 'OK';
  }
  async release(name: string): Promise<void> {
    await this.redis.del(\`lock:job:\${name}\`);
  }
}`);
    const [lock, ...rest] = model.locks.all;
    assert.equal(rest.length, 0);
    assert.deepEqual(brief(lock!), {
      kind: 'redis',
      line: 7,
      keyText: '`lock:job:${name}`',
      releases: [10],
      renewals: [],
      sectionEnd: undefined,
    });
    assert.equal(lock!.ttl?.unit, 'ms');
    assert.equal(lock!.ttl.node.type, 'Literal');
    // The release answers the lock of the other method; within its own method nothing releases it.
    const release = model.redis.releases[0]!;
    assert.equal(model.locks.lockReleasedBy(release), lock);
    assert.deepEqual(releasesAfterAcquisition(lock!), []);
  });

  it('pairs a Redlock lock with the release and extension called on its handle, and reads its TTL', () => {
    const model = modelOf(`import Redis from 'ioredis';
import Redlock from 'redlock';
const redlock = new Redlock([new Redis()]);
export async function settle(merchantId: string) {
  let lock = await redlock.acquire([\`lock:settle:\${merchantId}\`], 15000);
  try {
    await chargeAll(merchantId);
    lock = await lock.extend(15000);
    await chargeAgain(merchantId);
  } finally {
    await lock.release();
  }
}
export async function other() {
  const lock = await redlock.acquire(['lock:other'], 5000);
  await lock.release();
}`);
    const [settle, other] = model.locks.redis;
    assert.equal(settle!.kind, 'redlock');
    assert.equal(line(settle!.ttl?.node), 5);
    assert.equal(settle!.ttl?.unit, 'ms');
    // `let lock` is reassigned by `extend`: its release still ends the section, and the other
    // function's release of its own handle is never this lock's.
    assert.equal(line(settle!.release), 11);
    assert.deepEqual(lines(settle!.releases), [11]);
    assert.deepEqual(lines(settle!.renewals), [8]);
    assert.deepEqual(lines(other!.releases), [16]);
    assert.equal(model.locks.lockReleasedBy(model.redis.releases.find((release) => line(release.node) === 16)!), other);
  });

  it("keeps the EXPIRE that completes a SETNX as the TTL, and the timer's PEXPIRE as the renewal", () => {
    const model = modelOf(`import Redis from 'ioredis';
const redis = new Redis();
export async function runJob(job: { name: string; run(): Promise<void> }) {
  const lockKey = \`lock:job:\${job.name}\`;
  const token = \`\${process.pid}:\${Date.now()}\`;
  if (!(await redis.setnx(lockKey, token))) return;
  await redis.expire(lockKey, 60);
  const renew = setInterval(() => {
    redis.pexpire(lockKey, 60000);
  }, 10000);
  try {
    await job.run();
  } finally {
    clearInterval(renew);
    await redis.del(lockKey);
  }
}`);
    const [lock] = model.locks.redis;
    assert.equal(line(lock!.ttl?.completion?.node), 7);
    assert.equal(lock!.ttl?.unit, 's');
    assert.deepEqual(lines(lock!.renewals), [9]);
    assert.deepEqual(lines(lock!.releases), [15]);
    assert.deepEqual(lines(keyedReleasesAndRenewals(lock!)), [15, 9]);
    assert.equal(line(lock!.token), 6);
    assert.equal(line(lock!.release), 15);
  });

  it("pairs a session advisory lock with the unlock of its own key on its own client, not an inner lock's", () => {
    const model = modelOf(`import { Pool } from 'pg';
const pool = new Pool();
export async function migrate() {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(1)');
    await client.query('SELECT pg_advisory_lock(2)');
    await client.query('UPDATE schema_state SET step = step + 1');
    await client.query('SELECT pg_advisory_unlock(2)');
    await client.query('INSERT INTO audit (event) VALUES ($1)', ['migrated']);
    await client.query('SELECT pg_advisory_unlock(1)');
  } finally {
    client.release();
  }
}
export async function inTransaction() {
  const client = await pool.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_advisory_xact_lock(3)');
  await client.query('COMMIT');
  client.release();
}`);
    assert.deepEqual(model.locks.sql.map(brief), [
      { kind: 'advisory', line: 6, keyText: '(1)', releases: [11], renewals: [], sectionEnd: 11 },
      { kind: 'advisory', line: 7, keyText: '(2)', releases: [9], renewals: [], sectionEnd: 9 },
      // A transaction lock ends with its transaction: no unlock pairs with it.
      { kind: 'advisory', line: 19, keyText: '(3)', releases: [], renewals: [], sectionEnd: undefined },
    ]);
    const unlock = model.sql.advisoryLocks.find((item) => line(item.node) === 11)!;
    assert.equal(model.locks.lockReleasedBy(unlock), model.locks.sql[0]);
  });

  it('pairs a lock-table row with the DELETE naming it, in its function or in a release method, and with its heartbeat; a sweep of expired rows is no release', () => {
    const model = modelOf(`import { Pool } from 'pg';
const pool = new Pool();
export class LeaderLock {
  async acquire(owner: string): Promise<boolean> {
    const { rowCount } = await pool.query("INSERT INTO leader_locks (name, owner, expires_at) VALUES ('leader', $1, now() + interval '30 seconds') ON CONFLICT (name) DO NOTHING", [owner]);
    await pool.query('DELETE FROM leader_locks WHERE expires_at < now()');
    return rowCount === 1;
  }
  async heartbeat(owner: string): Promise<void> {
    await pool.query("UPDATE leader_locks SET expires_at = now() + interval '30 seconds' WHERE name = 'leader' AND owner = $1", [owner]);
  }
  async release(owner: string): Promise<void> {
    await pool.query("DELETE FROM leader_locks WHERE name = 'leader' AND owner = $1", [owner]);
  }
}`);
    const [lock, ...rest] = model.locks.sql;
    assert.equal(rest.length, 0);
    assert.deepEqual(brief(lock!), {
      kind: 'lock-table',
      line: 5,
      keyText: 'leader_locks',
      releases: [13],
      renewals: [10],
      sectionEnd: undefined,
    });
    for (const event of [...model.sql.lockTableReleases, ...model.sql.lockTableRenewals]) {
      if (line(event.node) !== 6) assert.equal(model.locks.lockReleasedBy(event), lock);
    }
    assert.equal(model.locks.lockOfAcquisition(model.sql.lockTableAcquisitions[0]!), lock);
  });

  it('answers from one pairing whichever rule asks: the locks are built once per file', () => {
    const model = modelOf(`import { Pool } from 'pg';
const pool = new Pool();
export async function run(id: number) {
  await pool.query('SELECT pg_advisory_lock($1)', [id]);
  await pool.query('SELECT pg_advisory_unlock($1)', [id]);
}`);
    assert.equal(model.locks, model.locks);
    assert.equal(model.locks.sql, model.locks.sql);
    assert.equal(model.sql, model.sql);
    assert.deepEqual(model.locks.redis, []);
    assert.equal(model.locks.all.length, 1);
  });

  it('ends a critical section at the release on the normal path, not at a release on an early return (issue 32 tool bug)', () => {
    const model = modelOf(`import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
export async function settle(id: number, pool: { query(sql: string, values: unknown[]): Promise<unknown> }) {
  const key = \`lock:settle:\${id}\`;
  const token = randomUUID();
  if (!(await redis.set(key, token, 'PX', 30000, 'NX'))) return;
  if (await alreadySettled(id)) {
    await redis.eval(RELEASE, 1, key, token);
    return;
  }
  if (await skipped(id)) return void (await redis.eval(RELEASE, 1, key, token));
  await pool.query('UPDATE ledgers SET settled = true WHERE id = $1', [id]);
  await redis.eval(RELEASE, 1, key, token);
}`);
    const [lock, ...rest] = model.locks.all;
    assert.equal(rest.length, 0);
    assert.deepEqual(brief(lock!), {
      kind: 'redis',
      line: 8,
      keyText: 'key',
      releases: [10, 13, 15],
      renewals: [],
      sectionEnd: 15,
    });
    // The write between the early exits and the last release runs under the lock.
    const write = model.sql.writes[0]!;
    assert.ok(write.node.range[0] > lock!.from && write.node.range[1] <= lock!.to);
  });

  it('keeps the first release as the end when every release is on an early exit', () => {
    const model = modelOf(`import Redis from 'ioredis';
const redis = new Redis();
export async function once(id: number, token: string) {
  if (!(await redis.set(\`lock:once:\${id}\`, token, 'PX', 30000, 'NX'))) return;
  if (await done(id)) {
    await redis.del(\`lock:once:\${id}\`);
    return;
  }
}`);
    assert.equal(line(model.locks.all[0]!.release), 6);
  });
});
