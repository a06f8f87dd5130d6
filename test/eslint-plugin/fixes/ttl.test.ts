// fixes/ttl.ts: a TTL as milliseconds source text, from an EXPIRE, a SET's option or a renewal
// script's argument, and where a SET without one takes it in its own option spelling.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  scriptTtlInMilliseconds,
  secondsAsMilliseconds,
  setTtlInMilliseconds,
  ttlAddition,
  ttlInMilliseconds,
} from '../../../eslint-plugin/src/fixes/ttl.js';
import { probe, type ProbedFile } from '../support/fix-probe.js';

const ioredis = (body: string) => `import Redis from 'ioredis';
const redis = new Redis();
const config = { ttl: 30 };
export async function run(key: string, token: string, ttl: number) {
  ${body}
}`;

function command(file: ProbedFile, name: string) {
  const found = file.model.redis.commands.find((candidate) => candidate.name === name);
  assert.ok(found, `no ${name} command`);
  return found;
}

describe('fixes/ttl', () => {
  describe('secondsAsMilliseconds', () => {
    const cases: [seconds: string, milliseconds: string][] = [
      ['30', '30000'],
      [`'30'`, '30000'],
      ['ttl', 'ttl * 1000'],
      ['config.ttl', 'config.ttl * 1000'],
      ['ttl + 5', '(ttl + 5) * 1000'],
      ['(ttl as number)', 'ttl * 1000'],
    ];
    for (const [seconds, milliseconds] of cases) {
      it(`${seconds} seconds → ${milliseconds}`, () => {
        const code = ioredis(`await redis.expire(key, ${seconds});`);
        assert.equal(
          probe(code, (file) => secondsAsMilliseconds(file.sourceCode, command(file, 'EXPIRE').args[1]!)),
          milliseconds,
        );
      });
    }
  });

  describe('ttlInMilliseconds', () => {
    it("converts EXPIRE's seconds and keeps PEXPIRE's milliseconds", () => {
      assert.equal(
        probe(ioredis('await redis.expire(key, 30);'), (file) => ttlInMilliseconds(file.sourceCode, command(file, 'EXPIRE'))),
        '30000',
      );
      assert.equal(
        probe(ioredis('await redis.pexpire(key, ttl);'), (file) => ttlInMilliseconds(file.sourceCode, command(file, 'PEXPIRE'))),
        'ttl',
      );
    });

    it('has no relative TTL for an absolute expiry', () => {
      assert.equal(
        probe(ioredis('await redis.pexpireat(key, Date.now() + 30000);'), (file) =>
          ttlInMilliseconds(file.sourceCode, command(file, 'PEXPIREAT')),
        ),
        undefined,
      );
    });

    it('falls back to the default TTL when the call gives none', () => {
      assert.equal(
        probe(ioredis('await redis.expire(key);'), (file) => ttlInMilliseconds(file.sourceCode, command(file, 'EXPIRE'))),
        '30000',
      );
    });
  });

  describe('setTtlInMilliseconds', () => {
    const cases: [set: string, milliseconds: string | undefined][] = [
      [`await redis.set(key, token, 'XX', 'PX', 10000);`, '10000'],
      [`await redis.set(key, token, 'XX', 'EX', ttl);`, 'ttl * 1000'],
      [`await redis.set(key, token, 'XX', 'PXAT', Date.now() + 10000);`, undefined],
      [`await redis.set(key, token, 'XX');`, undefined],
    ];
    for (const [set, milliseconds] of cases) {
      it(`${set} → ${String(milliseconds)}`, () => {
        assert.equal(
          probe(ioredis(set), (file) => setTtlInMilliseconds(file.sourceCode, command(file, 'SET'))),
          milliseconds,
        );
      });
    }
  });

  describe('scriptTtlInMilliseconds', () => {
    const renewal = (script: string, args: string) => ioredis(`await redis.eval('${script}', 1, key, ${args});`);
    const ttlOf = (code: string) =>
      probe(code, (file) => {
        const expiry = file.model.redis.expiries.find((candidate) => candidate.kind === 'script');
        assert.ok(expiry, 'no script renewal');
        return scriptTtlInMilliseconds(file.sourceCode, expiry, 'token');
      });

    it('takes the argument beside the token, converted from seconds for EXPIRE', () => {
      assert.equal(ttlOf(renewal('return redis.call("PEXPIRE", KEYS[1], ARGV[2])', 'token, ttl')), 'ttl');
      assert.equal(ttlOf(renewal('return redis.call("EXPIRE", KEYS[1], ARGV[1])', '30')), '30000');
    });

    it('guesses nothing when more than one argument could be the TTL', () => {
      assert.equal(ttlOf(renewal('return redis.call("PEXPIRE", KEYS[1], ARGV[1])', 'ttl, other, token')), undefined);
    });
  });

  describe('ttlAddition', () => {
    const additionAfter = (code: string) =>
      probe(code, (file) => {
        const addition = ttlAddition(command(file, 'SET'), '30000');
        return addition && { after: file.sourceCode.getText(addition.after), option: addition.option };
      });

    it('appends positional options after the last argument', () => {
      assert.deepEqual(additionAfter(ioredis(`await redis.set(key, token, 'NX');`)), { after: `'NX'`, option: `'PX', 30000` });
    });

    it('adds to an options object in its own spelling', () => {
      const nodeRedis = (options: string) => `import { createClient } from 'redis';
const redis = createClient();
export async function run(key: string, token: string) {
  await redis.set(key, token, ${options});
}`;
      assert.deepEqual(additionAfter(nodeRedis('{ NX: true }')), { after: 'NX: true', option: 'PX: 30000' });
      assert.deepEqual(additionAfter(nodeRedis(`{ condition: 'NX' }`)), {
        after: `condition: 'NX'`,
        option: `expiration: { type: 'PX', value: 30000 }`,
      });
    });

    it('passes a string to sendCommand, which takes strings only', () => {
      const code = `import { createClient } from 'redis';
const redis = createClient();
export async function run(key: string, token: string) {
  await redis.sendCommand(['SET', key, token, 'NX']);
}`;
      assert.deepEqual(additionAfter(code), { after: `'NX'`, option: `'PX', '30000'` });
    });

    it('leaves KEEPTTL alone: it cannot be combined with an expiry', () => {
      assert.equal(additionAfter(ioredis(`await redis.set(key, token, 'KEEPTTL');`)), undefined);
    });
  });
});
