// fixes/random-token.ts: a token minted per acquisition in place of a shared value, sent wherever the
// function stores or compares that value for the same lock.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { randomTokenFix } from '../../../eslint-plugin/src/fixes/random-token.js';
import { RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';
import { renderScriptLiteral } from '../../../eslint-plugin/src/fixes/templates.js';
import { applyFix } from '../support/fix-probe.js';

const RELEASE = renderScriptLiteral(RELEASE_SCRIPT);

/** `code` with the first acquisition's value replaced by a minted token, or undefined when the fix declines. */
function minted(code: string): string | undefined {
  return applyFix(code, (file) => {
    const acquisition = file.model.redis.acquisitions[0];
    assert.ok(acquisition?.value, 'no acquisition with a value');
    return randomTokenFix(file.sourceCode, file.model.redis, acquisition);
  });
}

const module = (body: string, head = '') => `import Redis from 'ioredis';
const redis = new Redis();
const WORKER = 'worker-1';${head}
export async function run() {
${body}
}`;

describe('fixes/random-token', () => {
  it('mints a token before the acquisition and sends it to the release of the same lock', () => {
    const body = (
      value: string,
      declaration = '',
    ) => `${declaration}  if (!(await redis.set('lock:report', ${value}, 'PX', 30000, 'NX'))) return;
  await work();
  await redis.eval(${RELEASE}, 1, 'lock:report', ${value});`;
    assert.equal(minted(module(body('WORKER'))), module(body('token', '  const token = crypto.randomUUID();\n')));
  });

  it('leaves a release of another lock with its own value', () => {
    const body = (value: string, declaration = '') => `${declaration}  await redis.set('lock:a', ${value}, 'PX', 30000, 'NX');
  await redis.eval(${RELEASE}, 1, 'lock:b', 'worker-1');`;
    assert.equal(minted(module(body(`'worker-1'`))), module(body('token', '  const token = crypto.randomUUID();\n')));
  });

  it("mints in place of a local constant's initialiser", () => {
    const body = (init: string) => `  const value = ${init};
  await redis.set('lock:a', value, 'PX', 30000, 'NX');
  await redis.eval(${RELEASE}, 1, 'lock:a', value);`;
    assert.equal(minted(module(body(`'locked'`))), module(body('crypto.randomUUID()')));
  });

  it("picks a free name and calls randomUUID through the module's import", () => {
    const body = (value: string, declaration = '') => `  const token = 1;
${declaration}  await redis.set('lock:a', ${value}, 'PX', 30000, 'NX');`;
    const head = `\nimport { randomUUID } from 'node:crypto';`;
    assert.equal(minted(module(body('WORKER'), head)), module(body('token2', '  const token2 = randomUUID();\n'), head));
  });

  it('declines when the function compares the stored value with it: a re-entered lease', () => {
    const body = `  if ((await redis.get('lock:leader')) === WORKER) return;
  await redis.set('lock:leader', WORKER, 'PX', 30000, 'NX');`;
    assert.equal(minted(module(body)), undefined);
  });

  it('declines when a release in another function sends the same value', () => {
    const code = `${module(`  await redis.set('lock:a', WORKER, 'PX', 30000, 'NX');`)}
export async function stop() {
  await redis.eval(${RELEASE}, 1, 'lock:a', WORKER);
}`;
    assert.equal(minted(code), undefined);
  });
});
