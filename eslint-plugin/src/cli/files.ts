// Finds the files to lint under the paths given: JS and TS sources, minus dependencies, build output and .gitignored paths.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitignoreStack, findRepositoryRoot } from './gitignore.js';
import { UsageError } from './usage-error.js';

export const LINTED_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx'] as const;

/** Directories never descended into: dependencies, VCS data, and the usual build and cache output. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  'node_modules', 'bower_components', 'jspm_packages', '.git', '.hg', '.svn',
  'dist', 'build', 'out', 'coverage', '.nyc_output', '.next', '.nuxt', '.svelte-kit', '.output',
  '.turbo', '.vercel', '.netlify', '.cache', '.parcel-cache', '.yarn', '.pnpm-store', '.vscode-test',
]);

// Declarations carry no runtime code and minified bundles are build output with a different name.
const SKIPPED_FILE_SUFFIXES = ['.d.ts', '.d.mts', '.d.cts', '.min.js', '.min.mjs', '.min.cjs'];

export function isLintedFile(fileName: string): boolean {
  return LINTED_EXTENSIONS.some((extension) => fileName.endsWith(extension))
    && !SKIPPED_FILE_SUFFIXES.some((suffix) => fileName.endsWith(suffix));
}

/**
 * Absolute paths of the files to lint, sorted. A file named on the command line is linted whatever
 * its location (the user asked for it) as long as it has a linted extension; directories are walked.
 */
export function collectFiles(paths: readonly string[], cwd: string): string[] {
  const found = new Set<string>();
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    const stats = statOrExplain(absolute, given);
    if (stats.isDirectory()) {
      const gitignore = new GitignoreStack(findRepositoryRoot(absolute) ?? ancestorOrSelf(cwd, absolute));
      walk(absolute, given, gitignore, found);
    } else if (isLintedFile(absolute)) {
      found.add(absolute);
    } else if (SKIPPED_FILE_SUFFIXES.some((suffix) => absolute.endsWith(suffix))) {
      throw new UsageError(`not linted: ${given} is a declaration file or a minified bundle`);
    } else {
      throw new UsageError(`not a JavaScript or TypeScript file: ${given} (locksmith lints ${LINTED_EXTENSIONS.join(' ')})`);
    }
  }
  return [...found].sort();
}

function walk(directory: string, shownAs: string, gitignore: GitignoreStack, found: Set<string>): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    throw new UsageError(`cannot read directory ${shownAs}: ${describeFsError(error)}`);
  }
  for (const entry of entries) {
    const child = path.join(directory, entry.name);
    // Symbolic links are not followed: they can loop, and what they point to is linted where it lives.
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name) && !gitignore.ignores(child, true)) {
        walk(child, path.join(shownAs, entry.name), gitignore, found);
      }
    } else if (entry.isFile() && isLintedFile(entry.name) && !gitignore.ignores(child, false)) {
      found.add(child);
    }
  }
}

function statOrExplain(absolute: string, given: string): fs.Stats {
  try {
    const stats = fs.statSync(absolute);
    fs.accessSync(absolute, fs.constants.R_OK);
    return stats;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new UsageError(`no such file or directory: ${given}`);
    }
    throw new UsageError(`cannot read ${given}: ${describeFsError(error)}`);
  }
}

// Outside a repository, .gitignore files count from the working directory down, when the path is under it.
function ancestorOrSelf(cwd: string, target: string): string {
  const relative = path.relative(cwd, target);
  return relative.startsWith('..') || path.isAbsolute(relative) ? target : cwd;
}

function describeFsError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return code ?? message;
  }
}
