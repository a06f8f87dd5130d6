// Every Locksmith rule, sorted by id. Rule ids are public API: never rename one.

import type { TSESLint } from '@typescript-eslint/utils';

export const rules = {} satisfies Record<string, TSESLint.RuleModule<string, readonly unknown[]>>;

export type RuleId = keyof typeof rules;
