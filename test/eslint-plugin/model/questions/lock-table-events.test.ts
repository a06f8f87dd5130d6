// Which lock-table statements free or renew one named row without asking who owns it
// (isUnownedRelease, isUnownedRenewal), and the lookalikes they must leave alone: a sweep of expired
// rows, a release by the returned handle, an account lockout, ShedLock's unlock.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { isUnownedRelease, isUnownedRenewal } from '../../../../eslint-plugin/src/model/questions/lock-table-events.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each lock-table release and renewal by line, with the question's answer. */
function answers(code: string): { releases: [number, boolean][]; renewals: [number, boolean][] } {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context).sql;
      return {
        releases: model.lockTableReleases.map((release): [number, boolean] => [
          release.node.loc.start.line,
          isUnownedRelease(model, release),
        ]),
        renewals: model.lockTableRenewals.map((renewal): [number, boolean] => [
          renewal.node.loc.start.line,
          isUnownedRenewal(model, renewal),
        ]),
      };
    },
    { typescript: true },
  );
}

const HEAD = `import { Pool } from 'pg';
const pool = new Pool();
export async function take(name: string, me: string) {
  await pool.query('INSERT INTO locks (name, owner, expires_at) VALUES ($1, $2, now()) ON CONFLICT DO NOTHING', [name, me]);
}
`;

describe('isUnownedRelease', () => {
  it('a DELETE or owner-clearing UPDATE naming the row by name alone is unowned; one comparing the owner is not', () => {
    assert.deepEqual(
      answers(`${HEAD}export async function release(name: string, me: string) {
  await pool.query('DELETE FROM locks WHERE name = $1', [name]);
  await pool.query('UPDATE locks SET owner = NULL WHERE name = $1', [name]);
  await pool.query('DELETE FROM locks WHERE name = $1 AND owner = $2', [name, me]);
}`).releases,
      [
        [7, true],
        [8, true],
        [9, false],
      ],
    );
  });

  it('a sweep of expired rows, a statement without WHERE or with an OR are not releases of one row', () => {
    assert.deepEqual(
      answers(`${HEAD}export async function sweep(name: string) {
  await pool.query('DELETE FROM locks WHERE expires_at < now()');
  await pool.query('DELETE FROM locks WHERE name = $1 AND expires_at < now()', [name]);
  await pool.query('DELETE FROM locks WHERE name = $1 OR name = $2', [name, 'x']);
  await pool.query('DELETE FROM locks');
}`).releases,
      [
        [7, false],
        [8, false],
        [9, false],
        [10, false],
      ],
    );
  });

  it('a DELETE by the handle the acquisition returned names this holder’s row', () => {
    assert.deepEqual(
      answers(`import { Pool } from 'pg';
const pool = new Pool();
export async function run(name: string, me: string) {
  const { rows } = await pool.query('INSERT INTO locks (name, owner) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING id', [name, me]);
  await pool.query('DELETE FROM locks WHERE id = $1', [rows[0].id]);
}`).releases,
      [[5, false]],
    );
  });

  it('a table not taken as a lock in the file is no lock table (an account lockout), unless some statement names an owner', () => {
    const lockout = `import { Pool } from 'pg';
const pool = new Pool();
export async function unlockAccount(userId: string) {
  await pool.query('DELETE FROM account_locks WHERE user_id = $1', [userId]);
}`;
    assert.deepEqual(answers(lockout).releases, [[4, false]]);
    assert.deepEqual(
      answers(`${lockout}
export async function releaseAs(userId: string, me: string) {
  await pool.query('DELETE FROM account_locks WHERE user_id = $1 AND owner = $2', [userId, me]);
}`).releases,
      [
        [4, true],
        [7, false],
      ],
    );
  });
});

describe('isUnownedRenewal', () => {
  it('an UPDATE of the expiry naming the row by name alone is unowned, even when it checks the row is live', () => {
    assert.deepEqual(
      answers(`${HEAD}export async function heartbeat(name: string, me: string) {
  await pool.query("UPDATE locks SET expires_at = now() + interval '30 seconds' WHERE name = $1", [name]);
  await pool.query("UPDATE locks SET expires_at = now() + interval '30 seconds' WHERE name = $1 AND expires_at > now()", [name]);
  await pool.query("UPDATE locks SET expires_at = now() + interval '30 seconds' WHERE name = $1 AND owner = $2", [name, me]);
}`).renewals,
      [
        [7, true],
        [8, true],
        [9, false],
      ],
    );
  });

  it('a second identity column, or a function named for releasing (ShedLock’s unlock), is not a heartbeat', () => {
    assert.deepEqual(
      answers(`${HEAD}export async function heartbeat(name: string, pid: string) {
  await pool.query('UPDATE locks SET expires_at = now() WHERE name = $1 AND process_id = $2', [name, pid]);
}
export async function unlock(name: string) {
  await pool.query('UPDATE locks SET expires_at = now() WHERE name = $1', [name]);
}`).renewals.map(([, unowned]) => unowned),
      [false, false],
    );
  });
});
