// The whole-file screen never turns away a file a rule could report in: every word a SQL lock is
// known by passes it, and a file that sends SQL but names no lock is turned away.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { EXPIRY_COLUMNS, LOCK_TABLE_WORDS } from '../../../eslint-plugin/src/model/tables/sql-clients.js';
import { mayImportHelper } from '../../../eslint-plugin/src/model/helpers/imported-helpers.js';
import { fileMayHoldLocks, LOCK_WORDS } from '../../../eslint-plugin/src/model/file-screen.js';
import { readAtEnd } from '../../support/probe-rule.js';

function screen(code: string): boolean {
  return readAtEnd(code, fileMayHoldLocks);
}

describe('fileMayHoldLocks', () => {
  it('knows every lock-table word and expiry column by its lock words', () => {
    for (const word of [...LOCK_TABLE_WORDS, ...EXPIRY_COLUMNS]) assert.match(word, LOCK_WORDS, word);
  });

  it('admits every name an imported lock helper can have, so a file whose only lock is such a call reaches its check', () => {
    for (const name of ['withLock', 'acquireMutex', 'semaphore', 'renewLease', 'releaseAll', 'leaderElection', 'claimJob', 'jobClaim']) {
      assert.equal(mayImportHelper(name), true, name);
      assert.match(name, LOCK_WORDS, name);
    }
  });

  it('lets SQL locks through: advisory locks, lock tables by name or by expiry column, lock helpers', () => {
    assert.equal(
      screen("import { Pool } from 'pg';\nconst pool = new Pool();\nawait pool.query('SELECT pg_advisory_lock($1)', [42]);"),
      true,
    );
    assert.equal(
      screen(
        "import { Pool } from 'pg';\nconst pool = new Pool();\nawait pool.query('INSERT INTO job_leases (name, owner) VALUES ($1, $2)', [n, o]);",
      ),
      true,
    );
    assert.equal(
      screen(
        "import { Pool } from 'pg';\nconst pool = new Pool();\nawait pool.query('UPDATE cron_runs SET owner = $1, valid_until = now() WHERE name = $2', [o, n]);",
      ),
      true,
    );
    assert.equal(screen("import knex from 'knex';\nconst db = knex({});\nawait db('locks').insert({ name: 'sync' });"), true);
  });

  it('turns away a file that sends SQL but names no lock', () => {
    assert.equal(
      screen(
        "import { Pool } from 'pg';\nconst pool = new Pool();\nexport const byId = (id) => pool.query('SELECT * FROM invoices WHERE id = $1', [id]);\nexport const rename = (id, name) => pool.query('UPDATE invoices SET name = $2 WHERE id = $1', [id, name]);",
      ),
      false,
    );
  });

  it('turns away a file whose only lock words are in long comments, and lets the same words through in code', () => {
    const header = '/*\n * Acquires a lease on the connection, and releases it by deleting its row FROM job_locks.\n */\n';
    const orm =
      "import { Pool } from 'pg';\nconst pool = new Pool();\nexport const byId = (id) => pool.query('SELECT * FROM invoices WHERE id = $1', [id]);\n";
    assert.equal(screen(`${header}${orm}`), false);
    assert.equal(screen(`${orm}export const rows = (id) => pool.query('DELETE FROM job_locks WHERE id = $1', [id]);`), true);
  });

  it('still lets Redis through whatever the words', () => {
    assert.equal(screen("import Redis from 'ioredis';\nconst redis = new Redis();\nawait redis.set('job', '1', 'NX');"), true);
  });
});
