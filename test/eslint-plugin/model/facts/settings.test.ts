// The shared settings every rule reads from `settings.locksmith`: defaults, rule overrides, the target
// server, patterns written as text or as /literals/, and a malformed entry that must not throw.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { DEFAULT_FENCE_COLUMNS, matchesName, readSharedSettings, toRegExp } from '../../../../eslint-plugin/src/model/facts/settings.js';

const read = (locksmith: unknown, overrides?: Parameters<typeof readSharedSettings>[1]) =>
  readSharedSettings({ settings: locksmith === undefined ? {} : { locksmith } }, overrides);

describe('readSharedSettings', () => {
  it('with nothing configured: the default lock pattern and fence columns, no server, no cluster', () => {
    const settings = read(undefined);
    assert.equal(settings.lockKeyPattern.test('lock:job'), true);
    assert.equal(settings.lockKeyPattern.test('blocklist'), false);
    assert.equal(settings.fenceColumns, DEFAULT_FENCE_COLUMNS);
    assert.deepEqual(settings.efficiencyLocks, []);
    assert.deepEqual(settings.lockWrappers, { acquire: [], release: [], withLock: [] });
    assert.equal(settings.redis, undefined);
    assert.equal(settings.redisCluster, false);
  });

  it('reads each setting, and a rule override wins over settings.locksmith', () => {
    const settings = read(
      {
        lockKeyPattern: 'mutex',
        efficiencyLocks: ['^cache:', '/^warm:/'],
        fenceColumns: ['version'],
        lockWrappers: { acquire: ['takeMutex'] },
        redis: { server: 'valkey', version: '9.0.1', cluster: true },
      },
      { fenceColumns: ['epoch'] },
    );
    assert.equal(settings.lockKeyPattern.test('MUTEX:a'), true);
    assert.equal(settings.lockKeyPattern.test('lock:a'), false);
    assert.deepEqual(
      settings.efficiencyLocks.map((pattern) => pattern.test('cache:a') || pattern.test('warm:b')),
      [true, true],
    );
    assert.deepEqual(settings.fenceColumns, ['epoch']);
    assert.deepEqual(settings.lockWrappers, { acquire: ['takeMutex'], release: [], withLock: [] });
    assert.deepEqual(settings.redis, { server: 'valkey', version: [9, 0, 1] });
    assert.equal(settings.redisCluster, true);
  });

  it('is one object per configuration, so the lock model is built once per file', () => {
    // ESLint hands each rule its own settings object: equal settings must still give the same answer.
    assert.equal(read({ lockKeyPattern: 'x' }), read({ lockKeyPattern: 'x' }));
    assert.notEqual(read({ lockKeyPattern: 'x' }), read({ lockKeyPattern: 'y' }));
    assert.notEqual(read({ lockKeyPattern: 'x' }), read({ lockKeyPattern: 'x' }, { fenceColumns: ['f'] }));
  });

  it('a malformed redis entry or pattern gives no server and the default, never a throw', () => {
    assert.equal(read({ redis: { server: 'memcached', version: '1.6' } }).redis, undefined);
    assert.equal(read({ redis: 'redis' }).redis, undefined);
    // A server without a version is that server, every primitive unknown.
    assert.deepEqual(read({ redis: { version: 'eight' } }).redis, { server: 'redis', version: [] });
    // An invalid pattern falls back to plain `lock`, an invalid efficiency pattern is dropped.
    const settings = read({ lockKeyPattern: '(', efficiencyLocks: ['[', 'ok'] });
    assert.equal(settings.lockKeyPattern.source, 'lock');
    assert.equal(settings.efficiencyLocks.length, 1);
  });
});

describe('toRegExp', () => {
  it('reads text as a case-insensitive pattern and a /literal/ with its flags, adding i', () => {
    assert.equal(toRegExp('^lock:')!.test('LOCK:a'), true);
    const literal = toRegExp('/^lock:\\d+$/')!;
    assert.equal(literal.flags.includes('i'), true);
    assert.equal(literal.test('Lock:12'), true);
    assert.equal(literal.test('lock:x'), false);
    assert.equal(toRegExp('/a/g')!.flags, 'gi');
    assert.equal(toRegExp('/a/i')!.flags, 'i');
  });

  it('answers undefined for an invalid pattern', () => {
    assert.equal(toRegExp('('), undefined);
    assert.equal(toRegExp('/(/'), undefined);
  });
});

describe('matchesName', () => {
  it('matches a wrapper name exactly, or by a /pattern/', () => {
    assert.equal(matchesName('acquireLock', ['acquireLock']), true);
    assert.equal(matchesName('acquireLockNow', ['acquireLock']), false);
    assert.equal(matchesName('takeMutexFor', ['/^takeMutex/']), true);
    assert.equal(matchesName('release', []), false);
  });
});
