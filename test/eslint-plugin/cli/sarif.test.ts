// SARIF output: valid against the official 2.1.0 schema, every rule described, fingerprints that survive line shifts.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import { after, before, describe, it } from 'mocha';
import { recommendedRules } from '../../../eslint-plugin/src/configs';
import { rules } from '../../../eslint-plugin/src/rules/index';
import { ruleDocsUrl } from '../../../eslint-plugin/src/rule-support/create-rule';
import {
  CLI_SUITE_TIMEOUT_MS,
  SPLIT_ACQUIRE_EXPIRY_LINE,
  SPLIT_ACQUIRE_SOURCE,
  UNSAFE_RELEASE_SOURCE,
  makeProject,
  runLocksmith,
  writeFiles,
  type CliRun,
} from './run-cli';
import { sarifSchemaErrors } from './sarif-schema';

function parseSarif(run: CliRun): Sarif.Log {
  return JSON.parse(run.stdout) as Sarif.Log;
}

function onlyRun(log: Sarif.Log): Sarif.Run {
  assert.equal(log.runs.length, 1);
  return log.runs[0]!;
}

function fingerprintsOf(run: Sarif.Run): string[] {
  return (run.results ?? []).map((result) => Object.values(result.partialFingerprints ?? {}).join('|'));
}

describe('locksmith --format sarif', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;

  before(() => {
    ({ root, cleanup } = makeProject({
      'src/nightly job.js': SPLIT_ACQUIRE_SOURCE,
      'src/invoices/charge.ts': UNSAFE_RELEASE_SOURCE,
      'src/clean.js': 'export const answer = 42;\n',
      'src/broken.js': 'export function broken( {\n',
    }));
  });
  after(() => {
    cleanup();
  });

  it('is valid SARIF 2.1.0 with findings and a parse failure in it', () => {
    const run = runLocksmith(root, ['--format', 'sarif', 'src']);
    assert.equal(run.status, 1, run.stderr);
    const log = parseSarif(run);
    assert.deepEqual(sarifSchemaErrors(log), []);
    assert.equal(log.version, '2.1.0');
    assert.match(log.$schema ?? '', /sarif-schema-2\.1\.0\.json$/);
  });

  it('is still valid SARIF when nothing is found', () => {
    const run = runLocksmith(root, ['--format', 'sarif', 'src/clean.js']);
    assert.equal(run.status, 0);
    const log = parseSarif(run);
    assert.deepEqual(sarifSchemaErrors(log), []);
    assert.deepEqual(onlyRun(log).results, []);
  });

  it('describes every rule of the plugin, with its docs url and default level', () => {
    const sarifRun = onlyRun(parseSarif(runLocksmith(root, ['--format', 'sarif', 'src/clean.js'])));
    const { driver } = sarifRun.tool;
    assert.equal(driver.name, 'locksmith');
    assert.match(driver.version ?? '', /^\d+\.\d+\.\d+/);
    const ruleIds = Object.keys(rules).sort();
    assert.ok(ruleIds.length > 0, 'the plugin has rules');
    assert.deepEqual(
      driver.rules?.map((rule) => rule.id),
      ruleIds,
    );
    for (const descriptor of driver.rules ?? []) {
      assert.equal(descriptor.helpUri, ruleDocsUrl(descriptor.id));
      assert.ok((descriptor.shortDescription?.text ?? '').length > 0, `${descriptor.id} has a description`);
      assert.ok(descriptor.fullDescription?.text, `${descriptor.id} has a full description`);
      const recommended = recommendedRules[`locksmith/${descriptor.id}`];
      const expected = recommended === 'off' ? { enabled: false, level: 'error' } : { level: recommended === 'warn' ? 'warning' : 'error' };
      assert.deepEqual(descriptor.defaultConfiguration, expected, descriptor.id);
    }
  });

  it('points each result at its rule and at a region relative to %SRCROOT%', () => {
    const sarifRun = onlyRun(parseSarif(runLocksmith(root, ['--format', 'sarif', 'src'])));
    assert.deepEqual(sarifRun.originalUriBaseIds, { '%SRCROOT%': { uri: `${pathToFileURL(root).href}/` } });
    const results = sarifRun.results ?? [];
    const byRule = new Map(results.map((result) => [result.ruleId, result]));
    const splitAcquire = byRule.get('no-split-acquire');
    const unsafeRelease = byRule.get('no-unsafe-release');
    assert.ok(splitAcquire && unsafeRelease, `results: ${JSON.stringify(results.map((result) => result.ruleId))}`);
    for (const result of results) {
      assert.equal(sarifRun.tool.driver.rules?.[result.ruleIndex ?? -1]?.id, result.ruleId);
      assert.ok(result.level === 'error' || result.level === 'warning');
    }
    const splitLocation = splitAcquire.locations?.[0]?.physicalLocation;
    assert.deepEqual(splitLocation?.artifactLocation, { uri: 'src/nightly%20job.js', uriBaseId: '%SRCROOT%' });
    // The report covers the expiry call.
    assert.equal(splitLocation.region?.startLine, SPLIT_ACQUIRE_EXPIRY_LINE);
    assert.ok((splitLocation.region.endLine ?? 0) >= SPLIT_ACQUIRE_EXPIRY_LINE);
    assert.ok((splitLocation.region.endColumn ?? 0) > (splitLocation.region.startColumn ?? 0));
    assert.equal(unsafeRelease.level, 'error');
    assert.deepEqual(unsafeRelease.locations?.[0]?.physicalLocation?.artifactLocation, {
      uri: 'src/invoices/charge.ts',
      uriBaseId: '%SRCROOT%',
    });
  });

  it('records a file that fails to parse as an execution notification, not a result', () => {
    const sarifRun = onlyRun(parseSarif(runLocksmith(root, ['--format', 'sarif', 'src/broken.js'])));
    assert.deepEqual(sarifRun.results, []);
    const notifications = sarifRun.invocations?.[0]?.toolExecutionNotifications ?? [];
    assert.equal(notifications.length, 1);
    assert.match(notifications[0]?.message.text ?? '', /^Parsing error/);
    assert.equal(notifications[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri, 'src/broken.js');
  });

  it('keeps fingerprints when lines are inserted above a finding, and tells identical lines apart', () => {
    const project = makeProject({ 'job.js': SPLIT_ACQUIRE_SOURCE });
    try {
      const before = onlyRun(parseSarif(runLocksmith(project.root, ['--format', 'sarif'])));
      const fingerprints = fingerprintsOf(before);
      assert.ok(fingerprints.length > 0);
      assert.ok(fingerprints.every((fingerprint) => fingerprint.length > 0));

      const shifted = SPLIT_ACQUIRE_SOURCE.replace(
        "import Redis from 'ioredis';\n",
        "import Redis from 'ioredis';\n// Runs once a night.\n\n",
      );
      writeFiles(project.root, { 'job.js': shifted });
      const after = onlyRun(parseSarif(runLocksmith(project.root, ['--format', 'sarif'])));
      assert.notEqual(
        after.results?.[0]?.locations?.[0]?.physicalLocation?.region?.startLine,
        before.results?.[0]?.locations?.[0]?.physicalLocation?.region?.startLine,
      );
      assert.deepEqual(fingerprintsOf(after), fingerprints);

      // The same buggy function twice: same rule, file and line text, so only the occurrence differs.
      const duplicated = `${shifted}\n${shifted.slice(shifted.indexOf('export async function')).replace('runNightlyJob', 'runHourlyJob')}`;
      writeFiles(project.root, { 'job.js': duplicated });
      const twice = fingerprintsOf(onlyRun(parseSarif(runLocksmith(project.root, ['--format', 'sarif']))));
      assert.equal(new Set(twice).size, twice.length, `fingerprints repeat: ${twice.join(', ')}`);
      assert.equal(twice[0], fingerprints[0]);
    } finally {
      project.cleanup();
    }
  });

  it('changes the fingerprint when the reported line changes', () => {
    const project = makeProject({ 'job.js': SPLIT_ACQUIRE_SOURCE });
    try {
      const original = fingerprintsOf(onlyRun(parseSarif(runLocksmith(project.root, ['--format', 'sarif']))));
      writeFiles(project.root, {
        'job.js': SPLIT_ACQUIRE_SOURCE.replace("expire('lock:nightly-job', 30)", "expire('lock:nightly-job', 60)"),
      });
      const edited = fingerprintsOf(onlyRun(parseSarif(runLocksmith(project.root, ['--format', 'sarif']))));
      assert.equal(edited.length, original.length);
      assert.notDeepEqual(edited, original);
    } finally {
      project.cleanup();
    }
  });

  it('writes a valid log to --output-file', () => {
    const run = runLocksmith(root, ['--format', 'sarif', '-o', 'locksmith.sarif', 'src']);
    assert.equal(run.stdout, '');
    const log = JSON.parse(fs.readFileSync(path.join(root, 'locksmith.sarif'), 'utf8')) as unknown;
    assert.deepEqual(sarifSchemaErrors(log), []);
  });

  it('records --rule changes as configuration overrides of the invocation', () => {
    const sarifRun = onlyRun(parseSarif(runLocksmith(root, ['--format', 'sarif', '--rule', 'no-split-acquire=off', 'src/clean.js'])));
    const overrides = sarifRun.invocations?.[0]?.ruleConfigurationOverrides ?? [];
    assert.deepEqual(
      overrides.map((override) => [override.descriptor.id, override.configuration.enabled]),
      [['no-split-acquire', false]],
    );
  });
});

describe('the SARIF schema check itself', () => {
  it('rejects a log that breaks the schema', () => {
    const broken = { version: '2.1.0', runs: [{ tool: { driver: {} }, results: [{ message: {}, level: 'fatal' }] }] };
    assert.ok(sarifSchemaErrors(broken).length >= 2);
  });
});
