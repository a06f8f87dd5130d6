// The `locksmith` command: parse options, collect files, lint, report, and exit with 0, 1 or 2.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import locksmith from '../index.js';
import { parseCliArgs } from './args.js';
import { effectiveSeverities, pluginRuleIds } from './config.js';
import { EXIT_USAGE, exitCodeFor, tally } from './exit-code.js';
import { collectFiles } from './files.js';
import { formatResults } from './format.js';
import { helpText } from './help.js';
import { lintWithLocksmith } from './lint.js';
import { UsageError } from './usage-error.js';

export interface CommandIo {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
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
  const files = collectFiles(options.paths, io.cwd, (notice) => { io.stderr(`locksmith: ${notice}\n`); });
  if (files.length === 0) {
    throw new UsageError(`no JavaScript or TypeScript files to lint in ${options.paths.join(' ')}`);
  }
  const { eslint, results, notices } = await lintWithLocksmith(files, options.ruleOverrides, io.cwd);
  for (const notice of notices) io.stderr(`locksmith: ${notice}\n`);
  const report = await formatResults(eslint, results, options.format, {
    cwd: io.cwd,
    severities: effectiveSeverities(options.ruleOverrides),
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
