// fixes/sql-templates.ts: the SQL text and client code the PostgreSQL fixes write, per placeholder
// style and per library. Running them against PostgreSQL is test/proofs' work; here, what they say.

import * as assert from 'node:assert/strict';
import * as espree from 'espree';
import { describe, it } from 'mocha';
import {
  fenceInsertions,
  HANDLE_NAMES,
  renderBeginCommit,
  renderCheckoutWrap,
  renderFencedUpdate,
  renderPlaceholder,
  renderTakeoverGuard,
  renderTransactionWrap,
  transactionLevelName,
  type TransactionHelperLibrary,
} from '../../../eslint-plugin/src/fixes/sql-templates.js';
import { parseSql } from '../../../eslint-plugin/src/sql-syntax/parse.js';

const LIBRARIES = Object.keys(HANDLE_NAMES) as TransactionHelperLibrary[];

/** Fails unless `code` parses as the body of an async function. */
function assertParsesAsAsyncBody(code: string): void {
  assert.doesNotThrow(() => espree.parse(`async function wrapped() {\n${code}\n}`, { ecmaVersion: 'latest' }), code);
}

describe('fixes/sql-templates', () => {
  it("renderPlaceholder writes each style's placeholder", () => {
    const value = { number: 3, expression: 'fence' };
    assert.equal(renderPlaceholder('dollar', value), '$3');
    assert.equal(renderPlaceholder('tagged', value), '${fence}');
    assert.equal(renderPlaceholder('question', value), '?');
  });

  describe('renderFencedUpdate', () => {
    it('stores the fence and compares it, in valid SQL', () => {
      const sql = renderFencedUpdate({ table: 'invoice_state', assignments: [`last_run = 'done'`], where: 'id = $2', fence: '$1' });
      assert.equal(sql, `UPDATE invoice_state SET last_run = 'done', fence = $1 WHERE id = $2 AND fence < $1`);
      assert.ok(parseSql(sql), sql);
    });

    it('uses the configured fence column', () => {
      const sql = renderFencedUpdate({
        table: 't',
        assignments: ['a = 1', 'b = 2'],
        where: 'id = ?',
        fence: '?',
        fenceColumn: 'fencing_token',
      });
      assert.equal(sql, 'UPDATE t SET a = 1, b = 2, fencing_token = ? WHERE id = ? AND fencing_token < ?');
    });
  });

  it('fenceInsertions adds to an existing WHERE, or starts one', () => {
    assert.deepEqual(fenceInsertions('$3', 'fence', true), { afterSet: ', fence = $3', afterWhere: ' AND fence < $3' });
    assert.deepEqual(fenceInsertions('${fence}', 'fence', false), {
      afterSet: ', fence = ${fence}',
      afterWhere: ' WHERE fence < ${fence}',
    });
    const unfenced = 'UPDATE t SET a = 1';
    const { afterSet, afterWhere } = fenceInsertions('$1', 'fence', false);
    assert.ok(parseSql(`${unfenced}${afterSet}${afterWhere}`));
  });

  it('renderTakeoverGuard qualifies the expiry column with the table, as ON CONFLICT needs', () => {
    assert.equal(renderTakeoverGuard('locks', 'expires_at'), ' WHERE locks.expires_at < now()');
    const upsert = `INSERT INTO locks (name, owner, expires_at) VALUES ($1, $2, now()) ON CONFLICT (name) DO UPDATE SET owner = $2${renderTakeoverGuard('locks', 'expires_at')} RETURNING owner`;
    assert.ok(parseSql(upsert), upsert);
  });

  it('transactionLevelName moves each session-level advisory function to its transaction form', () => {
    assert.equal(transactionLevelName('pg_advisory_lock'), 'pg_advisory_xact_lock');
    assert.equal(transactionLevelName('pg_try_advisory_lock'), 'pg_try_advisory_xact_lock');
    assert.equal(transactionLevelName('pg_advisory_lock_shared'), 'pg_advisory_xact_lock_shared');
    assert.equal(transactionLevelName('pg_try_advisory_lock_shared'), 'pg_try_advisory_xact_lock_shared');
    assert.equal(transactionLevelName('now'), 'now');
  });

  describe('renderTransactionWrap', () => {
    const parts = (library: TransactionHelperLibrary) => ({
      client: 'db',
      handle: HANDLE_NAMES[library],
      body: `    await work(${HANDLE_NAMES[library]});`,
      indent: '  ',
    });

    it("gives pg the checkout, BEGIN, COMMIT, ROLLBACK and release of pg's documentation", () => {
      assert.equal(
        renderTransactionWrap('pg', parts('pg')),
        [
          'const client = await db.connect();',
          '  try {',
          `    await client.query('BEGIN');`,
          '    await work(client);',
          `    await client.query('COMMIT');`,
          '  } catch (error) {',
          `    await client.query('ROLLBACK');`,
          '    throw error;',
          '  } finally {',
          '    client.release();',
          '  }',
        ].join('\n'),
      );
    });

    const helpers: Record<Exclude<TransactionHelperLibrary, 'pg'>, string> = {
      postgres: 'await db.begin(async (tx) => {',
      prisma: 'await db.$transaction(async (tx) => {',
      kysely: 'await db.transaction().execute(async (trx) => {',
      knex: 'await db.transaction(async (trx) => {',
      typeorm: 'await db.transaction(async (manager) => {',
      sequelize: 'await db.transaction(async (transaction) => {',
      drizzle: 'await db.transaction(async (tx) => {',
    };
    for (const library of LIBRARIES) {
      it(`writes ${library}'s own transaction helper, as code that parses`, () => {
        const code = renderTransactionWrap(library, parts(library));
        if (library !== 'pg') assert.equal(code, `${helpers[library]}\n    await work(${HANDLE_NAMES[library]});\n  });`);
        assertParsesAsAsyncBody(code);
      });
    }
  });

  it('renderBeginCommit wraps the body on the connection the code holds', () => {
    const code = renderBeginCommit('connection', '    await work();', '  ');
    assert.equal(code.split('\n')[0], `await connection.query('BEGIN');`);
    assert.match(
      code,
      /await connection\.query\('COMMIT'\);\n {2}\} catch \(error\) \{\n {4}await connection\.query\('ROLLBACK'\);\n {4}throw error;\n {2}\}$/u,
    );
    assert.doesNotMatch(code, /release\(\)/u);
    assertParsesAsAsyncBody(code);
  });

  it('renderCheckoutWrap checks out with connect() for pg and reserve() for postgres.js, and releases in finally', () => {
    const parts = { client: 'pool', handle: 'client', body: '    await work(client);', indent: '  ' };
    const pg = renderCheckoutWrap('pg', parts);
    assert.equal(pg, 'const client = await pool.connect();\n  try {\n    await work(client);\n  } finally {\n    client.release();\n  }');
    assert.equal(renderCheckoutWrap('postgres', parts).split('\n')[0], 'const client = await pool.reserve();');
    assertParsesAsAsyncBody(pg);
  });

  it('HANDLE_NAMES names a handle for every library with a transaction helper', () => {
    assert.deepEqual(LIBRARIES.sort(), ['drizzle', 'knex', 'kysely', 'pg', 'postgres', 'prisma', 'sequelize', 'typeorm']);
  });
});
