// The flat config the CLI lints with: the plugin's `recommended` rules and a parser per file kind, nothing from the user's project.

import type { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import locksmith from '../index.js';
import type { RuleSeverity } from './args.js';
import { javascriptParser } from './javascript-parser.js';

export const PLUGIN_PREFIX = 'locksmith/';

const JAVASCRIPT_FILES = ['**/*.js', '**/*.mjs', '**/*.cjs', '**/*.jsx'];
const TYPESCRIPT_FILES = ['**/*.ts', '**/*.mts', '**/*.cts', '**/*.tsx'];

/** Every rule id of the plugin, without prefix, sorted. */
export function pluginRuleIds(): string[] {
  return Object.keys(locksmith.rules).sort();
}

/** Each rule's severity in `recommended` with the command line's `--rule` adjustments applied. */
export function effectiveSeverities(overrides: ReadonlyMap<string, RuleSeverity>): Map<string, RuleSeverity> {
  const severities = new Map<string, RuleSeverity>();
  for (const ruleId of pluginRuleIds()) {
    severities.set(ruleId, overrides.get(ruleId) ?? recommendedSeverity(ruleId));
  }
  return severities;
}

export function recommendedSeverity(ruleId: string): RuleSeverity {
  return locksmith.configs.recommended.rules[`${PLUGIN_PREFIX}${ruleId}`] ?? 'off';
}

export function buildCliConfig(overrides: ReadonlyMap<string, RuleSeverity>): Linter.Config[] {
  const rules: Linter.RulesRecord = {};
  for (const [ruleId, severity] of effectiveSeverities(overrides)) {
    rules[`${PLUGIN_PREFIX}${ruleId}`] = severity;
  }
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
      // No `project`: the CLI is zero-config, so rules take their shape-based path, never the checker.
      // TypeScript parses `import x = require()`, `export =` and top-level `return` whatever the
      // source type, which only shapes the scopes: `.cts` files are CommonJS, as Node runs them.
      languageOptions: { parser: typescriptParser, sourceType: 'module' },
    },
    {
      name: 'locksmith/cli/typescript-commonjs',
      files: ['**/*.cts'],
      languageOptions: { sourceType: 'commonjs' },
    },
    {
      name: 'locksmith/cli/rules',
      files: [...JAVASCRIPT_FILES, ...TYPESCRIPT_FILES],
      plugins: { locksmith: locksmith as unknown as NonNullable<Linter.Config['plugins']>[string] },
      // Disable comments naming rules of other plugins are normal in user code; they are not our business.
      linterOptions: { reportUnusedDisableDirectives: false },
      rules,
    },
  ];
}
