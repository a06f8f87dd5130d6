// How each SQL library hands back a query's rows: the shape result-flow follows a try-lock's boolean in.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { resultShapeOf } from '../../../../eslint-plugin/src/model/tables/sql-results.js';

describe('resultShapeOf', () => {
  it('pg and kysely answer a result object (`rows` inside it)', () => {
    assert.equal(resultShapeOf('pg', 'query'), 'result');
    assert.equal(resultShapeOf('kysely', 'execute'), 'result');
  });

  it('postgres.js and TypeORM answer the rows themselves', () => {
    assert.equal(resultShapeOf('postgres', 'unsafe'), 'rows');
    assert.equal(resultShapeOf('typeorm', 'query'), 'rows');
  });

  it('knex and Prisma: only their raw queries have a known shape', () => {
    assert.equal(resultShapeOf('knex', 'raw'), 'result');
    assert.equal(resultShapeOf('knex', 'select'), 'unknown');
    assert.equal(resultShapeOf('prisma', '$queryRaw'), 'rows');
    assert.equal(resultShapeOf('prisma', '$queryRawUnsafe'), 'rows');
    // `$executeRaw` answers a count of rows, not the rows.
    assert.equal(resultShapeOf('prisma', '$executeRaw'), 'unknown');
  });

  it('a library it does not know answers an unknown shape', () => {
    assert.equal(resultShapeOf('sequelize', 'query'), 'unknown');
    assert.equal(resultShapeOf('unknown', 'query'), 'unknown');
  });
});
