// fixes/advisory-edits.ts: the edits the advisory-lock fixes share.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  advisoryFunctionRange,
  handleEdits,
  helperName,
  prismaExecuteEdits,
  unlockStatementEdit,
} from '../../../eslint-plugin/src/fixes/advisory-edits.js';
import { applyEdit, probe, spanBetween, type ProbedFile } from '../support/fix-probe.js';

const pg = (body: string) => `import { Pool } from 'pg';
const pool = new Pool();
export async function run(id: number) {
${body}
}`;

const LOCK = `  await pool.query('SELECT pg_advisory_lock($1)', [id]);`;
const UNLOCK = `await pool.query('SELECT pg_advisory_unlock($1)', [id]);`;

function items(file: ProbedFile) {
  const [lock, unlock] = file.model.sql.advisoryLocks;
  assert.ok(lock && unlock, 'expected a lock and its unlock');
  return { lock, unlock };
}

/** `code` with `edits` applied, last first so earlier offsets hold. */
function applyEdits(code: string, edits: readonly { readonly range: readonly [number, number]; readonly text: string }[]): string {
  return [...edits].sort((left, right) => right.range[0] - left.range[0]).reduce((text, edit) => applyEdit(text, edit), code);
}

describe('fixes/advisory-edits', () => {
  it("advisoryFunctionRange finds the function's name inside the SQL text", () => {
    const code = pg(`${LOCK}\n  await work();\n  ${UNLOCK}`);
    const renamed = probe(code, (file) => {
      const range = advisoryFunctionRange(file.sourceCode, items(file).lock);
      return range && applyEdit(code, { range, text: 'pg_advisory_xact_lock' });
    });
    assert.equal(renamed, pg(`${LOCK.replace('pg_advisory_lock', 'pg_advisory_xact_lock')}\n  await work();\n  ${UNLOCK}`));
  });

  describe('handleEdits', () => {
    it('sends the query through the handle instead of the pool', () => {
      const code = pg(`${LOCK}\n  ${UNLOCK}`);
      assert.equal(
        probe(code, (file) => applyEdits(code, handleEdits(items(file).lock, 'client'))),
        pg(`${LOCK.replace('pool.', 'client.')}\n  ${UNLOCK}`),
      );
    });

    it("names the transaction in Sequelize's options, adding them when absent", () => {
      const sequelize = (lock: string) => `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://localhost/db');
export async function run(id: number) {
  await ${lock};
  await sequelize.query('SELECT pg_advisory_unlock(:id)', { replacements: { id } });
}`;
      const lockWith = (options: string) => `sequelize.query('SELECT pg_advisory_lock(:id)'${options})`;
      const edited = (options: string, handle: string) => {
        const code = sequelize(lockWith(options));
        return probe(code, (file) => applyEdits(code, handleEdits(items(file).lock, handle)));
      };
      assert.equal(edited(', { replacements: { id } }', 'transaction'), sequelize(lockWith(', { replacements: { id }, transaction }')));
      assert.equal(edited(', { replacements: { id } }', 't'), sequelize(lockWith(', { replacements: { id }, transaction: t }')));
      assert.equal(edited(', {}', 't'), sequelize(lockWith(', { transaction: t }')));
    });
  });

  describe('unlockStatementEdit', () => {
    const unlocked = (code: string) =>
      probe(code, (file) => {
        const { lock, unlock } = items(file);
        const span = spanBetween(file.sourceCode, lock.node, unlock.node);
        assert.ok(span, 'no span');
        const edit = unlockStatementEdit(file.sourceCode, span, unlock);
        return edit && applyEdit(code, edit);
      });

    it('removes the unlock statement with its line', () => {
      assert.equal(unlocked(pg(`${LOCK}\n  await work();\n  ${UNLOCK}`)), pg(`${LOCK}\n  await work();`));
    });

    it('unwraps a try whose finally holds only the unlock', () => {
      assert.equal(
        unlocked(pg(`${LOCK}\n  try {\n    await work();\n    await more();\n  } finally {\n    ${UNLOCK}\n  }`)),
        pg(`${LOCK}\n  await work();\n    await more();`),
      );
    });

    it('leaves a finally that does more than unlock', () => {
      assert.equal(unlocked(pg(`${LOCK}\n  try {\n    await work();\n  } finally {\n    ${UNLOCK}\n    log();\n  }`)), undefined);
    });
  });

  it("helperName names each library's transaction helper", () => {
    assert.equal(helperName('pg', 'pool'), 'BEGIN');
    assert.equal(helperName('postgres', 'sql'), 'sql.begin');
    assert.equal(helperName('prisma', 'prisma'), 'prisma.$transaction');
    assert.equal(helperName('kysely', 'db'), 'db.transaction().execute');
    assert.equal(helperName('knex', 'db'), 'db.transaction');
  });

  describe('prismaExecuteEdits', () => {
    const prisma = (method: string, lockFunction: string) => `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function run(id: number) {
  await prisma.${method}\`SELECT ${lockFunction}(\${id})\`;
  await prisma.$queryRaw\`SELECT pg_advisory_unlock(\${id})\`;
}`;
    const switched = (code: string, functionName: string) =>
      probe(code, (file) => applyEdits(code, prismaExecuteEdits(items(file).lock, functionName)));

    it('moves a statement whose lock function returns void to $executeRaw', () => {
      assert.equal(switched(prisma('$queryRaw', 'pg_advisory_lock'), 'pg_advisory_xact_lock'), prisma('$executeRaw', 'pg_advisory_lock'));
    });

    it('keeps $queryRaw for a function whose answer is read, and other clients alone', () => {
      const tryLock = prisma('$queryRaw', 'pg_try_advisory_lock');
      assert.equal(switched(tryLock, 'pg_try_advisory_xact_lock'), tryLock);
      const code = pg(`${LOCK}\n  ${UNLOCK}`);
      assert.equal(switched(code, 'pg_advisory_xact_lock'), code);
    });
  });
});
