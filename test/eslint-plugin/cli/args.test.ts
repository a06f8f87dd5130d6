// Options that change what is reported and how the exit code is decided: --rule, --max-warnings, --format json.

import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import {
  CLI_SUITE_TIMEOUT_MS,
  SPLIT_ACQUIRE_EXPIRY_LINE,
  SPLIT_ACQUIRE_SOURCE,
  UNSAFE_RELEASE_SOURCE,
  makeProject,
  parseJsonReport,
  runLocksmith,
  stderrLines,
  type CliRun,
} from './run-cli';

function ruleIdsOf(run: CliRun): (string | null)[] {
  return parseJsonReport(run)
    .flatMap((result) => result.messages.map((message) => message.ruleId))
    .sort();
}

describe('locksmith options', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;

  before(() => {
    ({ root, cleanup } = makeProject({
      'release.js': UNSAFE_RELEASE_SOURCE,
      'acquire.ts': SPLIT_ACQUIRE_SOURCE,
      'comments.ts': [
        '/* eslint some-plugin/some-rule: "error" */',
        '// eslint-disable-next-line @typescript-eslint/no-explicit-any',
        'export const loose: any = 1;',
        'export const value = 1; // eslint-disable-line no-console',
        '',
      ].join('\n'),
      'suppressed.js': UNSAFE_RELEASE_SOURCE.replace(
        "    await redis.del('lock:x');",
        "    // eslint-disable-next-line locksmith/no-unsafe-release -- released by a compare-and-delete elsewhere\n    await redis.del('lock:x');",
      ),
    }));
  });
  after(() => {
    cleanup();
  });

  it('reports both rules in json, with rule id, severity and line', () => {
    const run = runLocksmith(root, ['--format', 'json', 'release.js', 'acquire.ts']);
    assert.equal(run.status, 1);
    const messages = parseJsonReport(run).flatMap((result) => result.messages);
    assert.deepEqual(
      messages
        .map(({ ruleId, severity, line }) => ({ ruleId, severity, line }))
        .sort((left, right) => String(left.ruleId).localeCompare(String(right.ruleId))),
      [
        { ruleId: 'locksmith/no-split-acquire', severity: 2, line: SPLIT_ACQUIRE_EXPIRY_LINE },
        { ruleId: 'locksmith/no-unsafe-release', severity: 2, line: 13 },
      ],
    );
  });

  it('turns a rule off with --rule id=off', () => {
    const run = runLocksmith(root, ['--format', 'json', '--rule', 'no-unsafe-release=off', 'release.js', 'acquire.ts']);
    assert.deepEqual(ruleIdsOf(run), ['locksmith/no-split-acquire']);
    assert.equal(run.status, 1);
    const bothOff = runLocksmith(root, [
      '--rule',
      'no-unsafe-release=off',
      '--rule',
      'locksmith/no-split-acquire=off',
      'release.js',
      'acquire.ts',
    ]);
    assert.equal(bothOff.status, 0, bothOff.stdout);
  });

  it('downgrades a rule to a warning, which alone exits 0', () => {
    const run = runLocksmith(root, ['--format', 'json', '--rule', 'locksmith/no-unsafe-release=warn', 'release.js']);
    assert.equal(run.status, 0);
    const [result] = parseJsonReport(run);
    assert.equal(result?.warningCount, 1);
    assert.equal(result.errorCount, 0);
  });

  it('lets the last --rule for a rule win', () => {
    const run = runLocksmith(root, ['--rule', 'no-unsafe-release=off', '--rule', 'no-unsafe-release=error', 'release.js']);
    assert.equal(run.status, 1);
  });

  it('exits 1 with one stderr line when warnings exceed --max-warnings', () => {
    const over = runLocksmith(root, ['--rule', 'no-unsafe-release=warn', '--max-warnings', '0', 'release.js']);
    assert.equal(over.status, 1);
    assert.deepEqual(stderrLines(over), ['locksmith: too many warnings (1); --max-warnings allows 0']);
    assert.match(over.stdout, /no-unsafe-release/);
    const atLimit = runLocksmith(root, ['--rule', 'no-unsafe-release=warn', '--max-warnings', '1', 'release.js']);
    assert.equal(atLimit.status, 0);
    assert.equal(atLimit.stderr, '');
  });

  it('still fails on errors whatever --max-warnings allows', () => {
    const run = runLocksmith(root, ['--max-warnings', '100', 'release.js']);
    assert.equal(run.status, 1);
  });

  it('honours eslint-disable comments for its rules and ignores comments about other plugins', () => {
    const run = runLocksmith(root, ['--format', 'json', 'comments.ts', 'suppressed.js']);
    assert.equal(run.status, 0, run.stdout);
    assert.deepEqual(ruleIdsOf(run), []);
  });
});
