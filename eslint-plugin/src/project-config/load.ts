// Reads a project configuration (locksmith.json, or package.json's "locksmith" key) as data: parsed,
// validated against the shipped schema, its patterns compiled; never executed.

import * as path from 'node:path';
import { ConfigArray } from '@eslint/config-array';
import { toRegExp, type RawSharedSettings } from '../model/facts/settings.js';
import { parseVersion } from '../model/tables/servers.js';
import { PACKAGE_JSON_KEY, PROJECT_CONFIG_FILE_NAME, RULE_PREFIX, projectConfigSchema } from './schema.js';
import { describe, firstViolation, isRecord } from './validate.js';

export type RuleSeverity = 'off' | 'warn' | 'error';

export interface RuleSetting {
  readonly severity: RuleSeverity;
  /** The options after the severity, as written; empty when only a severity is given. */
  readonly options: readonly unknown[];
}

export interface ProjectConfig {
  /** Absolute path of the file it was read from (a locksmith.json or a package.json). */
  readonly filePath: string;
  /** The folder it applies to, and that its `ignores` are relative to. */
  readonly directory: string;
  /** Rule id without the `locksmith/` prefix → its setting, in file order. */
  readonly rules: ReadonlyMap<string, RuleSetting>;
  /** The same object as ESLint's `settings.locksmith`. */
  readonly settings: Readonly<RawSharedSettings>;
  readonly ignores: readonly string[];
  /** Whether `ignores` excludes this file (flat-config semantics, relative to `directory`). */
  isIgnored(filePath: string): boolean;
}

/** One line naming the file and the key: `locksmith.json: rules.no-unsafe-releas: unknown rule`. */
export class ProjectConfigError extends Error {
  override readonly name = 'ProjectConfigError';
  constructor(
    /** Absolute path of the bad file. */
    readonly filePath: string,
    /** Where in it, dotted (`rules.no-x`, `settings.lockWrappers.acquire[0]`); empty for the whole file. */
    readonly key: string,
    readonly reason: string,
  ) {
    super(`${filePath}: ${key === '' ? '' : `${key}: `}${reason}`);
  }

  /** The same line with the file named relative to a folder (the CLI's working directory). */
  describe(relativeTo: string): string {
    const shown = path.relative(relativeTo, this.filePath) || this.filePath;
    return `${shown}: ${this.key === '' ? '' : `${this.key}: `}${this.reason}`;
  }
}

const schema = projectConfigSchema();
const SEVERITY_NAMES: readonly RuleSeverity[] = ['off', 'warn', 'error'];

/**
 * Parses the text of a `locksmith.json`, or of a `package.json` (then only its `"locksmith"` key
 * counts; `undefined` when it has none), as found at `filePath`. Throws ProjectConfigError.
 */
export function parseProjectConfig(text: string, filePath: string): ProjectConfig | undefined {
  const absolute = path.resolve(filePath);
  const isPackageJson = path.basename(absolute) === 'package.json';
  let data: unknown;
  try {
    data = JSON.parse(stripBom(text));
  } catch (error) {
    // A package.json is npm's before it is ours: only one that names a locksmith key is our error.
    if (isPackageJson && !/"locksmith"\s*:/.test(text)) return undefined;
    throw new ProjectConfigError(absolute, '', `invalid JSON: ${jsonErrorReason(error, text)}`);
  }
  if (isPackageJson) {
    if (!isRecord(data) || !Object.hasOwn(data, PACKAGE_JSON_KEY)) return undefined;
    return fromData(data[PACKAGE_JSON_KEY], absolute, [PACKAGE_JSON_KEY]);
  }
  return fromData(data, absolute, []);
}

function fromData(data: unknown, filePath: string, prefix: readonly string[]): ProjectConfig {
  const violation = firstViolation(data, schema, prefix) ?? semanticViolation(data, prefix);
  if (violation) {
    const { path: where, reason, unknownKey } = violation;
    const inRules = where.length === prefix.length + 2 && where[prefix.length] === 'rules';
    throw new ProjectConfigError(filePath, formatKey(where), unknownKey && inRules ? 'unknown rule' : reason);
  }
  const config = data as { rules?: Record<string, unknown>; settings?: RawSharedSettings; ignores?: string[] };
  const directory = path.dirname(filePath);
  const ruleSettings = new Map<string, RuleSetting>();
  for (const [key, entry] of Object.entries(config.rules ?? {})) {
    const ruleId = key.startsWith(RULE_PREFIX) ? key.slice(RULE_PREFIX.length) : key;
    if (ruleSettings.has(ruleId)) {
      throw new ProjectConfigError(
        filePath,
        formatKey([...prefix, 'rules', key]),
        `${ruleId} is configured twice (with and without the locksmith/ prefix)`,
      );
    }
    const [severity, ...options]: unknown[] = Array.isArray(entry) ? (entry as unknown[]) : [entry];
    ruleSettings.set(ruleId, { severity: toSeverity(severity), options });
  }
  const ignores = [...(config.ignores ?? [])];
  return {
    filePath,
    directory,
    rules: ruleSettings,
    settings: config.settings ?? {},
    ignores,
    isIgnored: ignores.length === 0 ? () => false : ignoreMatcher(ignores, directory),
  };
}

// What the schema cannot say: patterns must compile, as the rules will compile them.
function semanticViolation(data: unknown, prefix: readonly string[]) {
  const settings = (data as { settings?: RawSharedSettings }).settings;
  if (settings === undefined) return undefined;
  const at = (...keys: (string | number)[]) => [...prefix, 'settings', ...keys];
  const badPattern = (pattern: string) => (toRegExp(pattern) === undefined ? `invalid regular expression ${describe(pattern)}` : undefined);
  if (settings.lockKeyPattern !== undefined) {
    const reason = badPattern(settings.lockKeyPattern);
    if (reason) return { path: at('lockKeyPattern'), reason, unknownKey: false };
  }
  for (const [index, pattern] of (settings.efficiencyLocks ?? []).entries()) {
    const reason = badPattern(pattern);
    if (reason) return { path: at('efficiencyLocks', index), reason, unknownKey: false };
  }
  const version = settings.redis?.version;
  if (typeof version === 'string' && parseVersion(version) === undefined) {
    return {
      path: at('redis', 'version'),
      reason: `invalid version ${describe(version)} (use numbers such as "8.4" or "9.0.1")`,
      unknownKey: false,
    };
  }
  for (const [kind, names] of Object.entries(settings.lockWrappers ?? {})) {
    for (const [index, name] of names.entries()) {
      // Only `/pattern/` entries are patterns; the others are plain function names.
      const reason = name.startsWith('/') ? badPattern(name) : undefined;
      if (reason) return { path: at('lockWrappers', kind, index), reason, unknownKey: false };
    }
  }
  return undefined;
}

function toSeverity(value: unknown): RuleSeverity {
  return typeof value === 'number' ? SEVERITY_NAMES[value]! : (value as RuleSeverity);
}

/** ESLint's own flat-config matcher (as ESLint 10 applies global `ignores`), based at the config's folder. */
function ignoreMatcher(ignores: readonly string[], directory: string): (filePath: string) => boolean {
  const matcher = new ConfigArray([{ ignores: [...ignores] }], { basePath: directory });
  matcher.normalizeSync();
  return (filePath) => {
    const absolute = path.resolve(filePath);
    const relative = path.relative(directory, absolute);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
    return matcher.isFileIgnored(absolute);
  };
}

function formatKey(where: readonly (string | number)[]): string {
  let key = '';
  for (const part of where) key += typeof part === 'number' ? `[${part}]` : key === '' ? part : `.${part}`;
  return key;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// Node's messages vary by version; say where, as line and column, which every version lets us compute.
function jsonErrorReason(error: unknown, text: string): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  const position = /position (\d+)/.exec(message)?.[1];
  const base = message.replace(/\s*in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '');
  if (position === undefined) return base;
  const offset = Number(position);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `${base} at line ${line}, column ${column}`;
}

export { PROJECT_CONFIG_FILE_NAME };
