// The command on `.lua` files: Redis lock scripts are linted in place (an unguarded DEL or PEXPIRE
// at its line, compare-first scripts silent in every spelling), Lua that is not a Redis script
// (Neovim, LÖVE, Luau) is skipped without a word, and ESLint 8.57 skips `.lua` with one line.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { CLI_SUITE_TIMEOUT_MS, LOCKSMITH_BIN, makeProject, parseJsonReport, runLocksmith, type CliRun } from './run-cli';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const SCRIPTS = path.join(FIXTURES, 'lua-scripts');
const COMPAT_MODULES = path.join(__dirname, '..', '..', 'eslint-compat', 'node_modules');

function findings(run: CliRun, root: string): string[] {
  return parseJsonReport(run).flatMap((result) =>
    result.messages.map(
      (message) => `${path.relative(root, result.filePath).split(path.sep).join('/')}:${message.line} ${message.ruleId ?? 'fatal'}`,
    ),
  );
}

describe('locksmith on Lua scripts', function () {
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  it('reports the unguarded DEL and PEXPIRE at their lines, and nothing in compare-first scripts, includes or other Lua', () => {
    const run = runLocksmith(SCRIPTS, ['--format', 'json', '.']);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stderr, '');
    assert.deepEqual(findings(run, SCRIPTS), [
      'locks/force_unlock.lua:2 locksmith/no-unsafe-release',
      'locks/renew_lock.lua:3 locksmith/no-unsafe-extend',
    ]);
    // Every .lua file was linted, the silent ones included.
    assert.equal(parseJsonReport(run).length, 17);
  });

  it('exits 0 with no output on a folder of Neovim, LÖVE and Luau files', () => {
    for (const folder of ['nvim', 'game', 'roblox']) {
      const run = runLocksmith(path.join(SCRIPTS, folder), []);
      assert.deepEqual([run.status, run.stdout, run.stderr], [0, '', ''], folder);
    }
  });

  it('gives a Redis script that does not parse one parse error', () => {
    const root = path.join(FIXTURES, 'lua-scripts-broken');
    const run = runLocksmith(root, ['--format', 'json']);
    assert.equal(run.status, 1, run.stderr);
    assert.deepEqual(findings(run, root), ['unlock.lua:4 fatal']);
  });

  it('skips .lua files with one stderr line on ESLint 8.57, and still lints the JavaScript', () => {
    const { root, cleanup } = makeProject({
      'locks/unlock.lua': "return redis.call('DEL', KEYS[1])\n",
      'locks/renew.lua': "return redis.call('PEXPIRE', KEYS[1], ARGV[1])\n",
      'index.js': 'module.exports = 1;\n',
    });
    try {
      const child = spawnSync(process.execPath, ['--require', path.join(__dirname, 'use-eslint.cjs'), LOCKSMITH_BIN, '--format', 'json'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, FORCE_COLOR: '0', LOCKSMITH_TEST_ESLINT: path.join(COMPAT_MODULES, 'eslint8') },
      });
      assert.equal(child.status, 0, child.stderr);
      assert.equal(child.stderr, 'locksmith: skipped 2 .lua files: this ESLint has no languages (Lua scripts need ESLint 9.7 or later)\n');
      assert.deepEqual(
        parseJsonReport({ status: child.status, stdout: child.stdout, stderr: child.stderr }).map((result) =>
          path.basename(result.filePath),
        ),
        ['index.js'],
      );
    } finally {
      cleanup();
    }
  });
});
