// Finds the files to lint under the paths given: JS and TS sources and Lua scripts, minus dependencies, build output and .gitignored paths.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitignoreStack, findRepositoryRoot } from './gitignore.js';
import { UsageError } from './usage-error.js';
import { SKIPPED_DIRECTORIES } from '../project-config/skipped-directories.js';

export const LINTED_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx', '.lua'] as const;

/** Redis scripts, read by the `locksmith/lua` language (ESLint 9.7 and later). */
export function isLuaFile(fileName: string): boolean {
  return fileName.endsWith('.lua');
}

// Declarations carry no runtime code and minified bundles are build output with a different name.
const SKIPPED_FILE_SUFFIXES = ['.d.ts', '.d.mts', '.d.cts', '.min.js', '.min.mjs', '.min.cjs'];

export function isLintedFile(fileName: string): boolean {
  return hasLintedExtension(fileName) && !SKIPPED_FILE_SUFFIXES.some((suffix) => fileName.endsWith(suffix));
}

function hasLintedExtension(fileName: string): boolean {
  return LINTED_EXTENSIONS.some((extension) => fileName.endsWith(extension));
}

/**
 * Absolute paths of the files to lint, sorted. What the user names is linted: a file with a
 * linted extension whatever its location or name (a `.d.ts` or `.min.js` too); a directory is
 * walked, and the skipping rules apply to what lies below it, never to the directory itself
 * (`locksmith node_modules/pkg` lints that package, minus its own node_modules).
 */
export function collectFiles(paths: readonly string[], cwd: string, notify: (line: string) => void = () => undefined): string[] {
  const found = new Set<string>();
  const emptyDirectories: string[] = [];
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    const stats = statOrExplain(absolute, given);
    if (stats.isDirectory()) {
      const gitignoreRoot = findRepositoryRoot(absolute) ?? ancestorOrSelf(cwd, absolute);
      const gitignore = new GitignoreStack(gitignoreRoot);
      // A directory the walk from the root would skip is walked as a root of its own: only the
      // .gitignore files inside it apply.
      const skipped = isSkippedBelow(gitignoreRoot, absolute, gitignore);
      if (walk(absolute, given, skipped ? new GitignoreStack(absolute) : gitignore, found) === 0) emptyDirectories.push(given);
    } else if (hasLintedExtension(absolute)) {
      found.add(absolute);
    } else {
      throw new UsageError(`not a JavaScript, TypeScript or Lua file: ${given} (locksmith lints ${LINTED_EXTENSIONS.join(' ')})`);
    }
  }
  // With nothing at all to lint the caller stops with its own error; otherwise no path named may
  // contribute nothing without a word.
  if (found.size > 0) {
    for (const given of emptyDirectories) {
      notify(`nothing to lint in ${given}: no JavaScript, TypeScript or Lua files outside skipped folders`);
    }
  }
  return [...found].sort();
}

/** Whether a walk from `root` would skip `directory` or one of the directories on the way to it. */
function isSkippedBelow(root: string, directory: string, gitignore: GitignoreStack): boolean {
  const relative = path.relative(root, directory);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
  let current = root;
  for (const segment of relative.split(path.sep)) {
    current = path.join(current, segment);
    if (SKIPPED_DIRECTORIES.has(segment) || gitignore.ignores(current, true)) return true;
  }
  return false;
}

/** Adds the files to lint below `directory` to `found`; returns how many it saw, already found or not. */
function walk(directory: string, shownAs: string, gitignore: GitignoreStack, found: Set<string>): number {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    throw new UsageError(`cannot read directory ${shownAs}: ${describeFsError(error)}`);
  }
  let seen = 0;
  for (const entry of entries) {
    const child = path.join(directory, entry.name);
    // Symbolic links are not followed: they can loop, and what they point to is linted where it lives.
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name) && !gitignore.ignores(child, true)) {
        seen += walk(child, path.join(shownAs, entry.name), gitignore, found);
      }
    } else if (entry.isFile() && isLintedFile(entry.name) && !gitignore.ignores(child, false)) {
      found.add(child);
      seen += 1;
    }
  }
  return seen;
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
