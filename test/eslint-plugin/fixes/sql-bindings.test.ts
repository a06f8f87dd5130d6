// fixes/sql-bindings.ts: one more value bound into an existing query, in the query's own placeholder
// dialect, and the dialect itself.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { bindParameter, placeholderStyleOf } from '../../../eslint-plugin/src/fixes/sql-bindings.js';
import { applyFix, probe, type ProbedFile } from '../support/fix-probe.js';

const pg = (query: string) => `import { Pool } from 'pg';
const pool = new Pool();
export async function run(a: string, b: string, c: string) {
  await pool.query(${query});
}`;
const knex = (query: string) => `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function run(a: string, b: string, c: string) {
  await db.raw(${query});
}`;
const postgresJs = (query: string) => `import postgres from 'postgres';
const sql = postgres();
export async function run(a: string, b: string) {
  await sql\`${query}\`;
}`;
const sequelize = (query: string) => `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://localhost/db');
export async function run(a: string, b: string) {
  await sequelize.query(${query});
}`;

function onlyQuery(file: ProbedFile) {
  const [query] = file.model.sql.queries;
  assert.ok(query, 'no query');
  return query;
}

const styleOf = (code: string) => probe(code, (file) => placeholderStyleOf(onlyQuery(file), file.sourceCode));

/** `code` with `b` bound where `before` ends in the normalised SQL text (the end when not given), and the placeholder written. */
function bound(code: string, before?: string): { placeholder: string; code: string | undefined } | undefined {
  let placeholder: string | undefined;
  const fixed = applyFix(code, (file) => {
    const query = onlyQuery(file);
    const offset = before === undefined ? query.sql.text.length : query.sql.text.indexOf(before) + before.length;
    const binding = bindParameter(file.sourceCode, query, 'b', offset);
    placeholder = binding?.placeholder;
    return binding?.bind;
  });
  return placeholder === undefined ? undefined : { placeholder, code: fixed };
}

describe('fixes/sql-bindings', () => {
  describe('placeholderStyleOf', () => {
    it("tells each library's dialect", () => {
      assert.equal(styleOf(pg(`'SELECT 1 FROM t WHERE a = $1', [a]`)), 'dollar');
      assert.equal(styleOf(postgresJs('SELECT 1 FROM t WHERE a = ${a}')), 'tagged');
      assert.equal(styleOf(knex(`'SELECT 1 FROM t WHERE a = ?', [a]`)), 'question');
      assert.equal(styleOf(sequelize(`'SELECT 1 FROM t WHERE a = ?', { replacements: [a] }`)), 'question');
      assert.equal(styleOf(sequelize(`'SELECT 1 FROM t WHERE a = $1', { bind: [a] }`)), 'dollar');
    });

    it('is unclear for mixed placeholders, named parameters, or Sequelize with none yet', () => {
      assert.equal(styleOf(knex(`'SELECT 1 FROM t WHERE a = ? AND b = $1', [a, b]`)), undefined);
      assert.equal(styleOf(knex(`'SELECT 1 FROM t WHERE a = :a', { a }`)), undefined);
      assert.equal(styleOf(sequelize(`'SELECT 1 FROM t'`)), undefined);
    });
  });

  describe('bindParameter', () => {
    it('appends $n+1 and the value to a pg values array', () => {
      assert.deepEqual(bound(pg(`'DELETE FROM t WHERE a = $1', [a]`)), {
        placeholder: '$2',
        code: pg(`'DELETE FROM t WHERE a = $1', [a, b]`),
      });
    });

    it('adds a values array to a query that has none', () => {
      assert.deepEqual(bound(pg(`'DELETE FROM t'`)), { placeholder: '$1', code: pg(`'DELETE FROM t', [b]`) });
    });

    it('reuses the parameter already bound to the same expression', () => {
      assert.deepEqual(bound(pg(`'DELETE FROM t WHERE a = $1 AND x = $2', [a, b]`)), { placeholder: '$2', code: undefined });
    });

    it('inserts a ? value where its placeholder falls', () => {
      assert.deepEqual(bound(knex(`'DELETE FROM t WHERE a = ? AND c = ?', [a, c]`), 'a = $1'), {
        placeholder: '?',
        code: knex(`'DELETE FROM t WHERE a = ? AND c = ?', [a, b, c]`),
      });
    });

    it('interpolates into a tagged template, with nothing else to bind', () => {
      assert.deepEqual(bound(postgresJs('DELETE FROM t WHERE a = ${a}')), { placeholder: '${b}', code: undefined });
    });

    it("declines values that are not a plain array of the text's parameters", () => {
      assert.equal(bound(pg(`'DELETE FROM t WHERE a = $1', values`)), undefined);
      assert.equal(bound(pg(`'DELETE FROM t WHERE a = $1', [...values]`)), undefined);
      assert.equal(bound(pg(`'DELETE FROM t', [a]`)), undefined);
    });
  });
});
