// docs/github-actions.md: its workflows are valid YAML of the shape Actions reads, and their
// locksmith command runs (with this checkout's binary for `npx locksmith`) and writes valid SARIF.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Sarif from 'sarif';
import { describe, it } from 'mocha';
import { parse } from 'yaml';
import { CLI_SUITE_TIMEOUT_MS, LOCKSMITH_BIN, REPOSITORY_ROOT, UNSAFE_RELEASE_SOURCE, makeProject } from './run-cli';
import { sarifSchemaErrors } from './sarif-schema';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: unknown;
  permissions: Record<string, string>;
  jobs: Record<string, { 'runs-on': string; steps: Step[]; strategy?: { matrix: { shard: number[] } } }>;
}

const page = fs.readFileSync(path.join(REPOSITORY_ROOT, 'docs/github-actions.md'), 'utf8');
const workflows = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => parse(match[1]!) as Workflow);

describe('docs/github-actions.md', function () {
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  it('has a single-job and a matrix workflow, each uploading with upload-sarif', () => {
    assert.equal(workflows.length, 2);
    for (const workflow of workflows) {
      assert.ok(workflow.on !== undefined);
      assert.equal(workflow.permissions['security-events'], 'write');
      const [job] = Object.values(workflow.jobs);
      assert.ok(job !== undefined && typeof job['runs-on'] === 'string');
      const upload = job.steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'));
      assert.equal(upload?.with?.sarif_file, 'locksmith.sarif');
      assert.ok(job.steps.some((step) => step.run?.startsWith('npx locksmith --format sarif')));
    }
    assert.deepEqual(workflows[1]!.jobs.locksmith?.strategy?.matrix.shard, [1, 2, 3, 4]);
  });

  for (const [index, name] of ['single job', 'matrix (shard 3 of 4)'].entries()) {
    it(`runs the ${name} workflow's command and writes valid SARIF`, () => {
      const job = Object.values(workflows[index]!.jobs)[0]!;
      const command = job.steps
        .find((step) => step.run?.startsWith('npx locksmith'))!
        .run!.replace('${{ matrix.shard }}', '3')
        .replace('npx locksmith', `"${process.execPath}" "${LOCKSMITH_BIN}"`);
      const { root, cleanup } = makeProject({ 'src/charge.js': UNSAFE_RELEASE_SOURCE, 'src/a.js': '', 'src/b.js': '', 'src/c.js': '' });
      try {
        const run = spawnSync('bash', ['-c', command], { cwd: root, encoding: 'utf8' });
        assert.equal(run.status, 0, run.stderr);
        const log = JSON.parse(fs.readFileSync(path.join(root, 'locksmith.sarif'), 'utf8')) as Sarif.Log;
        assert.deepEqual(sarifSchemaErrors(log), []);
        assert.deepEqual(log.runs[0]?.automationDetails, index === 1 ? { id: 'locksmith/shard-3-of-4/' } : undefined);
      } finally {
        cleanup();
      }
    });
  }
});
