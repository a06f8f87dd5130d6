// Writes made through ORMs and query builders (sql/orm-writes.ts): Prisma model calls on the client or
// a transaction's handle, knex chains on the instance (or `this.knex`), drizzle's and kysely's write
// methods on the client; whether a write is fenced (`fence: { lt }`, `.where('fence', '<', f)`,
// `lt(t.fence, f)`) and whether it is idempotent by construction (`skipDuplicates`, `onConflictDoNothing`).
// A Map's delete, a cache object's `update`, objection's `Model.query().update()` and a chain on an
// unknown call are no writes.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { collectImports } from '../../../../eslint-plugin/src/model/facts/imports.js';
import { findOrmWrite, ormWriteIsFenced, ormWriteIsIdempotent } from '../../../../eslint-plugin/src/model/sql/orm-writes.js';
import { SenderResolver } from '../../../../eslint-plugin/src/model/sql/senders.js';
import { collectNodes } from '../../../../eslint-plugin/src/util/collect-nodes.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each ORM write of the file: line, library, method, sender, table, fenced (by `fence`), idempotent. */
function writes(code: string): unknown[][] {
  return readAtEnd(
    code,
    (context) => {
      const sourceCode = context.sourceCode;
      const senders = new SenderResolver(sourceCode, collectImports(sourceCode.ast), '/nonexistent/file.ts');
      const collected = collectNodes(sourceCode);
      for (const { name, value } of collected.memberInitializers) senders.noteMemberInitializer(name, value);
      return collected.calls.flatMap((call) => {
        const write = findOrmWrite(call, senders);
        return write
          ? [
              [
                call.loc.start.line,
                write.library,
                write.method,
                write.sender.text,
                write.table,
                ormWriteIsFenced(write, ['fence']),
                ormWriteIsIdempotent(write),
              ],
            ]
          : [];
      });
    },
    { typescript: true },
  );
}

describe('orm-writes', () => {
  it('recognises each library’s writes, their table, fence and idempotence; lookalikes are none', () => {
    assert.deepEqual(
      writes(`import { PrismaClient } from '@prisma/client';
import knex from 'knex';
import { drizzle } from 'drizzle-orm/node-postgres';
import { lt } from 'drizzle-orm';
import { Kysely } from 'kysely';
const prisma = new PrismaClient();
const db = knex({ client: 'pg' });
const orm = drizzle('postgres://x');
const kdb = new Kysely<any>({} as never);
declare const jobs: { fence: unknown; id: unknown };
declare const cache: { users: { update(x: unknown): void } };
declare const Model: { query(): { update(x: unknown): void } };
export async function f(id: number, f: number) {
  await prisma.invoice.update({ where: { id, fence: { lt: f } }, data: { paid: true } });
  await prisma.invoice.createMany({ data: [], skipDuplicates: true });
  await prisma.$transaction(async (tx) => tx.invoice.delete({ where: { id } }));
  await db('jobs').where('fence', '<', f).update({ done: true });
  await db('jobs').where({ id }).del();
  await orm.update(jobs).set({ done: true }).where(lt(jobs.fence, f));
  await orm.insert(jobs).values({ id }).onConflictDoNothing();
  await kdb.updateTable('jobs').set({ done: true }).where('fence', '<', f).execute();
  await kdb.deleteFrom('jobs').where('id', '=', id).execute();
  const seen = new Map();
  seen.delete(id);
  cache.users.update({ id });
  Model.query().update({ id });
  await fetchThing('jobs').update({ id });
}
export class Repo {
  private readonly knex = knex({ client: 'pg' });
  async run(id: number) {
    await this.knex('jobs').where({ id }).update({ done: true });
  }
}
declare function fetchThing(x: string): { update(x: unknown): Promise<void> };
`),
      [
        [14, 'prisma', 'update', 'prisma', 'invoice', true, false],
        [15, 'prisma', 'createMany', 'prisma', 'invoice', false, true],
        [16, 'prisma', 'delete', 'tx', 'invoice', false, false],
        [17, 'knex', 'update', 'db', 'jobs', true, false],
        [18, 'knex', 'del', 'db', 'jobs', false, false],
        [19, 'drizzle', 'update', 'orm', 'jobs', true, false],
        [20, 'drizzle', 'insert', 'orm', 'jobs', false, true],
        [21, 'kysely', 'updateTable', 'kdb', 'jobs', true, false],
        [22, 'kysely', 'deleteFrom', 'kdb', 'jobs', false, false],
        [32, 'knex', 'update', 'this.knex', 'jobs', false, false],
      ],
    );
  });

  it('a fence is a `<` on a fence column: another column, or `<=` on no column, is none', () => {
    assert.deepEqual(
      writes(`import { PrismaClient } from '@prisma/client';
import knex from 'knex';
const prisma = new PrismaClient();
const db = knex({ client: 'pg' });
export async function f(id: number, f: number) {
  await prisma.invoice.update({ where: { id, version: { lt: f } }, data: { paid: true } });
  await prisma.invoice.update({ where: { id, fence: { lte: f } }, data: { paid: true } });
  await prisma.invoice.updateMany({ where: { AND: [{ id }, { fencing_token: { lt: f } }] }, data: { paid: true } });
  await db('jobs').where('fence', '>', f).update({ done: true });
  await db('jobs').where('version', '<', f).update({ done: true });
}`).map((write) => [write[0], write[5]]),
      [
        [6, false],
        [7, false],
        // Nested conditions are searched; the fence column list is the caller's.
        [8, false],
        [9, false],
        [10, false],
      ],
    );
  });

  it('reads the fence columns it is given', () => {
    const fenced = readAtEnd(
      `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function f(id: number, f: number) {
  await prisma.invoice.updateMany({ where: { AND: [{ id }, { fencing_token: { lt: f } }] }, data: { paid: true } });
}`,
      (context) => {
        const sourceCode = context.sourceCode;
        const senders = new SenderResolver(sourceCode, collectImports(sourceCode.ast), '/nonexistent/file.ts');
        const write = collectNodes(sourceCode)
          .calls.map((call) => findOrmWrite(call, senders))
          .find((found) => found !== undefined)!;
        return [ormWriteIsFenced(write, ['fence']), ormWriteIsFenced(write, ['fence', 'fencing_token'])];
      },
      { typescript: true },
    );
    assert.deepEqual(fenced, [false, true]);
  });
});
