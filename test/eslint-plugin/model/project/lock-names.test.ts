import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { callsImportedLockName } from '../../../../eslint-plugin/src/model/project/lock-names.js';

describe('callsImportedLockName (the module screen for wrappers of another module\'s helper)', () => {
  it('sees a lock-named import that is called, in every import spelling', () => {
    assert.equal(callsImportedLockName(`import { withLock } from './locks';\nexport const run = (k, f) => withLock(k, f);`), true);
    assert.equal(callsImportedLockName(`import { acquire as takeLock } from '#locks';\nexport async function f() { await takeLock('a'); }`), true);
    assert.equal(callsImportedLockName(`import * as mutex from '../mutex.js';\nexport const f = () => mutex.run('a');`), true);
    assert.equal(callsImportedLockName(`const { tryLock } = require('./redis-lock');\nmodule.exports = (k) => tryLock(k);`), true);
    assert.equal(callsImportedLockName(`const { acquire: grabLease } = require('./leases');\nexports.f = () => grabLease('a');`), true);
  });

  it('stays false for lock-named imports that are only read, constructed or typed, and for errors', () => {
    assert.equal(callsImportedLockName(`import { LockMode } from '@mikro-orm/core';\nqb.setLockMode(LockMode.PESSIMISTIC_WRITE);`), false);
    assert.equal(callsImportedLockName(`import { Mutex } from './mutex';\nexport const m = new Mutex();`), false);
    assert.equal(callsImportedLockName(`import type { LockOptions } from './locks';\nexport function f(o: LockOptions) { return o; }`), false);
    assert.equal(callsImportedLockName(`import { LockTimeoutError } from './errors';\nthrow LockTimeoutError('x');`), false);
    assert.equal(callsImportedLockName(`import { client } from './db';\nexport function lock() { return client.query('select 1'); }`), false);
  });
});
