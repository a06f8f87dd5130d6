// Keeps what rules pass in a report's `data` (ESLint drops it from lint messages), to find related
// locations: the one reader of `data.related`, for the editor's relatedInformation (extension/src/server)
// and the CLI's SARIF relatedLocations and code flows (src/cli/related-capture.ts, src/cli/sarif.ts).

import type { Rule } from 'eslint';

/** What a related place is in the race: the step of a rule's timeline that sits there (src/timelines). */
export type RelatedRole = 'acquisition' | 'release' | 'read' | 'write';

const ROLES: readonly string[] = ['acquisition', 'release', 'read', 'write'] satisfies readonly RelatedRole[];

export interface RelatedLocation {
  message: string;
  /** Present only when the rule said which place of the race this is. */
  role?: RelatedRole;
  /** 1-based lines, 0-based columns, as in ESTree `loc`. */
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** Keyed by `<ruleId>:<line>:<column>` of the report's start (1-based line, 0-based column). */
export type CapturedReports = Map<string, RelatedLocation[]>;

export function reportKey(ruleId: string, line: number, column: number): string {
  return `${ruleId}:${line}:${column}`;
}

interface Position {
  line: number;
  column: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isPosition(value: unknown): value is Position {
  return isRecord(value) && typeof value.line === 'number' && typeof value.column === 'number';
}

/** A `SourceLocation`, a bare position, or anything with a `loc` (an ESTree node or token). */
function locationOf(value: unknown): { start: Position; end: Position } | undefined {
  if (!isRecord(value)) return undefined;
  const copy = (position: Position): Position => ({ line: position.line, column: position.column });
  if (isPosition(value.start)) return { start: copy(value.start), end: copy(isPosition(value.end) ? value.end : value.start) };
  if (isPosition(value)) return { start: copy(value), end: copy(value) };
  if ('loc' in value) return locationOf(value.loc);
  return undefined;
}

/**
 * Related locations a rule attached to its report. Accepted shapes, so the plugin can choose:
 * `data.related` (or `relatedLocations`) as an array of `{ message, loc | node }`, or any data value
 * that is itself a node, labelled by its key (`data: { acquisition: node }`). Absent means none.
 */
export function relatedLocationsOf(data: unknown): RelatedLocation[] {
  if (!isRecord(data)) return [];
  const related: RelatedLocation[] = [];
  for (const [key, value] of Object.entries(data)) {
    if ((key === 'related' || key === 'relatedLocations') && Array.isArray(value)) {
      for (const item of value as unknown[]) {
        const location = isRecord(item) ? locationOf(item.loc ?? item.node ?? item) : undefined;
        if (location === undefined || !isRecord(item)) continue;
        const label = typeof item.message === 'string' ? item.message : typeof item.label === 'string' ? item.label : key;
        const role = typeof item.role === 'string' && ROLES.includes(item.role) ? { role: item.role as RelatedRole } : {};
        related.push({ message: label, ...role, ...location });
      }
    } else if (isRecord(value) && typeof value.type === 'string') {
      const location = locationOf(value);
      if (location !== undefined) related.push({ message: key, ...location });
    }
  }
  return related;
}

function startOf(descriptor: Record<string, unknown>): Position | undefined {
  return locationOf(descriptor.loc)?.start ?? locationOf(descriptor.node)?.start;
}

export interface ReportCapture {
  plugin: { rules: Record<string, Rule.RuleModule> } & Record<string, unknown>;
  during<T>(run: () => T): { result: T; reports: CapturedReports };
}

/**
 * The plugin with every rule's `context.report` wrapped: each report that carries related locations
 * is handed to `record` with the file it was made in, then reported unchanged.
 */
export function withReportsRecorded<Plugin extends { rules: Record<string, Rule.RuleModule> }>(
  plugin: Plugin,
  record: (filename: string, key: string, related: RelatedLocation[]) => void,
): Plugin {
  const rules: Record<string, Rule.RuleModule> = {};
  for (const [ruleId, rule] of Object.entries(plugin.rules)) {
    rules[ruleId] = {
      ...rule,
      create(context) {
        const report = (descriptor: Rule.ReportDescriptor): void => {
          const start = startOf(descriptor as unknown as Record<string, unknown>);
          const related = relatedLocationsOf((descriptor as { data?: unknown }).data);
          if (start !== undefined && related.length > 0) {
            record(context.filename, reportKey(`locksmith/${ruleId}`, start.line, start.column), related);
          }
          context.report(descriptor);
        };
        // The context is frozen; a child object that shadows `report` keeps every other member.
        return rule.create(Object.create(context, { report: { value: report } }) as Rule.RuleContext);
      },
    };
  }
  return { ...plugin, rules };
}

export function createReportCapture(plugin: { rules: Record<string, Rule.RuleModule> }): ReportCapture {
  let sink: CapturedReports | undefined;
  const wrapped = withReportsRecorded(plugin, (_filename, key, related) => {
    sink?.set(key, related);
  });
  return {
    plugin: wrapped,
    during(run) {
      const reports: CapturedReports = new Map();
      sink = reports;
      try {
        return { result: run(), reports };
      } finally {
        sink = undefined;
      }
    },
  };
}
