// The command's contract: exit codes 0/1/2, one-line errors, --help and --version.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import {
  CLI_SUITE_TIMEOUT_MS,
  LOCKSMITH_BIN,
  SPLIT_ACQUIRE_SOURCE,
  makeProject,
  parseJsonReport,
  runLocksmith,
  stderrLines,
} from './run-cli';

const ANSI_ESCAPE = '\u001b[';
const CLEAN_SOURCE = `import Redis from 'ioredis';\n\nexport const redis = new Redis();\nexport const answer = 42;\n`;

describe('locksmith command', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;

  before(() => {
    ({ root, cleanup } = makeProject({
      'clean/app.js': CLEAN_SOURCE,
      'clean/types.ts': 'export interface Job { id: string }\nexport const retries: number = 3;\n',
      'clean/app.d.ts': 'export declare const answer: number;\n',
      'buggy/job.js': SPLIT_ACQUIRE_SOURCE,
      'broken/syntax.js': 'export function broken( {\n',
      'notes.txt': 'not code',
      'empty/.keep': '',
    }));
  });
  after(() => {
    cleanup();
  });

  it('exits 0 and prints nothing for clean code', () => {
    const run = runLocksmith(root, ['clean']);
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, '');
    assert.equal(run.status, 0);
  });

  it('exits 1 and names the rule and file when it finds a lock bug', () => {
    const run = runLocksmith(root, ['buggy']);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /buggy[/\\]job\.js/);
    assert.match(run.stdout, /locksmith\/no-split-acquire/);
  });

  it('reports a file that does not parse as an error finding and exits 1', () => {
    const run = runLocksmith(root, ['--format', 'json', 'broken']);
    assert.equal(run.status, 1);
    const messages = parseJsonReport(run).flatMap((result) => result.messages);
    assert.equal(messages.length, 1);
    const [parseError] = messages;
    assert.equal(parseError?.fatal, true);
    assert.equal(parseError.severity, 2);
    assert.match(parseError.message, /^Parsing error/);
    assert.equal(run.stderr, '');
  });

  it('lints the working directory when no path is given', () => {
    const run = runLocksmith(path.join(root, 'clean'), ['--format', 'json']);
    assert.equal(run.status, 0);
    assert.deepEqual(
      parseJsonReport(run)
        .map((result) => path.basename(result.filePath))
        .sort(),
      ['app.js', 'types.ts'],
    );
  });

  describe('user errors: exit 2 with one line on stderr and no stack trace', () => {
    const cases: { title: string; args: string[]; line: RegExp }[] = [
      { title: 'a missing path', args: ['clean', 'nowhere/'], line: /^locksmith: no such file or directory: nowhere\/$/ },
      { title: 'an unknown option', args: ['--colour'], line: /^locksmith: unknown option '--colour'/ },
      { title: 'an option without its value', args: ['--format'], line: /^locksmith: option '--format' needs a value$/ },
      {
        title: 'an unknown format',
        args: ['--format', 'xml', 'clean'],
        line: /^locksmith: unknown format 'xml'; use one of: stylish, json, sarif$/,
      },
      {
        title: 'a malformed --max-warnings',
        args: ['--max-warnings', 'many', 'clean'],
        line: /^locksmith: --max-warnings needs a whole number/,
      },
      {
        title: 'a negative --max-warnings',
        args: ['--max-warnings=-1', 'clean'],
        line: /^locksmith: --max-warnings needs a whole number of zero or more, got '-1'$/,
      },
      {
        title: 'an unknown rule id',
        args: ['--rule', 'no-such-rule=off', 'clean'],
        line: /^locksmith: unknown rule 'no-such-rule' in --rule/,
      },
      {
        title: 'a --rule without a severity',
        args: ['--rule', 'no-split-acquire', 'clean'],
        line: /^locksmith: --rule needs id=off\|warn\|error/,
      },
      {
        title: 'a bad severity',
        args: ['--rule', 'no-split-acquire=loud', 'clean'],
        line: /^locksmith: --rule no-split-acquire needs a severity of off, warn or error/,
      },
      {
        title: 'a file that is not JS or TS',
        args: ['notes.txt'],
        line: /^locksmith: not a JavaScript, TypeScript or Lua file: notes\.txt/,
      },
      {
        title: 'a directory with nothing to lint',
        args: ['empty'],
        line: /^locksmith: no JavaScript, TypeScript or Lua files to lint in empty$/,
      },
    ];
    for (const { title, args, line } of cases) {
      it(title, () => {
        const run = runLocksmith(root, args);
        assert.equal(run.status, 2);
        const lines = stderrLines(run);
        assert.equal(lines.length, 1, `expected one line, got:\n${run.stderr}`);
        assert.match(lines[0] ?? '', line);
        assert.doesNotMatch(run.stderr, /\n\s+at /);
        assert.equal(run.stdout, '');
      });
    }
  });

  it('writes the report to --output-file and nothing to stdout', () => {
    const run = runLocksmith(root, ['--format', 'json', '--output-file', 'reports/out.json', 'buggy']);
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    const report = JSON.parse(fs.readFileSync(path.join(root, 'reports/out.json'), 'utf8')) as unknown[];
    assert.equal(report.length, 1);
  });

  it('says in one line that the plugin is not built when dist/ is missing', () => {
    const unbuilt = makeProject({ 'bin/locksmith.js': fs.readFileSync(LOCKSMITH_BIN, 'utf8') });
    try {
      const child = spawnSync(process.execPath, [path.join(unbuilt.root, 'bin/locksmith.js'), '.'], { cwd: root, encoding: 'utf8' });
      assert.equal(child.status, 2);
      assert.equal(child.stderr, 'locksmith: the plugin is not built; run `npx tsc -b` in its repository first\n');
    } finally {
      unbuilt.cleanup();
    }
  });

  it('writes a stylish report to a file without terminal colours, even when colours are forced', () => {
    const run = runLocksmith(root, ['--output-file', 'reports/out.txt', 'buggy'], { FORCE_COLOR: '1' });
    assert.equal(run.status, 1);
    const report = fs.readFileSync(path.join(root, 'reports/out.txt'), 'utf8');
    assert.match(report, /locksmith\/no-split-acquire/);
    assert.ok(!report.includes(ANSI_ESCAPE), 'no escape sequences in the file');
    // The same run on stdout is coloured, so the check above is not vacuous.
    assert.ok(runLocksmith(root, ['buggy'], { FORCE_COLOR: '1' }).stdout.includes(ANSI_ESCAPE));
  });

  it('prints its version and its help, exiting 0', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(path.dirname(LOCKSMITH_BIN), '../package.json'), 'utf8')) as {
      version: string;
    };
    const versionRun = runLocksmith(root, ['--version']);
    assert.equal(versionRun.status, 0);
    assert.equal(versionRun.stdout, `${version}\n`);
    const helpRun = runLocksmith(root, ['--help']);
    assert.equal(helpRun.status, 0);
    assert.match(helpRun.stdout, /^Usage: locksmith \[options\] \[paths\.\.\.\]$/m);
    assert.match(helpRun.stdout, /--max-warnings/);
  });
});
