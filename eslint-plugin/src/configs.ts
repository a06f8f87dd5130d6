// The shareable configs, flat first, with eslintrc equivalents for ESLint 8 users.

import type { TSESLint } from '@typescript-eslint/utils';
import * as typescriptParser from '@typescript-eslint/parser';
import { rules } from './rules/index.js';
import { projectConfigs, type ProjectConfigsOptions } from './project-config/eslint-configs.js';

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
  /**
   * The preset, then one object per locksmith.json that applies under `cwd`: spread it before your
   * own objects, which still win (`[...locksmith.configs.project(), { rules: … }]`).
   */
  const project = (options: ProjectConfigsOptions & { preset?: 'recommended' | 'strict' | 'none' } = {}): TSESLint.FlatConfig.Config[] => {
    const preset = options.preset ?? 'recommended';
    const base = preset === 'none' ? [] : [preset === 'strict' ? strict : recommended];
    return [...base, ...projectConfigs(plugin, options)];
  };
  const configs = {
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
  // A function, not a config: kept out of enumeration so tools that list configs (eslint-doc-generator,
  // the config inspector) see only config objects.
  Object.defineProperty(configs, 'project', { value: project, enumerable: false });
  return configs as typeof configs & { readonly project: typeof project };
}
