// Project configurations as flat config objects: `locksmith.configs.project()` builds them when
// ESLint loads its config (so ESLint's cache, which hashes each file's computed config, sees every
// edit), and the CLI builds the same objects for the files it lints.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TSESLint } from '@typescript-eslint/utils';
import { SKIPPED_DIRECTORIES } from './skipped-directories.js';
import type { ProjectConfig } from './load.js';
import { loadProjectConfigFile, ProjectConfigLookup, type ReadTextFile } from './lookup.js';
import { toEslintRules } from './rules.js';
import { RULE_PREFIX } from './schema.js';

type Plugin = TSESLint.FlatConfig.Plugin;
type Config = TSESLint.FlatConfig.Config;

export interface ProjectConfigsOptions {
  /** Where to look from: this folder's tree, and the nearest configuration above it. Default: `process.cwd()`, as ESLint's. */
  cwd?: string;
}

/**
 * One object per configuration that applies under `cwd` (found walking `cwd` down, skipping
 * dependencies and build output, plus the nearest one above `cwd`), shallowest first.
 */
export function projectConfigs(plugin: Plugin, options: ProjectConfigsOptions = {}): Config[] {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const lookup = new ProjectConfigLookup();
  const found = new Map<string, ProjectConfig>();
  for (const directory of directoriesUnder(cwd)) {
    const config = lookup.forDirectory(directory);
    if (config !== undefined) found.set(config.filePath, config);
  }
  return configObjects(plugin, [...found.values()], (filePath) => lookup.forFile(filePath), { cwd, ignoredRulesOff: true });
}

export interface CliProjectConfigOptions {
  /** Names shown in config object names are relative to it. */
  cwd: string;
  /** `-c <file>`: this configuration for every file, no lookup. */
  configFile?: string;
  /** `--no-config-lookup` gives false: no project configuration at all (unless `configFile`). */
  lookup?: boolean;
  readFile?: ReadTextFile;
}

export interface CliProjectConfigPlan {
  /** The files to lint: those given, minus those their configuration's `ignores` exclude, in order. */
  files: string[];
  /** The files given that their configuration's `ignores` exclude (the CLI tells about explicit ones). */
  ignored: string[];
  /** Flat config objects to place after the preset (and before `--rule` overrides). */
  configs: Config[];
  /** Absolute paths of the configuration files in use, sorted. */
  sources: string[];
}

/**
 * What the CLI lints with, for files already collected (`plugin`: the very object the CLI's other
 * config objects register, since ESLint refuses two objects under one plugin name): each file's nearest configuration (or the
 * one named by `-c`). Throws ProjectConfigError (one line: `describe(cwd)`) for a bad file in use.
 */
export function planCliProjectConfig(plugin: object, files: readonly string[], options: CliProjectConfigOptions): CliProjectConfigPlan {
  const cwd = path.resolve(options.cwd);
  let ownerOf: (filePath: string) => ProjectConfig | undefined;
  if (options.configFile !== undefined) {
    const explicit = loadProjectConfigFile(path.resolve(cwd, options.configFile), options.readFile);
    ownerOf = () => explicit;
  } else if (options.lookup === false) {
    ownerOf = () => undefined;
  } else {
    const lookup = new ProjectConfigLookup(options.readFile === undefined ? {} : { readFile: options.readFile });
    ownerOf = (filePath) => lookup.forFile(filePath);
  }
  const linted: string[] = [];
  const ignored: string[] = [];
  const used = new Map<string, ProjectConfig>();
  for (const file of files) {
    const config = ownerOf(file);
    if (config?.isIgnored(file) === true) {
      ignored.push(file);
      continue;
    }
    linted.push(file);
    if (config !== undefined) used.set(config.filePath, config);
  }
  return {
    files: linted,
    ignored,
    configs: configObjects(plugin, [...used.values()], ownerOf, { cwd, ignoredRulesOff: false }),
    sources: [...used.keys()].sort(),
  };
}

/**
 * Each object applies only to the files it is the nearest configuration of (an `ignores` function,
 * no `files`, so it never makes ESLint lint a file it would not lint anyway): a nested folder's file
 * replaces its ancestor's entirely, with no merging, in ESLint as in the CLI and the editor.
 */
function configObjects(
  plugin: Plugin,
  configs: readonly ProjectConfig[],
  ownerOf: (filePath: string) => ProjectConfig | undefined,
  { cwd, ignoredRulesOff }: { cwd: string; ignoredRulesOff: boolean },
): Config[] {
  const allOff = Object.fromEntries(Object.keys(plugin.rules ?? {}).map((ruleId) => [`${RULE_PREFIX}${ruleId}`, 'off' as const]));
  const result: Config[] = [];
  const shallowestFirst = [...configs].sort((left, right) => left.directory.localeCompare(right.directory));
  for (const config of shallowestFirst) {
    const shown = path.relative(cwd, config.filePath) || config.filePath;
    // Asked per linted file; lookups are cached per folder, so a run reads each folder once.
    const isOwner = (filePath: string) => ownerOf(filePath)?.filePath === config.filePath;
    const object: Config = {
      name: `locksmith/project: ${shown}`,
      plugins: { locksmith: plugin },
      ignores: [(filePath: string) => !isOwner(filePath) || config.isIgnored(filePath)] as unknown as string[],
      rules: toEslintRules(config),
    };
    if (Object.keys(config.settings).length > 0) object.settings = { locksmith: { ...config.settings } };
    result.push(object);
    if (ignoredRulesOff && config.ignores.length > 0) {
      // ESLint lints what the user's config says; for files this configuration ignores, Locksmith is silent.
      result.push({
        name: `locksmith/project: ${shown} (ignores)`,
        plugins: { locksmith: plugin },
        ignores: [(filePath: string) => !isOwner(filePath) || !config.isIgnored(filePath)] as unknown as string[],
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
