// The SQL client tables as the SQL model reads them (tables/sql-clients.ts): what each library does with
// its pool and transactions, the lookups derived from that (checkout methods, transaction callbacks),
// the conventional pool names, the type names, the method names worth a look, and the words of a lock table.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  ANY_ORM_WRITE_METHOD,
  CHECKOUT_METHODS,
  DRIVER_PLACEHOLDER_LIBRARIES,
  fixWritesTransaction,
  LOCK_TABLE_WORDS,
  POOL_NAMES,
  SQL_CALL_METHODS,
  SQL_PACKAGES,
  SQL_TYPE_NAMES,
  sqlClientSemantics,
  TRANSACTION_CALLBACK_METHODS,
  transactionHelperPath,
} from '../../../../eslint-plugin/src/model/tables/sql-clients.js';

describe('sql-clients', () => {
  it('each library’s semantics; a client of unknown library has none', () => {
    assert.equal(sqlClientSemantics('unknown'), undefined);
    assert.deepEqual(sqlClientSemantics('pg')?.checkout, { method: 'connect', handle: 'client' });
    assert.equal(sqlClientSemantics('pg')?.transactionHelper, undefined);
    assert.equal(sqlClientSemantics('sequelize')?.callbackGetsOptionsObject, true);
    assert.equal(sqlClientSemantics('knex')?.transactionWithoutCallback, true);
    assert.deepEqual(sqlClientSemantics('postgres')?.idleTimeout, { option: 'idle_timeout', unsetKeepsSession: true });
    assert.deepEqual(sqlClientSemantics('pg')?.idleTimeout, { option: 'idleTimeoutMillis', unsetKeepsSession: false });
  });

  it('the fixes write a transaction for every library but slonik, and for no unknown client', () => {
    assert.equal(fixWritesTransaction('pg'), true);
    assert.equal(fixWritesTransaction('prisma'), true);
    assert.equal(fixWritesTransaction('slonik'), false);
    assert.equal(fixWritesTransaction('unknown'), false);
  });

  it('a transaction helper’s calls, outermost first', () => {
    assert.deepEqual(transactionHelperPath('kysely'), ['transaction', 'execute']);
    assert.deepEqual(transactionHelperPath('postgres'), ['begin']);
    assert.deepEqual(transactionHelperPath('prisma'), ['$transaction']);
    assert.deepEqual(transactionHelperPath('pg'), []);
    assert.deepEqual(transactionHelperPath('unknown'), []);
  });

  it('checkout methods and transaction callback methods, derived from the semantics', () => {
    assert.deepEqual(CHECKOUT_METHODS, { connect: 'pg', reserve: 'postgres', createQueryRunner: 'typeorm' });
    assert.deepEqual([...TRANSACTION_CALLBACK_METHODS['transaction']!].sort(), [
      'drizzle',
      'knex',
      'sequelize',
      'slonik',
      'typeorm',
      'unknown',
    ]);
    assert.deepEqual(TRANSACTION_CALLBACK_METHODS['execute'], ['kysely']);
    assert.deepEqual(TRANSACTION_CALLBACK_METHODS['begin'], ['postgres']);
    assert.deepEqual(TRANSACTION_CALLBACK_METHODS['$transaction'], ['prisma']);
    assert.equal(TRANSACTION_CALLBACK_METHODS['connect'], undefined);
  });

  it('conventional pool names: a pool, a Prisma client, a data source; not a connection, a client or a spool', () => {
    const libraryOf = (name: string) => [...POOL_NAMES].find(([pattern]) => pattern.test(name))?.[1];
    assert.equal(libraryOf('pool'), 'pg');
    assert.equal(libraryOf('pgPool'), 'pg');
    assert.equal(libraryOf('dbPool'), 'pg');
    assert.equal(libraryOf('prisma'), 'prisma');
    assert.equal(libraryOf('prismaClient'), 'prisma');
    assert.equal(libraryOf('knex'), 'knex');
    assert.equal(libraryOf('AppDataSource'), 'typeorm');
    assert.equal(libraryOf('sql'), 'postgres');
    assert.equal(libraryOf('spool'), undefined);
    assert.equal(libraryOf('connection'), undefined);
    assert.equal(libraryOf('client'), undefined);
    assert.equal(libraryOf('sqlite'), undefined);
  });

  it('packages and type names say how a client was made and what it is', () => {
    assert.deepEqual(
      SQL_PACKAGES['pg']!.map((entry) => [entry.exports, entry.kind]),
      [
        [['Pool'], 'pool'],
        [['Client'], 'connection'],
      ],
    );
    assert.equal(SQL_PACKAGES['drizzle-orm/']![0]!.library, 'drizzle');
    assert.equal(SQL_PACKAGES['generic-pool'], undefined);
    assert.deepEqual(SQL_TYPE_NAMES['PoolClient'], { library: 'pg', kind: 'connection' });
    assert.deepEqual(SQL_TYPE_NAMES['TransactionSql'], { library: 'postgres', kind: 'connection', inTransaction: true });
    assert.equal(SQL_TYPE_NAMES['Redis'], undefined);
  });

  it('the method names worth a look: queries, ORM writes, transaction boundaries; not a Map’s or a cache’s', () => {
    for (const method of ['query', 'raw', '$queryRaw', 'oneFirst', 'update', 'deleteFrom', 'insertInto', 'startTransaction'])
      assert.ok(SQL_CALL_METHODS.has(method), method);
    for (const method of ['get', 'set', 'has', 'find', 'connect', 'release']) assert.ok(!SQL_CALL_METHODS.has(method), method);
    assert.ok(ANY_ORM_WRITE_METHOD.has('upsert') && ANY_ORM_WRITE_METHOD.has('del'));
    assert.ok(DRIVER_PLACEHOLDER_LIBRARIES.has('knex') && !DRIVER_PLACEHOLDER_LIBRARIES.has('pg'));
  });

  it('lock table words are whole words of lock tables, not of blocks or clocks', () => {
    for (const word of ['lock', 'locks', 'shedlock', 'mutex', 'lease', 'leases']) assert.ok(LOCK_TABLE_WORDS.has(word), word);
    for (const word of ['block', 'blocks', 'clock', 'locked', 'release']) assert.ok(!LOCK_TABLE_WORDS.has(word), word);
  });
});
