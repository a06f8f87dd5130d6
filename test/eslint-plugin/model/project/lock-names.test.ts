import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { callsImportedLockName, callsLockNamedMethod, usedAsClassInText } from '../../../../eslint-plugin/src/model/project/lock-names.js';

describe("callsImportedLockName (the module screen for wrappers of another module's helper)", () => {
  it('sees a lock-named import that is called, in every import spelling', () => {
    assert.equal(callsImportedLockName(`import { withLock } from './locks';\nexport const run = (k, f) => withLock(k, f);`), true);
    assert.equal(
      callsImportedLockName(`import { acquire as takeLock } from '#locks';\nexport async function f() { await takeLock('a'); }`),
      true,
    );
    assert.equal(callsImportedLockName(`import * as mutex from '../mutex.js';\nexport const f = () => mutex.run('a');`), true);
    assert.equal(callsImportedLockName(`const { tryLock } = require('./redis-lock');\nmodule.exports = (k) => tryLock(k);`), true);
    assert.equal(callsImportedLockName(`const { acquire: grabLease } = require('./leases');\nexports.f = () => grabLease('a');`), true);
  });

  it('stays false for lock-named imports that are only read, constructed or typed, and for errors', () => {
    assert.equal(callsImportedLockName(`import { LockMode } from '@mikro-orm/core';\nqb.setLockMode(LockMode.PESSIMISTIC_WRITE);`), false);
    assert.equal(callsImportedLockName(`import { Mutex } from './mutex';\nexport const m = new Mutex();`), false);
    assert.equal(
      callsImportedLockName(`import type { LockOptions } from './locks';\nexport function f(o: LockOptions) { return o; }`),
      false,
    );
    assert.equal(callsImportedLockName(`import { LockTimeoutError } from './errors';\nthrow LockTimeoutError('x');`), false);
    assert.equal(
      callsImportedLockName(`import { client } from './db';\nexport function lock() { return client.query('select 1'); }`),
      false,
    );
  });
});

describe('callsLockNamedMethod and usedAsClassInText (the screen for lock methods of imported classes)', () => {
  it('sees a lock-named method call, however spaced, and not a block, a release or a plain read', () => {
    for (const text of [
      'await this.redisService.acquireLock(key);',
      'mutex . tryLock ( )',
      'svc.acquire(k)',
      'await this.locks.blockLock(k)',
      'leases.lease(k)',
    ]) {
      assert.equal(callsLockNamedMethod(text), true, text);
    }
    for (const text of [
      'chain.getBlock(n)',
      'conn.release()',
      'clock.now()',
      'qb.lockMode = mode; foo(lock)',
      'a.lockOwner',
      'lease.renew()',
    ]) {
      assert.equal(callsLockNamedMethod(text), false, text);
    }
  });

  it('sees a class made, typed or called statically for a lock, as receiverClassOf reaches it', () => {
    assert.equal(usedAsClassInText('const mutex = new ReleaseMutex(t); await mutex.tryLock();', 'ReleaseMutex'), true);
    assert.equal(usedAsClassInText('constructor(private readonly redisService: RedisService) {}', 'RedisService'), true);
    assert.equal(usedAsClassInText('await Semaphore.acquire(key);', 'Semaphore'), true);
    assert.equal(usedAsClassInText('this.lock = new\n  JobLock(id);', 'JobLock'), true);
  });

  it('stays false for enums, constants and classes used otherwise', () => {
    assert.equal(usedAsClassInText('qb.setLockMode(LockMode.PESSIMISTIC_WRITE);', 'LockMode'), false);
    assert.equal(usedAsClassInText('span.setAttribute(TelemetryAttributes.JobId, id); Utils.isObject(x);', 'TelemetryAttributes'), false);
    assert.equal(usedAsClassInText('Utils.isObject(x); renewUtils(y);', 'Utils'), false);
    assert.equal(usedAsClassInText('class Worker extends QueueBase {}', 'QueueBase'), false);
    assert.equal(
      usedAsClassInText('const merged = options ? options : Utils.merge(a, b); const o = { helper: Utils.copy(x) };', 'Utils'),
      false,
    );
  });
});
