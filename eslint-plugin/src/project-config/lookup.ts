// Finds the project configuration that applies to a file: the nearest folder, walking up, with a
// locksmith.json or a package.json holding a "locksmith" key. The nearest wins; ancestors are not
// merged (ESLint 10's config lookup). In one folder, locksmith.json beats package.json.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseProjectConfig, ProjectConfigError, type ProjectConfig } from './load.js';
import { PROJECT_CONFIG_FILE_NAME } from './schema.js';

/** Reads a file's text, or `undefined` when there is none (the language server may answer from open editors). */
export type ReadTextFile = (filePath: string) => string | undefined;

export interface ProjectConfigLookupOptions {
  readFile?: ReadTextFile;
}

type Found = ProjectConfig | ProjectConfigError | null;

/**
 * Cached per folder, so looking up every file of a tree reads each folder's two candidates once
 * (linear in folders). Call `clear()` when a configuration file may have changed.
 */
export class ProjectConfigLookup {
  private readonly readFile: ReadTextFile;
  private readonly byDirectory = new Map<string, Found>();

  constructor(options: ProjectConfigLookupOptions = {}) {
    this.readFile = options.readFile ?? readTextFileFromDisk;
  }

  /** The configuration for a file, `undefined` when none applies; throws its ProjectConfigError when the nearest one is bad. */
  forFile(filePath: string): ProjectConfig | undefined {
    return this.forDirectory(path.dirname(path.resolve(filePath)));
  }

  forDirectory(directory: string): ProjectConfig | undefined {
    const found = this.find(path.resolve(directory));
    if (found instanceof ProjectConfigError) throw found;
    return found ?? undefined;
  }

  clear(): void {
    this.byDirectory.clear();
  }

  private find(directory: string): Found {
    // Iterative, caching every folder passed on the way, so deep trees cannot overflow the stack.
    const pending: string[] = [];
    let current = directory;
    let found: Found | undefined;
    for (;;) {
      found = this.byDirectory.get(current);
      if (found !== undefined) break;
      found = this.readFolder(current);
      if (found !== null) {
        this.byDirectory.set(current, found);
        break;
      }
      pending.push(current);
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
    for (const folder of pending) this.byDirectory.set(folder, found);
    return found;
  }

  private readFolder(directory: string): Found {
    try {
      const own = path.join(directory, PROJECT_CONFIG_FILE_NAME);
      const ownText = this.readFile(own);
      if (ownText !== undefined) return parseProjectConfig(ownText, own) ?? null;
      const packageJson = path.join(directory, 'package.json');
      const packageText = this.readFile(packageJson);
      return packageText === undefined ? null : (parseProjectConfig(packageText, packageJson) ?? null);
    } catch (error) {
      if (error instanceof ProjectConfigError) return error;
      throw error;
    }
  }
}

/** A missing file (or a folder by that name) is "no configuration here"; other read errors name the file. */
export function readTextFileFromDisk(filePath: string): string | undefined {
  try {
    return fs.readFileSync(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw new ProjectConfigError(filePath, '', `cannot read: ${code ?? String(error)}`);
  }
}

/**
 * Reads one configuration named explicitly (the CLI's `-c file`): a locksmith.json, or a package.json
 * with a "locksmith" key. Throws ProjectConfigError, also when the file is missing or has no key.
 */
export function loadProjectConfigFile(filePath: string, readFile: ReadTextFile = readTextFileFromDisk): ProjectConfig {
  const absolute = path.resolve(filePath);
  const text = readFile(absolute);
  if (text === undefined) throw new ProjectConfigError(absolute, '', 'no such file');
  const config = parseProjectConfig(text, absolute);
  if (config === undefined) throw new ProjectConfigError(absolute, '', 'has no "locksmith" key');
  return config;
}
