// fixes/primitive-call.ts: the server's own compare-first command (DELEX … IFEQ, DELIFEQ, SET … IFEQ)
// written at a release or renewal, in each client's way of sending it.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { compareAndDeleteFix, compareAndSetFix } from '../../../eslint-plugin/src/fixes/primitive-call.js';
import { renderRawCommand } from '../../../eslint-plugin/src/fixes/templates.js';
import type { RedisDialect } from '../../../eslint-plugin/src/fixes/templates.js';
import { applyFix, type ProbedFile } from '../support/fix-probe.js';
import { DIALECT_SOURCES, dialectSource } from './dialect-sources.js';

function commandNamed(file: ProbedFile, name: string, dialect: RedisDialect) {
  const command = file.model.redis.commands.find((candidate) => candidate.name === name);
  assert.ok(command, `no ${name} command`);
  assert.equal(command.dialect, dialect);
  return command;
}

describe('fixes/primitive-call', () => {
  describe('renderRawCommand', () => {
    const expected: Record<RedisDialect, string> = {
      ioredis: `redis.call('DELIFEQ', key, token)`,
      'node-redis-v3': `redis.send_command('DELIFEQ', [key, token], done)`,
      'node-redis': `redis.sendCommand(['DELIFEQ', key, token])`,
      'node-redis-v5': `redis.sendCommand(['DELIFEQ', key, token])`,
      upstash: `redis.exec(['DELIFEQ', key, token])`,
    };
    for (const [dialect, call] of Object.entries(expected) as [RedisDialect, string][]) {
      it(`sends a command ${dialect} has no method for`, () => {
        assert.equal(renderRawCommand(dialect, 'redis', 'DELIFEQ', ['key', 'token'], 'done'), call);
      });
    }
  });

  describe('compareAndDeleteFix', () => {
    const delex: Record<RedisDialect, string> = {
      ioredis: `redis.call('DELEX', key, 'IFEQ', token)`,
      'node-redis': `redis.sendCommand(['DELEX', key, 'IFEQ', token])`,
      'node-redis-v5': `redis.delEx(key, { condition: 'IFEQ', matchValue: token })`,
      'node-redis-v3': `client.send_command('DELEX', [key, 'IFEQ', token], done)`,
      upstash: `redis.exec(['DELEX', key, 'IFEQ', token])`,
    };
    for (const source of DIALECT_SOURCES) {
      const release = source.dialect === 'node-redis-v3' ? `${source.client}.del(key, done);` : `await ${source.client}.del(key);`;
      it(`writes DELEX … IFEQ for ${source.dialect}, keeping a callback`, () => {
        const fixed = applyFix(
          source.code(release),
          (file) =>
            compareAndDeleteFix(file.sourceCode, 'DELEX', {
              command: commandNamed(file, 'DEL', source.dialect),
              keyText: 'key',
              tokenText: 'token',
            }),
          source.options,
        );
        const call = source.dialect === 'node-redis-v3' ? `${delex[source.dialect]};` : `await ${delex[source.dialect]};`;
        assert.equal(fixed, source.code(call));
      });
    }

    it('writes DELIFEQ as a raw command, node-redis 5 included', () => {
      const source = dialectSource('node-redis-v5');
      const fixed = applyFix(source.code('await redis.del(key);'), (file) =>
        compareAndDeleteFix(file.sourceCode, 'DELIFEQ', {
          command: commandNamed(file, 'DEL', 'node-redis-v5'),
          keyText: 'key',
          tokenText: 'token',
        }),
      );
      assert.equal(fixed, source.code(`await redis.sendCommand(['DELIFEQ', key, token]);`));
    });

    it("leaves a release queued in MULTI alone: the reply would change exec()'s shape", () => {
      const source = dialectSource('ioredis');
      const fixed = applyFix(source.code('await redis.multi().del(key).exec();'), (file) =>
        compareAndDeleteFix(file.sourceCode, 'DELEX', {
          command: commandNamed(file, 'DEL', 'ioredis'),
          keyText: 'key',
          tokenText: 'token',
        }),
      );
      assert.equal(fixed, undefined);
    });
  });

  describe('compareAndSetFix', () => {
    const set: Record<RedisDialect, string> = {
      ioredis: `redis.call('SET', key, token, 'IFEQ', token, 'PX', 30000)`,
      'node-redis': `redis.sendCommand(['SET', key, token, 'IFEQ', token, 'PX', 30000])`,
      'node-redis-v5': `redis.set(key, token, { condition: 'IFEQ', matchValue: token, expiration: { type: 'PX', value: 30000 } })`,
      'node-redis-v3': `client.send_command('SET', [key, token, 'IFEQ', token, 'PX', 30000], done)`,
      upstash: `redis.exec(['SET', key, token, 'IFEQ', token, 'PX', 30000])`,
    };
    for (const source of DIALECT_SOURCES) {
      const renewal =
        source.dialect === 'node-redis-v3' ? `${source.client}.pexpire(key, 30000, done);` : `await ${source.client}.pexpire(key, 30000);`;
      it(`writes SET … IFEQ … PX for ${source.dialect}`, () => {
        const fixed = applyFix(
          source.code(renewal),
          (file) =>
            compareAndSetFix(file.sourceCode, {
              command: commandNamed(file, 'PEXPIRE', source.dialect),
              keyText: 'key',
              tokenText: 'token',
              ttlText: '30000',
            }),
          source.options,
        );
        const call = source.dialect === 'node-redis-v3' ? `${set[source.dialect]};` : `await ${set[source.dialect]};`;
        assert.equal(fixed, source.code(call));
      });
    }
  });
});
