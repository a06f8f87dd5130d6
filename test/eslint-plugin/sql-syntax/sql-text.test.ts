import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { buildSqlText } from '../../../eslint-plugin/src/sql-syntax/index.js';

describe('sql text', () => {
  it('turns interpolations into $n after the highest written $n', () => {
    const sql = buildSqlText(
      [
        { kind: 'text', text: 'UPDATE t SET a = $1 WHERE id = ', sourceStart: 10, sourceEnd: 41, verbatim: true },
        { kind: 'parameter', sourceStart: 41, sourceEnd: 46 },
        { kind: 'text', text: '', sourceStart: 46, sourceEnd: 46, verbatim: true },
      ],
      { driverPlaceholders: false },
    );
    assert.equal(sql.text, 'UPDATE t SET a = $1 WHERE id = $2');
    assert.deepEqual(sql.interpolationNumbers, [2]);
    assert.equal(sql.toSourceOffset(4), 14);
    assert.equal(sql.toSourceOffset(sql.text.length), 46);
  });

  it('knex and Sequelize placeholders: ?, ?? and :name, never :: casts or quoted text', () => {
    const sql = buildSqlText(
      [
        {
          kind: 'text',
          text: "SELECT ?? FROM t WHERE a = ? AND b = :name AND c = :name AND d::int = 1 AND e = ':x'",
          sourceStart: 0,
          sourceEnd: 84,
          verbatim: true,
        },
      ],
      { driverPlaceholders: true },
    );
    assert.equal(sql.text, `SELECT "identifier" FROM t WHERE a = $1 AND b = $2 AND c = $2 AND d::int = 1 AND e = ':x'`);
    assert.equal(sql.questionMarks, true);
    assert.deepEqual([...sql.namedParameters], [['name', 2]]);
  });

  it('maps no offset inside text the source spells differently', () => {
    const sql = buildSqlText([{ kind: 'text', text: "SELECT 'it''s'", sourceStart: 0, sourceEnd: 20, verbatim: false }], {
      driverPlaceholders: false,
    });
    assert.equal(sql.toSourceOffset(3), undefined);
    assert.equal(sql.toSourceOffset(0), 0);
  });
});
