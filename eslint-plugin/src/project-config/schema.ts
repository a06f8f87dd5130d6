// The JSON schema of `locksmith.json`, built from the rule list and the shared settings: the loader
// validates with it and the package ships it (schemas/), so the file, the editor and the code agree.

import type { TSESLint } from '@typescript-eslint/utils';
import { rules } from '../rules/index.js';
import { sharedSettingsSchema } from '../model/facts/settings.js';

export const PROJECT_CONFIG_FILE_NAME = 'locksmith.json';
export const PACKAGE_JSON_KEY = 'locksmith';
export const RULE_PREFIX = 'locksmith/';
export const SCHEMA_ID = 'https://github.com/locksmith-lint/locksmith/blob/main/eslint-plugin/schemas/locksmith.schema.json';

/** ESLint's severities, words and numbers; nothing else (ESLint itself rejects `"warning"`). */
export const SEVERITY_VALUES = ['off', 'warn', 'error', 0, 1, 2] as const;

export type JsonSchema = Readonly<Record<string, unknown>>;

const severitySchema = {
  description: 'off (0), warn (1) or error (2).',
  enum: SEVERITY_VALUES,
} as const;

type AnyRule = TSESLint.RuleModule<string, readonly unknown[]>;

function ruleEntrySchema(ruleId: string, rule: AnyRule): JsonSchema {
  const optionSchemas = Array.isArray(rule.meta.schema) ? (rule.meta.schema as JsonSchema[]) : [];
  const description = (rule.meta.docs as { description?: string } | undefined)?.description ?? ruleId;
  return {
    description,
    anyOf: [
      severitySchema,
      {
        type: 'array',
        description: '[severity, options]',
        items: [severitySchema, ...optionSchemas],
        minItems: 1,
        additionalItems: false,
      },
    ],
  };
}

function rulesSchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [ruleId, rule] of Object.entries<AnyRule>(rules)) {
    properties[ruleId] = ruleEntrySchema(ruleId, rule);
    properties[`${RULE_PREFIX}${ruleId}`] = ruleEntrySchema(ruleId, rule);
  }
  return {
    type: 'object',
    description:
      'Rule severities over the preset, in ESLint\'s forms: "off" | "warn" | "error", 0–2, or [severity, options]. Ids with or without `locksmith/`.',
    additionalProperties: false,
    properties,
  };
}

/** The schema of a `locksmith.json` file (and of package.json's `"locksmith"` value). */
export function projectConfigSchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: SCHEMA_ID,
    title: 'Locksmith project configuration (locksmith.json)',
    description:
      'Data only, never executed. The nearest locksmith.json (or package.json "locksmith" key) above a file applies to it; ancestors are not merged.',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string', description: 'The schema this file follows (for editors).' },
      rules: rulesSchema(),
      settings: {
        type: 'object',
        description: "The same object as ESLint's `settings.locksmith` (not nested again).",
        additionalProperties: false,
        properties: sharedSettingsSchema,
      },
      ignores: {
        type: 'array',
        description: "Files Locksmith skips: flat-config `ignores` patterns, relative to this file's folder.",
        items: { type: 'string', minLength: 1 },
      },
    },
  };
}

/** The schema of a package.json whose `"locksmith"` key holds a project configuration. */
export function packageJsonSchema(): JsonSchema {
  const { $schema, ...withId } = projectConfigSchema();
  const locksmith = Object.fromEntries(Object.entries(withId).filter(([key]) => key !== '$id'));
  return {
    $schema,
    $id: SCHEMA_ID.replace('locksmith.schema.json', 'package.schema.json'),
    title: 'package.json "locksmith" key',
    type: 'object',
    properties: { [PACKAGE_JSON_KEY]: locksmith },
  };
}
