// The README's first command: `locksmith examples/` finds the planted bugs, exits 1, and its SARIF is valid.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Sarif from 'sarif';
import { describe, it } from 'mocha';
import { CLI_SUITE_TIMEOUT_MS, REPOSITORY_ROOT, parseJsonReport, runLocksmith } from './run-cli';
import { sarifSchemaErrors } from './sarif-schema';
import plugin from '../../../eslint-plugin/src/index.js';

describe('locksmith examples/', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  it('exits 1 with findings in every example project, covering every rule of the recommended config', () => {
    const run = runLocksmith(REPOSITORY_ROOT, ['--format', 'json', 'examples/']);
    assert.equal(run.status, 1, run.stderr);
    const findings = parseJsonReport(run).flatMap((result) =>
      result.messages.map((message) => ({
        project: path.relative(path.join(REPOSITORY_ROOT, 'examples'), result.filePath).split(path.sep)[0],
        ruleId: message.ruleId,
      })),
    );
    const projects = fs
      .readdirSync(path.join(REPOSITORY_ROOT, 'examples'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    assert.deepEqual([...new Set(findings.map((finding) => finding.project))].sort(), projects);
    const recommended = Object.entries(plugin.configs.recommended.rules)
      .filter(([, severity]) => severity !== 'off')
      .map(([ruleId]) => ruleId)
      .sort();
    assert.deepEqual([...new Set(findings.map((finding) => finding.ruleId))].sort(), recommended);
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
