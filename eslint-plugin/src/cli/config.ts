// The flat config the CLI lints with: a plugin preset, the project's locksmith.json files, the
// command line's --rule, and a parser per file kind; nothing from the user's ESLint setup.

import type { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import locksmith from '../index.js';
import { loadProjectConfigFile, ProjectConfigLookup, toEslintRules, type ProjectConfig } from '../project-config/index.js';
import type { Preset, RuleSeverity } from './args.js';
import { javascriptParser } from './javascript-parser.js';

export const PLUGIN_PREFIX = 'locksmith/';

const JAVASCRIPT_FILES = ['**/*.js', '**/*.mjs', '**/*.cjs', '**/*.jsx'];
const TYPESCRIPT_FILES = ['**/*.ts', '**/*.mts', '**/*.cts', '**/*.tsx'];

/**
 * Everything the config depends on, as plain JSON: worker threads rebuild the same config from it
 * in the options module (see options-module.mts), since a config holding the plugin cannot be cloned.
 */
export interface CliConfigInput {
  preset: Preset;
  /** `--rule` severities by rule id without prefix; they win over the preset and locksmith.json. */
  ruleOverrides: Record<string, RuleSeverity>;
  /** With `--type-aware`: the directory typescript-eslint resolves tsconfig files from. */
  typeAware: { tsconfigRootDir: string } | undefined;
  projectConfig: ProjectConfigSource;
}

/**
 * The locksmith.json files that apply: none (--no-config-lookup), one for every file (-c), or each
 * linted file's nearest, of which the main thread found these (project-configs.ts). Only paths
 * travel: every thread reads the files itself, and ESLint's cache hashes the rules and settings
 * read, so editing a locksmith.json re-lints what it applies to.
 */
export type ProjectConfigSource =
  | { mode: 'none' }
  | { mode: 'file'; filePath: string }
  | { mode: 'lookup'; filePaths: string[] };

/** Every rule id of the plugin, without prefix, sorted. */
export function pluginRuleIds(): string[] {
  return Object.keys(locksmith.rules).sort();
}

/** Each rule's severity in the preset with the command line's `--rule` adjustments applied. */
export function effectiveSeverities(
  overrides: ReadonlyMap<string, RuleSeverity> | Readonly<Record<string, RuleSeverity>>,
  preset: Preset = 'recommended',
): Map<string, RuleSeverity> {
  const overrideOf = overrides instanceof Map
    ? (ruleId: string) => overrides.get(ruleId)
    : (ruleId: string) => (overrides as Readonly<Record<string, RuleSeverity>>)[ruleId];
  const severities = new Map<string, RuleSeverity>();
  for (const ruleId of pluginRuleIds()) {
    severities.set(ruleId, overrideOf(ruleId) ?? presetSeverity(ruleId, preset));
  }
  return severities;
}

export function recommendedSeverity(ruleId: string): RuleSeverity {
  return presetSeverity(ruleId, 'recommended');
}

export function presetSeverity(ruleId: string, preset: Preset): RuleSeverity {
  return locksmith.configs[preset].rules[`${PLUGIN_PREFIX}${ruleId}`] ?? 'off';
}

export function buildCliConfig(input: CliConfigInput): Linter.Config[] {
  const presetRules: Linter.RulesRecord = {};
  for (const ruleId of pluginRuleIds()) {
    presetRules[`${PLUGIN_PREFIX}${ruleId}`] = presetSeverity(ruleId, input.preset);
  }
  const overrideRules: Linter.RulesRecord = {};
  for (const [ruleId, severity] of Object.entries(input.ruleOverrides)) {
    overrideRules[`${PLUGIN_PREFIX}${ruleId}`] = severity;
  }
  const lintedFiles = [...JAVASCRIPT_FILES, ...TYPESCRIPT_FILES];
  return [
    {
      name: 'locksmith/cli/javascript',
      files: JAVASCRIPT_FILES,
      languageOptions: {
        ecmaVersion: 'latest',
        // The parser picks module or CommonJS per file, as Node does; this is only ESLint's default.
        sourceType: 'module',
        parser: javascriptParser,
        parserOptions: { ecmaFeatures: { jsx: true } },
      },
    },
    {
      name: 'locksmith/cli/typescript',
      files: TYPESCRIPT_FILES,
      // TypeScript parses `import x = require()`, `export =` and top-level `return` whatever the
      // source type, which only shapes the scopes: `.cts` files are CommonJS, as Node runs them.
      languageOptions: { parser: typescriptParser, sourceType: 'module', parserOptions: typescriptParserOptions(input) },
    },
    {
      name: 'locksmith/cli/typescript-commonjs',
      files: ['**/*.cts'],
      languageOptions: { sourceType: 'commonjs' },
    },
    {
      name: `locksmith/cli/${input.preset}`,
      files: lintedFiles,
      plugins: { locksmith: locksmith as unknown as NonNullable<Linter.Config['plugins']>[string] },
      // Disable comments naming rules of other plugins are normal in user code; they are not our business.
      linterOptions: { reportUnusedDisableDirectives: false },
      rules: presetRules,
    },
    ...projectConfigObjects(input.projectConfig, lintedFiles),
    { name: 'locksmith/cli/rule-options', files: lintedFiles, rules: overrideRules },
  ];
}

// Over the preset, under --rule. With lookup, each object applies only to the files it is the
// nearest configuration of, so a nested folder's file replaces its ancestor's (no merging).
function projectConfigObjects(source: ProjectConfigSource, lintedFiles: string[]): Linter.Config[] {
  if (source.mode === 'none') return [];
  if (source.mode === 'file') return [projectConfigObject(loadProjectConfigFile(source.filePath), lintedFiles, [])];
  const lookup = new ProjectConfigLookup();
  return source.filePaths.map((filePath) => {
    const isNearest = (file: string) => lookup.forFile(file)?.filePath === filePath;
    return projectConfigObject(loadProjectConfigFile(filePath), lintedFiles, [(file: string) => !isNearest(file)]);
  });
}

function projectConfigObject(config: ProjectConfig, lintedFiles: string[], ignores: ((file: string) => boolean)[]): Linter.Config {
  const object: Linter.Config = {
    name: `locksmith/cli/project: ${config.filePath}`,
    files: lintedFiles,
    rules: toEslintRules(config) as Linter.RulesRecord,
    settings: { locksmith: { ...config.settings } },
  };
  // ESLint's config arrays take functions as patterns; its types only name strings.
  if (ignores.length > 0) object.ignores = ignores as unknown as string[];
  return object;
}

// Without --type-aware, no `project`: rules take their shape-based path, never the checker.
// With it, typescript-eslint's project service finds each file's tsconfig, as
// `recommended-type-checked` does; files no tsconfig includes are re-linted shape-only (lint.ts).
function typescriptParserOptions(input: CliConfigInput): Linter.ParserOptions {
  if (input.typeAware === undefined) return {};
  return { projectService: true, tsconfigRootDir: input.typeAware.tsconfigRootDir };
}
