// Which object sends a query, and what it is (sql/senders.ts): a pool, one dedicated connection, or a
// transaction's handle, of which library — from how it was made (`new Pool()`, `postgres()`,
// `pool.connect()`, a one-connection pool), its declared type, a factory or a later assignment, a
// transaction callback's parameter, a class member, or a conventional name imported from the project.
// A pool of another package (generic-pool, undici) and anything that disagrees with itself stay unknown.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { collectImports } from '../../../../eslint-plugin/src/model/facts/imports.js';
import type { SqlSender } from '../../../../eslint-plugin/src/model/nouns/sql-items.js';
import { SenderResolver } from '../../../../eslint-plugin/src/model/sql/senders.js';
import { collectNodes } from '../../../../eslint-plugin/src/util/collect-nodes.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** The sender of each `send(x)` call's argument, as the SQL model sets the resolver up. */
function sendersOf(code: string): SqlSender[] {
  return readAtEnd(
    code,
    (context) => {
      const sourceCode = context.sourceCode;
      // A file of a project that does not exist: imports of its own modules resolve to nothing.
      const resolver = new SenderResolver(sourceCode, collectImports(sourceCode.ast), path.join('/nonexistent', 'src', 'file.ts'));
      const collected = collectNodes(sourceCode);
      for (const { name, value } of collected.memberInitializers) resolver.noteMemberInitializer(name, value);
      return collected.calls
        .filter((call) => call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'send')
        .map((call) => resolver.sender(call.arguments[0]!));
    },
    { typescript: true },
  );
}

const describeSender = (sender: SqlSender): string =>
  `${sender.text} ${sender.library}:${sender.kind}${sender.inTransaction ? ':tx' : ''}${sender.reconnects ? ':reconnects' : ''}`;

describe('senders', () => {
  it('tells pools, connections and transaction handles apart, with their library', () => {
    assert.deepEqual(
      sendersOf(`import pg, { Pool, Client, type PoolClient } from 'pg';
import postgres from 'postgres';
import knex, { type Knex } from 'knex';
import { PrismaClient } from '@prisma/client';
import { Kysely } from 'kysely';
import { Sequelize } from 'sequelize';
import { DataSource } from 'typeorm';
import { Pool as GenericPool } from 'generic-pool';
import { Pool as UndiciPool } from 'undici';
import { pool as sharedPool } from './db';
import { pool as packagePool } from 'some-package';
declare function send(x: unknown): void;
declare const globalForPrisma: { prisma?: PrismaClient };
const pool = new Pool();
const single = new Client();
const namespaced = new pg.Pool();
const onePg = new Pool({ max: 1, idleTimeoutMillis: 0 });
const onePgIdles = new Pool({ max: 1 });
const sql = postgres('postgres://x');
const oneSql = postgres('postgres://x', { max: 1 });
const db = knex({ client: 'pg' });
const prisma = globalForPrisma.prisma ?? new PrismaClient();
const kysely = new Kysely<unknown>({} as never);
const sequelize = new Sequelize('postgres://x');
const dataSource = new DataSource({} as never);
const workers = new UndiciPool('http://x');
let lazy;
export function init() { lazy = new Pool(); }
function getPool() { return pool; }
const either = Math.random() > 0.5 ? pool : single;
export async function f(typed: Knex, checkedOut: PoolClient, generic: GenericPool<unknown>) {
  send(pool);
  send(single);
  send(namespaced);
  send(await pool.connect());
  send(await sql.reserve());
  send(onePg);
  send(onePgIdles);
  send(sql);
  send(oneSql);
  send(db);
  send(await db.transaction());
  send(prisma);
  send(kysely);
  send(sequelize);
  send(dataSource.manager);
  send(workers);
  send(lazy);
  send(getPool());
  send(either);
  send(typed);
  send(checkedOut);
  send(generic);
  send(sharedPool);
  send(packagePool);
  await sql.begin(async (tx) => send(tx));
  await prisma.$transaction(async (tx) => send(tx));
  await sequelize.transaction(async (t) => send(t));
  await kysely.transaction().execute(async (trx) => send(trx));
  await db.transaction(async (trx) => send(trx));
  await pool.connect((err, client) => send(client));
  send(undeclaredPool);
}
declare const undeclaredPool: unknown;
export class Repo {
  private readonly pool = new Pool();
  constructor(private readonly db: Knex, private readonly other: GenericPool<unknown>) {}
  run() {
    send(this.pool);
    send(this.db);
    send(this.other);
    send(this.knex);
  }
}
`).map(describeSender),
      [
        'pool pg:pool',
        'single pg:connection',
        'namespaced pg:pool',
        'await pool.connect() pg:connection',
        'await sql.reserve() postgres:connection',
        // max 1 holds one session only where the idle client is not closed: postgres.js by default, pg with idleTimeoutMillis 0.
        'onePg pg:connection:reconnects',
        'onePgIdles pg:pool',
        'sql postgres:pool',
        'oneSql postgres:connection:reconnects',
        'db knex:pool',
        'await db.transaction() knex:connection:tx',
        'prisma prisma:pool',
        'kysely kysely:pool',
        'sequelize sequelize:pool',
        'dataSource.manager typeorm:pool',
        // undici's Pool is no SQL pool.
        'workers unknown:unknown',
        'lazy pg:pool',
        'getPool() pg:pool',
        // A pool on one path and a client on the other: no answer.
        'either unknown:unknown',
        'typed knex:pool',
        'checkedOut pg:connection',
        'generic unknown:unknown',
        // A conventional pool name imported from the project's own module; the same name from a package is not.
        'sharedPool pg:pool',
        'packagePool unknown:unknown',
        'tx postgres:connection:tx',
        'tx prisma:connection:tx',
        // Sequelize hands its callback a Transaction object, not a sender.
        't unknown:unknown',
        'trx kysely:connection:tx',
        'trx knex:connection:tx',
        // pg's connect with a callback hands over a client this resolver does not follow.
        'client unknown:unknown',
        'undeclaredPool unknown:unknown',
        'this.pool pg:pool',
        'this.db knex:pool',
        // A parameter property typed with generic-pool's Pool, whatever it is called.
        'this.other unknown:unknown',
        // No initialiser or declared type: the member's name says knex.
        'this.knex knex:pool',
      ],
    );
  });

  it('one object is one identity: the variable when it resolves, else the text', () => {
    const senders = sendersOf(`import { Pool } from 'pg';
declare function send(x: unknown): void;
const pool = new Pool();
const other = new Pool();
export class Repo {
  private readonly pool = new Pool();
  run() {
    send(pool);
    send(pool as Pool);
    send(other);
    send(this.pool);
    send(this.pool);
  }
}`);
    assert.equal(senders.length, 5);
    assert.equal(senders[0]!.identity, senders[1]!.identity);
    assert.notEqual(senders[0]!.identity, senders[2]!.identity);
    assert.equal(typeof senders[0]!.identity, 'object');
    assert.equal(senders[3]!.identity, 'this.pool');
    assert.equal(senders[3]!.identity, senders[4]!.identity);
  });
});
