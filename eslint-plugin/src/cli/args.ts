// Turns the command line into typed options; anything malformed becomes a one-line UsageError.

import { parseArgs } from 'node:util';
import { parseShard, type Shard } from './shard.js';
import { UsageError } from './usage-error.js';

export const OUTPUT_FORMATS = ['stylish', 'json', 'sarif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export type RuleSeverity = 'off' | 'warn' | 'error';

export const PRESETS = ['recommended', 'strict'] as const;
export type Preset = (typeof PRESETS)[number];

export const CACHE_STRATEGIES = ['metadata', 'content'] as const;
export type CacheStrategy = (typeof CACHE_STRATEGIES)[number];

/** ESLint's `concurrency` option: a thread count, `auto` (ESLint decides) or `off` (one thread). */
export type Concurrency = number | 'auto' | 'off';

/** ESLint keeps its cache here; never `.eslintcache`, which holds the project's own ESLint results. */
export const DEFAULT_CACHE_LOCATION = '.locksmithcache';

export interface CliOptions {
  /** Files and directories to lint, as typed; `.` when none is given. */
  paths: string[];
  format: OutputFormat;
  /** Exit 1 when there are more warnings than this; `undefined` lets any number of warnings pass. */
  maxWarnings: number | undefined;
  /** Rule id without the `locksmith/` prefix → severity, in command-line order. */
  ruleOverrides: Map<string, RuleSeverity>;
  outputFile: string | undefined;
  /** The plugin config whose severities are the starting point. */
  preset: Preset;
  /** `-c`: the one locksmith.json to use for every file, as typed. */
  configFile: string | undefined;
  /** `false` with `--no-config-lookup`: no locksmith.json is looked for. */
  configLookup: boolean;
  cache: boolean;
  cacheLocation: string;
  cacheStrategy: CacheStrategy;
  concurrency: Concurrency;
  /** Lint TypeScript with the project's tsconfig (typescript-eslint's project service). */
  typeAware: boolean;
  /** Report errors only. */
  quiet: boolean;
  /** Lint standard input instead of files, as if it were `stdinFilename`. */
  stdin: boolean;
  stdinFilename: string | undefined;
  /** `false` with `--no-warn-ignored`: no notice for an explicitly named file that is ignored. */
  warnIgnored: boolean;
  /** `--shard i/n`: lint only the files whose path hashes to shard i of n. */
  shard: Shard | undefined;
  help: boolean;
  version: boolean;
}

const SEVERITY_ALIASES: Readonly<Record<string, RuleSeverity>> = {
  off: 'off',
  '0': 'off',
  warn: 'warn',
  '1': 'warn',
  error: 'error',
  '2': 'error',
};

const RULE_PREFIX = 'locksmith/';

/** Every option, as node:util's parseArgs takes them; the help text and docs/cli.md describe each. */
export const CLI_OPTIONS = {
  format: { type: 'string', short: 'f' },
  'max-warnings': { type: 'string' },
  rule: { type: 'string', multiple: true },
  'output-file': { type: 'string', short: 'o' },
  preset: { type: 'string' },
  config: { type: 'string', short: 'c' },
  'no-config-lookup': { type: 'boolean' },
  cache: { type: 'boolean' },
  'cache-location': { type: 'string' },
  'cache-strategy': { type: 'string' },
  concurrency: { type: 'string' },
  'type-aware': { type: 'boolean' },
  quiet: { type: 'boolean' },
  stdin: { type: 'boolean' },
  'stdin-filename': { type: 'string' },
  'no-warn-ignored': { type: 'boolean' },
  shard: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies NonNullable<Parameters<typeof parseArgs>[0]>['options'];

export function parseCliArgs(argv: readonly string[], knownRuleIds: readonly string[]): CliOptions {
  const { values, positionals } = parseOrExplain(argv);
  const format = values.format ?? 'stylish';
  if (!isOutputFormat(format)) {
    throw new UsageError(`unknown format '${format}'; use one of: ${OUTPUT_FORMATS.join(', ')}`);
  }
  const stdin = values.stdin ?? false;
  if (values['stdin-filename'] !== undefined && !stdin) {
    throw new UsageError('--stdin-filename names the text read with --stdin; add --stdin');
  }
  if (stdin && positionals.length > 0) {
    throw new UsageError(`--stdin lints standard input; remove the paths (${positionals.join(' ')})`);
  }
  if (stdin && values.shard !== undefined) {
    throw new UsageError('--shard splits the files found under the paths; it cannot be used with --stdin');
  }
  const configLookup = !(values['no-config-lookup'] ?? false);
  if (values.config !== undefined && !configLookup) {
    throw new UsageError('-c/--config and --no-config-lookup contradict each other; use one');
  }
  return {
    paths: positionals.length > 0 ? positionals : ['.'],
    format,
    maxWarnings: values['max-warnings'] === undefined ? undefined : parseMaxWarnings(values['max-warnings']),
    ruleOverrides: parseRuleOverrides(values.rule ?? [], knownRuleIds),
    outputFile: values['output-file'],
    preset: oneOf('--preset', values.preset ?? 'recommended', PRESETS),
    configFile: values.config === undefined ? undefined : checkConfigFileName(values.config),
    configLookup,
    cache: values.cache ?? false,
    cacheLocation: values['cache-location'] ?? DEFAULT_CACHE_LOCATION,
    cacheStrategy: oneOf('--cache-strategy', values['cache-strategy'] ?? 'metadata', CACHE_STRATEGIES),
    concurrency: parseConcurrency(values.concurrency ?? 'off'),
    typeAware: values['type-aware'] ?? false,
    quiet: values.quiet ?? false,
    stdin,
    stdinFilename: values['stdin-filename'],
    warnIgnored: !(values['no-warn-ignored'] ?? false),
    shard: values.shard === undefined ? undefined : parseShard(values.shard),
    help: values.help ?? false,
    version: values.version ?? false,
  };
}

function parseOrExplain(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: CLI_OPTIONS,
    });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
}

// node:util's messages are long and suggest `--` tricks; keep the first sentence, which names the option.
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const quoted = /'([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
    return `unknown option '${quoted}' (see --help)`;
  }
  // The option is quoted as "'-f, --format <value>'": name it by its long form.
  const option = quoted === undefined ? undefined : (/--[\w-]+/.exec(quoted)?.[0] ?? quoted);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    return message.includes('ambiguous')
      ? `option '${option}' needs a value; write ${option}=<value> for one that starts with '-'`
      : `option '${option}' needs a value`;
  }
  return message.split(/(?<=\.)\s/)[0] ?? message;
}

function isOutputFormat(format: string): format is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(format);
}

function oneOf<Value extends string>(option: string, given: string, allowed: readonly Value[]): Value {
  if (!(allowed as readonly string[]).includes(given)) {
    throw new UsageError(`unknown ${option} '${given}'; use one of: ${allowed.join(', ')}`);
  }
  return given as Value;
}

function parseConcurrency(text: string): Concurrency {
  if (text === 'auto' || text === 'off') return text;
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new UsageError(`--concurrency needs auto, off or a number of threads of 1 or more, got '${text}'`);
  }
  return Number(text);
}

// Users coming from ESLint reach for their eslint.config.js; say plainly that it is not read.
const ESLINT_CONFIG_NAME = /^(?:eslint\.config\.[cm]?[jt]s|\.eslintrc(?:\.(?:js|cjs|mjs|json|ya?ml))?)$/;

function checkConfigFileName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  if (ESLINT_CONFIG_NAME.test(base)) {
    throw new UsageError(`-c/--config takes a locksmith.json; Locksmith reads locksmith.json, not ESLint configs like ${base}`);
  }
  if (!base.toLowerCase().endsWith('.json')) {
    throw new UsageError(`-c/--config takes a locksmith.json (JSON, never executed), got '${file}'`);
  }
  return file;
}

function parseMaxWarnings(text: string): number {
  if (!/^\d+$/.test(text)) {
    throw new UsageError(`--max-warnings needs a whole number of zero or more, got '${text}'`);
  }
  return Number(text);
}

function parseRuleOverrides(specs: readonly string[], knownRuleIds: readonly string[]): Map<string, RuleSeverity> {
  const overrides = new Map<string, RuleSeverity>();
  for (const spec of specs) {
    const separator = spec.lastIndexOf('=');
    if (separator <= 0) {
      throw new UsageError(`--rule needs id=off|warn|error, got '${spec}'`);
    }
    const rawId = spec.slice(0, separator).trim();
    const ruleId = rawId.startsWith(RULE_PREFIX) ? rawId.slice(RULE_PREFIX.length) : rawId;
    const severity = SEVERITY_ALIASES[spec.slice(separator + 1).trim()];
    if (!knownRuleIds.includes(ruleId)) {
      throw new UsageError(`unknown rule '${rawId}' in --rule; locksmith has: ${knownRuleIds.join(', ') || '(no rules)'}`);
    }
    if (severity === undefined) {
      throw new UsageError(`--rule ${rawId} needs a severity of off, warn or error, got '${spec.slice(separator + 1)}'`);
    }
    overrides.set(ruleId, severity);
  }
  return overrides;
}
