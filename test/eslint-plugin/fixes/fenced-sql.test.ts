// fixes/fenced-sql.ts: the two whole statements the runtime proofs run. They run against PostgreSQL
// in test/proofs; here, that they parse and hold the guard each exists for.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { FENCED_UPDATE_SQL, GUARDED_LOCK_UPSERT_SQL } from '../../../eslint-plugin/src/fixes/fenced-sql.js';
import { renderFencedUpdate, renderPlaceholder, renderTakeoverGuard } from '../../../eslint-plugin/src/fixes/sql-templates.js';
import { parseSql } from '../../../eslint-plugin/src/sql-syntax/parse.js';

describe('fixes/fenced-sql', () => {
  it('both statements parse as one PostgreSQL statement each', () => {
    assert.equal(parseSql(FENCED_UPDATE_SQL)?.length, 1);
    assert.equal(parseSql(GUARDED_LOCK_UPSERT_SQL)?.length, 1);
  });

  it("the fenced UPDATE is what renderFencedUpdate writes for the proofs' table", () => {
    const fence = renderPlaceholder('dollar', { number: 1, expression: 'fence' });
    assert.equal(
      FENCED_UPDATE_SQL,
      renderFencedUpdate({ table: 'invoice_state', assignments: [`last_run = 'done'`], where: 'id = $2', fence }),
    );
  });

  it('the upsert takes a row over only once its lock has expired, and returns the owner', () => {
    assert.ok(GUARDED_LOCK_UPSERT_SQL.includes(`${renderTakeoverGuard('locks', 'expires_at')}\nRETURNING owner`), GUARDED_LOCK_UPSERT_SQL);
    assert.match(GUARDED_LOCK_UPSERT_SQL, /^INSERT INTO locks \(name, owner, expires_at\)\nVALUES \(\$1, \$2,/u);
  });
});
