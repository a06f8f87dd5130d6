// The shareable configs, flat first, with eslintrc equivalents for ESLint 8 users.

import type { TSESLint } from '@typescript-eslint/utils';
import * as typescriptParser from '@typescript-eslint/parser';
import { rules } from './rules/index.js';
import { projectConfigs, type ProjectConfigsOptions } from './project-config/eslint-configs.js';
import { eslintSupportsLanguages } from './lua/eslint-support.js';
import { LUA_LANGUAGE } from './rule-support/create-rule.js';

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

/** The rules that read `.lua` files (`meta.languages` names the Lua language), at their `recommended` level. */
function luaRules(): RuleLevels {
  const result: RuleLevels = {};
  for (const [id, rule] of Object.entries<TSESLint.RuleModule<string, readonly unknown[]>>(rules)) {
    const languages = (rule.meta as { languages?: readonly string[] }).languages ?? [];
    if (languages.includes(LUA_LANGUAGE)) result[`locksmith/${id}`] = recommendedRules[`locksmith/${id}`] ?? 'off';
  }
  return result;
}

/** Every rule that reads only JavaScript and TypeScript, `off`: ESLint 10 refuses them on `.lua` files. */
export const rulesOffForLua: RuleLevels = Object.fromEntries(Object.entries(levels(() => 'off')).filter(([id]) => !(id in luaRules())));

export const LUA_FILES = ['**/*.lua'];

export function createConfigs(plugin: TSESLint.FlatConfig.Plugin) {
  /** `.lua` files as Redis scripts, with the rules that read them (ESLint >= 9.7). */
  const lua = {
    name: 'locksmith/lua',
    files: LUA_FILES,
    plugins: { locksmith: plugin },
    language: LUA_LANGUAGE,
    rules: luaRules(),
  };
  // The JavaScript presets stay one object each (ESLint's config arrays take no nested arrays, so
  // `[locksmith.configs.recommended]` must stay an object) and leave `.lua` files to `lua`: ESLint 10
  // refuses a rule turned on for a language its `meta.languages` does not name.
  const recommended = {
    name: 'locksmith/recommended',
    ignores: LUA_FILES,
    plugins: { locksmith: plugin },
    rules: recommendedRules,
  } satisfies TSESLint.FlatConfig.Config;
  const strict = {
    name: 'locksmith/strict',
    ignores: LUA_FILES,
    plugins: { locksmith: plugin },
    rules: strictRules,
  } satisfies TSESLint.FlatConfig.Config;
  const recommendedTypeChecked = {
    name: 'locksmith/recommended-type-checked',
    ignores: LUA_FILES,
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
    // The Lua config only where ESLint has languages: 8.57 rejects the `language` key, 9.0 to 9.6 lack it.
    const luaPart = preset !== 'none' && eslintSupportsLanguages() ? [lua] : [];
    const base = preset === 'none' ? [] : [preset === 'strict' ? strict : recommended, ...luaPart];
    // A locksmith.json object has no `files`: its rules reach `.lua` files too, where ESLint 10
    // refuses those that cannot read Lua. Last, they are off there again.
    const luaTail = luaPart.length > 0 ? [{ name: 'locksmith/lua-rules', files: LUA_FILES, rules: rulesOffForLua }] : [];
    return [...base, ...projectConfigs(plugin, options), ...luaTail];
  };
  const configs = {
    recommended,
    strict,
    lua,
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
