import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { lockSummaries, type LockSummary } from '../../../../eslint-plugin/src/model/editor/lock-map.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** The lock map of `code`, read by a probe rule the way the language server reads it. */
function summariesOf(code: string): LockSummary[] {
  return readAtEnd(code, lockSummaries);
}

/** The summary without positions, and each site by its 1-based line. */
function brief(summary: LockSummary): Record<string, unknown> {
  return {
    name: summary.name,
    kind: summary.kind,
    line: summary.acquired.start.line + 1,
    releases: summary.releases.map((site) => `${site.range.start.line + 1} ${site.note}`),
    renewals: summary.renewals.map((site) => `${site.range.start.line + 1} ${site.note}`),
    ttl: summary.ttl,
    token: summary.token,
    writes: summary.writes,
  };
}

describe('lockSummaries (the lock map)', () => {
  it('summarises a Redis lock: key, TTL, unique token, release in finally, unfenced write', () => {
    const [summary, ...rest] = summariesOf(`import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function settle(db, id) {
  const key = \`invoice:\${id}\`;
  const token = randomUUID();
  if (!(await redis.set(key, token, 'PX', 30000, 'NX'))) return;
  try {
    await db.query('UPDATE invoices SET paid = true WHERE id = $1', [id]);
  } finally {
    await redis.eval('if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end', 1, key, token);
  }
}`);
    assert.deepEqual(rest, []);
    assert.deepEqual(brief(summary!), {
      name: 'invoice:{id}',
      kind: 'Redis',
      line: 7,
      releases: ['11 in finally'],
      renewals: [],
      ttl: '30 s',
      token: 'randomUUID',
      writes: 'writes not fenced',
    });
    assert.equal(summary!.tokenUnique, true);
    assert.equal(summary!.fenced, false);
  });

  it('tells a shared token, a plain DEL outside finally, a renewal and a split TTL', () => {
    const summaries = summariesOf(`import Redis from 'ioredis';
const redis = new Redis();
export async function run() {
  const ok = await redis.setnx('lock:nightly', 'locked');
  if (!ok) return;
  await redis.expire('lock:nightly', 60);
  await redis.expire('lock:nightly', 60);
  await redis.del('lock:nightly');
}`);
    assert.deepEqual(summaries.map(brief), [
      {
        name: 'lock:nightly',
        kind: 'Redis',
        line: 4,
        releases: ['8 not in finally, not owner-checked'],
        renewals: ['7 not owner-checked'],
        ttl: '60 s, set by a separate EXPIRE',
        token: 'shared (literal)',
        writes: 'no writes under it',
      },
    ]);
  });

  it('lists advisory locks, lock-table rows and Redlock locks with their own kinds', () => {
    const summaries = summariesOf(`import Redlock from 'redlock';
import { Pool } from 'pg';
const pool = new Pool();
const redlock = new Redlock([]);
export async function migrate(client) {
  await client.query('SELECT pg_advisory_xact_lock(42)');
  await client.query('UPDATE accounts SET balance = 0');
}
export async function pay(id) {
  const lock = await redlock.acquire([\`pay:\${id}\`], 15000);
  await lock.release();
}`);
    assert.deepEqual(
      summaries.map((summary) => [summary.kind, summary.name, summary.ttl, summary.token, summary.writes]),
      [
        ['advisory', 'pg_advisory_xact_lock(42)', 'until the transaction ends', 'the connection holds it', 'writes need no fence'],
        ['Redlock', 'pay:{id}', '15 s', 'library-minted', 'no writes under it'],
      ],
    );
  });

  it('is empty for a file without locks, and for a Map that looks like one', () => {
    assert.deepEqual(summariesOf('const locks = new Map();\nexport function lock(k) { locks.set(k, true); locks.delete(k); }'), []);
  });
});
