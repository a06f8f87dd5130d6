// Runs ESLint's flat API (8.57, 9 or 10, whichever the user has) over the collected files.

import * as path from 'node:path';
import * as eslintApi from 'eslint';
import type { ESLint, Linter } from 'eslint';
import type { CacheStrategy, Concurrency } from './args.js';
import { PLUGIN_PREFIX, type CliConfigInput } from './config.js';
import { buildEslintOptions, optionsModuleUrl, type EslintOptionsInput } from './eslint-options.js';
import { UsageError } from './usage-error.js';

// ESLint 8.57 and 9 pick the flat or eslintrc class from this option; 10 has only flat and ignores it.
type LoadFlatESLint = (options: { useFlatConfig: true }) => Promise<FlatESLintClass>;
type FlatESLintClass = (new (options: ESLint.Options) => ESLint) & {
  version: string;
  /** ESLint >= 9.34 only: the way to lint in worker threads with options that hold functions. */
  fromOptionsModule?: (url: URL) => Promise<ESLint>;
};

export interface LintRun {
  eslint: ESLint;
  results: ESLint.LintResult[];
  /** One line each for files named here that ESLint still would not lint; never silent. */
  notices: string[];
}

export interface LintRequest {
  /** Absolute paths of the files to lint. */
  files: readonly string[];
  /** With --stdin: the text to lint and the path it is linted as. */
  stdin: { text: string; filePath: string | undefined } | undefined;
  /** The user's working directory. */
  cwd: string;
  config: Omit<CliConfigInput, 'typeAware'>;
  typeAware: boolean;
  cache: { location: string; strategy: CacheStrategy } | undefined;
  concurrency: Concurrency;
}

export async function lintWithLocksmith(request: LintRequest): Promise<LintRun> {
  const FlatESLint = await (eslintApi.loadESLint as unknown as LoadFlatESLint)({ useFlatConfig: true });
  return lintWithESLintClass(FlatESLint, request);
}

/** The same with a given flat ESLint class: the tests pass each ESLint major the peer range admits. */
export async function lintWithESLintClass(FlatESLint: FlatESLintClass, request: LintRequest): Promise<LintRun> {
  // Text without a file name is linted as if in the working directory (ESLint's `<text>`).
  const linted = request.stdin === undefined ? request.files : [request.stdin.filePath ?? path.join(request.cwd, '<text>')];
  // Flat ESLint lints nothing outside its cwd, and files may sit beside the working directory.
  const eslintCwd = commonAncestor([request.cwd, ...linted.map((file) => path.dirname(file))]);
  const input: EslintOptionsInput = {
    cwd: eslintCwd,
    config: { ...request.config, typeAware: request.typeAware ? { tsconfigRootDir: eslintCwd } : undefined },
    cache: request.cache === undefined ? undefined : { ...request.cache, location: path.resolve(request.cwd, request.cache.location) },
    concurrency: request.stdin === undefined ? request.concurrency : 'off',
    ruleFilter: false,
  };
  // Keep a trailing separator: it tells ESLint the cache location is a directory.
  if (input.cache !== undefined && /[\\/]$/.test(request.cache?.location ?? '')) input.cache.location += path.sep;
  const eslint = await createEslint(FlatESLint, input);
  let results: ESLint.LintResult[];
  if (request.stdin !== undefined) {
    results = await lintStdin(eslint, request.stdin);
  } else {
    results = linted.length === 0 ? [] : await lintOrExplain(eslint, linted, request.cwd);
  }
  if (request.typeAware) {
    results = await relintOutsideProjects(FlatESLint, input, request, results);
  }
  results = results.map(keepLocksmithMessages);
  const notices = results
    .filter(isIgnoredResult)
    .map((result) => `not linted: ${path.relative(request.cwd, result.filePath) || result.filePath} (ESLint ignores it)`);
  return { eslint, results: results.filter((result) => !isIgnoredResult(result)), notices };
}

async function createEslint(FlatESLint: FlatESLintClass, input: EslintOptionsInput): Promise<ESLint> {
  if (input.concurrency === 'off') return constructWithRuleFilter(FlatESLint, input);
  if (FlatESLint.fromOptionsModule === undefined) {
    throw new UsageError(
      `--concurrency needs ESLint 9.34 or later, and this project has ESLint ${FlatESLint.version}; use --concurrency off`,
    );
  }
  // ESLint 9.34 and later all have `ruleFilter`.
  return FlatESLint.fromOptionsModule(optionsModuleUrl({ ...input, ruleFilter: true }));
}

/**
 * ESLint 9.x's `ruleFilter` keeps inline `/* eslint no-console: "error" *\/` comments from
 * switching on other rules; ESLint 8.57 has none, and keepLocksmithMessages drops such messages.
 */
function constructWithRuleFilter(FlatESLint: FlatESLintClass, input: EslintOptionsInput): ESLint {
  try {
    return new FlatESLint(buildEslintOptions({ ...input, ruleFilter: true }));
  } catch (error) {
    if (error instanceof Error && error.message.includes('ruleFilter'))
      return new FlatESLint(buildEslintOptions({ ...input, ruleFilter: false }));
    throw error;
  }
}

// typescript-eslint's project service rejects a file no tsconfig includes (a script, a config file).
const OUTSIDE_PROJECTS = /was not found by the project service/;

/**
 * Files that no tsconfig includes have no types to use: lint them as without --type-aware, so
 * they get the same shape-based findings instead of a parse error. With --cache they keep their
 * own cache file, beside the type-aware one, so neither run evicts the other's entries.
 */
async function relintOutsideProjects(
  FlatESLint: FlatESLintClass,
  typeAwareInput: EslintOptionsInput,
  request: LintRequest,
  results: ESLint.LintResult[],
): Promise<ESLint.LintResult[]> {
  const outside = results.filter((result) =>
    result.messages.some((message) => message.fatal === true && OUTSIDE_PROJECTS.test(message.message)),
  );
  if (outside.length === 0) return results;
  const cache =
    typeAwareInput.cache === undefined
      ? undefined
      : { ...typeAwareInput.cache, location: shapeOnlyCacheLocation(typeAwareInput.cache.location) };
  const eslint = await createEslint(FlatESLint, { ...typeAwareInput, config: { ...typeAwareInput.config, typeAware: undefined }, cache });
  const replacements = new Map<string, ESLint.LintResult>();
  if (request.stdin === undefined) {
    for (const result of await lintOrExplain(
      eslint,
      outside.map((result) => result.filePath),
      request.cwd,
    )) {
      replacements.set(result.filePath, result);
    }
  } else {
    for (const result of await lintStdin(eslint, request.stdin)) {
      replacements.set(result.filePath, result);
    }
  }
  return results.map((result) => replacements.get(result.filePath) ?? result);
}

// Without --stdin-filename ESLint lints the text as JavaScript and names it `<text>`.
function lintStdin(eslint: ESLint, stdin: { text: string; filePath: string | undefined }): Promise<ESLint.LintResult[]> {
  return stdin.filePath === undefined ? eslint.lintText(stdin.text) : eslint.lintText(stdin.text, { filePath: stdin.filePath });
}

function shapeOnlyCacheLocation(location: string): string {
  return /[\\/]$/.test(location) ? path.join(location, '.locksmithcache-shape-only') : `${location}-shape-only`;
}

// A file can be unreadable (permissions) or vanish between the directory walk and the lint.
async function lintOrExplain(eslint: ESLint, files: readonly string[], cwd: string): Promise<ESLint.LintResult[]> {
  try {
    return await eslint.lintFiles([...files]);
  } catch (error) {
    const { code, path: failedPath } = error as NodeJS.ErrnoException;
    if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'EISDIR') {
      const shown = failedPath === undefined ? 'a file' : path.relative(cwd, failedPath) || failedPath;
      throw new UsageError(
        `cannot read ${shown}: ${code === 'ENOENT' ? 'it no longer exists' : code === 'EISDIR' ? 'it is a directory' : 'permission denied'}`,
      );
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
