// SARIF that explains the race: related locations (the editor's, from the same report data), a code
// flow per finding of a rule with a race timeline, and the preferred suggestion as a fix. Every check
// runs on real CLI output over the examples and the fixture files.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Sarif from 'sarif';
import { before, describe, it } from 'mocha';
import { RACE_TIMELINES, timelineOf, type StepPlace } from '../../../eslint-plugin/src/timelines/index';
import { reportKey, type RelatedLocation } from '../../../eslint-plugin/src/related/index';
import { lintText } from '../../../extension/src/server/lint';
import { Settings } from '../../../extension/src/shared/settings';
import { CLI_SUITE_TIMEOUT_MS, REPOSITORY_ROOT, makeProject, parseJsonReport, runLocksmith, type CliRun } from './run-cli';
import { sarifSchemaErrors } from './sarif-schema';

/** The examples, the fixture projects modelled on public repositories, and the editor's fixtures. */
const TARGETS = ['examples', 'test/fixtures/projects', 'extension/test/fixtures/workspace'] as const;

interface Linted {
  target: string;
  log: Sarif.Log;
  results: Sarif.Result[];
  json: ReturnType<typeof parseJsonReport>;
}

function sarifOf(run: CliRun): Sarif.Log {
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return JSON.parse(run.stdout) as Sarif.Log;
}

function fileOf(location: Sarif.Location | undefined): string {
  return fileOfArtifact(location?.physicalLocation?.artifactLocation);
}

function fileOfArtifact(artifactLocation: Sarif.ArtifactLocation | undefined): string {
  const uri = artifactLocation?.uri ?? '';
  assert.equal(artifactLocation?.uriBaseId, '%SRCROOT%', uri);
  return path.join(REPOSITORY_ROOT, ...uri.split('/').map(decodeURIComponent));
}

function regionOf(location: Sarif.Location | undefined): Sarif.Region {
  const region = location?.physicalLocation?.region;
  assert.ok(region, 'a location has a region');
  return region;
}

/** The text a region covers, by lines and columns (1-based, end column exclusive). */
function textAt(lines: readonly string[], region: Sarif.Region): string {
  const { startLine = 0, startColumn = 1, endLine = startLine, endColumn = startColumn } = region;
  if (startLine === endLine) return lines[startLine - 1]!.slice(startColumn - 1, endColumn - 1);
  return [
    lines[startLine - 1]!.slice(startColumn - 1),
    ...lines.slice(startLine, endLine - 1),
    lines[endLine - 1]!.slice(0, endColumn - 1),
  ].join('\n');
}

function sourceLines(file: string): string[] {
  return fs.readFileSync(file, 'utf8').split(/\r\n|[\r\n\u2028\u2029]/);
}

describe('locksmith --format sarif: related locations, race flows and fixes', function () {
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  const linted: Linted[] = [];
  before(() => {
    for (const target of TARGETS) {
      const log = sarifOf(runLocksmith(REPOSITORY_ROOT, ['--format', 'sarif', target]));
      const json = parseJsonReport(runLocksmith(REPOSITORY_ROOT, ['--format', 'json', target]));
      linted.push({ target, log, results: log.runs[0]?.results ?? [], json });
    }
  });
  const allResults = (): Sarif.Result[] => linted.flatMap((entry) => entry.results);

  it('stays valid SARIF 2.1.0 with related locations, code flows and fixes in it', () => {
    for (const { target, log } of linted) assert.deepEqual(sarifSchemaErrors(log), [], target);
    const results = allResults();
    assert.ok(
      results.some((result) => (result.relatedLocations ?? []).length > 0),
      'some result has related locations',
    );
    assert.ok(
      results.some((result) => (result.codeFlows ?? []).length > 0),
      'some result has a code flow',
    );
    assert.ok(
      results.some((result) => (result.fixes ?? []).length > 0),
      'some result has a fix',
    );
  });

  it('gives every finding of a rule with a race its timeline as a code flow, steps in the file and in order across threads', () => {
    const results = allResults();
    for (const timeline of RACE_TIMELINES) {
      const findings = results.filter((result) => result.ruleId === timeline.rule);
      assert.ok(findings.length > 0, `${timeline.rule} has a finding in ${TARGETS.join(', ')}`);
      for (const result of findings) {
        const where = `${timeline.rule} at ${result.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '?'}:${regionOf(result.locations?.[0]).startLine ?? '?'}`;
        assert.equal(result.codeFlows?.length, 1, where);
        const [flow] = result.codeFlows;
        assert.ok(flow, where);
        assert.equal(flow.message?.text, timeline.title);
        assert.deepEqual(
          flow.threadFlows.map((thread) => thread.id),
          timeline.holders.map((holder) => `holder-${holder}`),
          where,
        );
        const file = fileOf(result.locations?.[0]);
        const lines = sourceLines(file);
        const steps = flow.threadFlows.flatMap((thread) => thread.locations.map((step) => ({ thread: thread.id, step })));
        for (const { step } of steps) {
          assert.equal(fileOf(step.location), file, `${where}: a step is in the finding's file`);
          const region = regionOf(step.location);
          assert.ok(region.startLine! >= 1 && region.endLine! <= lines.length, `${where}: step line ${region.startLine} is in the file`);
          assert.ok(textAt(lines, region).trim().length > 0, `${where}: a step covers code`);
          assert.ok((step.location?.message?.text ?? '').length > 0, `${where}: a step says what happens`);
        }
        // Across both (or all three) threads, the steps are numbered 1..n once each, and each thread's run in order.
        const orders = steps.map(({ step }) => step.executionOrder ?? 0).sort((left, right) => left - right);
        assert.deepEqual(
          orders,
          timeline.steps.map((_, index) => index + 1),
          where,
        );
        for (const thread of flow.threadFlows) {
          const own = thread.locations.map((step) => step.executionOrder ?? 0);
          assert.deepEqual(
            own,
            [...own].sort((left, right) => left - right),
            `${where}: ${thread.id} runs forward`,
          );
        }
        // The interleaving read in executionOrder is the timeline's: each step by its holder, in its words.
        const interleaved = [...steps].sort((left, right) => (left.step.executionOrder ?? 0) - (right.step.executionOrder ?? 0));
        assert.deepEqual(
          interleaved.map(({ thread, step }) => [thread, step.location?.message?.text]),
          timeline.steps.map((step) => [`holder-${step.holder}`, step.text]),
          where,
        );
      }
    }
  });

  it('puts each step at the place of the race it names when the rule attached that place', () => {
    let placed = 0;
    for (const result of allResults()) {
      const timeline = timelineOf(result.ruleId ?? '');
      if (timeline === undefined) {
        assert.equal(result.codeFlows, undefined, `${result.ruleId ?? '?'} has no race timeline, so no code flow`);
        continue;
      }
      const ordered = result
        .codeFlows![0]!.threadFlows.flatMap((thread) => thread.locations)
        .sort((left, right) => (left.executionOrder ?? 0) - (right.executionOrder ?? 0));
      timeline.steps.forEach((step, index) => {
        const expected = placeOf(result, step.at);
        assert.deepEqual(regionOf(ordered[index]?.location), expected, `${timeline.rule} step ${index + 1} (${step.at})`);
        if (step.at !== 'finding' && expected !== regionOf(result.locations?.[0])) placed += 1;
      });
    }
    assert.ok(placed > 0, 'some step sits at a related place, not at the finding');
  });

  it('carries the related locations the editor shows for the same finding, linked from the message', () => {
    let compared = 0;
    const examples = linted.find((entry) => entry.target === 'examples')!;
    const byFile = new Map<string, Sarif.Result[]>();
    for (const result of examples.results) {
      const file = fileOf(result.locations?.[0]);
      byFile.set(file, [...(byFile.get(file) ?? []), result]);
    }
    for (const [file, results] of byFile) {
      const outcome = lintText({ text: fs.readFileSync(file, 'utf8'), filePath: file, settings: Settings.from({}) });
      assert.equal(outcome.kind, 'linted', file);
      for (const result of results) {
        const region = regionOf(result.locations?.[0]);
        const editor: readonly RelatedLocation[] =
          outcome.reports.get(reportKey(`locksmith/${result.ruleId ?? ''}`, region.startLine!, region.startColumn! - 1)) ?? [];
        const sarif = (result.relatedLocations ?? []).map((location) => ({ message: location.message?.text, region: regionOf(location) }));
        assert.deepEqual(
          sarif,
          editor.map((entry) => ({
            message: entry.message,
            region: {
              startLine: entry.start.line,
              startColumn: entry.start.column + 1,
              endLine: entry.end.line,
              endColumn: entry.end.column + 1,
            },
          })),
          `${result.ruleId ?? '?'} in ${file}`,
        );
        (result.relatedLocations ?? []).forEach((location, id) => {
          assert.equal(location.id, id);
          assert.ok(result.message.text?.includes(`](${id})`), `the message links related location ${id}`);
        });
        compared += editor.length;
      }
    }
    assert.ok(compared >= 5, `compared ${compared} related locations`);
  });

  it("gives the preferred suggestion as one small replacement that makes the same text as ESLint's suggestion", () => {
    let fixes = 0;
    for (const { target, results, json } of linted) {
      for (const result of results) {
        const file = fileOf(result.locations?.[0]);
        const region = regionOf(result.locations?.[0]);
        const message = json
          .find((entry) => entry.filePath === file)
          ?.messages.find(
            (candidate) =>
              candidate.ruleId === `locksmith/${result.ruleId ?? ''}` &&
              candidate.line === region.startLine &&
              (candidate as { column?: number }).column === region.startColumn,
          );
        assert.ok(message, `${target}: the JSON report has ${result.ruleId ?? '?'} at ${file}:${region.startLine}`);
        const suggestion = (message as { suggestions?: { desc: string; fix: { range: [number, number]; text: string } }[] })
          .suggestions?.[0];
        if (suggestion === undefined) {
          assert.equal(result.fixes, undefined, `${result.ruleId ?? '?'}: no suggestion, no fix`);
          continue;
        }
        assert.equal(result.fixes?.length, 1);
        const [fix] = result.fixes;
        assert.ok(fix);
        assert.equal(fix.description?.text, suggestion.desc);
        assert.equal(fix.artifactChanges.length, 1);
        const [change] = fix.artifactChanges;
        assert.ok(change);
        assert.equal(fileOfArtifact(change.artifactLocation), file);
        assert.equal(change.replacements.length, 1);
        const [replacement] = change.replacements;
        const source = fs.readFileSync(file, 'utf8');
        const deleted = replacement!.deletedRegion;
        // Offsets and lines/columns name the same text.
        assert.equal(
          textAt(source.split(/\r\n|[\r\n\u2028\u2029]/), deleted),
          source.slice(deleted.charOffset, deleted.charOffset! + deleted.charLength!),
        );
        const applied =
          source.slice(0, deleted.charOffset) +
          (replacement!.insertedContent?.text ?? '') +
          source.slice(deleted.charOffset! + deleted.charLength!);
        const eslint = source.slice(0, suggestion.fix.range[0]) + suggestion.fix.text + source.slice(suggestion.fix.range[1]);
        assert.equal(applied, eslint, `${result.ruleId ?? '?'} in ${file}`);
        assert.ok(deleted.charLength! <= suggestion.fix.range[1] - suggestion.fix.range[0], 'never larger than the suggestion');
        fixes += 1;
      }
    }
    assert.ok(fixes >= 10, `checked ${fixes} fixes`);
  });

  it('keeps the related locations out of the JSON report, as ESLint writes it', () => {
    for (const { json } of linted) {
      for (const result of json) for (const message of result.messages) assert.equal('locksmithRelated' in message, false);
    }
  });

  it('keeps them with --concurrency and from the --cache', () => {
    const { root, cleanup } = makeProject({});
    try {
      const plain = sarifOf(runLocksmith(REPOSITORY_ROOT, ['--format', 'sarif', 'examples']));
      const threaded = sarifOf(runLocksmith(REPOSITORY_ROOT, ['--format', 'sarif', '--concurrency', '2', 'examples']));
      assert.deepEqual(threaded.runs[0]?.results, plain.runs[0]?.results);
      const cache = ['--cache', '--cache-location', `${path.join(root, 'cache')}${path.sep}`];
      const first = sarifOf(runLocksmith(REPOSITORY_ROOT, ['--format', 'sarif', ...cache, 'examples']));
      const cached = sarifOf(runLocksmith(REPOSITORY_ROOT, ['--format', 'sarif', ...cache, 'examples']));
      assert.deepEqual(first.runs[0]?.results, plain.runs[0]?.results);
      assert.deepEqual(cached.runs[0]?.results, plain.runs[0]?.results);
    } finally {
      cleanup();
    }
  });
});

/** Where a step at `place` must sit: the first related location of that role, else the finding. */
function placeOf(result: Sarif.Result, place: StepPlace): Sarif.Region {
  if (place !== 'finding') {
    const timelineRelated = (result.relatedLocations ?? []).find((location) => ROLE_LABELS[place].test(location.message?.text ?? ''));
    if (timelineRelated !== undefined) return regionOf(timelineRelated);
  }
  return regionOf(result.locations?.[0]);
}

/** The labels rules give the places of each role (the roles themselves stay out of SARIF). */
const ROLE_LABELS: Record<Exclude<StepPlace, 'finding'>, RegExp> = {
  acquisition: /acquired here|takes the lock here|lock row is taken here/,
  read: /that found the lock free|owner check/,
  release: /^$/,
  write: /^$/,
};
