// The Redis half of the lock model (redis/redis-model.ts): which calls are Redis commands, in which
// dialect, and how each command becomes an acquisition, a release or an expiry — SET NX, SETNX, DEL,
// EXPIRE, the compare-and-set options, Lua scripts in every client's layout, commands registered with
// defineCommand, configured wrappers — and which lookalikes (a Map, a cache, a store named like no
// client) never become commands at all.

import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import type { RedisModel } from '../../../../eslint-plugin/src/model/nouns/redis-events.js';
import { readAtEnd, type ProbeOptions } from '../../../support/probe-rule.js';

function redisOf(code: string, options: ProbeOptions = { typescript: true }): RedisModel {
  return readAtEnd(code, (context) => getLockModel(context).redis, options);
}

const line = (node: TSESTree.Node): number => node.loc.start.line;

/** Each event as `line kind` (and `safe`/`unsafe` for releases and expiries). */
function events(model: RedisModel): { acquisitions: string[]; releases: string[]; expiries: string[] } {
  return {
    acquisitions: model.acquisitions.map((event) => `${line(event.node)} ${event.kind}${event.hasTtl ? ' ttl' : ''}`),
    releases: model.releases.map((event) => `${line(event.node)} ${event.kind} ${event.safe ? 'safe' : 'unsafe'}`),
    expiries: model.expiries.map(
      (event) => `${line(event.node)} ${event.kind} ${event.safe ? 'safe' : 'unsafe'}${event.dropsTtl ? ' drops-ttl' : ''}`,
    ),
  };
}

const COMPARE_AND_DELETE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
const COMPARE_AND_EXPIRE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end';

describe('redis-model: commands and the lock events they are', () => {
  it('SET NX and SETNX acquire; DEL and DELEX release; EXPIRE, SET IFEQ and SET XX with an expiry renew', () => {
    const model = redisOf(`import Redis from 'ioredis';
const redis = new Redis();
export async function f(token: string, id: string) {
  await redis.set(\`lock:\${id}\`, token, 'NX', 'PX', 1000);
  await redis.setnx(\`lock:b:\${id}\`, token);
  await redis.expire(\`lock:b:\${id}\`, 30);
  await redis.set(\`lock:\${id}\`, token, 'IFEQ', token, 'PX', 1000);
  await redis.set(\`lock:\${id}\`, token, 'IFEQ', token);
  await redis.set(\`lock:\${id}\`, token, 'XX', 'PX', 1000);
  await redis.set(\`lock:\${id}\`, token, 'XX', 'KEEPTTL');
  await redis.set(\`lock:\${id}\`, token);
  await redis.call('DELEX', \`lock:\${id}\`, 'IFEQ', token);
  await redis.call('DELEX', \`lock:\${id}\`);
  await redis.del(\`lock:\${id}\`);
}`);
    assert.deepEqual(
      model.commands.map((command) => `${line(command.call)} ${command.name} ${command.form}`),
      [
        '4 SET method',
        '5 SETNX method',
        '6 EXPIRE method',
        '7 SET method',
        '8 SET method',
        '9 SET method',
        '10 SET method',
        '11 SET method',
        '12 DELEX generic',
        '13 DELEX generic',
        '14 DEL method',
      ],
    );
    assert.deepEqual(events(model), {
      acquisitions: ['4 set-nx ttl', '5 setnx'],
      releases: ['12 compare safe', '13 del unsafe', '14 del unsafe'],
      // The IFEQ without PX compares but leaves the lock eternal; XX KEEPTTL and a plain SET renew nothing.
      expiries: ['6 expire unsafe', '7 compare safe', '8 compare unsafe drops-ttl', '9 overwrite unsafe'],
    });
    assert.equal(model.fileDialect, 'ioredis');
    assert.deepEqual([...model.acquiredKeys], [model.acquisitions[0]!.keySignature, model.acquisitions[1]!.keySignature]);
    assert.match(model.acquisitions[1]!.keySignature!, /^t:lock:b:\$\{v:id@\d+\}$/u);
  });

  it('Lua scripts: a fenced SET NX acquires, compare-and-delete and compare-and-expire are safe, a bare DEL script is not', () => {
    const model = redisOf(`import Redis from 'ioredis';
const redis = new Redis();
const RELEASE = '${COMPARE_AND_DELETE}';
export const EXTEND = '${COMPARE_AND_EXPIRE}';
const VERSION = '1.2.3';
const ACQUIRE = 'if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return redis.call("incr", KEYS[2]) end return 0';
export async function f(token: string, id: string) {
  await redis.eval(ACQUIRE, 2, \`lock:\${id}\`, \`fence:\${id}\`, token, 1000);
  await redis.eval(EXTEND, 1, \`lock:\${id}\`, token, 1000);
  await redis.eval(RELEASE, 1, \`lock:\${id}\`, token);
  await redis.eval('return redis.call("del", KEYS[1])', 1, \`lock:\${id}\`);
}`);
    assert.deepEqual(events(model), {
      acquisitions: ['8 script ttl'],
      releases: ['10 script safe', '11 script unsafe'],
      expiries: ['9 script safe'],
    });
    const [acquire] = model.acquisitions;
    assert.equal(acquire!.mintsFence, true);
    assert.equal(acquire!.value?.type, 'Identifier');
    // The script call's keys and arguments, split by the key count.
    const script = model.commands[0]!.script!;
    assert.deepEqual([script.keys.length, script.args.length], [2, 2]);
    // Module constants holding the two safe scripts, by kind; the version string is no script.
    assert.deepEqual(model.scriptConstants, { release: 'RELEASE', extend: 'EXTEND' });
  });

  it('reads node-redis v5 options and eval layout, and Upstash’s, as the same events', () => {
    const nodeRedis = redisOf(`import { createClient } from 'redis';
const client = createClient();
export async function f(token: string, id: string) {
  await client.set(\`lock:\${id}\`, token, { condition: 'NX', expiration: { type: 'PX', value: 1000 } });
  await client.eval('${COMPARE_AND_DELETE}', { keys: [\`lock:\${id}\`], arguments: [token] });
}`);
    assert.equal(nodeRedis.fileDialect, 'node-redis-v5');
    assert.deepEqual(events(nodeRedis), { acquisitions: ['4 set-nx ttl'], releases: ['5 script safe'], expiries: [] });
    assert.equal(nodeRedis.releases[0]!.keySignature, nodeRedis.acquisitions[0]!.keySignature);

    const upstash = redisOf(`import { Redis } from '@upstash/redis';
const kv = Redis.fromEnv();
export async function f(token: string, id: string) {
  await kv.set(\`lock:\${id}\`, token, { nx: true, px: 1000 });
  await kv.eval('${COMPARE_AND_DELETE}', [\`lock:\${id}\`], [token]);
}`);
    assert.equal(upstash.fileDialect, 'upstash');
    assert.deepEqual(events(upstash), { acquisitions: ['4 set-nx ttl'], releases: ['5 script safe'], expiries: [] });
    assert.equal(upstash.releases[0]!.keySignature, upstash.acquisitions[0]!.keySignature);
  });

  it('a command registered with defineCommand is an EVAL of its script, keyed by numberOfKeys', () => {
    const model = redisOf(`import Redis from 'ioredis';
const redis = new Redis();
const RELEASE = '${COMPARE_AND_DELETE}';
redis.defineCommand('releaseLock', { numberOfKeys: 1, lua: RELEASE });
export async function f(token: string, id: string) {
  await (redis as any).releaseLock(\`lock:\${id}\`, token);
}`);
    assert.deepEqual([...model.definedCommands.keys()], ['releaseLock']);
    assert.equal(model.definedCommands.get('releaseLock')!.numberOfKeys, 1);
    const [command] = model.commands;
    assert.deepEqual([command!.name, command!.method, command!.form], ['EVAL', 'releaseLock', 'defined-script']);
    assert.equal(command!.script?.args.length, 1);
    assert.deepEqual(events(model), { acquisitions: [], releases: ['6 script safe'], expiries: [] });
  });

  it('a Map, an LRU cache and a store named like no client stay out; Redis-only method names on any receiver count', () => {
    const model = redisOf(
      `const { LRUCache } = require('lru-cache');
const cache = new LRUCache({ max: 10 });
const seen = new Map();
async function f(store, redisClient, id, token) {
  cache.set(\`lock:\${id}\`, token);
  cache.delete(\`lock:\${id}\`);
  seen.set(id, token);
  seen.delete(id);
  await store.set(\`lock:\${id}\`, token);
  await store.del(\`lock:\${id}\`);
  await store.expire(\`lock:\${id}\`, 10);
  await redisClient.set(\`lock:\${id}\`, token, 'NX', 'PX', 1000);
  await redisClient.del(\`lock:\${id}\`);
  await store.pexpire(\`lock:\${id}\`, 100);
}
module.exports = { f };`,
      {},
    );
    assert.deepEqual(
      model.commands.map((command) => `${line(command.call)} ${command.name}`),
      ['12 SET', '13 DEL', '14 PEXPIRE'],
    );
    assert.equal(model.fileDialect, undefined);
    assert.ok(model.commands.every((command) => command.client.family === undefined && command.client.evidence === 'unknown'));
  });

  it('a file with no sign of Redis gets the empty model, its calls unread', () => {
    const model = redisOf(`const limits = new Map<string, number>();
export function hit(key: string) {
  limits.set(key, (limits.get(key) ?? 0) + 1);
  if (limits.get(key)! > 10) limits.delete(key);
}`);
    assert.deepEqual(
      [model.commands.length, model.acquisitions.length, model.releases.length, model.expiries.length, model.lockHelpers.size],
      [0, 0, 0, 0, 0],
    );
    assert.deepEqual(model.scriptConstants, { release: undefined, extend: undefined });
  });

  it('HSET is no lock command, only a sign that its key holds data', () => {
    const model = redisOf(`import Redis from 'ioredis';
const redis = new Redis();
export async function f(id: string) {
  await redis.hset(\`user:\${id}\`, 'name', 'x');
  await redis.set(\`user:\${id}\`, 'x', 'NX');
}`);
    assert.deepEqual(
      model.commands.map((command) => command.name),
      ['SET'],
    );
    assert.deepEqual(
      model.hashWrites.map((write) => [line(write.call), write.keySignature]),
      [[4, model.commands[0]!.keySignature]],
    );
  });

  it('configured wrappers, by name or /pattern/, are acquisitions and releases even with no Redis in the file', () => {
    const model = redisOf(
      `export async function run(id: string) {
  await takeLock(\`job:\${id}\`, 5000);
  try {
    await work(id);
  } finally {
    await dropLock(\`job:\${id}\`);
  }
  await grabMutex(\`m:\${id}\`);
  await takeLocker(id);
}`,
      { typescript: true, settings: { locksmith: { lockWrappers: { acquire: ['takeLock', '/^grab/'], release: ['dropLock'] } } } },
    );
    assert.deepEqual(events(model), { acquisitions: ['2 wrapper ttl', '8 wrapper ttl'], releases: ['6 wrapper safe'], expiries: [] });
    assert.equal(model.releases[0]!.keySignature, model.acquisitions[0]!.keySignature);
  });
});
