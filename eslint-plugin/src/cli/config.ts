// The flat config the CLI lints with: a plugin preset, the project's locksmith.json files, the
// command line's --rule, and a parser per file kind; nothing from the user's ESLint setup.

import type { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import locksmith from '../index.js';
import { planCliProjectConfig } from '../project-config/index.js';
import type { Preset, RuleSeverity } from './args.js';
import { javascriptParser } from './cli-parser.js';
import { relatedProcessor, reportingPlugin } from './related-capture.js';
import { eslintSupportsLanguages } from '../lua/eslint-support.js';
import { LUA_FILES, rulesOffForLua } from '../configs.js';

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
  projectConfig: CliProjectConfigInput | undefined;
}

/**
 * Which locksmith.json files apply, as plain JSON: planCliProjectConfig's options and, to find the
 * same configurations in every thread, one linted file per folder (project-configs.ts). Every
 * thread reads the files itself, and ESLint's cache hashes the rules and settings read, so editing
 * a locksmith.json re-lints the files it applies to.
 */
export interface CliProjectConfigInput {
  cwd: string;
  /** `-c <file>`. */
  configFile: string | undefined;
  /** `false` with `--no-config-lookup`. */
  lookup: boolean;
  representatives: string[];
}

/** Every rule id of the plugin, without prefix, sorted. */
export function pluginRuleIds(): string[] {
  return Object.keys(locksmith.rules).sort();
}

/** Each rule's severity in the preset with the command line's `--rule` adjustments applied. */
export function effectiveSeverities(
  overrides: ReadonlyMap<string, RuleSeverity>,
  preset: Preset = 'recommended',
): Map<string, RuleSeverity> {
  const severities = new Map<string, RuleSeverity>();
  for (const ruleId of pluginRuleIds()) {
    severities.set(ruleId, overrides.get(ruleId) ?? presetSeverity(ruleId, preset));
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
  const lua = eslintSupportsLanguages();
  const lintedFiles = [...JAVASCRIPT_FILES, ...TYPESCRIPT_FILES, ...(lua ? LUA_FILES : [])];
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
      // The rules wrapped to keep each report's related locations, which the processor puts on its message (SARIF reads them).
      plugins: { locksmith: reportingPlugin as unknown as NonNullable<Linter.Config['plugins']>[string] },
      processor: relatedProcessor,
      // Disable comments naming rules of other plugins are normal in user code; they are not our business.
      linterOptions: { reportUnusedDisableDirectives: false },
      rules: presetRules,
    },
    ...(lua ? [{ name: 'locksmith/cli/lua', files: LUA_FILES, language: 'locksmith/lua' } as Linter.Config] : []),
    ...projectConfigObjects(input.projectConfig),
    { name: 'locksmith/cli/rule-options', files: lintedFiles, rules: overrideRules },
    // Last: whatever the preset, locksmith.json or --rule turned on, a rule that cannot read Lua is
    // off on `.lua` files (ESLint 10 refuses the config otherwise); the Lua rules keep their level.
    ...(lua ? [{ name: 'locksmith/cli/lua-rules', files: LUA_FILES, rules: rulesOffForLua }] : []),
  ];
}

// Over the preset, under --rule; each applies only to the files it is the nearest configuration of.
function projectConfigObjects(input: CliProjectConfigInput | undefined): Linter.Config[] {
  if (input === undefined) return [];
  const { configs } = planCliProjectConfig(reportingPlugin, input.representatives, {
    cwd: input.cwd,
    configFile: input.configFile,
    lookup: input.lookup,
  });
  return configs as Linter.Config[];
}

// Without --type-aware, no `project`: rules take their shape-based path, never the checker.
// With it, typescript-eslint's project service finds each file's tsconfig, as
// `recommended-type-checked` does; files no tsconfig includes are re-linted shape-only (lint.ts).
function typescriptParserOptions(input: CliConfigInput): Linter.ParserOptions {
  if (input.typeAware === undefined) return {};
  return { projectService: true, tsconfigRootDir: input.typeAware.tsconfigRootDir };
}
