// The server's layering of a project configuration: recommended < locksmith.json < locksmith.* settings.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { parseProjectConfig } from '../../../eslint-plugin/src/project-config/index.js';
import { lintText, type LintOutcome } from '../../../extension/src/server/lint';
import { Settings } from '../../../extension/src/shared/settings';

const RELEASES = [
  "import Redis from 'ioredis';",
  'const redis = new Redis();',
  "export async function releaseLock() { await redis.del('lock:a'); }",
  "export async function releaseMutex() { await redis.del('mutex:b'); }",
  '',
].join('\n');
const FILE = path.resolve('/project/src/releases.js');

function project(data: unknown) {
  return parseProjectConfig(JSON.stringify(data), path.resolve('/project/locksmith.json'))!;
}

function findings(outcome: LintOutcome): string[] {
  if (outcome.kind !== 'linted') assert.fail(`expected a lint, got ${JSON.stringify(outcome)}`);
  return outcome.messages.map((message) => `${message.line}:${message.ruleId ?? ''}:${message.severity}`);
}

const lint = (settings: unknown, data?: unknown) =>
  lintText({
    text: RELEASES,
    filePath: FILE,
    settings: Settings.from(settings),
    ...(data === undefined ? {} : { project: project(data) }),
  });

describe('server: locksmith.json layered under the editor settings', () => {
  it('applies locksmith.json over recommended', () => {
    assert.deepEqual(findings(lint({})), ['3:locksmith/no-unsafe-release:2']);
    assert.deepEqual(findings(lint({}, { rules: { 'no-unsafe-release': 'off' } })), []);
    assert.deepEqual(findings(lint({}, { rules: { 'no-unsafe-release': 1 }, settings: { lockKeyPattern: '^mutex:' } })), [
      '4:locksmith/no-unsafe-release:1',
    ]);
  });

  it('lets locksmith.* settings win over locksmith.json', () => {
    const data = { rules: { 'no-unsafe-release': 'off' }, settings: { lockKeyPattern: '^mutex:' } };
    assert.deepEqual(findings(lint({ rules: { 'no-unsafe-release': 'warn' } }, data)), ['4:locksmith/no-unsafe-release:1']);
    assert.deepEqual(findings(lint({ rules: { 'no-unsafe-release': 'warn' }, lockKeyPattern: '^lock:' }, data)), [
      '3:locksmith/no-unsafe-release:1',
    ]);
  });

  it('skips a file locksmith.json ignores, saying which file', () => {
    const outcome = lint({}, { ignores: ['src/'] });
    assert.deepEqual(outcome, { kind: 'skipped', reason: `ignored by ${path.resolve('/project/locksmith.json')}` });
  });
});
