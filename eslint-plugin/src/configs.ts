// The shareable configs, flat first, with eslintrc equivalents for ESLint 8 users.

import type { TSESLint } from '@typescript-eslint/utils';
import * as typescriptParser from '@typescript-eslint/parser';
import { rules } from './rules/index.js';

type Severity = 'error' | 'warn' | 'off';
type RuleLevels = Record<string, Severity>;

function levels(pick: (recommended: 'error' | 'warn' | false) => Severity): RuleLevels {
  const result: RuleLevels = {};
  for (const [id, rule] of Object.entries<TSESLint.RuleModule<string, readonly unknown[]>>(rules)) {
    const recommended = (rule.meta.docs as { recommended?: 'error' | 'warn' | false } | undefined)?.recommended ?? false;
    result[`locksmith/${id}`] = pick(recommended);
  }
  return result;
}

export const recommendedRules: RuleLevels = levels((recommended) => recommended || 'off');
export const strictRules: RuleLevels = levels(() => 'error');

export function createConfigs(plugin: TSESLint.FlatConfig.Plugin) {
  const recommended = {
    name: 'locksmith/recommended',
    plugins: { locksmith: plugin },
    rules: recommendedRules,
  } satisfies TSESLint.FlatConfig.Config;
  const strict = {
    name: 'locksmith/strict',
    plugins: { locksmith: plugin },
    rules: strictRules,
  } satisfies TSESLint.FlatConfig.Config;
  const recommendedTypeChecked = {
    name: 'locksmith/recommended-type-checked',
    plugins: { locksmith: plugin },
    languageOptions: {
      parser: typescriptParser,
      parserOptions: { projectService: true },
    },
    rules: recommendedRules,
  } satisfies TSESLint.FlatConfig.Config;
  return {
    recommended,
    strict,
    'recommended-type-checked': recommendedTypeChecked,
    'legacy-recommended': { plugins: ['locksmith'], rules: recommendedRules },
    'legacy-strict': { plugins: ['locksmith'], rules: strictRules },
    'legacy-recommended-type-checked': {
      plugins: ['locksmith'],
      parser: '@typescript-eslint/parser',
      parserOptions: { projectService: true },
      rules: recommendedRules,
    },
  };
}
