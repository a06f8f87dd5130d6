import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  comparesColumn,
  comparesColumnBelowParameter,
  describeSql,
  hasExpiryGuard,
  isConflictDoNothing,
  isUnguardedUpsert,
  parseSql,
} from '../../../eslint-plugin/src/sql-syntax/index.js';
import { readAdvisorySelect } from '../../../eslint-plugin/src/sql-syntax/advisory-select.js';
import { describeStatement } from '../../../eslint-plugin/src/sql-syntax/facts.js';

function only(text: string) {
  const statements = describeSql(text);
  assert.ok(statements, `does not parse: ${text}`);
  assert.equal(statements.length, 1);
  return statements[0]!;
}

describe('sql facts', () => {
  it('unparseable SQL is undefined, never a throw, and is cached', () => {
    assert.equal(parseSql('UPDATE t SET'), undefined);
    assert.equal(describeSql('SELECT pg_advisory_lock(1'), undefined);
    assert.equal(parseSql('SELECT 1'), parseSql('SELECT 1'));
  });

  it('bare transaction control is read without the parser, with the facts the parser gives', () => {
    for (const text of ['BEGIN', '  begin ; ', 'begin work', 'BEGIN TRANSACTION', 'START TRANSACTION', 'COMMIT', 'ROLLBACK;']) {
      assert.deepEqual(describeSql(text), parseSql(text)!.map(describeStatement), text);
    }
    // PostgreSQL's other spellings, which the parser rejects, end (or open) a transaction all the same.
    assert.deepEqual(
      ['COMMIT WORK', 'commit transaction', 'END', 'end transaction', 'ABORT', 'rollback work'].map((text) => only(text).kind),
      ['commit', 'commit', 'commit', 'commit', 'rollback', 'rollback'],
    );
    // Options and anything after the statement go to the parser.
    assert.equal(only('begin isolation level serializable').kind, 'begin');
    assert.deepEqual(
      describeSql('BEGIN; SELECT pg_advisory_xact_lock(1)')?.map((statement) => statement.kind),
      ['begin', 'select'],
    );
  });

  it('advisory-lock SELECTs are read without the parser, with the facts the parser gives', () => {
    // The spellings of the lock packages of the real-package corpus and of public projects.
    const texts = [
      'SELECT pg_advisory_xact_lock($1, hashtext($2))',
      'select pg_try_advisory_lock($1) as locked',
      'select pg_advisory_unlock($1)',
      'SELECT pg_try_advisory_lock(-8525285245963000605);',
      '\n      SELECT pg_advisory_lock(hashtextextended($1, 0)) AS Acquired ;\n    ',
      'SELECT PG_TRY_ADVISORY_XACT_LOCK_SHARED($1::bigint, $2 :: int)',
      'select pg_advisory_unlock_all()',
      "SELECT pg_try_advisory_lock(hashtext('migrations')) AS ok, pg_advisory_lock(42)",
      'SELECT pg_advisory_unlock_shared( $1 ),pg_advisory_unlock(2) as b',
    ];
    for (const text of texts) {
      const read = readAdvisorySelect(text);
      assert.ok(read, `not read without the parser: ${text}`);
      assert.deepEqual(read, parseSql(text)!.map(describeStatement), text);
      assert.equal(describeSql(text), describeSql(text), 'the same facts object for the same text');
    }
    // Anything else goes to the parser, which reads it as before.
    const others = [
      'select pg_try_advisory_lock(1) locked',
      'SELECT pg_advisory_lock(id) FROM jobs WHERE id = $1',
      'SELECT pg_advisory_lock($1) -- the migrations lock',
      'SELECT pg_advisory_lock($1) AS "Locked"',
      "SELECT pg_advisory_lock(hashtext('it''s'))",
      "SELECT pg_advisory_lock(hashtext('a' || $1))",
      'SELECT pg_advisory_lock(1.5)',
      'SELECT pg_advisory_lock($1), now()',
      'SELECT pg_advisory_lock(pg_advisory_lock(1))',
      'SELECT pg_advisory_lock((SELECT 1))',
      "with t as (select set_config('lock_timeout', '1s', true)) select pg_advisory_lock($1) from t",
      'SELECT pg_advisory_lock($1); SELECT 1',
      'SELECT pg_advisory_lock(CAST($1 AS bigint))',
    ];
    for (const text of others) {
      assert.equal(readAdvisorySelect(text), undefined, text);
      const parsed = parseSql(text);
      assert.deepEqual(describeSql(text), parsed?.map(describeStatement), text);
    }
  });

  it('texts the parser rejects are turned away before it: ROLLBACK TO a savepoint, a table given as a parameter', () => {
    for (const text of [
      'ROLLBACK TO SAVEPOINT typeorm_1',
      'rollback to $1',
      'ROLLBACK TRANSACTION TO SAVEPOINT x',
      'insert into $1 (a) values ($2)',
      'DELETE FROM $1 WHERE true',
      'update $1 set a = $2',
    ]) {
      assert.equal(describeSql(text), undefined, text);
    }
    // `FROM $1` alone is no write target: EXTRACT(EPOCH FROM $1) is valid SQL.
    assert.ok(describeSql('SELECT extract(epoch from $1::timestamptz)'));
  });

  it('advisory lock calls: name, scope, mode, action', () => {
    const statement = only('SELECT pg_try_advisory_xact_lock_shared($1::bigint), pg_advisory_unlock(42)');
    assert.deepEqual(
      statement.advisoryLocks.map(({ functionName, scope, mode, action, shared }) => ({ functionName, scope, mode, action, shared })),
      [
        { functionName: 'pg_try_advisory_xact_lock_shared', scope: 'xact', mode: 'try', action: 'lock', shared: true },
        { functionName: 'pg_advisory_unlock', scope: 'session', mode: 'blocking', action: 'unlock', shared: false },
      ],
    );
    assert.equal(statement.onlyAdvisoryLocks, true);
    assert.equal(only('SELECT pg_advisory_xact_lock(id) FROM jobs').onlyAdvisoryLocks, false);
  });

  it('one-row INSERT parameters per column, UPDATE columns set to NULL', () => {
    assert.deepEqual(
      [...only('INSERT INTO job_locks (name, owner, expires_at) VALUES ($1, $2, now())').insertParameters],
      [
        ['name', 1],
        ['owner', 2],
      ],
    );
    assert.equal(only('INSERT INTO job_locks (name, owner) VALUES ($1, $2), ($3, $4)').insertParameters.size, 0);
    assert.deepEqual(only('UPDATE job_locks SET owner = NULL, expires_at = $2 WHERE name = $1').setNullColumns, ['owner']);
  });

  it('advisory lock calls: the output column that carries the answer', () => {
    assert.deepEqual(
      only('SELECT pg_try_advisory_lock($1) AS locked, pg_try_advisory_lock(2)').advisoryLocks.map((call) => call.outputName),
      ['locked', 'pg_try_advisory_lock'],
    );
    assert.equal(only('SELECT CASE WHEN pg_try_advisory_lock($1) THEN 1 END').advisoryLocks[0]?.outputName, undefined);
  });

  it("the article's lock-table upsert: guard, RETURNING owner", () => {
    const statement = only(`INSERT INTO locks (name, owner, expires_at) VALUES ('invoice', $1, now() + interval '30 seconds')
      ON CONFLICT (name) DO UPDATE SET owner = $1, expires_at = now() + interval '30 seconds'
      WHERE locks.expires_at < now() RETURNING owner`);
    assert.equal(statement.kind, 'insert');
    assert.equal(statement.table, 'locks');
    assert.deepEqual(statement.insertColumns, ['name', 'owner', 'expires_at']);
    assert.deepEqual(statement.onConflict?.targetColumns, ['name']);
    assert.equal(isUnguardedUpsert(statement), false);
    assert.equal(hasExpiryGuard(statement, ['expires_at']), true);
    assert.deepEqual(statement.returning, ['owner']);
    assert.equal(isUnguardedUpsert(only('INSERT INTO locks (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET owner = $2')), true);
  });

  it('fence and owner comparisons, either side, casts included', () => {
    assert.equal(comparesColumnBelowParameter(only('UPDATE t SET x = 1 WHERE id = $1 AND fence < $2'), ['fence']), true);
    assert.equal(comparesColumnBelowParameter(only('UPDATE t SET x = 1 WHERE id = $1 AND $2::int > fence'), ['fence']), true);
    assert.equal(comparesColumnBelowParameter(only('UPDATE t SET x = 1 WHERE id = $1 AND fence <= $2'), ['fence']), false);
    assert.equal(comparesColumnBelowParameter(only('UPDATE t SET x = 1 WHERE id = $1 OR fence < $2'), ['fence']), false);
    assert.equal(comparesColumn(only('DELETE FROM locks WHERE name = $1 AND owner = $2'), ['owner']), true);
    assert.equal(comparesColumn(only('DELETE FROM locks WHERE name = $1'), ['owner']), false);
  });

  it('idempotent writes: DO NOTHING, optimistic version check', () => {
    assert.equal(
      isConflictDoNothing(only('INSERT INTO invoices (period, customer_id) VALUES ($1, $2) ON CONFLICT (period, customer_id) DO NOTHING')),
      true,
    );
    assert.equal(only('UPDATE docs SET body = $1, version = version + 1 WHERE id = $2 AND version = $3').optimisticVersionCheck, true);
    assert.equal(only('UPDATE docs SET body = $1 WHERE id = $2').optimisticVersionCheck, false);
  });

  it('single-table statements, CTEs and FOR UPDATE', () => {
    assert.equal(only('UPDATE jobs SET state = 1 WHERE id = $1').singleTable, true);
    assert.equal(only('UPDATE totals SET n = (SELECT count(*) FROM invoices)').singleTable, false);
    const cte = only(
      "WITH picked AS (SELECT id FROM jobs WHERE state = 'pending' LIMIT 1 FOR UPDATE SKIP LOCKED) UPDATE jobs SET state = 'running' FROM picked WHERE jobs.id = picked.id",
    );
    assert.equal(cte.kind, 'update');
    assert.equal(cte.singleTable, false);
    assert.equal(only('SELECT * FROM accounts WHERE id = $1 FOR UPDATE').locksRows, true);
  });

  it('transaction control', () => {
    assert.deepEqual(
      describeSql('BEGIN; SELECT pg_advisory_xact_lock(1); COMMIT')?.map((statement) => statement.kind),
      ['begin', 'select', 'commit'],
    );
  });
});
