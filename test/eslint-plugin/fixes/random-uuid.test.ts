// fixes/random-uuid.ts: how a fix calls randomUUID in this module without inserting an import.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { randomUuidCall } from '../../../eslint-plugin/src/fixes/random-uuid.js';
import { probe, type ProbeOptions } from '../support/fix-probe.js';

const callIn = (code: string, options?: ProbeOptions) => probe(code, (file) => randomUuidCall(file.sourceCode), options);

describe('fixes/random-uuid', () => {
  it("calls through the module's own crypto import", () => {
    assert.equal(callIn(`import { randomUUID } from 'node:crypto';\nexport const a = 1;`), 'randomUUID()');
    assert.equal(callIn(`import { randomUUID as uuid } from 'crypto';\nexport const a = 1;`), 'uuid()');
    assert.equal(callIn(`import * as nodeCrypto from 'node:crypto';\nexport const a = 1;`), 'nodeCrypto.randomUUID()');
    assert.equal(callIn(`import cryptoModule from 'crypto';\nexport const a = 1;`), 'cryptoModule.randomUUID()');
  });

  it('requires node:crypto in a CommonJS module', () => {
    assert.equal(
      callIn(`const Redis = require('ioredis');\nconst redis = new Redis();`, { filename: 'file.js' }),
      `require('node:crypto').randomUUID()`,
    );
    assert.equal(callIn('var a = 1;', { filename: 'file.js', sourceType: 'script' }), `require('node:crypto').randomUUID()`);
  });

  it('uses the global Web Crypto in an ES module', () => {
    assert.equal(callIn(`import Redis from 'ioredis';\nexport const redis = new Redis();`), 'crypto.randomUUID()');
  });

  it('goes through globalThis when the module declares its own crypto, and gives up when that is shadowed too', () => {
    assert.equal(
      callIn(`import Redis from 'ioredis';\nconst crypto = 1;\nexport const redis = new Redis();`),
      'globalThis.crypto.randomUUID()',
    );
    assert.equal(callIn(`import Redis from 'ioredis';\nfunction f(crypto, globalThis) {}\nexport const redis = new Redis();`), undefined);
  });

  it('gives up in CommonJS when the module declares its own require', () => {
    assert.equal(
      callIn(`const require = createRequire();\nconst Redis = require('ioredis');`, { filename: 'file.js', sourceType: 'script' }),
      undefined,
    );
  });
});
