// `--shard i/n`: the shards partition the files exactly, their findings together are the unsharded
// run's, and adding files moves no other file to a different shard.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Sarif from 'sarif';
import { after, before, describe, it } from 'mocha';
import { filesOfShard, parseShard, repositoryRoot, shardKey } from '../../../eslint-plugin/src/cli/shard';
import { UsageError } from '../../../eslint-plugin/src/cli/usage-error';
import {
  CLI_SUITE_TIMEOUT_MS,
  SPLIT_ACQUIRE_SOURCE,
  UNSAFE_RELEASE_SOURCE,
  makeProject,
  parseJsonReport,
  runLocksmith,
  stderrLines,
  type CliRun,
} from './run-cli';
import { sarifSchemaErrors } from './sarif-schema';

const SHARDS = 3;

/** Twelve files in nested folders, half of them with findings. */
function projectFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let index = 0; index < 12; index += 1) {
    const folder = ['packages/billing/src', 'packages/jobs/src', 'apps/web'][index % 3]!;
    files[`${folder}/file-${index}.${index % 4 === 0 ? 'ts' : 'js'}`] =
      index % 2 === 0 ? (index % 4 === 0 ? UNSAFE_RELEASE_SOURCE : SPLIT_ACQUIRE_SOURCE) : `export const value${index} = ${index};\n`;
  }
  return files;
}

/** Linted files (relative, POSIX) and `file:rule:line` findings of a JSON report. */
function linted(run: CliRun, root: string): { files: string[]; findings: string[] } {
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  const results = parseJsonReport(run);
  const files = results.map((result) => path.relative(root, result.filePath).split(path.sep).join('/'));
  const findings = results.flatMap((result, index) =>
    result.messages.map((message) => `${files[index]}:${message.ruleId}:${message.line}`),
  );
  return { files, findings };
}

function shardRuns(root: string): { files: string[]; findings: string[] }[] {
  const runs = [];
  for (let index = 1; index <= SHARDS; index += 1)
    runs.push(linted(runLocksmith(root, ['--format', 'json', '--shard', `${index}/${SHARDS}`]), root));
  return runs;
}

describe('locksmith --shard', function () {
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;
  before(() => {
    ({ root, cleanup } = makeProject(projectFiles()));
  });
  after(() => {
    cleanup();
  });

  it("partitions the files exactly, and the shards' findings together are the unsharded run's", () => {
    const whole = linted(runLocksmith(root, ['--format', 'json']), root);
    assert.equal(whole.files.length, 12);
    assert.ok(whole.findings.length >= 6, 'the project has findings to split');
    const shards = shardRuns(root);
    const allFiles = shards.flatMap((shard) => shard.files);
    assert.deepEqual([...allFiles].sort(), [...whole.files].sort(), 'every file in exactly one shard');
    assert.equal(new Set(allFiles).size, allFiles.length, 'no file in two shards');
    assert.ok(shards.filter((shard) => shard.files.length > 0).length >= 2, 'the files are spread over the shards');
    assert.deepEqual(shards.flatMap((shard) => shard.findings).sort(), [...whole.findings].sort());
  });

  it('moves none of the old files when 50 files are added', () => {
    const before = shardRuns(root);
    const added: Record<string, string> = {};
    for (let index = 0; index < 50; index += 1)
      added[`packages/new-${index % 5}/src/added-${index}.js`] = `export const added${index} = ${index};\n`;
    const { root: grown, cleanup: removeGrown } = makeProject({ ...projectFiles(), ...added });
    try {
      const after = shardRuns(grown);
      assert.equal(after.flatMap((shard) => shard.files).length, 62);
      for (let index = 0; index < SHARDS; index += 1) {
        const old = after[index]!.files.filter((file) => !file.includes('/added-'));
        assert.deepEqual(old.sort(), [...before[index]!.files].sort(), `shard ${index + 1} keeps exactly its old files`);
      }
    } finally {
      removeGrown();
    }
  });

  it('names its SARIF run locksmith/shard-i-of-n/, valid SARIF 2.1.0', () => {
    const run = runLocksmith(root, ['--format', 'sarif', '--shard', '2/3']);
    assert.ok(run.status === 0 || run.status === 1, run.stderr);
    const log = JSON.parse(run.stdout) as Sarif.Log;
    assert.deepEqual(sarifSchemaErrors(log), []);
    assert.deepEqual(log.runs[0]?.automationDetails, { id: 'locksmith/shard-2-of-3/' });
    const unsharded = JSON.parse(runLocksmith(root, ['--format', 'sarif']).stdout) as Sarif.Log;
    assert.equal(unsharded.runs[0]?.automationDetails, undefined);
  });

  it('rejects a bad --shard in one line, exit 2', () => {
    const run = runLocksmith(root, ['--shard', '4/3']);
    assert.equal(run.status, 2);
    assert.deepEqual(stderrLines(run), ["locksmith: --shard needs i/n with 1 <= i <= n, e.g. --shard 2/4, got '4/3'"]);
    assert.equal(run.stdout, '');
  });

  for (const bad of ['0/3', '3', 'a/b', '1/0', '1/3/2', '2/3x', '99999999999999999999/1']) {
    it(`parses --shard ${bad} as a usage error`, () => {
      assert.throws(
        () => parseShard(bad),
        (error: Error) =>
          error instanceof UsageError && error.message === `--shard needs i/n with 1 <= i <= n, e.g. --shard 2/4, got '${bad}'`,
      );
    });
  }

  it('cannot be combined with --stdin', () => {
    const run = runLocksmith(root, ['--stdin', '--shard', '1/2']);
    assert.equal(run.status, 2);
    assert.equal(stderrLines(run).length, 1);
  });
});

describe('shard assignment', () => {
  it('hashes the path from the repository root (the nearest .git), whatever the working directory', () => {
    const { root, cleanup } = makeProject({ '.git/HEAD': 'ref: refs/heads/main\n', 'packages/a/src/x.js': '' });
    try {
      const inside = path.join(root, 'packages/a');
      assert.equal(repositoryRoot(inside), root);
      assert.equal(shardKey(path.join(inside, 'src/x.js'), repositoryRoot(inside)), 'packages/a/src/x.js');
      fs.rmSync(path.join(root, '.git'), { recursive: true });
      // Without a repository (the temporary folder is in none) the working directory is the root.
      assert.ok(!fs.existsSync(path.join(path.dirname(root), '.git')));
      assert.equal(repositoryRoot(inside), inside);
    } finally {
      cleanup();
    }
  });

  it("partitions 10,000 paths exactly and keeps each one's shard as the set grows", () => {
    const root = path.resolve('/repo');
    const files = Array.from({ length: 10_000 }, (_, index) => path.join(root, `pkg-${index % 37}`, `src/file-${index}.ts`));
    const count = 8;
    const shards = Array.from({ length: count }, (_, index) => filesOfShard(files, parseShard(`${index + 1}/${count}`), root));
    assert.equal(
      shards.reduce((sum, shard) => sum + shard.length, 0),
      files.length,
    );
    assert.equal(new Set(shards.flat()).size, files.length);
    for (const shard of shards) assert.ok(shard.length > files.length / count / 2, 'no shard is starved');
    const grown = [...files, ...Array.from({ length: 50 }, (_, index) => path.join(root, `new/added-${index}.js`))];
    shards.forEach((shard, index) => {
      const after = filesOfShard(grown, parseShard(`${index + 1}/${count}`), root).filter((file) => !file.includes('added-'));
      assert.deepEqual(after, shard);
    });
  });
});
