// The README's first command: `locksmith examples/` finds the planted bugs, exits 1, and its SARIF is valid.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type * as Sarif from 'sarif';
import { describe, it } from 'mocha';
import { CLI_SUITE_TIMEOUT_MS, REPOSITORY_ROOT, parseJsonReport, runLocksmith } from './run-cli';
import { sarifSchemaErrors } from './sarif-schema';

describe('locksmith examples/', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  it('exits 1 with findings of both rules, in both example projects', () => {
    const run = runLocksmith(REPOSITORY_ROOT, ['--format', 'json', 'examples/']);
    assert.equal(run.status, 1, run.stderr);
    const findings = parseJsonReport(run).flatMap((result) => result.messages.map((message) => ({
      project: path.relative(path.join(REPOSITORY_ROOT, 'examples'), result.filePath).split(path.sep)[0],
      ruleId: message.ruleId,
    })));
    const ruleIds = new Set(findings.map((finding) => finding.ruleId));
    assert.ok(ruleIds.has('locksmith/no-split-acquire'), JSON.stringify(findings));
    assert.ok(ruleIds.has('locksmith/no-unsafe-release'), JSON.stringify(findings));
    assert.deepEqual([...new Set(findings.map((finding) => finding.project))].sort(), ['invoice-worker', 'job-runner']);
  });

  it('writes schema-valid SARIF whose results all name a described rule', () => {
    const run = runLocksmith(REPOSITORY_ROOT, ['--format', 'sarif', 'examples']);
    assert.equal(run.status, 1, run.stderr);
    const log = JSON.parse(run.stdout) as Sarif.Log;
    assert.deepEqual(sarifSchemaErrors(log), []);
    const [sarifRun] = log.runs;
    assert.ok((sarifRun?.results ?? []).length >= 3);
    for (const result of sarifRun?.results ?? []) {
      assert.match(result.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '', /^examples\//);
      assert.equal(sarifRun?.tool.driver.rules?.[result.ruleIndex ?? -1]?.id, result.ruleId);
    }
  });
});
