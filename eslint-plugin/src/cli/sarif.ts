// Formats lint results as a SARIF 2.1.0 log: every rule's metadata, relative locations, stable fingerprints.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ESLint, Linter } from 'eslint';
import type * as Sarif from 'sarif';
import locksmith from '../index.js';
import { REPOSITORY_URL, ruleDocsUrl } from '../util/create-rule.js';
import type { RuleSeverity } from './args.js';
import { PLUGIN_PREFIX, pluginRuleIds, recommendedSeverity } from './config.js';
import { FINGERPRINT_KEY, FingerprintCounter } from './fingerprint.js';

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
    const lines = sourceLines(result);
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
      sarifResults.push({
        ruleId,
        ruleIndex: index,
        level: levelOf(message.severity),
        message: { text: message.message },
        locations: [location],
        partialFingerprints: {
          [FINGERPRINT_KEY]: fingerprints.next(ruleId, artifactLocation.uri ?? '', lines[message.line - 1] ?? ''),
        },
      });
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
    | { meta: { docs?: { description?: string; url?: string } } }
    | undefined;
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

function sourceLines(result: ESLint.LintResult): string[] {
  if (result.messages.length === 0) return [];
  let source = result.source;
  if (source === undefined) {
    try {
      source = fs.readFileSync(result.filePath, 'utf8');
    } catch {
      source = '';
    }
  }
  return source.split(/\r\n|[\r\n\u2028\u2029]/);
}

function bySourcePosition(left: Linter.LintMessage, right: Linter.LintMessage): number {
  return left.line - right.line || left.column - right.column;
}
