import * as assert from 'node:assert/strict';
import * as typescriptParser from '@typescript-eslint/parser';
import { Linter, type Rule } from 'eslint';
import { describe, it } from 'mocha';
import { getSqlModel, isPooledSessionCall, isReconnectingSessionCall } from '../../../../eslint-plugin/src/model/sql/sql-model.js';
import type { SqlModel } from '../../../../eslint-plugin/src/model/nouns/sql-items.js';

function modelOf(code: string): SqlModel {
  let captured: SqlModel | undefined;
  // A bare rule module, not createRule: Locksmith's rules skip files with no sign of SQL or Redis,
  // and this probe must see the model of every file.
  const probe: Rule.RuleModule = {
    meta: { type: 'problem', schema: [], messages: { never: 'never' } },
    create(context) {
      return {
        'Program:exit'() {
          captured = getSqlModel(context as never);
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: typescriptParser as unknown as Linter.Parser },
        plugins: { test: { rules: { probe } } },
        rules: { 'test/probe': 'error' },
      },
    ],
    'file.ts',
  );
  assert.deepEqual(messages, []);
  assert.ok(captured, 'the probe rule ran');
  return captured;
}

function senders(code: string): string[] {
  return modelOf(code).queries.map(
    (query) => `${query.sender.text}:${query.sender.library}:${query.sender.kind}${query.inTransaction ? ':tx' : ''}`,
  );
}

describe('SQL model', () => {
  it('pg: Pool, checked-out client, Client, BEGIN on the client', () => {
    assert.deepEqual(
      senders(`import { Pool, Client } from 'pg';
      const pool = new Pool(); const single = new Client();
      async function f() {
        await pool.query('SELECT pg_advisory_lock(1)');
        const client = await pool.connect();
        await client.query('BEGIN');
        await client.query('UPDATE t SET a = 1');
        await client.query('COMMIT');
        await client.query('UPDATE t SET a = 2');
        await single.query('UPDATE t SET a = 3');
      }`),
      [
        'pool:pg:pool',
        'client:pg:connection',
        'client:pg:connection:tx',
        'client:pg:connection:tx',
        'client:pg:connection',
        'single:pg:connection',
      ],
    );
  });

  it('postgres.js: the instance, reserve(), begin()', () => {
    assert.deepEqual(
      senders(`import postgres from 'postgres';
      const sql = postgres();
      async function f(id: number) {
        await sql\`UPDATE t SET a = \${id}\`;
        const reserved = await sql.reserve();
        await reserved\`UPDATE t SET a = 1\`;
        await sql.begin(async (tx) => { await tx\`UPDATE t SET a = 2\`; });
      }`),
      ['sql:postgres:pool', 'reserved:postgres:connection', 'tx:postgres:connection:tx'],
    );
  });

  it('knex, Prisma, TypeORM, Sequelize, kysely, drizzle', () => {
    assert.deepEqual(
      senders(`import knex from 'knex';
      import { PrismaClient } from '@prisma/client';
      import { DataSource } from 'typeorm';
      import { Sequelize } from 'sequelize';
      import { Kysely, sql } from 'kysely';
      const k = knex({}); const prisma = new PrismaClient(); const ds = new DataSource({}); const seq = new Sequelize(''); const db = new Kysely({});
      async function f() {
        await k.raw('UPDATE t SET a = ?', [1]);
        await k.transaction(async (trx) => { await trx.raw('UPDATE t SET a = 2'); });
        await prisma.$executeRaw\`UPDATE t SET a = 3\`;
        await prisma.$transaction(async (tx) => { await tx.$executeRawUnsafe('UPDATE t SET a = $1', 4); });
        await ds.query('UPDATE t SET a = $1', [5]);
        const runner = ds.createQueryRunner();
        await runner.startTransaction();
        await runner.query('UPDATE t SET a = 6');
        await seq.query('UPDATE t SET a = :a', { replacements: { a: 7 } });
        await seq.transaction(async (t) => { await seq.query('UPDATE t SET a = 8', { transaction: t }); });
        await sql\`UPDATE t SET a = 9\`.execute(db);
        await db.transaction().execute(async (trx) => { await sql\`UPDATE t SET a = 10\`.execute(trx); });
      }`),
      [
        'k:knex:pool',
        'trx:knex:connection:tx',
        'prisma:prisma:pool',
        'tx:prisma:connection:tx',
        'ds:typeorm:pool',
        'runner:typeorm:connection:tx',
        'seq:sequelize:pool',
        'seq:sequelize:pool:tx',
        'db:kysely:pool',
        'trx:kysely:connection:tx',
      ],
    );
  });

  it('module constants, QueryConfig objects, and parameters bound to interpolations and values', () => {
    const model = modelOf(`import { Pool } from 'pg';
      const pool = new Pool();
      const RELEASE = 'DELETE FROM locks WHERE name = $1 AND owner = $2';
      async function f(name: string, me: string) {
        await pool.query(RELEASE, [name, me]);
        await pool.query({ text: 'DELETE FROM locks WHERE name = $1', values: [name] });
        await pool.query(\`UPDATE jobs SET owner = \${me} WHERE id = $1\`, [7]);
      }`);
    assert.deepEqual(
      model.lockTableReleases.map((release) => release.ownerCompared),
      [true, false],
    );
    const query = model.writes[0]!.query!;
    assert.equal(query.sql.text, 'UPDATE jobs SET owner = $2 WHERE id = $1');
    assert.deepEqual(
      query.parameters.map((parameter: { type: string } | undefined) => (parameter === undefined ? 'none' : parameter.type)),
      ['Literal', 'Identifier'],
    );
  });

  it('lock tables, advisory locks, writes and ORM writes are told apart', () => {
    const model = modelOf(`import { Pool } from 'pg';
      import { PrismaClient } from '@prisma/client';
      const pool = new Pool(); const prisma = new PrismaClient();
      async function f() {
        await pool.query("INSERT INTO job_locks (name, owner, expires_at) VALUES ('a', 'me', now()) ON CONFLICT (name) DO UPDATE SET owner = 'me'");
        await pool.query("UPDATE job_locks SET expires_at = now() WHERE name = 'a' AND owner = 'me'");
        await pool.query('SELECT pg_try_advisory_lock(1)');
        await pool.query('INSERT INTO invoices (id) VALUES (1) ON CONFLICT (id) DO NOTHING');
        await prisma.invoice.update({ where: { id: 1, fence: { lt: 3 } }, data: { fence: 3 } });
      }`);
    assert.deepEqual(
      model.lockTableAcquisitions.map((acquisition) => [acquisition.table, acquisition.upsert]),
      [['job_locks', true]],
    );
    assert.equal(model.lockTableRenewals.length, 1);
    assert.deepEqual(
      model.advisoryLocks.map((lock) => lock.call.functionName),
      ['pg_try_advisory_lock'],
    );
    assert.deepEqual(
      model.writes.map((write) => [write.table, write.idempotent, write.isFenced(['fence'])]),
      [
        ['invoices', true, false],
        ['invoice', false, true],
      ],
    );
  });

  it("transaction words count where a statement starts, not in a SELECT's CASE … END", () => {
    const model = modelOf(`import { Pool } from 'pg';
      const pool = new Pool();
      async function f() {
        await pool.query("select case when p.prokind = 'p' then 'procedure' else 'function' end as kind from pg_proc p");
        await pool.query('  BEGIN');
        await pool.query('SELECT 1; COMMIT');
      }`);
    // The SELECT is never handed to the parser (it would describe it as ['select']).
    assert.deepEqual(
      model.queries.map((query) => query.statements?.map((statement) => statement.kind)),
      [undefined, ['begin'], ['select', 'commit']],
    );
  });

  it('a pooled session call: through any pool, outside a transaction, not locked and unlocked in one text', () => {
    const model = modelOf(`import { Pool } from 'pg';
      import { DataSource } from 'typeorm';
      import { Sequelize } from 'sequelize';
      const pool = new Pool(); const dataSource = new DataSource({ type: 'postgres' }); const sequelize = new Sequelize('postgres://');
      async function f(id: number, transaction: unknown) {
        await pool.query('SELECT pg_advisory_unlock($1)', [id]);
        await pool.query('SELECT pg_advisory_xact_lock($1)', [id]);
        await pool.query('SELECT pg_advisory_lock(1); UPDATE t SET a = 1; SELECT pg_advisory_unlock(1)');
        await dataSource.manager.query('SELECT pg_advisory_unlock_shared($1)', [id]);
        await sequelize.query('SELECT pg_advisory_unlock(:id)', { replacements: { id }, transaction });
        const client = await pool.connect();
        await client.query('SELECT pg_advisory_unlock($1)', [id]);
      }`);
    assert.deepEqual(
      model.advisoryLocks.map((item) => `${item.call.functionName} ${item.query.sender.text} ${isPooledSessionCall(item)}`),
      [
        'pg_advisory_unlock pool true',
        'pg_advisory_xact_lock pool false',
        'pg_advisory_lock pool false',
        'pg_advisory_unlock pool false',
        'pg_advisory_unlock_shared dataSource.manager true',
        'pg_advisory_unlock sequelize false',
        'pg_advisory_unlock client false',
      ],
    );
  });

  it('one-connection pools that reconnect: postgres.js max 1, pg max 1 without idling out; not their checkouts or transactions', () => {
    const model = modelOf(`import postgres from 'postgres';
      import { Pool, Client } from 'pg';
      const one = postgres(url, { max: 1 }); const idles = postgres(url, { max: 1, idle_timeout: 20 });
      const pgOne = new Pool({ max: 1, idleTimeoutMillis: 0 }); const client = new Client();
      async function f(id: number) {
        await one\`SELECT pg_advisory_unlock(\${id})\`;
        await idles\`SELECT pg_advisory_unlock(\${id})\`;
        await pgOne.query('SELECT pg_advisory_unlock($1)', [id]);
        await client.query('SELECT pg_advisory_unlock($1)', [id]);
        await one.begin(async (tx) => { await tx\`SELECT pg_advisory_unlock(\${id})\`; });
      }`);
    assert.deepEqual(
      model.advisoryLocks.map(
        (item) => `${item.query.sender.text} ${item.query.sender.kind} ${isReconnectingSessionCall(item)} ${isPooledSessionCall(item)}`,
      ),
      [
        'one connection true false',
        'idles pool false true',
        'pgOne connection true false',
        'client connection false false',
        'tx connection false false',
      ],
    );
  });

  it('a file with no SQL gets an empty model', () => {
    const model = modelOf(
      `const cache = new Map(); export function update(key, value) { cache.set(key, value); return cache.delete(key); }`,
    );
    assert.deepEqual([model.queries.length, model.writes.length], [0, 0]);
  });
});
