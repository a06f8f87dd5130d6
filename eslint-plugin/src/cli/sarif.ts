// Formats lint results as a SARIF 2.1.0 log: every rule's metadata, relative locations, stable fingerprints;
// per finding its related locations (those the editor shows), the race as a code flow where the rule
// has a timeline (src/timelines), and its preferred suggestion as a fix.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ESLint, Linter } from 'eslint';
import type * as Sarif from 'sarif';
import locksmith from '../index.js';
import { REPOSITORY_URL, ruleDocsUrl } from '../rule-support/create-rule.js';
import type { RuleSeverity } from './args.js';
import { PLUGIN_PREFIX, pluginRuleIds, recommendedSeverity } from './config.js';
import { timelineOf, threadFlowId, type StepPlace } from '../timelines/index.js';
import type { RelatedLocation } from '../related/index.js';
import { FINGERPRINT_KEY, FingerprintCounter } from './fingerprint.js';
import { relatedOf } from './related-capture.js';

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const SOURCE_ROOT = '%SRCROOT%';

export interface SarifContext {
  /** Locations are written relative to this directory, under `%SRCROOT%`. */
  cwd: string;
  /** Severities this run used, after `--rule`; recorded as overrides where they differ from `recommended`. */
  severities: ReadonlyMap<string, RuleSeverity>;
  /** With `--shard`: `runs[].automationDetails.id`, so code scanning keeps each shard's alerts apart. */
  automationId?: string | undefined;
}

export function formatSarif(results: readonly ESLint.LintResult[], context: SarifContext): string {
  const ruleIds = pluginRuleIds();
  const ruleIndex = new Map(ruleIds.map((ruleId, index) => [ruleId, index]));
  const sarifResults: Sarif.Result[] = [];
  const parseFailures: Sarif.Notification[] = [];

  for (const result of results) {
    const artifactLocation = artifactLocationOf(result.filePath, context.cwd);
    const source = sourceOf(result);
    const lines = source.split(LINE_BREAK);
    let lineStarts: number[] | undefined;
    const fingerprints = new FingerprintCounter();
    for (const message of [...result.messages].sort(bySourcePosition)) {
      const location = locationOf(artifactLocation, message);
      const ruleId = message.ruleId?.startsWith(PLUGIN_PREFIX) ? message.ruleId.slice(PLUGIN_PREFIX.length) : null;
      const index = ruleId === null ? undefined : ruleIndex.get(ruleId);
      if (ruleId === null || index === undefined) {
        // A file that does not parse is not a lock finding: SARIF's place for it is the invocation.
        parseFailures.push({ level: 'error', message: { text: message.message }, locations: [location] });
        continue;
      }
      const related = relatedOf(message);
      const sarifResult: Sarif.Result = {
        ruleId,
        ruleIndex: index,
        level: levelOf(message.severity),
        message: { text: withRelatedLinks(message.message, related) },
        locations: [location],
        partialFingerprints: {
          [FINGERPRINT_KEY]: fingerprints.next(ruleId, artifactLocation.uri ?? '', lines[message.line - 1] ?? ''),
        },
      };
      if (related.length > 0) {
        sarifResult.relatedLocations = related.map((entry, id) => ({
          id,
          message: { text: entry.message },
          physicalLocation: { artifactLocation, region: regionOfRelated(entry) },
        }));
      }
      const codeFlow = codeFlowOf(ruleId, location, related, artifactLocation);
      if (codeFlow !== undefined) sarifResult.codeFlows = [codeFlow];
      const fix = fixOf(message, source, (lineStarts ??= lineStartsOf(source)), artifactLocation);
      if (fix !== undefined) sarifResult.fixes = [fix];
      sarifResults.push(sarifResult);
    }
  }

  const log: Sarif.Log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'locksmith',
            fullName: `Locksmith (${locksmith.meta.name})`,
            version: locksmith.meta.version,
            semanticVersion: locksmith.meta.version,
            informationUri: REPOSITORY_URL,
            rules: ruleIds.map(describeRule),
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            ruleConfigurationOverrides: overridesOf(ruleIds, context.severities),
            toolExecutionNotifications: parseFailures,
          },
        ],
        originalUriBaseIds: { [SOURCE_ROOT]: { uri: directoryUri(context.cwd) } },
        columnKind: 'utf16CodeUnits',
        ...(context.automationId === undefined ? {} : { automationDetails: { id: context.automationId } }),
        results: sarifResults,
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}

function describeRule(ruleId: string): Sarif.ReportingDescriptor {
  const rule = locksmith.rules[ruleId as keyof typeof locksmith.rules] as
    { meta: { docs?: { description?: string; url?: string } } } | undefined;
  const description = rule?.meta.docs?.description ?? ruleId;
  const helpUri = rule?.meta.docs?.url ?? ruleDocsUrl(ruleId);
  const severity = recommendedSeverity(ruleId);
  return {
    id: ruleId,
    shortDescription: { text: description },
    fullDescription: { text: `${description}. Enable or adjust it as \`${PLUGIN_PREFIX}${ruleId}\`.` },
    helpUri,
    help: { text: `See ${helpUri}`, markdown: `See [${ruleId}](${helpUri}).` },
    // Rules that only `strict` enables are listed disabled, at the level `strict` gives them.
    defaultConfiguration: severity === 'off' ? { enabled: false, level: 'error' } : { level: sarifLevel(severity) },
  };
}

function overridesOf(ruleIds: readonly string[], severities: ReadonlyMap<string, RuleSeverity>): Sarif.ConfigurationOverride[] {
  const overrides: Sarif.ConfigurationOverride[] = [];
  ruleIds.forEach((ruleId, index) => {
    const severity = severities.get(ruleId) ?? 'off';
    if (severity === recommendedSeverity(ruleId)) return;
    overrides.push({
      descriptor: { id: ruleId, index },
      configuration: severity === 'off' ? { enabled: false } : { enabled: true, level: sarifLevel(severity) },
    });
  });
  return overrides;
}

function sarifLevel(severity: 'warn' | 'error'): Sarif.Result.level {
  return severity === 'error' ? 'error' : 'warning';
}

function levelOf(severity: Linter.Severity): Sarif.Result.level {
  return severity === 2 ? 'error' : 'warning';
}

function locationOf(artifactLocation: Sarif.ArtifactLocation, message: Linter.LintMessage): Sarif.Location {
  // ESLint lines and columns are 1-based with an exclusive end column, as SARIF's are.
  const region: Sarif.Region = { startLine: Math.max(message.line, 1), startColumn: Math.max(message.column, 1) };
  if (message.endLine !== undefined && message.endColumn !== undefined) {
    region.endLine = message.endLine;
    region.endColumn = Math.max(message.endColumn, 1);
  }
  return { physicalLocation: { artifactLocation, region } };
}

function artifactLocationOf(filePath: string, cwd: string): Sarif.ArtifactLocation {
  const relative = path.relative(cwd, filePath);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    return { uri: pathToFileURL(filePath).href };
  }
  return { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: SOURCE_ROOT };
}

function directoryUri(directory: string): string {
  const href = pathToFileURL(directory).href;
  return href.endsWith('/') ? href : `${href}/`;
}

// The line breaks ESLint counts lines by.
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/;

function sourceOf(result: ESLint.LintResult): string {
  if (result.messages.length === 0) return '';
  if (result.source !== undefined) return result.source;
  try {
    return fs.readFileSync(result.filePath, 'utf8');
  } catch {
    return '';
  }
}

/** The offset each line starts at, for turning a fix's offsets into lines and columns. */
function lineStartsOf(source: string): number[] {
  const starts = [0];
  const breaks = new RegExp(LINE_BREAK.source, 'g');
  for (let match = breaks.exec(source); match !== null; match = breaks.exec(source)) starts.push(match.index + match[0].length);
  return starts;
}

function regionAt(lineStarts: readonly number[], start: number, end: number): Sarif.Region {
  const position = (offset: number): { line: number; column: number } => {
    // The last line starting at or before the offset.
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 };
  };
  const from = position(start);
  const to = position(end);
  return {
    startLine: from.line,
    startColumn: from.column,
    endLine: to.line,
    endColumn: to.column,
    charOffset: start,
    charLength: end - start,
  };
}

/**
 * The message with a link to each related location (`[label](id)`, SARIF's embedded links): GitHub
 * code scanning links related locations only from the message. Brackets of the text itself are
 * escaped, as plain SARIF message text requires.
 */
function withRelatedLinks(text: string, related: readonly RelatedLocation[]): string {
  if (related.length === 0) return text;
  const escape = (plain: string): string => plain.replace(/[[\]]/g, (bracket) => `\\${bracket}`);
  return `${escape(text)} See: ${related.map((entry, id) => `[${escape(entry.message)}](${id})`).join('; ')}.`;
}

/** ESTree positions (1-based lines, 0-based columns) as a SARIF region (1-based both). */
function regionOfRelated(entry: RelatedLocation): Sarif.Region {
  return { startLine: entry.start.line, startColumn: entry.start.column + 1, endLine: entry.end.line, endColumn: entry.end.column + 1 };
}

/**
 * The rule's race as one code flow, a thread flow per holder. Each step sits where the rule put the
 * place it names (the acquisition, the read); a place the finding has none of is the finding itself.
 * `executionOrder` numbers the steps across all threads, in the order the race runs.
 */
function codeFlowOf(
  ruleId: string,
  finding: Sarif.Location,
  related: readonly RelatedLocation[],
  artifactLocation: Sarif.ArtifactLocation,
): Sarif.CodeFlow | undefined {
  const timeline = timelineOf(ruleId);
  if (timeline === undefined) return undefined;
  const placeOf = (place: StepPlace): Sarif.PhysicalLocation => {
    const entry = place === 'finding' ? undefined : related.find((candidate) => candidate.role === place);
    return entry === undefined ? finding.physicalLocation! : { artifactLocation, region: regionOfRelated(entry) };
  };
  return {
    message: { text: timeline.title },
    threadFlows: timeline.holders.map((holder) => ({
      id: threadFlowId(holder),
      message: { text: `Worker ${holder}` },
      locations: timeline.steps.flatMap((step, order) =>
        step.holder !== holder
          ? []
          : [
              {
                location: { physicalLocation: placeOf(step.at), message: { text: step.text } },
                executionOrder: order + 1,
              },
            ],
      ),
    })),
  };
}

/**
 * The finding's preferred suggestion (the rule lists it first) as a SARIF fix: one replacement,
 * narrowed to the text it changes, since ESLint merges a suggestion's edits into one range.
 */
function fixOf(
  message: Linter.LintMessage,
  source: string,
  lineStarts: readonly number[],
  artifactLocation: Sarif.ArtifactLocation,
): Sarif.Fix | undefined {
  const suggestion = message.suggestions?.[0];
  if (suggestion?.fix === undefined || source === '') return undefined;
  let [start, end] = suggestion.fix.range;
  let inserted = suggestion.fix.text;
  if (start < 0 || end > source.length || start > end) return undefined;
  // Drop the text the suggestion writes back unchanged at either end, never splitting a surrogate pair.
  let prefix = 0;
  while (prefix < end - start && prefix < inserted.length && source.charCodeAt(start + prefix) === inserted.charCodeAt(prefix)) prefix++;
  while (prefix > 0 && isLowSurrogate(source.charCodeAt(start + prefix))) prefix--;
  let suffix = 0;
  while (
    suffix < end - start - prefix &&
    suffix < inserted.length - prefix &&
    source.charCodeAt(end - 1 - suffix) === inserted.charCodeAt(inserted.length - 1 - suffix)
  )
    suffix++;
  while (suffix > 0 && isLowSurrogate(source.charCodeAt(end - suffix))) suffix--;
  start += prefix;
  end -= suffix;
  inserted = inserted.slice(prefix, inserted.length - suffix);
  return {
    description: { text: suggestion.desc },
    artifactChanges: [
      { artifactLocation, replacements: [{ deletedRegion: regionAt(lineStarts, start, end), insertedContent: { text: inserted } }] },
    ],
  };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function bySourcePosition(left: Linter.LintMessage, right: Linter.LintMessage): number {
  return left.line - right.line || left.column - right.column;
}
