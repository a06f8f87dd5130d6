// fixes/sql-owner-compare.ts: `AND owner = …` at the end of a lock-table release's WHERE, the owner
// being the value the acquisition wrote, bound in the statement's own placeholder style.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { ownerComparisonFix } from '../../../eslint-plugin/src/fixes/sql-owner-compare.js';
import { applyFix, probe } from '../support/fix-probe.js';

const INSERT = `'INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now())'`;

const pgModule = (release: string, acquireArgs = '[name, owner]') => `import { Pool } from 'pg';
const pool = new Pool();
export async function runJob(name: string, owner: string) {
  await pool.query(${INSERT}, ${acquireArgs});
  await doJob(name);
  await ${release};
}`;

const compared = (code: string) =>
  applyFix(code, (file) => {
    const release = file.model.sql.lockTableReleases[0];
    assert.ok(release, 'no lock-table release');
    return ownerComparisonFix(file.sourceCode, release, file.model.sql.lockTableAcquisitions[0])?.fix;
  });

describe('fixes/sql-owner-compare', () => {
  it('appends AND owner = $n and binds the owner in the values array', () => {
    assert.equal(
      compared(pgModule(`pool.query('DELETE FROM job_locks WHERE name = $1', [name])`)),
      pgModule(`pool.query('DELETE FROM job_locks WHERE name = $1 AND owner = $2', [name, owner])`),
    );
  });

  it('reuses the placeholder already bound to the owner', () => {
    assert.equal(
      compared(pgModule(`pool.query('DELETE FROM job_locks WHERE name = $1 AND note <> $2', [name, owner])`)),
      pgModule(`pool.query('DELETE FROM job_locks WHERE name = $1 AND note <> $2 AND owner = $2', [name, owner])`),
    );
  });

  it('binds at the right position for ? placeholders (knex raw)', () => {
    const module = (release: string) => `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function runJob(name: string, owner: string) {
  await db.raw('INSERT INTO job_locks (name, owner, expires_at) VALUES (?, ?, now())', [name, owner]);
  await doJob(name);
  await ${release};
}`;
    assert.equal(
      compared(module(`db.raw('DELETE FROM job_locks WHERE name = ? RETURNING name', [name])`)),
      module(`db.raw('DELETE FROM job_locks WHERE name = ? AND owner = ? RETURNING name', [name, owner])`),
    );
  });

  it('interpolates the owner into a tagged template', () => {
    const module = (release: string) => `import postgres from 'postgres';
const sql = postgres();
export async function runJob(name: string, owner: string) {
  await sql\`INSERT INTO job_locks (name, owner, expires_at) VALUES (\${name}, \${owner}, now())\`;
  await doJob(name);
  await ${release};
}`;
    assert.equal(
      compared(module('sql`DELETE FROM job_locks WHERE name = ${name}`')),
      module('sql`DELETE FROM job_locks WHERE name = ${name} AND owner = ${owner}`'),
    );
  });

  it('names the column and placeholder it writes', () => {
    const comparison = probe(pgModule(`pool.query('DELETE FROM job_locks WHERE name = $1', [name])`), (file) => {
      const found = ownerComparisonFix(file.sourceCode, file.model.sql.lockTableReleases[0]!, file.model.sql.lockTableAcquisitions[0]);
      return found && { column: found.column, placeholder: found.placeholder };
    });
    assert.deepEqual(comparison, { column: 'owner', placeholder: '$2' });
  });

  it('declines without an acquisition, or when the owner written is not visible at the release', () => {
    assert.equal(
      probe(pgModule(`pool.query('DELETE FROM job_locks WHERE name = $1', [name])`), (file) =>
        ownerComparisonFix(file.sourceCode, file.model.sql.lockTableReleases[0]!, undefined),
      ),
      undefined,
    );
    const elsewhere = `import { Pool } from 'pg';
const pool = new Pool();
export async function take(name: string) {
  const me = crypto.randomUUID();
  await pool.query(${INSERT}, [name, me]);
}
export async function free(name: string) {
  await pool.query('DELETE FROM job_locks WHERE name = $1', [name]);
}`;
    assert.equal(compared(elsewhere), undefined);
  });
});
