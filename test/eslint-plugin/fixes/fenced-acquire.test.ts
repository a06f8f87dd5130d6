// fixes/fenced-acquire.ts: a SET NX swapped for the fenced acquire script, whose result becomes the
// fence, and the UPDATE under the lock made to store and compare it in its own placeholder style.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { fencedFix } from '../../../eslint-plugin/src/fixes/fenced-acquire.js';
import { FENCED_ACQUIRE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';
import { renderScriptLiteral } from '../../../eslint-plugin/src/fixes/templates.js';
import { applyFix, probe } from '../support/fix-probe.js';

const SCRIPT = renderScriptLiteral(FENCED_ACQUIRE_SCRIPT);

const ioredis = (
  acquire: string,
  write: string,
  head = `import { Pool } from 'pg';\nconst pool = new Pool();`,
) => `import Redis from 'ioredis';
${head}
const redis = new Redis();
export async function run(token: string, id: number) {
  const acquired = await ${acquire};
  if (!acquired) return;
  await ${write};
}`;

const fenced = (code: string) =>
  applyFix(code, (file) => {
    const lock = file.model.locks.all[0];
    const write = file.model.sql.writes[0];
    assert.ok(lock && write, 'no lock or no write');
    return fencedFix(file.sourceCode, lock, write, 'fence')?.apply;
  });

describe('fixes/fenced-acquire', () => {
  it("acquires with the script (counter key in the lock key's slot) and binds the fence as $n", () => {
    const code = ioredis(
      `redis.set('lock:invoice', token, 'PX', 30000, 'NX')`,
      `pool.query("UPDATE invoice_state SET last_run = 'done' WHERE id = $1", [id])`,
    );
    assert.equal(
      fenced(code),
      ioredis(
        `redis.eval(${SCRIPT}, 2, 'lock:invoice', '{lock:invoice}:fence', token, 30000)`,
        `pool.query("UPDATE invoice_state SET last_run = 'done', fence = $2 WHERE id = $1 AND fence < $2", [id, acquired])`,
      ),
    );
  });

  it('starts a WHERE and a values array when the UPDATE has neither', () => {
    const code = ioredis(`redis.set('lock:invoice', token, 'EX', 30, 'NX')`, `pool.query("UPDATE invoice_state SET last_run = 'done'")`);
    assert.equal(
      fenced(code),
      ioredis(
        `redis.eval(${SCRIPT}, 2, 'lock:invoice', '{lock:invoice}:fence', token, 30 * 1000)`,
        `pool.query("UPDATE invoice_state SET last_run = 'done', fence = $1 WHERE fence < $1", [acquired])`,
      ),
    );
  });

  it('interpolates the fence into a tagged template', () => {
    const head = `import postgres from 'postgres';\nconst sql = postgres();`;
    const code = ioredis(
      `redis.set(\`lock:\${id}\`, token, 'PX', 30000, 'NX')`,
      'sql`UPDATE invoice_state SET last_run = ${token} WHERE id = ${id}`',
      head,
    );
    assert.equal(
      fenced(code),
      ioredis(
        `redis.eval(${SCRIPT}, 2, \`lock:\${id}\`, \`{lock:\${id}}:fence\`, token, 30000)`,
        'sql`UPDATE invoice_state SET last_run = ${token}, fence = ${acquired} WHERE id = ${id} AND fence < ${acquired}`',
        head,
      ),
    );
  });

  it('binds the fence twice, where its two ? fall, for knex', () => {
    const head = `import knex from 'knex';\nconst db = knex({ client: 'pg' });`;
    const code = ioredis(
      `redis.set('lock:{invoice}', token, 'PX', 30000, 'NX')`,
      `db.raw('UPDATE invoice_state SET last_run = ? WHERE id = ?', ['done', id])`,
      head,
    );
    assert.equal(
      fenced(code),
      ioredis(
        `redis.eval(${SCRIPT}, 2, 'lock:{invoice}', '{invoice}:fence', token, 30000)`,
        `db.raw('UPDATE invoice_state SET last_run = ?, fence = ? WHERE id = ? AND fence < ?', ['done', acquired, id, acquired])`,
        head,
      ),
    );
  });

  it("declines when the acquisition's result is read as more than a condition", () => {
    const code = ioredis(
      `redis.set('lock:invoice', token, 'PX', 30000, 'NX')`,
      `pool.query("UPDATE invoice_state SET last_run = $2 WHERE id = $1", [id, acquired])`,
    );
    assert.equal(
      probe(code, (file) => fencedFix(file.sourceCode, file.model.locks.all[0]!, file.model.sql.writes[0]!, 'fence')),
      undefined,
    );
  });
});
