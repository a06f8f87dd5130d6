// The Redis client tables as the resolver reads them: package → family, family → dialect, method →
// command in every spelling, and the names that make an unknown receiver count as a client (a cache,
// a Map, a rate limiter do not).

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  CLIENT_LIKE_NAME,
  CLIENT_PACKAGES,
  DECLARATION_PATH_FAMILIES,
  dialectOfFamily,
  GENERIC_METHOD_NAMES,
  REDIS_METHODS,
} from '../../../../eslint-plugin/src/model/tables/redis-clients.js';

describe('redis-clients', () => {
  it('dialectOfFamily: the clients have a dialect, the lock libraries none', () => {
    assert.equal(dialectOfFamily('ioredis'), 'ioredis');
    assert.equal(dialectOfFamily('node-redis'), 'node-redis');
    assert.equal(dialectOfFamily('upstash'), 'upstash');
    assert.equal(dialectOfFamily('redlock'), undefined);
    assert.equal(dialectOfFamily('redis-semaphore'), undefined);
  });

  it('iovalkey is ioredis’s family; node-redis and its @redis/client package are one family', () => {
    assert.equal(CLIENT_PACKAGES['iovalkey']!.family, 'ioredis');
    assert.equal(CLIENT_PACKAGES['redis']!.family, CLIENT_PACKAGES['@redis/client']!.family);
    assert.equal(CLIENT_PACKAGES['lru-cache'], undefined);
  });

  it('a declaration file’s path names its library', () => {
    const familyOf = (file: string) => DECLARATION_PATH_FAMILIES.find(([pattern]) => pattern.test(file))?.[1];
    assert.equal(familyOf('/app/node_modules/ioredis/built/Redis.d.ts'), 'ioredis');
    assert.equal(familyOf('C:\\app\\node_modules\\@redis\\client\\dist\\index.d.ts'), 'node-redis');
    assert.equal(familyOf('/app/node_modules/@sesamecare-oss/redlock/dist/index.d.ts'), 'redlock');
    assert.equal(familyOf('/app/node_modules/redis-semaphore/lib/index.d.ts'), 'redis-semaphore');
    assert.equal(familyOf('/app/node_modules/redis-mock/index.d.ts'), undefined);
  });

  it('REDIS_METHODS reads each command in lower, upper and node-redis camel case', () => {
    assert.equal(REDIS_METHODS['set'], 'SET');
    assert.equal(REDIS_METHODS['SET'], 'SET');
    assert.equal(REDIS_METHODS['setNX'], 'SETNX');
    assert.equal(REDIS_METHODS['pExpire'], 'PEXPIRE');
    assert.equal(REDIS_METHODS['delEx'], 'DELEX');
    assert.equal(REDIS_METHODS['delifeq'], 'DELIFEQ');
    assert.equal(REDIS_METHODS['rPush'], 'RPUSH');
    // Not commands: a Map's `has`, a generic sender (read by commands.ts), a chain starter.
    assert.equal(REDIS_METHODS['has'], undefined);
    assert.equal(REDIS_METHODS['call'], undefined);
    assert.equal(REDIS_METHODS['multi'], undefined);
  });

  it('CLIENT_LIKE_NAME: names of Redis clients, not of caches, maps or limiters', () => {
    for (const name of ['redis', 'redisClient', 'valkey', 'upstash', 'cluster', 'client', 'redis_client', 'conn', 'connection', 'kv'])
      assert.equal(CLIENT_LIKE_NAME.test(name), true, name);
    for (const name of ['cache', 'map', 'limiter', 'rateLimiter', 'httpClient', 'store', 'connections'])
      assert.equal(CLIENT_LIKE_NAME.test(name), false, name);
  });

  it('GENERIC_METHOD_NAMES: methods other objects have too, each data-write spelling; not the lock commands', () => {
    for (const method of ['get', 'set', 'del', 'exec', 'persist', 'lpush', 'LPUSH', 'lPush'])
      assert.equal(GENERIC_METHOD_NAMES.has(method), true, method);
    for (const method of ['setnx', 'pexpire', 'eval', 'evalsha']) assert.equal(GENERIC_METHOD_NAMES.has(method), false, method);
  });
});
