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
}

export async function lintWithLocksmith(
  files: readonly string[],
  overrides: ReadonlyMap<string, RuleSeverity>,
  cwd: string,
): Promise<LintRun> {
  const FlatESLint = await (eslintApi.loadESLint as unknown as LoadFlatESLint)({ useFlatConfig: true });
  const eslint = new FlatESLint({
    // Flat ESLint lints nothing outside its cwd, and files may sit beside the working directory.
    cwd: commonAncestor([cwd, ...files.map((file) => path.dirname(file))]),
    overrideConfigFile: true,
    overrideConfig: buildCliConfig(overrides),
    // The file list is already filtered (node_modules, build output, .gitignore): lint exactly it.
    ignore: false,
    errorOnUnmatchedPattern: false,
  });
  const results = files.length === 0 ? [] : await lintOrExplain(eslint, files, cwd);
  return { eslint, results: results.map(keepLocksmithMessages) };
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
 * Inline `/* eslint other-plugin/rule: … *\/` comments in user code name rules this run does not
 * load, and ESLint reports those; keep only our findings and parse errors.
 */
function keepLocksmithMessages(result: ESLint.LintResult): ESLint.LintResult {
  const messages = result.messages.filter(isOurs);
  if (messages.length === result.messages.length) return result;
  const errors = messages.filter((message) => message.severity === 2);
  const warnings = messages.filter((message) => message.severity === 1);
  return {
    ...result,
    messages,
    errorCount: errors.length,
    fatalErrorCount: errors.filter((message) => message.fatal === true).length,
    warningCount: warnings.length,
    fixableErrorCount: errors.filter((message) => message.fix !== undefined).length,
    fixableWarningCount: warnings.filter((message) => message.fix !== undefined).length,
  };
}

function isOurs(message: Linter.LintMessage): boolean {
  return message.fatal === true || (message.ruleId?.startsWith(PLUGIN_PREFIX) ?? false);
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
