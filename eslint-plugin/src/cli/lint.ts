// Runs ESLint's flat API (8.57, 9 or 10, whichever the user has) over the collected files.

import * as path from 'node:path';
import * as eslintApi from 'eslint';
import type { ESLint, Linter } from 'eslint';
import { buildCliConfig, PLUGIN_PREFIX } from './config.js';
import type { RuleSeverity } from './args.js';
import { UsageError } from './usage-error.js';

// ESLint 8.57 and 9 pick the flat or eslintrc class from this option; 10 has only flat and ignores it.
type LoadFlatESLint = (options: { useFlatConfig: true }) => Promise<typeof ESLint>;

export interface LintRun {
  eslint: ESLint;
  results: ESLint.LintResult[];
  /** One line each for files named here that ESLint still would not lint; never silent. */
  notices: string[];
}

// ESLint ignores these by default even with `ignore: false`; un-ignoring them is the only way
// to lint a file the user named there (`locksmith node_modules/pkg/index.js`). Every other
// ignore was applied when the file list was built.
const UNIGNORE_DEFAULTS: Linter.Config = { name: 'locksmith/cli/lint-what-was-named', ignores: ['!**/node_modules/', '!.git/'] };

export async function lintWithLocksmith(
  files: readonly string[],
  overrides: ReadonlyMap<string, RuleSeverity>,
  cwd: string,
): Promise<LintRun> {
  const FlatESLint = await (eslintApi.loadESLint as unknown as LoadFlatESLint)({ useFlatConfig: true });
  return lintWithESLintClass(FlatESLint, files, overrides, cwd);
}

/** The same with a given flat ESLint class: the tests pass each ESLint major the peer range admits. */
export async function lintWithESLintClass(
  FlatESLint: typeof ESLint,
  files: readonly string[],
  overrides: ReadonlyMap<string, RuleSeverity>,
  cwd: string,
): Promise<LintRun> {
  const options: ESLint.Options = {
    // Flat ESLint lints nothing outside its cwd, and files may sit beside the working directory.
    cwd: commonAncestor([cwd, ...files.map((file) => path.dirname(file))]),
    overrideConfigFile: true,
    overrideConfig: [UNIGNORE_DEFAULTS, ...buildCliConfig(overrides)],
    errorOnUnmatchedPattern: false,
  };
  const eslint = constructWithRuleFilter(FlatESLint, options);
  const results = files.length === 0 ? [] : (await lintOrExplain(eslint, files, cwd)).map(keepLocksmithMessages);
  const notices = results.filter(isIgnoredResult).map((result) => `not linted: ${path.relative(cwd, result.filePath) || result.filePath} (ESLint ignores it)`);
  return { eslint, results: results.filter((result) => !isIgnoredResult(result)), notices };
}

/**
 * Only Locksmith's rules ever run: an inline `/* eslint no-console: "error" *\/` in user code
 * must not switch on a core or third-party rule. ESLint 9.x's `ruleFilter` does exactly that;
 * the ESLint versions without it (8.57) run such a rule, and keepLocksmithMessages drops its
 * messages afterwards.
 */
function constructWithRuleFilter(FlatESLint: typeof ESLint, options: ESLint.Options): ESLint {
  try {
    return new FlatESLint({ ...options, ruleFilter: ({ ruleId }) => ruleId.startsWith(PLUGIN_PREFIX) });
  } catch (error) {
    if (error instanceof Error && error.message.includes('ruleFilter')) return new FlatESLint(options);
    throw error;
  }
}

// A file can be unreadable (permissions) or vanish between the directory walk and the lint.
async function lintOrExplain(eslint: ESLint, files: readonly string[], cwd: string): Promise<ESLint.LintResult[]> {
  try {
    return await eslint.lintFiles([...files]);
  } catch (error) {
    const { code, path: failedPath } = error as NodeJS.ErrnoException;
    if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'EISDIR') {
      const shown = failedPath === undefined ? 'a file' : path.relative(cwd, failedPath) || failedPath;
      throw new UsageError(`cannot read ${shown}: ${code === 'ENOENT' ? 'it no longer exists' : code === 'EISDIR' ? 'it is a directory' : 'permission denied'}`);
    }
    throw error;
  }
}

/**
 * Directive comments meant for another ESLint version or plugin (`/* eslint-env *\/`, which
 * ESLint 10 rejects; `/* eslint other-plugin/rule: … *\/`; a bad inline config for a core rule)
 * are not Locksmith's business: keep only our findings and parse errors, reported and suppressed.
 */
function keepLocksmithMessages(result: ESLint.LintResult): ESLint.LintResult {
  const messages = result.messages.filter(isOurs);
  const suppressedMessages = result.suppressedMessages.filter(isOurs);
  if (messages.length === result.messages.length && suppressedMessages.length === result.suppressedMessages.length) return result;
  const errors = messages.filter((message) => message.severity === 2);
  const warnings = messages.filter((message) => message.severity === 1);
  return {
    ...result,
    messages,
    suppressedMessages,
    errorCount: errors.length,
    fatalErrorCount: errors.filter((message) => message.fatal === true).length,
    warningCount: warnings.length,
    fixableErrorCount: errors.filter((message) => message.fix !== undefined).length,
    fixableWarningCount: warnings.filter((message) => message.fix !== undefined).length,
  };
}

function isOurs(message: Linter.LintMessage): boolean {
  return isParseError(message) || isIgnoredWarning(message) || (message.ruleId?.startsWith(PLUGIN_PREFIX) ?? false);
}

// ESLint 10 marks a rejected `/* eslint-env *\/` comment fatal too, although the file was linted;
// only a parse failure carries this prefix (ESLint 8.57 to 10 alike).
function isParseError(message: Linter.LintMessage): boolean {
  return message.fatal === true && message.ruleId === null && message.message.startsWith('Parsing error:');
}

// ESLint's "File ignored …" result: the file was not linted at all, and the user must hear it.
function isIgnoredWarning(message: Linter.LintMessage): boolean {
  return message.ruleId === null && message.fatal !== true && message.message.startsWith('File ignored');
}

function isIgnoredResult(result: ESLint.LintResult): boolean {
  return result.messages.length === 1 && result.messages[0] !== undefined && isIgnoredWarning(result.messages[0]);
}

function commonAncestor(directories: readonly string[]): string {
  let ancestor = directories[0] ?? process.cwd();
  for (const directory of directories) {
    while (!isInside(directory, ancestor)) {
      const parent = path.dirname(ancestor);
      if (parent === ancestor) return ancestor;
      ancestor = parent;
    }
  }
  return ancestor;
}

function isInside(directory: string, ancestor: string): boolean {
  const relative = path.relative(ancestor, directory);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
