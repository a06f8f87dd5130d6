// --concurrency: ESLint's own worker threads (ESLint >= 9.34, through ESLint.fromOptionsModule),
// the same report as one thread, and one line where the project's ESLint has none.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import {
  CLI_SUITE_TIMEOUT_MS,
  LOCKSMITH_BIN,
  REPOSITORY_ROOT,
  SPLIT_ACQUIRE_SOURCE,
  UNSAFE_RELEASE_SOURCE,
  makeProject,
  parseJsonReport,
  runLocksmith,
  stderrLines,
  type CliRun,
} from './run-cli';

const COMPAT_MODULES = path.join(REPOSITORY_ROOT, 'test/eslint-compat/node_modules');
const USE_ESLINT = path.join(__dirname, 'use-eslint.cjs');
const THREAD_DEBUG = { FORCE_COLOR: '0', DEBUG: 'eslint:eslint', DEBUG_COLORS: '0' };

/** The CLI run with another ESLint than the workspace's (see use-eslint.cjs). */
function runWithEslint(eslintPackage: string, cwd: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): CliRun {
  const child = spawnSync(process.execPath, ['--require', USE_ESLINT, LOCKSMITH_BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', ...env, LOCKSMITH_TEST_ESLINT: path.join(COMPAT_MODULES, eslintPackage) },
  });
  if (child.error) throw child.error;
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

function threadsUsed(run: CliRun): number {
  const match = /Linting using (\d+) worker thread/.exec(run.stderr);
  return match === null ? 0 : Number(match[1]);
}

describe('locksmith --concurrency', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;

  before(() => {
    // A nested locksmith.json: the worker threads must find and apply it as the main thread does.
    const files: Record<string, string> = {
      'broken.js': 'export function broken( {\n',
      'jobs/locksmith.json': JSON.stringify({ rules: { 'no-split-acquire': 'warn' } }),
    };
    for (let index = 0; index < 6; index += 1) {
      files[`jobs/release-${index}.js`] = UNSAFE_RELEASE_SOURCE.replaceAll('lock:x', `lock:job-${index}`);
      files[`jobs/acquire-${index}.ts`] = SPLIT_ACQUIRE_SOURCE.replaceAll('nightly-job', `job-${index}`);
      files[`jobs/clean-${index}.js`] = `export const answer${index} = ${index};\n`;
    }
    ({ root, cleanup } = makeProject(files));
  });
  after(() => {
    cleanup();
  });

  it('--concurrency 2 lints in two worker threads and writes byte-identical JSON to --concurrency off', () => {
    const single = runLocksmith(root, ['--format', 'json', '--concurrency', 'off'], THREAD_DEBUG);
    const parallel = runLocksmith(root, ['--format', 'json', '--concurrency', '2'], THREAD_DEBUG);
    assert.equal(threadsUsed(single), 0);
    assert.equal(threadsUsed(parallel), 2);
    assert.equal(single.status, 1);
    assert.equal(parallel.status, 1);
    assert.equal(parseJsonReport(single).length, 19);
    const splitAcquireSeverities = new Set(
      parseJsonReport(parallel).flatMap((result) =>
        result.messages.filter((message) => message.ruleId === 'locksmith/no-split-acquire').map((message) => message.severity),
      ),
    );
    assert.deepEqual([...splitAcquireSeverities], [1]);
    assert.equal(parallel.stdout, single.stdout);
  });

  it('--concurrency auto and --cache together give the same findings', () => {
    const single = runLocksmith(root, ['--format', 'json']);
    const auto = runLocksmith(root, ['--format', 'json', '--concurrency', 'auto', '--cache', '--cache-location', '.auto-cache']);
    assert.equal(auto.status, 1, auto.stderr);
    assert.equal(auto.stdout, single.stdout);
  });

  it('works the same with ESLint 9', () => {
    const single = runWithEslint('eslint9', root, ['--format', 'json', '--concurrency', 'off']);
    const parallel = runWithEslint('eslint9', root, ['--format', 'json', '--concurrency', '2'], THREAD_DEBUG);
    assert.equal(threadsUsed(parallel), 2);
    assert.equal(parseJsonReport(single).length, 19);
    assert.equal(parallel.stdout, single.stdout);
  });

  it('says in one line that ESLint 8.57 has no multithreaded linting, exit 2', () => {
    const run = runWithEslint('eslint8', root, ['--concurrency', '2']);
    assert.equal(run.status, 2);
    assert.deepEqual(stderrLines(run), [
      'locksmith: --concurrency needs ESLint 9.34 or later, and this project has ESLint 8.57.1; use --concurrency off',
    ]);
    assert.equal(run.stdout, '');
    const single = runWithEslint('eslint8', root, [
      '--format',
      'json',
      '--concurrency',
      'off',
      '--cache',
      '--cache-location',
      '.eslint8-cache',
    ]);
    assert.equal(single.status, 1, single.stderr);
    assert.equal(parseJsonReport(single).length, 19);
  });

  for (const value of ['0', 'two', '-1', '1.5']) {
    it(`rejects --concurrency ${value} in one line, exit 2`, () => {
      const run = runLocksmith(root, [`--concurrency=${value}`]);
      assert.equal(run.status, 2);
      assert.deepEqual(stderrLines(run), [`locksmith: --concurrency needs auto, off or a number of threads of 1 or more, got '${value}'`]);
    });
  }
});
