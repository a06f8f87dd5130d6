// The flags users of ESLint CLIs reach for: --preset, --quiet, --stdin/--stdin-filename, and their one-line usage errors.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { CLI_OPTIONS } from '../../../eslint-plugin/src/cli/args.js';
import {
  CLI_SUITE_TIMEOUT_MS,
  LOCKSMITH_BIN,
  REPOSITORY_ROOT,
  UNSAFE_RELEASE_SOURCE,
  makeProject,
  parseJsonReport,
  runLocksmith,
  stderrLines,
  type CliRun,
} from './run-cli';

// A lock around one UPDATE: `require-fencing-token` (warn in recommended, error in strict) at
// line 20, and `no-unneeded-lock` (strict only) at the acquisition, line 17.
const SINGLE_UPDATE_SOURCE = `import Redis from 'ioredis';
import pg from 'pg';
import { randomUUID } from 'node:crypto';

const RELEASE_LOCK_SCRIPT = \`
if redis.call("GET", KEYS[1]) == ARGV[1] then
    return redis.call("DEL", KEYS[1])
else
    return 0
end
\`;
const redis = new Redis();
const pool = new pg.Pool();

export async function markSent(id) {
  const token = randomUUID();
  const ok = await redis.set(\`lock:invoice:\${id}\`, token, 'PX', 30000, 'NX');
  if (!ok) return;
  try {
    await pool.query("UPDATE invoices SET state = 'sent' WHERE id = $1", [id]);
  } finally {
    await redis.eval(RELEASE_LOCK_SCRIPT, 1, \`lock:invoice:\${id}\`, token);
  }
}
`;

function findings(run: CliRun): string[] {
  return parseJsonReport(run)
    .flatMap((result) => result.messages.map((message) => `${message.ruleId ?? 'fatal'}@${message.line}:${message.severity}`))
    .sort();
}

function runWithStdin(cwd: string, args: readonly string[], input: string): CliRun {
  const child = spawnSync(process.execPath, [LOCKSMITH_BIN, ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  if (child.error) throw child.error;
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('locksmith --preset, --quiet, --stdin', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;

  before(() => {
    ({ root, cleanup } = makeProject({ 'update.js': SINGLE_UPDATE_SOURCE, 'release.js': UNSAFE_RELEASE_SOURCE }));
  });
  after(() => {
    cleanup();
  });

  it('lints with recommended by default and with strict on --preset strict', () => {
    const byDefault = runLocksmith(root, ['--format', 'json', 'update.js']);
    assert.equal(byDefault.status, 0, byDefault.stderr);
    assert.deepEqual(findings(byDefault), ['locksmith/require-fencing-token@20:1']);
    assert.equal(runLocksmith(root, ['--format', 'json', '--preset', 'recommended', 'update.js']).stdout, byDefault.stdout);

    const strict = runLocksmith(root, ['--format', 'json', '--preset', 'strict', 'update.js']);
    assert.equal(strict.status, 1, strict.stderr);
    // strict adds require-release-check: the compare-and-delete's reply is dropped.
    assert.deepEqual(findings(strict), [
      'locksmith/no-unneeded-lock@17:2',
      'locksmith/require-fencing-token@20:2',
      'locksmith/require-release-check@22:2',
    ]);
  });

  it('lets --rule adjust the preset', () => {
    const run = runLocksmith(root, ['--format', 'json', '--preset', 'strict', '--rule', 'no-unneeded-lock=off', 'update.js']);
    assert.deepEqual(findings(run), ['locksmith/require-fencing-token@20:2', 'locksmith/require-release-check@22:2']);
  });

  it('rejects an unknown preset in one line, exit 2', () => {
    const run = runLocksmith(root, ['--preset', 'all', 'update.js']);
    assert.equal(run.status, 2);
    assert.deepEqual(stderrLines(run), ["locksmith: unknown --preset 'all'; use one of: recommended, strict"]);
    assert.equal(run.stdout, '');
  });

  it('--quiet reports errors only, leaves out files without any, and ignores warnings for --max-warnings', () => {
    const run = runLocksmith(root, ['--format', 'json', '--quiet', '--max-warnings', '0', 'update.js', 'release.js']);
    assert.equal(run.status, 1);
    const report = parseJsonReport(run);
    assert.deepEqual(
      report.map((result) => result.filePath.endsWith('release.js')),
      [true],
    );
    assert.deepEqual(findings(run), ['locksmith/no-unsafe-release@13:2']);
    assert.equal(run.stderr, '');

    const warningsOnly = runLocksmith(root, ['--quiet', '--max-warnings', '0', 'update.js']);
    assert.equal(warningsOnly.status, 0, warningsOnly.stderr);
    assert.equal(warningsOnly.stdout, '');
  });

  it('--stdin lints standard input as --stdin-filename, relative to the working directory', () => {
    const run = runWithStdin(root, ['--format', 'json', '--stdin', '--stdin-filename', 'src/hook.ts'], UNSAFE_RELEASE_SOURCE);
    assert.equal(run.status, 1, run.stderr);
    const [result] = parseJsonReport(run);
    assert.equal(result?.filePath, `${root}/src/hook.ts`);
    assert.deepEqual(findings(run), ['locksmith/no-unsafe-release@13:2']);
    // Nothing is read from or written to the named path: it need not exist.
    assert.equal(fs.existsSync(`${root}/src`), false);
  });

  it('--stdin without a file name lints the text as JavaScript', () => {
    const run = runWithStdin(root, ['--format', 'json', '--stdin'], UNSAFE_RELEASE_SOURCE);
    assert.equal(run.status, 1, run.stderr);
    assert.deepEqual(findings(run), ['locksmith/no-unsafe-release@13:2']);
    const clean = runWithStdin(root, ['--stdin'], 'export const answer = 42;\n');
    assert.equal(clean.status, 0, clean.stderr);
    assert.equal(clean.stdout, '');
  });

  it('--stdin reports a parse error in the text as an error finding', () => {
    const run = runWithStdin(root, ['--format', 'json', '--stdin', '--stdin-filename', 'broken.ts'], 'export function broken( {\n');
    assert.equal(run.status, 1);
    assert.deepEqual(
      parseJsonReport(run).flatMap((result) => result.messages.map((message) => message.fatal)),
      [true],
    );
  });

  for (const [args, message] of [
    [['--stdin-filename', 'x.ts', 'update.js'], 'locksmith: --stdin-filename names the text read with --stdin; add --stdin'],
    [['--stdin', 'update.js'], 'locksmith: --stdin lints standard input; remove the paths (update.js)'],
    [
      ['-c', 'eslint.config.mjs', 'update.js'],
      '-c/--config takes a locksmith.json; Locksmith reads locksmith.json, not ESLint configs like eslint.config.mjs',
    ],
    [
      ['--config', 'config/.eslintrc.json', 'update.js'],
      '-c/--config takes a locksmith.json; Locksmith reads locksmith.json, not ESLint configs like .eslintrc.json',
    ],
    [
      ['--config=.eslintrc', 'update.js'],
      '-c/--config takes a locksmith.json; Locksmith reads locksmith.json, not ESLint configs like .eslintrc',
    ],
    [['-c', 'locksmith.yaml', 'update.js'], "-c/--config takes a locksmith.json (JSON, never executed), got 'locksmith.yaml'"],
    [['-c', 'locksmith.json', '--no-config-lookup', 'update.js'], '-c/--config and --no-config-lookup contradict each other; use one'],
    [
      ['--stdin', '--stdin-filename', 'notes.md'],
      "locksmith: --stdin-filename must name a JavaScript, TypeScript or Lua file (.js .mjs .cjs .jsx .ts .mts .cts .tsx .lua), got 'notes.md'",
    ],
  ] as const) {
    it(`rejects ${args.join(' ')} in one line, exit 2`, () => {
      const run = runWithStdin(root, args, UNSAFE_RELEASE_SOURCE);
      assert.equal(run.status, 2);
      assert.deepEqual(stderrLines(run), [message.startsWith('locksmith: ') ? message : `locksmith: ${message}`]);
      assert.equal(run.stdout, '');
    });
  }
});

describe('locksmith options in --help and docs/cli.md', function () {
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  it('describes every option the command accepts, with its short form', () => {
    const help = runLocksmith(REPOSITORY_ROOT, ['--help']).stdout;
    const docs = fs.readFileSync(path.join(REPOSITORY_ROOT, 'docs/cli.md'), 'utf8');
    for (const [name, spec] of Object.entries(CLI_OPTIONS)) {
      const short = 'short' in spec ? `-${spec.short}, ` : '';
      assert.match(help, new RegExp(`^ +${short}--${name}\\b`, 'm'), `--help lacks --${name}`);
      assert.ok(docs.includes(`\`--${name}`), `docs/cli.md lacks --${name}`);
    }
  });
});
