// The token screen never turns away a file the full analysis would find something in: every
// method the model treats as Redis-specific passes it on its own.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  CHAIN_METHODS,
  GENERIC_COMMAND_METHODS,
  GENERIC_METHOD_NAMES,
  REDIS_METHODS,
} from '../../../../eslint-plugin/src/model/tables/redis-clients.js';
import { mayUseRedis } from '../../../../eslint-plugin/src/model/screen/redis-gate.js';
import { readAtEnd } from '../../../support/probe-rule.js';

function gate(code: string, helpers: readonly string[] = []): boolean {
  return readAtEnd(code, (context) => mayUseRedis(context.sourceCode, new Set(helpers)));
}

describe('mayUseRedis', () => {
  const specific = [...Object.keys(REDIS_METHODS), ...GENERIC_COMMAND_METHODS, ...CHAIN_METHODS].filter(
    (method) => !GENERIC_METHOD_NAMES.has(method) && method !== 'batch',
  );
  for (const method of specific) {
    it(`lets \`store.${method}(...)\` through on an unknown receiver`, () => {
      assert.equal(gate(`store.${method}('k', 'v');`), true);
    });
  }

  for (const method of GENERIC_METHOD_NAMES) {
    it(`lets \`redisClient.${method}(...)\` through and stops \`cache.${method}(...)\``, () => {
      assert.equal(gate(`redisClient.${method}('lock:a');`), true);
      assert.equal(gate(`cache.${method}('lock:a');`), false);
    });
  }

  it('lets a file that imports a Redis or lock package through', () => {
    assert.equal(gate(`import Redlock from 'redlock'; export const x = 1;`), true);
    assert.equal(gate(`const { Mutex } = require('redis-semaphore');`), true);
  });

  it('lets a call of a configured lock helper through', () => {
    assert.equal(gate(`await obtainMutex('job');`, ['obtainMutex']), true);
    assert.equal(gate(`await obtainMutex('job');`), false);
  });

  it("stops a command in capitals that is not a method call: SQL's `NOT EXISTS (`, `SET (`", () => {
    assert.equal(gate('const sql = `SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM t)`; // WHERE EXISTS (…)'), false);
    assert.equal(gate('const sql = `UPDATE t SET (a, b) = (1, 2)`;'), false);
    assert.equal(gate(`await store.EXISTS('lock:a'); await store ?. DEL ('lock:a');`), true);
  });

  it('lets a SET with the NX option through on any receiver: a client imported under a neutral name', () => {
    assert.equal(gate(`await store.set('lock:nightly', token, 'PX', 30000, 'NX');`), true);
    assert.equal(gate(`await db.set(key, token, { NX: true, PX: ttl });`), true);
    assert.equal(gate(`await kvStore.set(key, token, { px: ttl, nx: true });`), true);
    assert.equal(gate('await store.set(key, token, { condition: `NX`, expiration: { type: "PX", value: ttl } });'), true);
    // `nx` anywhere else is no option: a variable, a property read, a longer string or word.
    assert.equal(gate(`const nx = normal.nx + 1; cache.set('nginx', { nx }); const label = 'NX-01'; onx(1);`), false);
    // Outside a \`.set(\` call: another method's option, a Lua script's own SET (its signals are its own).
    assert.equal(gate(`await queue.add(job, { nx: true }); flags.push('NX');`), false);
    assert.equal(gate('const content = `local rcall = redis.call\\nrcall("SET", KEYS[1], ARGV[1], "NX")`;'), false);
  });

  it('does not read long comments (licence headers, JSDoc), and still reads short ones, strings and the code beside them', () => {
    const jsdoc = '/**\n * Releases the connection: calls `redisClient.del(key)` and `client.multi()` on the pool.\n */\n';
    assert.equal(gate(`${jsdoc}export function release(pool) { pool.end(); }`), false);
    assert.equal(gate('// redisClient.get(k)\nexport const x = 1;'), true);
    assert.equal(gate(`${jsdoc}await redisClient.del('lock:a');`), true);
    assert.equal(gate(`const x = 1;${jsdoc}const redis = require('ioredis');`), true);
    assert.equal(gate(`${jsdoc}${jsdoc}await store.SET('lock:a', 't'); /* short */ await store.set('k', t, 'NX');`), true);
  });

  it('stops ordinary code: Map, fetch, Function.prototype.call', () => {
    assert.equal(gate(`const m = new Map(); m.set('a', 1); m.get('a'); fn.call(this, 1); await fetch(url);`), false);
  });
});
