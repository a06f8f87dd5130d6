// --cache, --cache-location, --cache-strategy: ESLint's own result cache, kept apart from the project's .eslintcache.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import {
  CLI_SUITE_TIMEOUT_MS,
  SPLIT_ACQUIRE_SOURCE,
  UNSAFE_RELEASE_SOURCE,
  makeProject,
  parseJsonReport,
  runLocksmith,
  stderrLines,
  writeFiles,
  type CliRun,
} from './run-cli';

// ESLint's debug log names every file it lints and every file it answers from its cache: the
// proof of what a run re-linted, from ESLint itself rather than from timing.
const ESLINT_DEBUG = { FORCE_COLOR: '0', DEBUG: 'eslint:eslint-helpers', DEBUG_COLORS: '0' };

interface CacheActivity {
  linted: string[];
  fromCache: string[];
}

function cacheActivity(run: CliRun, root: string): CacheActivity {
  const linted: string[] = [];
  const fromCache: string[] = [];
  for (const line of run.stderr.split('\n')) {
    const lintedFile = /File "([^"]+)" linted in/.exec(line)?.[1];
    const cachedFile = /Skipping file since it hasn't changed: (.+)$/.exec(line)?.[1];
    if (lintedFile !== undefined) linted.push(path.relative(root, lintedFile));
    if (cachedFile !== undefined) fromCache.push(path.relative(root, cachedFile.trim()));
  }
  return { linted: linted.sort(), fromCache: fromCache.sort() };
}

function ruleIds(run: CliRun): string[] {
  return parseJsonReport(run)
    .flatMap((result) => result.messages.map((message) => message.ruleId ?? 'fatal'))
    .sort();
}

const ESLINT_CACHE_OF_THE_PROJECT = '{"the project\'s own":"ESLint cache"}';

describe('locksmith --cache', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;

  beforeEach(() => {
    ({ root, cleanup } = makeProject({
      'src/release.js': UNSAFE_RELEASE_SOURCE,
      'src/acquire.ts': SPLIT_ACQUIRE_SOURCE,
      'src/clean.js': 'export const answer = 42;\n',
      '.eslintcache': ESLINT_CACHE_OF_THE_PROJECT,
    }));
  });
  afterEach(() => {
    cleanup();
  });

  it('re-lints no unchanged file on the second run, with the same report, and only the changed file after an edit', () => {
    const first = runLocksmith(root, ['--cache', '--format', 'json', 'src'], ESLINT_DEBUG);
    assert.equal(first.status, 1);
    assert.deepEqual(cacheActivity(first, root), { linted: ['src/acquire.ts', 'src/clean.js', 'src/release.js'], fromCache: [] });
    assert.ok(fs.statSync(path.join(root, '.locksmithcache')).isFile());

    const second = runLocksmith(root, ['--cache', '--format', 'json', 'src'], ESLINT_DEBUG);
    assert.equal(second.status, 1);
    assert.deepEqual(cacheActivity(second, root), { linted: [], fromCache: ['src/acquire.ts', 'src/clean.js', 'src/release.js'] });
    assert.equal(second.stdout, first.stdout);

    writeFiles(root, { 'src/release.js': UNSAFE_RELEASE_SOURCE.replace("redis.del('lock:x')", "redis.get('lock:x')") });
    const third = runLocksmith(root, ['--cache', '--format', 'json', 'src'], ESLINT_DEBUG);
    assert.deepEqual(cacheActivity(third, root), { linted: ['src/release.js'], fromCache: ['src/acquire.ts', 'src/clean.js'] });
    assert.deepEqual(ruleIds(third), ['locksmith/no-split-acquire']);
  });

  it("never touches the project's .eslintcache", () => {
    runLocksmith(root, ['--cache', 'src']);
    assert.equal(fs.readFileSync(path.join(root, '.eslintcache'), 'utf8'), ESLINT_CACHE_OF_THE_PROJECT);
  });

  it('re-lints everything when the rules change, since the config is part of what ESLint hashes', () => {
    runLocksmith(root, ['--cache', 'src']);
    const run = runLocksmith(root, ['--cache', '--format', 'json', '--rule', 'no-unsafe-release=off', 'src'], ESLINT_DEBUG);
    assert.deepEqual(cacheActivity(run, root).fromCache, []);
    assert.deepEqual(ruleIds(run), ['locksmith/no-split-acquire']);
  });

  it('writes to --cache-location, a file or a directory', () => {
    runLocksmith(root, ['--cache', '--cache-location', 'tmp/locksmith.cache', 'src']);
    assert.ok(fs.statSync(path.join(root, 'tmp/locksmith.cache')).isFile());
    fs.mkdirSync(path.join(root, 'caches'));
    runLocksmith(root, ['--cache', '--cache-location', 'caches/', 'src']);
    assert.equal(fs.readdirSync(path.join(root, 'caches')).length, 1);
    assert.equal(fs.existsSync(path.join(root, '.locksmithcache')), false);
  });

  it('--cache-strategy content re-lints no file whose time changed but whose content did not; metadata does', () => {
    runLocksmith(root, ['--cache', '--cache-strategy', 'content', 'src']);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'src/clean.js'), later, later);
    const byContent = runLocksmith(root, ['--cache', '--cache-strategy', 'content', 'src'], ESLINT_DEBUG);
    assert.deepEqual(cacheActivity(byContent, root).linted, []);

    runLocksmith(root, ['--cache', '--cache-strategy', 'metadata', '--cache-location', '.by-metadata', 'src']);
    const evenLater = new Date(Date.now() + 120_000);
    fs.utimesSync(path.join(root, 'src/clean.js'), evenLater, evenLater);
    const byMetadata = runLocksmith(
      root,
      ['--cache', '--cache-strategy', 'metadata', '--cache-location', '.by-metadata', 'src'],
      ESLINT_DEBUG,
    );
    assert.deepEqual(cacheActivity(byMetadata, root).linted, ['src/clean.js']);
  });

  it('rejects an unknown --cache-strategy in one line, exit 2', () => {
    const run = runLocksmith(root, ['--cache', '--cache-strategy', 'mtime', 'src']);
    assert.equal(run.status, 2);
    assert.deepEqual(stderrLines(run), ["locksmith: unknown --cache-strategy 'mtime'; use one of: metadata, content"]);
  });
});
