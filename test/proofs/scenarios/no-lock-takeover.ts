// no-lock-takeover: an upsert into the lock table without the expiry guard takes a live lock over, so
// two holders run at once; the fix's guarded upsert returns no row of B's own and B backs off, while
// it still takes over a lock whose holder's expiry has passed.

import { GUARDED_LOCK_UPSERT_SQL } from '../../../eslint-plugin/src/fixes/sql-templates.js';
import { UNGUARDED_LOCK_UPSERT_SQL, UNGUARDED_UPSERT_WITH_GUARD_SQL } from '../fixed-sql.js';
import { Occupancy, type Scenario } from '../harness.js';
import { ensureSchema } from '../schema.js';

/**
 * The fixed acquisition per turn: no-lock-takeover's fix (the guard inserted into the reported
 * upsert), then the complete guarded upsert the lock-table fixes insert.
 */
const FIXED_UPSERTS = [UNGUARDED_UPSERT_WITH_GUARD_SQL, GUARDED_LOCK_UPSERT_SQL] as const;

export const noLockTakeover: Scenario = {
  id: 'no-lock-takeover',
  rule: 'no-lock-takeover',
  brokenShows: 'a live lock is stolen',
  fixedShows: 'the upsert returns no row with the caller as owner; caller backs off',
  fixSource:
    '`renderTakeoverGuard` inserted into the reported upsert, and `GUARDED_LOCK_UPSERT_SQL` (sql-templates); A through pg, B and C through postgres.js',
  rotations: FIXED_UPSERTS.length,
  async run(context) {
    const clientA = await context.pgClient();
    await ensureSchema(clientA);
    const sql = context.postgresJs(2);
    const upsert = context.variant === 'broken' ? UNGUARDED_LOCK_UPSERT_SQL : FIXED_UPSERTS[context.rotation % FIXED_UPSERTS.length]!;
    const name = context.key('invoice');
    const occupancy = new Occupancy();

    // Each holder compares the returned owner with itself, as the article says.
    const resultA = await clientA.query<{ owner: string }>(upsert, [name, 'A']);
    const holdsA = resultA.rows[0]?.owner === 'A';
    context.tally.expect(holdsA, 'A could not take the free lock');
    if (holdsA) occupancy.enter('A');

    // B tries while A's lock is live (30 s left) and A is inside its critical section.
    const resultB = await sql.unsafe<{ owner: string }[]>(upsert, [name, 'B']);
    const holdsB = resultB[0]?.owner === 'B';
    context.tally.note(
      `B's upsert returned ${resultB.length === 0 ? 'no row' : `owner ${resultB[0]!.owner}`}: B ${holdsB ? 'proceeds' : 'backs off'}`,
    );
    if (holdsB) occupancy.enter('B');
    context.tally.expect(occupancy.maxInside <= 1, "B took over A's live lock: A and B run at once");
    await clientA.query('DELETE FROM locks WHERE name = $1 AND owner = $2', [name, 'A']);
    await sql`DELETE FROM locks WHERE name = ${name} AND owner = 'B'`;

    // The guard must still let a caller take over a lock whose holder died (its expiry has passed).
    const staleName = context.key('stale-invoice');
    await clientA.query(`INSERT INTO locks (name, owner, expires_at) VALUES ($1, 'crashed', now() - interval '1 second')`, [staleName]);
    const resultC = await sql.unsafe<{ owner: string }[]>(upsert, [staleName, 'C']);
    context.tally.expect(resultC[0]?.owner === 'C', "C could not take over a lock whose holder's expiry had passed");
  },
};
