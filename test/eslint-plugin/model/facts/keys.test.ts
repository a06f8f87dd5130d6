import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { keyShape, matchesLockPattern } from '../../../../eslint-plugin/src/model/facts/keys.js';
import { DEFAULT_LOCK_KEY_PATTERN, toRegExp } from '../../../../eslint-plugin/src/model/facts/settings.js';

describe('lockKeyPattern', () => {
  const pattern = toRegExp(DEFAULT_LOCK_KEY_PATTERN)!;

  it('matches "lock" as a word of the key, in any case and spelling', () => {
    // Key text and names seen in lock code: node-redlock's `{redlock}a`, bullmq's `bull:q:1:lock`,
    // the Redis docs' `mylock`, camelCase helpers and constants.
    for (const word of [
      'lock:invoice',
      'locks:42',
      'bull:q:1:lock',
      '{redlock}a',
      'Redlock:test:resource',
      'mylock',
      'LOCK_PREFIX',
      'lockKey',
      'jobLock',
      'syncLock',
      'runLock',
      'acquireLock',
      'tryLock',
      'JobLock',
      'resource_lock',
      'locking',
      'locker',
    ]) {
      assert.equal(matchesLockPattern(word, pattern), true, word);
    }
  });

  it('does not match "lock" inside another word', () => {
    // A blocklist, a clock, an unlocked achievement, a login lockout, a `user:locked` flag, a counter.
    for (const word of [
      'login:block:ip:127.0.0.1',
      'blocklist:ip',
      'blockedUsers',
      'BLOCK_TTL',
      'clock:skew',
      'clockDrift',
      'unlock:feature',
      'unlockedAchievements',
      'login:lockout:42',
      'lockoutKey',
      'ACCOUNT_LOCKOUT',
      'accountLockOut',
      'user:7:locked',
      'isLocked',
      'deadlock:count',
    ]) {
      assert.equal(matchesLockPattern(word, pattern), false, word);
    }
  });

  it('keeps a configured pattern as written', () => {
    assert.equal(matchesLockPattern('blocklist', toRegExp('lock')!), true);
    assert.equal(matchesLockPattern('mutex:key', toRegExp('lock|mutex')!), true);
  });
});

describe('keyShape', () => {
  it('is the same for one key expression over different parameters', () => {
    assert.equal(keyShape('v:lockoutKey@10(v:id@40)'), keyShape('v:lockoutKey@10(v:id@95)'));
    assert.notEqual(keyShape('s:lock:a'), keyShape('s:lock:b'));
  });
});
