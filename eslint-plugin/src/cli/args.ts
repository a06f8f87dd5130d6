// Turns the command line into typed options; anything malformed becomes a one-line UsageError.

import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

export const OUTPUT_FORMATS = ['stylish', 'json', 'sarif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export type RuleSeverity = 'off' | 'warn' | 'error';

export interface CliOptions {
  /** Files and directories to lint, as typed; `.` when none is given. */
  paths: string[];
  format: OutputFormat;
  /** Exit 1 when there are more warnings than this; `undefined` lets any number of warnings pass. */
  maxWarnings: number | undefined;
  /** Rule id without the `locksmith/` prefix → severity, in command-line order. */
  ruleOverrides: Map<string, RuleSeverity>;
  outputFile: string | undefined;
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

export function parseCliArgs(argv: readonly string[], knownRuleIds: readonly string[]): CliOptions {
  const { values, positionals } = parseOrExplain(argv);
  const format = values.format ?? 'stylish';
  if (!isOutputFormat(format)) {
    throw new UsageError(`unknown format '${format}'; use one of: ${OUTPUT_FORMATS.join(', ')}`);
  }
  return {
    paths: positionals.length > 0 ? positionals : ['.'],
    format,
    maxWarnings: values['max-warnings'] === undefined ? undefined : parseMaxWarnings(values['max-warnings']),
    ruleOverrides: parseRuleOverrides(values.rule ?? [], knownRuleIds),
    outputFile: values['output-file'],
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
      options: {
        format: { type: 'string', short: 'f' },
        'max-warnings': { type: 'string' },
        rule: { type: 'string', multiple: true },
        'output-file': { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
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
