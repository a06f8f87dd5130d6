// The `locksmith` command: parse options, collect files, lint, report, and exit with 0, 1 or 2.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import locksmith from '../index.js';
import type { ESLint } from 'eslint';
import { parseCliArgs, type CliOptions } from './args.js';
import { effectiveSeverities, pluginRuleIds } from './config.js';
import { EXIT_USAGE, exitCodeFor, tally } from './exit-code.js';
import { collectFiles, isLintedFile, isLuaFile, LINTED_EXTENSIONS } from './files.js';
import { eslintSupportsLanguages } from '../lua/eslint-support.js';
import { formatResults } from './format.js';
import { helpText } from './help.js';
import { lintWithLocksmith } from './lint.js';
import { planProjectConfigs } from './project-configs.js';
import { filesOfShard, repositoryRoot, shardAutomationId } from './shard.js';
import { UsageError } from './usage-error.js';

export interface CommandIo {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Standard input's whole text; the process's own when not given. */
  readStdin?: () => string;
}

/** Runs the command and resolves to its exit code; never throws for a user's mistake. */
export async function runCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    return await lintAndReport(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`locksmith: ${error.message}\n`);
      return EXIT_USAGE;
    }
    // Not the user's fault: keep the stack, it is what a bug report needs.
    io.stderr(`locksmith: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_USAGE;
  }
}

async function lintAndReport(argv: readonly string[], io: CommandIo): Promise<number> {
  const options = parseCliArgs(argv, pluginRuleIds());
  if (options.help) {
    io.stdout(helpText(locksmith.meta.version));
    return 0;
  }
  if (options.version) {
    io.stdout(`${locksmith.meta.version}\n`);
    return 0;
  }
  const collected = options.stdin
    ? undefined
    : collectFiles(options.paths, io.cwd, (notice) => {
        io.stderr(`locksmith: ${notice}\n`);
      });
  if (collected !== undefined && collected.length === 0) {
    throw new UsageError(`no JavaScript, TypeScript or Lua files to lint in ${options.paths.join(' ')}`);
  }
  const found = collected === undefined ? undefined : withoutUnreadableLua(collected, io);
  // A shard with no files is fine (a small repository on a wide matrix): it reports nothing.
  const given = found === undefined || options.shard === undefined ? found : filesOfShard(found, options.shard, repositoryRoot(io.cwd));
  let stdin = options.stdin ? readStdin(options, io) : undefined;
  // Text without a file name is linted as if it sat in the working directory, as ESLint does.
  const stdinPath = stdin === undefined ? undefined : (stdin.filePath ?? path.join(io.cwd, '<text>'));
  let named: string[] = [];
  if (stdin === undefined) named = options.paths.map((typed) => path.resolve(io.cwd, typed));
  else if (stdin.filePath !== undefined) named = [stdin.filePath];
  const plan = planProjectConfigs({
    files: given ?? (stdinPath === undefined ? [] : [stdinPath]),
    named: new Set(named),
    configFile: options.configFile,
    configLookup: options.configLookup,
    cwd: io.cwd,
  });
  if (options.warnIgnored) for (const notice of plan.ignoredNotices) io.stderr(`locksmith: ${notice}\n`);
  const files = stdin === undefined ? plan.files : [];
  // An ignored --stdin-filename: nothing is linted, as for an ignored file named on the command line.
  if (stdin !== undefined && plan.files.length === 0) stdin = undefined;
  const run = await lintWithLocksmith({
    files,
    stdin,
    cwd: io.cwd,
    config: { preset: options.preset, ruleOverrides: Object.fromEntries(options.ruleOverrides), projectConfig: plan.input },
    typeAware: options.typeAware,
    cache: options.cache ? { location: options.cacheLocation, strategy: options.cacheStrategy } : undefined,
    concurrency: options.concurrency,
  });
  if (options.warnIgnored) for (const notice of run.notices) io.stderr(`locksmith: ${notice}\n`);
  const results = options.quiet ? errorsOnly(run.results) : run.results;
  const report = await formatResults(run.eslint, results, options.format, {
    cwd: io.cwd,
    severities: effectiveSeverities(options.ruleOverrides, options.preset),
    automationId: options.shard === undefined ? undefined : shardAutomationId(options.shard),
  });
  if (options.outputFile === undefined) {
    io.stdout(report);
  } else {
    // Stylish colours itself for a terminal on stdout; a file gets plain text.
    writeReport(path.resolve(io.cwd, options.outputFile), options.outputFile, stripVTControlCharacters(report));
  }
  const counts = tally(results);
  if (options.maxWarnings !== undefined && counts.warnings > options.maxWarnings) {
    io.stderr(`locksmith: too many warnings (${counts.warnings}); --max-warnings allows ${options.maxWarnings}\n`);
  }
  return exitCodeFor(counts, options.maxWarnings);
}

function readStdin(options: CliOptions, io: CommandIo): { text: string; filePath: string | undefined } {
  const shownAs = options.stdinFilename;
  if (shownAs !== undefined && !isLintedFile(shownAs)) {
    throw new UsageError(
      `--stdin-filename must name a JavaScript, TypeScript or Lua file (${LINTED_EXTENSIONS.join(' ')}), got '${shownAs}'`,
    );
  }
  if (shownAs !== undefined && isLuaFile(shownAs) && !eslintSupportsLanguages()) {
    throw new UsageError(`--stdin-filename names a Lua file, which needs ESLint 9.7 or later (its languages): got '${shownAs}'`);
  }
  let text: string;
  try {
    text = (io.readStdin ?? (() => fs.readFileSync(0, 'utf8')))();
  } catch (error) {
    throw new UsageError(`cannot read standard input: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return { text, filePath: shownAs === undefined ? undefined : path.resolve(io.cwd, shownAs) };
}

/**
 * Lua scripts need ESLint's languages (9.7 and later): with an older ESLint they are left out, with
 * one line saying so, and the JavaScript and TypeScript files are linted as before.
 */
function withoutUnreadableLua(files: string[], io: CommandIo): string[] {
  if (eslintSupportsLanguages()) return files;
  const kept = files.filter((file) => !isLuaFile(file));
  const skipped = files.length - kept.length;
  if (skipped > 0)
    io.stderr(
      `locksmith: skipped ${skipped} .lua file${skipped === 1 ? '' : 's'}: this ESLint has no languages (Lua scripts need ESLint 9.7 or later)\n`,
    );
  return kept;
}

/** `--quiet`, as ESLint's: only errors are reported, files without any are left out, and warnings do not count. */
function errorsOnly(results: readonly ESLint.LintResult[]): ESLint.LintResult[] {
  const kept: ESLint.LintResult[] = [];
  for (const result of results) {
    if (result.errorCount === 0) continue;
    const messages = result.messages.filter((message) => message.severity === 2);
    kept.push({
      ...result,
      messages,
      suppressedMessages: result.suppressedMessages.filter((message) => message.severity === 2),
      warningCount: 0,
      fixableWarningCount: 0,
    });
  }
  return kept;
}

function writeReport(absolute: string, shownAs: string, report: string): void {
  try {
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
    fs.writeFileSync(absolute, report);
  } catch (error) {
    throw new UsageError(`cannot write ${shownAs}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** Entry point for `bin/locksmith.js`. */
export function main(): void {
  void runCommand(process.argv.slice(2), {
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
  });
}
