import * as assert from 'node:assert/strict';
import { Linter } from 'eslint';
import type { TSESLint } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../eslint-plugin/src/model/index.js';
import type { LockModel } from '../../../eslint-plugin/src/model/nouns/lock-types.js';

/** Lints `code` with probe rules that capture the model each one sees. */
function modelsSeenBy(code: string, ruleCount: number, settings: Record<string, unknown> = {}): LockModel[] {
  const seen: LockModel[] = [];
  const probe: TSESLint.RuleModule<string> = {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the RuleModule type still requires it
    defaultOptions: [],
    meta: { type: 'problem', messages: {}, schema: [] },
    create(context) {
      return {
        'Program:exit'() {
          seen.push(getLockModel(context));
        },
      };
    },
  };
  const rules: Record<string, unknown> = {};
  const enabled: Record<string, 'error'> = {};
  for (let index = 0; index < ruleCount; index++) {
    rules[`probe${index}`] = probe;
    enabled[`probe/probe${index}`] = 'error';
  }
  const linter = new Linter();
  const messages = linter.verify(code, [{ plugins: { probe: { rules } } as never, rules: enabled, settings }]);
  assert.deepEqual(messages, []);
  return seen;
}

const LOCK_CODE = `import Redis from 'ioredis';
const redis = new Redis();
const KEY = 'lock:invoice';
export async function run(token) {
  if (!(await redis.set(KEY, token, 'NX', 'PX', 30000))) return;
  await redis.del('lock:invoice');
}`;

describe('getLockModel', () => {
  it('builds the model once per file, whichever rule asks first', () => {
    const models = modelsSeenBy(LOCK_CODE, 3);
    assert.equal(models.length, 3);
    assert.ok(models.every((model) => model === models[0]));
  });

  it('builds a separate model for other settings', () => {
    const [plain] = modelsSeenBy(LOCK_CODE, 1);
    const [custom] = modelsSeenBy(LOCK_CODE, 1, { locksmith: { lockKeyPattern: '^mutex:' } });
    assert.notEqual(plain, custom);
    assert.equal(custom?.settings.lockKeyPattern.source, '^mutex:');
  });

  it('ties an acquisition and a release to the same key through a const', () => {
    const [model] = modelsSeenBy(LOCK_CODE, 1);
    const redis = model!.redis;
    assert.deepEqual(
      redis.acquisitions.map((acquisition) => [acquisition.kind, acquisition.hasTtl, acquisition.keySignature]),
      [['set-nx', true, 's:lock:invoice']],
    );
    assert.deepEqual(
      redis.releases.map((release) => [release.kind, release.safe, release.keySignature]),
      [['del', false, 's:lock:invoice']],
    );
    assert.equal(redis.fileDialect, 'ioredis');
  });

  it('keeps an invalid lockKeyPattern from crashing the analysis', () => {
    const [model] = modelsSeenBy(LOCK_CODE, 1, { locksmith: { lockKeyPattern: '(' } });
    assert.equal(model!.settings.lockKeyPattern.source, 'lock');
  });
});
