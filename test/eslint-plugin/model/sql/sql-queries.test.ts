// Where SQL is written and who sends it (sql/sql-queries.ts): text passed to a query method (inline, a
// module constant, a pg QueryConfig), a postgres.js or Prisma tagged template, a builder template run on
// a client (kysely's `sql\`…\`.execute(db)`), with the JavaScript bound to each `$n` whichever way the
// library binds it (an array, Sequelize replacements, knex named bindings, Prisma's rest arguments).
// A method named `query` or `execute` with no SQL text, and a template tag that is no SQL, are no queries.

import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { collectImports } from '../../../../eslint-plugin/src/model/facts/imports.js';
import { SenderResolver } from '../../../../eslint-plugin/src/model/sql/senders.js';
import { findQuery, sourceParts } from '../../../../eslint-plugin/src/model/sql/sql-queries.js';
import { collectNodes } from '../../../../eslint-plugin/src/util/collect-nodes.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each query found in the file: line, method, sender, library, tagged, the SQL text, the bound parameters' text, an options object. */
function queries(code: string): unknown[][] {
  return readAtEnd(
    code,
    (context) => {
      const sourceCode = context.sourceCode;
      const imports = collectImports(sourceCode.ast);
      const senders = new SenderResolver(sourceCode, imports, '/nonexistent/file.ts');
      const collected = collectNodes(sourceCode);
      const candidates: (TSESTree.CallExpression | TSESTree.TaggedTemplateExpression)[] = [
        ...collected.calls,
        ...collected.taggedTemplates,
      ].sort((left, right) => left.range[0] - right.range[0]);
      return candidates.flatMap((node) => {
        const query = findQuery(node, sourceCode, imports, senders);
        if (!query) return [];
        return [
          [
            node.loc.start.line,
            query.method,
            query.sender.text,
            query.sender.library,
            query.tagged,
            query.sql.text,
            query.parameters.map((parameter) => parameter && sourceCode.getText(parameter)),
            query.options !== undefined,
          ],
        ];
      });
    },
    { typescript: true },
  );
}

describe('sql-queries: findQuery', () => {
  it('finds SQL in each place a library takes it, with its sender and bound values', () => {
    assert.deepEqual(
      queries(`import { Pool } from 'pg';
import postgres from 'postgres';
import knex from 'knex';
import { PrismaClient } from '@prisma/client';
import { Sequelize } from 'sequelize';
import { Kysely, sql as kyselySql } from 'kysely';
const pool = new Pool();
const sql = postgres('postgres://x');
const db = knex({ client: 'pg' });
const prisma = new PrismaClient();
const sequelize = new Sequelize('postgres://x');
const kysely = new Kysely<unknown>({} as never);
const RELEASE_SQL = 'SELECT pg_advisory_unlock($1)';
declare const cache: { execute(job: unknown): void; query(text: string): void };
declare function html(strings: TemplateStringsArray, ...values: unknown[]): string;
export async function f(id: number, a: string, t: unknown) {
  await pool.query('SELECT pg_advisory_lock($1)', [id]);
  await pool.query({ text: 'UPDATE jobs SET a = $1 WHERE id = $2', values: [a, id] });
  await pool.query(RELEASE_SQL, [id]);
  await pool.query(\`UPDATE jobs SET a = \${a} WHERE id = $1\`, [id]);
  await sql\`UPDATE jobs SET a = \${a} WHERE id = \${id}\`;
  await prisma.$queryRaw\`SELECT pg_try_advisory_lock(\${id})\`;
  await prisma.$executeRawUnsafe('UPDATE jobs SET a = $1 WHERE id = $2', a, id);
  await sequelize.query('UPDATE jobs SET a = ? WHERE id = ?', { replacements: [a, id], transaction: t });
  await db.raw('UPDATE jobs SET a = :a WHERE id = :id', { a, id });
  await kyselySql\`UPDATE jobs SET a = \${a}\`.execute(kysely);
  cache.execute({ id });
  cache.query('hello world');
  html\`<div>\${a}</div>\`;
  await pool.query('-- take the lock\\nSELECT pg_advisory_lock(1)');
}
`),
      [
        [17, 'query', 'pool', 'pg', false, 'SELECT pg_advisory_lock($1)', ['id'], false],
        [18, 'query', 'pool', 'pg', false, 'UPDATE jobs SET a = $1 WHERE id = $2', ['a', 'id'], false],
        // A module constant's text.
        [19, 'query', 'pool', 'pg', false, 'SELECT pg_advisory_unlock($1)', ['id'], false],
        // An untagged template's interpolation is numbered after the placeholders the text already has.
        [20, 'query', 'pool', 'pg', false, 'UPDATE jobs SET a = $2 WHERE id = $1', ['id', 'a'], false],
        [21, 'sql', 'sql', 'postgres', true, 'UPDATE jobs SET a = $1 WHERE id = $2', ['a', 'id'], false],
        [22, '$queryRaw', 'prisma', 'prisma', true, 'SELECT pg_try_advisory_lock($1)', ['id'], false],
        [23, '$executeRawUnsafe', 'prisma', 'prisma', false, 'UPDATE jobs SET a = $1 WHERE id = $2', ['a', 'id'], false],
        // Driver placeholders (`?`, `:name`) are numbered like `$n`.
        [24, 'query', 'sequelize', 'sequelize', false, 'UPDATE jobs SET a = $1 WHERE id = $2', ['a', 'id'], true],
        [25, 'raw', 'db', 'knex', false, 'UPDATE jobs SET a = $1 WHERE id = $2', ['a', 'id'], true],
        [26, 'execute', 'kysely', 'kysely', true, 'UPDATE jobs SET a = $1', ['a'], false],
        // A leading comment does not hide the statement.
        [30, 'query', 'pool', 'pg', false, '-- take the lock\nSELECT pg_advisory_lock(1)', [], false],
      ],
    );
  });

  it('a builder template is sent by the call that runs it, never on its own; an unknown tag only when named like SQL', () => {
    assert.deepEqual(
      queries(`import { sql } from 'kysely';
declare const db: { execute(query: unknown): Promise<void> };
declare function tx(strings: TemplateStringsArray, ...values: unknown[]): Promise<void>;
declare function gql(strings: TemplateStringsArray, ...values: unknown[]): string;
declare function render(query: unknown): void;
export async function f(id: number) {
  const statement = sql\`UPDATE jobs SET done = true WHERE id = \${id}\`;
  await db.execute(sql\`DELETE FROM jobs WHERE id = \${id}\`);
  await tx\`UPDATE jobs SET done = true WHERE id = \${id}\`;
  gql\`query { jobs { id } }\`;
  gql\`UPDATE jobs SET done = true\`;
  render(statement);
}`).map((query) => query.slice(0, 5)),
      [
        [8, 'execute', 'db', 'unknown', true],
        [9, 'sql', 'tx', 'unknown', true],
      ],
    );
  });
});

describe('sql-queries: sourceParts', () => {
  it('splits a template into its text and parameter parts, with their source offsets', () => {
    const parts = readAtEnd("const q = `UPDATE t SET a = ${a} WHERE id = ${id}`;\nconst s = 'SELECT 1';", (context) => {
      const declarations = context.sourceCode.ast.body as TSESTree.VariableDeclaration[];
      return declarations.map((declaration) =>
        sourceParts(declaration.declarations[0].init as never, context.sourceCode).map((part) =>
          part.kind === 'text'
            ? [part.kind, part.text, part.verbatim]
            : [part.kind, context.sourceCode.text.slice(part.sourceStart, part.sourceEnd)],
        ),
      );
    });
    assert.deepEqual(parts, [
      [
        ['text', 'UPDATE t SET a = ', true],
        ['parameter', '${a}'],
        ['text', ' WHERE id = ', true],
        ['parameter', '${id}'],
        ['text', '', true],
      ],
      [['text', 'SELECT 1', true]],
    ]);
  });
});
