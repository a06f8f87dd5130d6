// fixes/setnx-to-set.ts: a SETNX rewritten into one atomic SET NX PX, its reply kept as code reads it.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { setnxToAtomicSet } from '../../../eslint-plugin/src/fixes/setnx-to-set.js';
import { applyEdit, probe } from '../support/fix-probe.js';
import { dialectSource, type DialectSource } from './dialect-sources.js';

const ioredis = dialectSource('ioredis');
const nodeRedis = dialectSource('node-redis');
const nodeRedisV5 = dialectSource('node-redis-v5');
const nodeRedisV3 = dialectSource('node-redis-v3');
const upstash = dialectSource('upstash');

/** `code` with its SETNX rewritten (TTL `ttl`), or undefined when the fix declines. */
function rewritten(source: DialectSource, body: string): string | undefined {
  const code = source.code(body);
  const edit = probe(
    code,
    (file) => {
      const setnx = file.model.redis.commands.find((command) => command.name === 'SETNX');
      assert.ok(setnx, 'no SETNX');
      return setnxToAtomicSet(file.sourceCode, setnx, 'ttl');
    },
    source.options,
  );
  return edit && applyEdit(code, edit);
}

describe('fixes/setnx-to-set', () => {
  it("writes the dialect's SET NX PX where the reply is only tested", () => {
    assert.equal(
      rewritten(ioredis, 'if (!(await redis.setnx(key, token))) return;'),
      ioredis.code(`if (!(await redis.set(key, token, 'PX', ttl, 'NX'))) return;`),
    );
    assert.equal(
      rewritten(nodeRedis, 'if (!(await redis.setNX(key, token))) return;'),
      nodeRedis.code('if (!(await redis.set(key, token, { NX: true, PX: ttl }))) return;'),
    );
    assert.equal(
      rewritten(nodeRedisV5, 'if (!(await redis.setNX(key, token))) return;'),
      nodeRedisV5.code(`if (!(await redis.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: ttl } }))) return;`),
    );
    assert.equal(
      rewritten(upstash, 'if (!(await redis.setnx(key, token))) return;'),
      upstash.code('if (!(await redis.set(key, token, { nx: true, px: ttl }))) return;'),
    );
  });

  it("maps SET's OK/null back to SETNX's 1/0 where code compares the reply", () => {
    assert.equal(
      rewritten(ioredis, 'const taken = await redis.setnx(key, token);\n  if (taken === 1) await work();'),
      ioredis.code(
        `const taken = await redis.set(key, token, 'PX', ttl, 'NX').then((reply) => (reply === 'OK' ? 1 : 0));\n  if (taken === 1) await work();`,
      ),
    );
  });

  it('rewrites only the text before a node_redis v3 callback, which stays as written', () => {
    assert.equal(
      rewritten(nodeRedisV3, 'client.setnx(key, token, (error, reply) => done(error, reply === 1));'),
      nodeRedisV3.code(`client.set(key, token, 'NX', 'PX', ttl, (error, reply) => done(error, reply === 1));`),
    );
  });

  it('keeps a queued (MULTI) reply as SET gives it', () => {
    assert.equal(
      rewritten(ioredis, 'await redis.multi().setnx(key, token).exec();'),
      ioredis.code(`await redis.multi().set(key, token, 'PX', ttl, 'NX').exec();`),
    );
  });

  it('declines a SETNX without a value', () => {
    assert.equal(rewritten(ioredis, 'await redis.setnx(key);'), undefined);
  });
});
