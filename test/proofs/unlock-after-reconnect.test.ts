// Runtime proof for require-release-check's pg_advisory_unlock cases, on a throwaway PostgreSQL: the
// unlock answers `false` when it runs in a session that does not hold the lock — another connection
// of a pool, or the fresh connection a one-connection pool opens after its connection dropped — and
// `true` on the connection that locked. On a dedicated connection a dropped session makes the unlock
// throw instead of answering, which is why the rule stays silent there.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, afterEach, before, describe, it } from 'mocha';
import pg from 'pg';
import postgres from 'postgres';
import { startServers, type ProofServers } from './servers.js';

describe('pg_advisory_unlock in another session than the lock answers false (require-release-check)', function () {
  this.timeout(30_000);
  let servers: ProofServers | undefined;
  let admin: pg.Client | undefined;
  // Below 2^32, so pg_locks.objid shows the key itself.
  let lockKey = 7_000;
  const cleanups: (() => unknown)[] = [];

  const pgConfig = (): { host: string; port: number; user: string; database: string } => {
    assert.ok(servers, 'servers did not start');
    const { host, port, user, database } = servers.postgres;
    return { host, port, user, database };
  };

  const pool = (options: pg.PoolConfig): pg.Pool => {
    const created = new pg.Pool({ ...pgConfig(), ...options });
    cleanups.push(() => created.end());
    return created;
  };

  const backendPid = async (query: (text: string) => Promise<{ rows: { pid: number }[] }>): Promise<number> => {
    const { rows } = await query('SELECT pg_backend_pid() AS pid');
    return rows[0]!.pid;
  };

  /** Who holds `key`, seen from outside: the backend pids with a granted advisory lock on it. */
  const holders = async (key: number): Promise<number[]> => {
    const { rows } = await admin!.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = $1::bigint::oid ORDER BY pid",
      [key],
    );
    return rows.map((row) => row.pid);
  };

  const terminate = async (pid: number): Promise<void> => {
    const { rows } = await admin!.query<{ terminated: boolean }>('SELECT pg_terminate_backend($1) AS terminated', [pid]);
    assert.equal(rows[0]?.terminated, true, `backend ${pid} was not terminated`);
  };

  before(async function () {
    this.timeout(60_000);
    servers = await startServers();
    admin = new pg.Client(pgConfig());
    await admin.connect();
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    // A fresh key per test, so a lock a failed test left behind never answers for the next one.
    lockKey += 1;
  });

  after(async function () {
    this.timeout(30_000);
    await admin?.end();
    await servers?.stop();
  });

  it('pg Pool: the unlock sent through the pool runs on another pooled connection, answers false, and the lock stays held', async () => {
    const shared = pool({ max: 2 });
    await shared.query('SELECT pg_advisory_lock($1)', [lockKey]);
    // Another part of the application checks out the idle connection, the one that ran the lock, so
    // the pool opens a second connection for the unlock (the interleaving is forced, not hoped for).
    const otherUser = await shared.connect();
    cleanups.push(() => {
      otherUser.release();
    });
    const lockHolder = await backendPid((text) => otherUser.query(text));
    const { rows } = await shared.query<{ unlocked: boolean; pid: number }>(
      'SELECT pg_advisory_unlock($1) AS unlocked, pg_backend_pid() AS pid',
      [lockKey],
    );
    assert.notEqual(rows[0]?.pid, lockHolder, 'the unlock ran on the connection that locked');
    assert.equal(rows[0]?.unlocked, false);
    assert.deepEqual(await holders(lockKey), [lockHolder], 'the lock is still held by the pooled connection that took it');
  });

  it('pg Pool with max: 1 and idleTimeoutMillis: 0: after its connection drops the pool reconnects, and the unlock answers false', async () => {
    const single = pool({ max: 1, idleTimeoutMillis: 0 });
    const poolErrors: unknown[] = [];
    single.on('error', (error) => {
      poolErrors.push(error);
    });
    await single.query('SELECT pg_advisory_lock($1)', [lockKey]);
    const lockHolder = await backendPid((text) => single.query(text));
    assert.deepEqual(await holders(lockKey), [lockHolder]);
    const dropped = once(single, 'error');
    await terminate(lockHolder);
    await dropped;
    const { rows } = await single.query<{ unlocked: boolean; pid: number }>(
      'SELECT pg_advisory_unlock($1) AS unlocked, pg_backend_pid() AS pid',
      [lockKey],
    );
    assert.notEqual(rows[0]?.pid, lockHolder, 'the pool did not open a new connection');
    assert.equal(rows[0]?.unlocked, false);
    assert.equal(poolErrors.length, 1);
  });

  it('postgres.js with max: 1: after its connection drops the next query reconnects, and the unlock answers false (with a WARNING)', async () => {
    const notices: string[] = [];
    let closed: () => void = () => undefined;
    const connectionClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    // onclose: postgres.js's event for a closed connection, so the test waits for the drop, not a timer.
    const sql = postgres({
      ...pgConfig(),
      max: 1,
      idle_timeout: 0,
      max_lifetime: 0,
      onclose: () => {
        closed();
      },
      onnotice: (notice) => {
        notices.push(String(notice.message));
      },
    });
    cleanups.push(() => sql.end({ timeout: 1 }));
    await sql`SELECT pg_advisory_lock(${lockKey})`;
    const lockHolder = (await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0]!.pid;
    await terminate(lockHolder);
    await connectionClosed;
    const [row] = await sql<
      { unlocked: boolean; pid: number }[]
    >`SELECT pg_advisory_unlock(${lockKey}) AS unlocked, pg_backend_pid() AS pid`;
    assert.notEqual(row?.pid, lockHolder, 'postgres.js did not open a new connection');
    assert.equal(row?.unlocked, false);
    assert.ok(
      notices.some((message) => /you don't own a lock/u.test(message)),
      `no WARNING notice: ${JSON.stringify(notices)}`,
    );
  });

  it('on the connection that locked (a checked-out client) the unlock answers true', async () => {
    const shared = pool({ max: 2 });
    const client = await shared.connect();
    cleanups.push(() => {
      client.release();
    });
    await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
    await shared.query('SELECT 1');
    const { rows } = await client.query<{ unlocked: boolean }>('SELECT pg_advisory_unlock($1) AS unlocked', [lockKey]);
    assert.equal(rows[0]?.unlocked, true);
    assert.deepEqual(await holders(lockKey), []);
  });

  it('a dedicated connection (pg Client, a checked-out client) whose session dropped makes the unlock throw, never answer false', async () => {
    const client = new pg.Client(pgConfig());
    client.on('error', () => undefined);
    const clientErrors = once(client, 'error');
    await client.connect();
    cleanups.push(() => client.end().catch(() => undefined));
    await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
    await terminate(await backendPid((text) => client.query(text)));
    await clientErrors;
    await assert.rejects(client.query('SELECT pg_advisory_unlock($1) AS unlocked', [lockKey]));

    const shared = pool({ max: 2 });
    const checkedOut = await shared.connect();
    checkedOut.on('error', () => undefined);
    const checkedOutErrors = once(checkedOut, 'error');
    await checkedOut.query('SELECT pg_advisory_lock($1)', [lockKey + 500]);
    await terminate(await backendPid((text) => checkedOut.query(text)));
    const [error] = (await checkedOutErrors) as [Error];
    await assert.rejects(checkedOut.query('SELECT pg_advisory_unlock($1) AS unlocked', [lockKey + 500]));
    checkedOut.release(error);
  });
});
