// `locksmith.configs.project()`: the project's locksmith.json files as flat config objects, built
// when ESLint loads its config, so ESLint's cache (which hashes each file's computed config) sees
// every edit to them.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TSESLint } from '@typescript-eslint/utils';
import { SKIPPED_DIRECTORIES } from '../cli/files.js';
import type { ProjectConfig } from './load.js';
import { ProjectConfigLookup } from './lookup.js';
import { toEslintRules } from './rules.js';

export interface ProjectConfigsOptions {
  /** Where to look from: this folder's tree, and the nearest configuration above it. Default: `process.cwd()`, as ESLint's. */
  cwd?: string;
}

type Plugin = TSESLint.FlatConfig.Plugin;
type Config = TSESLint.FlatConfig.Config;

/**
 * One object per configuration that applies under `cwd` (found walking `cwd` down, skipping
 * dependencies and build output, and the nearest one above `cwd`), shallowest first. Each applies
 * only to the files it is the nearest configuration of, so a nested folder's file replaces its
 * ancestor's entirely (no merging), as in the CLI and the editor; its `ignores` become one more
 * object turning every Locksmith rule off. They carry no `files`, so they never make ESLint lint a
 * file it would not lint anyway.
 */
export function projectConfigs(plugin: Plugin, options: ProjectConfigsOptions = {}): Config[] {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const lookup = new ProjectConfigLookup();
  const found = new Map<string, ProjectConfig>();
  for (const directory of directoriesUnder(cwd)) {
    const config = lookup.forDirectory(directory);
    if (config !== undefined) found.set(config.filePath, config);
  }
  const allOff = Object.fromEntries(Object.keys(plugin.rules ?? {}).map((ruleId) => [`locksmith/${ruleId}`, 'off' as const]));
  const result: Config[] = [];
  for (const config of [...found.values()].sort((left, right) => left.directory.localeCompare(right.directory))) {
    const shown = path.relative(cwd, config.filePath) || config.filePath;
    // Asked per linted file; the lookup is cached per folder, so a run reads each folder once.
    const isNearest = (filePath: string) => lookup.forFile(filePath)?.filePath === config.filePath;
    const object: Config = {
      name: `locksmith/project: ${shown}`,
      plugins: { locksmith: plugin },
      ignores: [(filePath: string) => !isNearest(filePath) || config.isIgnored(filePath)] as unknown as string[],
      rules: toEslintRules(config),
    };
    if (Object.keys(config.settings).length > 0) object.settings = { locksmith: { ...config.settings } };
    result.push(object);
    if (config.ignores.length > 0) {
      result.push({
        name: `locksmith/project: ${shown} (ignores)`,
        plugins: { locksmith: plugin },
        ignores: [(filePath: string) => !isNearest(filePath) || !config.isIgnored(filePath)] as unknown as string[],
        rules: allOff,
      });
    }
  }
  return result;
}

function* directoriesUnder(root: string): Generator<string> {
  const pending = [root];
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    yield directory;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      continue; // An unreadable folder holds nothing ESLint could lint either.
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) pending.push(path.join(directory, entry.name));
    }
  }
}
