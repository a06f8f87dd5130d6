// fixes/atomic-set.ts: no-check-then-set's rewrite, the deciding read turned into one SET NX PX and the
// separate write removed.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { atomicSetFix } from '../../../eslint-plugin/src/fixes/atomic-set.js';
import { applyFix, checkThenSetRead, probe } from '../support/fix-probe.js';
import { dialectSource } from './dialect-sources.js';

const ioredis = dialectSource('ioredis');
const nodeRedis = dialectSource('node-redis');

/** The first SET-like write that a read decided, with that read. */
function decided(file: Parameters<Parameters<typeof probe>[1]>[0]) {
  for (const write of file.model.redis.commands) {
    if (write.name !== 'SET' && write.name !== 'SETEX' && write.name !== 'PSETEX') continue;
    const decider = checkThenSetRead(file.sourceCode, file.model.redis, write);
    if (decider) return { write, decider };
  }
  assert.fail('no write decided by a read');
}

function rewritten(code: string): string | undefined {
  return applyFix(code, (file) => {
    const { write, decider } = decided(file);
    return atomicSetFix(file.sourceCode, write, decider, '30000')?.apply;
  });
}

describe('fixes/atomic-set', () => {
  it("turns the test into the SET NX PX and drops the write and the read's declaration", () => {
    const code = ioredis.code(`const holder = await redis.get(key);
  if (holder) return;
  await redis.set(key, token);
  await work();`);
    assert.equal(
      rewritten(code),
      ioredis.code(`if (!(await redis.set(key, token, 'PX', 30000, 'NX'))) return;
  await work();`),
    );
  });

  it("keeps the write's own TTL, in milliseconds", () => {
    const code = nodeRedis.code(`if (await redis.exists(key)) return;
  await redis.set(key, token, { EX: 10 });`);
    assert.equal(rewritten(code), nodeRedis.code(`if (!(await redis.set(key, token, { NX: true, PX: 10000 }))) return;`));
    const setex = ioredis.code(`if (await redis.get(key)) return;
  await redis.setex(key, ttl, token);`);
    assert.equal(rewritten(setex), ioredis.code(`if (!(await redis.set(key, token, 'PX', ttl * 1000, 'NX'))) return;`));
  });

  it('turns `if (!held) await redis.set(...)` as a whole into the SET', () => {
    const code = ioredis.code(`if (!(await redis.get(key))) await redis.set(key, token);`);
    assert.equal(rewritten(code), ioredis.code(`await redis.set(key, token, 'PX', 30000, 'NX');`));
  });

  it('keeps the read when a line other than the test reads it', () => {
    const code = ioredis.code(`const holder = await redis.get(key);
  console.log(holder);
  if (holder) return;
  await redis.set(key, token);`);
    assert.equal(
      rewritten(code),
      ioredis.code(`const holder = await redis.get(key);
  console.log(holder);
  if (!(await redis.set(key, token, 'PX', 30000, 'NX'))) return;`),
    );
  });

  it('reports the TTL it writes', () => {
    const code = ioredis.code(`if (await redis.get(key)) return;\n  await redis.set(key, token, 'PX', 5000);`);
    assert.equal(
      probe(code, (file) => {
        const { write, decider } = decided(file);
        return atomicSetFix(file.sourceCode, write, decider, '30000')?.ttlText;
      }),
      '5000',
    );
  });

  it('declines an absolute expiry and a value declared after the test', () => {
    assert.equal(rewritten(ioredis.code(`if (await redis.get(key)) return;\n  await redis.set(key, token, 'PXAT', deadline);`)), undefined);
    assert.equal(
      rewritten(ioredis.code(`if (await redis.get(key)) return;\n  const mine = token + '1';\n  await redis.set(key, mine);`)),
      undefined,
    );
  });
});
