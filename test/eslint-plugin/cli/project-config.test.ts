// locksmith.json in the CLI: each file's nearest one (no merging of ancestors), -c, --no-config-lookup,
// its rules, settings and ignores, one-line errors, and ESLint's cache seeing its edits.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import {
  CLI_SUITE_TIMEOUT_MS,
  LOCKSMITH_BIN,
  makeProject,
  parseJsonReport,
  runLocksmith,
  stderrLines,
  writeFiles,
  type CliRun,
} from './run-cli';

// A plain DEL of a key (no-unsafe-release at line 4) that is a lock key only by its name:
// `mutex:x` only with a lockKeyPattern of `^mutex:`, `lock:x` only with the default pattern.
const bareDelete = (key: string): string => `import Redis from 'ioredis';
const redis = new Redis();
export async function release() {
  await redis.del('${key}');
}
`;
const MUTEX_RELEASE_SOURCE = bareDelete('mutex:x');
const LOCK_RELEASE_SOURCE = bareDelete('lock:x');

function findingsByFile(run: CliRun, root: string): Record<string, string[]> {
  const byFile: Record<string, string[]> = {};
  for (const result of parseJsonReport(run)) {
    byFile[path.relative(root, result.filePath)] = result.messages.map(
      (message) => `${message.ruleId ?? 'fatal'}@${message.line}:${message.severity}`,
    );
  }
  return byFile;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

describe('locksmith with locksmith.json', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;

  beforeEach(() => {
    ({ root, cleanup } = makeProject({
      'locksmith.json': json({
        rules: { 'no-unsafe-release': 'warn' },
        settings: { lockKeyPattern: '^mutex:' },
        ignores: ['generated/**'],
      }),
      'src/mutex.js': MUTEX_RELEASE_SOURCE,
      'src/lock.js': LOCK_RELEASE_SOURCE,
      'generated/client.js': MUTEX_RELEASE_SOURCE,
      // The nearest file wins alone: no lockKeyPattern here, so the default (`lock`) applies again.
      'packages/api/package.json': json({ name: 'api', locksmith: { rules: { 'locksmith/no-unsafe-release': ['error'] } } }),
      'packages/api/mutex.js': MUTEX_RELEASE_SOURCE,
      'packages/api/lock.js': LOCK_RELEASE_SOURCE,
      'packages/api/generated/client.js': LOCK_RELEASE_SOURCE,
      'other/locksmith.json': json({ rules: { 'no-unsafe-release': 'off' } }),
    }));
  });
  afterEach(() => {
    cleanup();
  });

  it('gives each file its nearest configuration, rules and settings, with no merging of ancestors', () => {
    const run = runLocksmith(root, ['--format', 'json', 'src', 'generated', 'packages']);
    assert.equal(run.stderr, '');
    assert.deepEqual(findingsByFile(run, root), {
      'src/lock.js': [],
      'src/mutex.js': ['locksmith/no-unsafe-release@4:1'],
      'packages/api/generated/client.js': ['locksmith/no-unsafe-release@4:2'],
      'packages/api/lock.js': ['locksmith/no-unsafe-release@4:2'],
      'packages/api/mutex.js': [],
    });
  });

  it('--rule wins over locksmith.json, which wins over --preset', () => {
    const run = runLocksmith(root, ['--format', 'json', '--preset', 'strict', '--rule', 'no-unsafe-release=error', 'src']);
    assert.deepEqual(findingsByFile(run, root), { 'src/lock.js': [], 'src/mutex.js': ['locksmith/no-unsafe-release@4:2'] });
  });

  it('-c uses one file for every linted file, its ignores relative to its own folder', () => {
    const run = runLocksmith(root, ['--format', 'json', '-c', 'other/locksmith.json', 'src', 'generated', 'packages/api/lock.js']);
    assert.deepEqual(findingsByFile(run, root), {
      'generated/client.js': [],
      'packages/api/lock.js': [],
      'src/lock.js': [],
      'src/mutex.js': [],
    });
    const withIgnores = runLocksmith(root, ['--format', 'json', '--config', 'locksmith.json', 'src', 'generated', 'packages/api']);
    assert.deepEqual(Object.keys(findingsByFile(withIgnores, root)).sort(), [
      'packages/api/generated/client.js',
      'packages/api/lock.js',
      'packages/api/mutex.js',
      'src/lock.js',
      'src/mutex.js',
    ]);
  });

  it('--no-config-lookup uses no locksmith.json', () => {
    const run = runLocksmith(root, ['--format', 'json', '--no-config-lookup', 'src', 'generated']);
    assert.deepEqual(findingsByFile(run, root), {
      'generated/client.js': [],
      'src/lock.js': ['locksmith/no-unsafe-release@4:2'],
      'src/mutex.js': [],
    });
  });

  it('skips ignored files while walking, and names an explicitly given ignored file in one line', () => {
    const walked = runLocksmith(root, ['--format', 'json', '.']);
    assert.equal(Object.keys(findingsByFile(walked, root)).includes('generated/client.js'), false);
    assert.equal(walked.stderr, '');

    const named = runLocksmith(root, ['--format', 'json', 'generated/client.js', 'src/mutex.js']);
    assert.deepEqual(stderrLines(named), ['locksmith: ignored by locksmith.json: generated/client.js']);
    assert.deepEqual(Object.keys(findingsByFile(named, root)), ['src/mutex.js']);

    const quiet = runLocksmith(root, ['--no-warn-ignored', 'generated/client.js']);
    assert.equal(quiet.status, 0);
    assert.equal(quiet.stderr, '');
    assert.equal(quiet.stdout, '');
  });

  it('applies to --stdin-filename, ignores included', () => {
    const lint = (args: readonly string[]): CliRun => {
      const child = spawnSync(process.execPath, [LOCKSMITH_BIN, ...args], {
        cwd: root,
        input: MUTEX_RELEASE_SOURCE,
        encoding: 'utf8',
        env: { ...process.env, FORCE_COLOR: '0' },
      });
      return { status: child.status, stdout: child.stdout, stderr: child.stderr };
    };
    assert.deepEqual(findingsByFile(lint(['--format', 'json', '--stdin', '--stdin-filename', 'src/new.js']), root), {
      'src/new.js': ['locksmith/no-unsafe-release@4:1'],
    });
    const ignored = lint(['--format', 'json', '--stdin', '--stdin-filename', 'generated/new.js']);
    assert.deepEqual(stderrLines(ignored), ['locksmith: ignored by locksmith.json: generated/new.js']);
    assert.deepEqual(parseJsonReport(ignored), []);
    assert.equal(ignored.status, 0);
  });

  for (const [label, files, expected] of [
    ['invalid JSON', { 'src/locksmith.json': '{ "rules": ' }, /^locksmith: src\/locksmith\.json: invalid JSON/],
    [
      'an unknown rule',
      { 'src/locksmith.json': json({ rules: { 'no-unsafe-releas': 'error' } }) },
      /^locksmith: src\/locksmith\.json: rules\.no-unsafe-releas: /,
    ],
    [
      'a bad severity',
      { 'src/locksmith.json': json({ rules: { 'no-unsafe-release': 'warning' } }) },
      /^locksmith: src\/locksmith\.json: rules\.no-unsafe-release: /,
    ],
  ] as const) {
    it(`reports ${label} in one line naming the file and the key, exit 2`, () => {
      writeFiles(root, files);
      const run = runLocksmith(root, ['src']);
      assert.equal(run.status, 2);
      assert.equal(stderrLines(run).length, 1, run.stderr);
      assert.match(stderrLines(run)[0] ?? '', expected);
      assert.equal(run.stdout, '');
    });
  }

  it('reports a missing -c file in one line, exit 2', () => {
    const run = runLocksmith(root, ['-c', 'missing/locksmith.json', 'src']);
    assert.equal(run.status, 2);
    assert.deepEqual(stderrLines(run), ['locksmith: missing/locksmith.json: no such file']);
  });

  it('--cache re-lints the files a locksmith.json applies to when it is edited, and no others', () => {
    const debug = { FORCE_COLOR: '0', DEBUG: 'eslint:eslint-helpers', DEBUG_COLORS: '0' };
    const relinted = (run: CliRun): string[] =>
      [...run.stderr.matchAll(/File "([^"]+)" linted in/g)].map((match) => path.relative(root, match[1] ?? '')).sort();
    runLocksmith(root, ['--cache', 'src', 'packages']);
    assert.deepEqual(relinted(runLocksmith(root, ['--cache', 'src', 'packages'], debug)), []);

    writeFiles(root, { 'locksmith.json': json({ rules: { 'no-unsafe-release': 'error' }, settings: { lockKeyPattern: '^mutex:' } }) });
    const afterRules = runLocksmith(root, ['--cache', '--format', 'json', 'src', 'packages'], debug);
    assert.deepEqual(relinted(afterRules), ['src/lock.js', 'src/mutex.js']);
    assert.deepEqual(findingsByFile(afterRules, root)['src/mutex.js'], ['locksmith/no-unsafe-release@4:2']);

    writeFiles(root, { 'locksmith.json': json({ rules: { 'no-unsafe-release': 'error' } }) });
    const afterSettings = runLocksmith(root, ['--cache', '--format', 'json', 'src', 'packages'], debug);
    assert.deepEqual(relinted(afterSettings), ['src/lock.js', 'src/mutex.js']);
    assert.deepEqual(findingsByFile(afterSettings, root)['src/lock.js'], ['locksmith/no-unsafe-release@4:2']);
  });
});
