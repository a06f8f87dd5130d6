// A project configuration's rules in ESLint's form, the one mapping the CLI, the editor and
// configs.project() all use.

import type { ProjectConfig } from './load.js';
import { RULE_PREFIX } from './schema.js';

export type EslintRuleEntry = 'off' | 'warn' | 'error' | ['off' | 'warn' | 'error', ...unknown[]];

/** `locksmith/<id>` → severity, or `[severity, ...options]` when the file gives options. */
export function toEslintRules(config: Pick<ProjectConfig, 'rules'>): Record<string, EslintRuleEntry> {
  const result: Record<string, EslintRuleEntry> = {};
  for (const [ruleId, { severity, options }] of config.rules) {
    result[`${RULE_PREFIX}${ruleId}`] = options.length === 0 ? severity : [severity, ...options];
  }
  return result;
}
