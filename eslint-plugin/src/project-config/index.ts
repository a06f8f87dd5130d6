// The project configuration (locksmith.json): one loader for the CLI, the language server and ESLint.

export { parseProjectConfig, ProjectConfigError, type ProjectConfig, type RuleSetting, type RuleSeverity } from './load.js';
export {
  ProjectConfigLookup,
  loadProjectConfigFile,
  readTextFileFromDisk,
  type ReadTextFile,
  type ProjectConfigLookupOptions,
} from './lookup.js';
export { toEslintRules, type EslintRuleEntry } from './rules.js';
export { projectConfigSchema, packageJsonSchema, PROJECT_CONFIG_FILE_NAME, PACKAGE_JSON_KEY } from './schema.js';
export {
  projectConfigs,
  planCliProjectConfig,
  type ProjectConfigsOptions,
  type CliProjectConfigOptions,
  type CliProjectConfigPlan,
} from './eslint-configs.js';
