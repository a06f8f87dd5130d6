// fixes/drop-lock.ts: a lock around one statement dropped, for the plain layouts only.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { dropLockFix } from '../../../eslint-plugin/src/fixes/drop-lock.js';
import { RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';
import { renderScriptLiteral } from '../../../eslint-plugin/src/fixes/templates.js';
import { applyFix } from '../support/fix-probe.js';

const RELEASE = renderScriptLiteral(RELEASE_SCRIPT);
const WORK = `pool.query('UPDATE invoices SET sent = true WHERE id = $1', [id])`;

const module = (body: string) => `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function run(id: number) {
${body}
}`;

const dropped = (code: string) =>
  applyFix(code, (file) => {
    const lock = file.model.locks.all[0];
    assert.ok(lock, 'no lock');
    return dropLockFix(file.sourceCode, lock, file.node(WORK, AST_NODE_TYPES.CallExpression));
  });

describe('fixes/drop-lock', () => {
  it('drops the token, acquisition, guard and try/finally release, keeping the statement', () => {
    const code = module(`  const token = randomUUID();
  const ok = await redis.set(\`lock:\${id}\`, token, 'PX', 30000, 'NX');
  if (!ok) return;
  try {
    await ${WORK};
  } finally {
    await redis.eval(${RELEASE}, 1, \`lock:\${id}\`, token);
  }`);
    assert.equal(dropped(code), module(`  await ${WORK};`));
  });

  it('drops an acquisition statement and a release that follows the work directly', () => {
    const code = module(`  await redis.set(\`lock:\${id}\`, 'x', 'PX', 30000, 'NX');
  await ${WORK};
  await redis.del(\`lock:\${id}\`);`);
    assert.equal(dropped(code), module(`  await ${WORK};`));
  });

  it('keeps a token that the work reads', () => {
    const code = module(`  const token = randomUUID();
  const ok = await redis.set(\`lock:\${id}\`, token, 'PX', 30000, 'NX');
  if (!ok) return;
  await ${WORK.replace('[id]', '[id, token]')};
  await redis.eval(${RELEASE}, 1, \`lock:\${id}\`, token);`);
    assert.equal(
      applyFix(code, (file) => {
        const lock = file.model.locks.all[0];
        assert.ok(lock);
        return dropLockFix(file.sourceCode, lock, file.node(WORK.replace('[id]', '[id, token]'), AST_NODE_TYPES.CallExpression));
      }),
      module(`  const token = randomUUID();
  await ${WORK.replace('[id]', '[id, token]')};`),
    );
  });

  it("unwraps redlock's using() callback of one statement", () => {
    const code = `import Redlock from 'redlock';
const redlock = new Redlock([]);
export async function run(id: number) {
  await redlock.using([\`lock:\${id}\`], 30000, async () => {
    await ${WORK};
  });
}`;
    assert.equal(
      dropped(code),
      `import Redlock from 'redlock';
const redlock = new Redlock([]);
export async function run(id: number) {
  await ${WORK};
}`,
    );
  });

  it('declines when anything else runs between the acquisition and the release', () => {
    const code = module(`  await redis.set(\`lock:\${id}\`, 'x', 'PX', 30000, 'NX');
  await ${WORK};
  audit(id);
  await redis.del(\`lock:\${id}\`);`);
    assert.equal(dropped(code), undefined);
  });
});
