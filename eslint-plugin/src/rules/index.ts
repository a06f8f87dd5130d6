// Every Locksmith rule, sorted by id. Rule ids are public API: never rename one.

import type { TSESLint } from '@typescript-eslint/utils';
import noSplitAcquire from './no-split-acquire.js';
import noUnsafeRelease from './no-unsafe-release.js';

export const rules = {
  'no-split-acquire': noSplitAcquire,
  'no-unsafe-release': noUnsafeRelease,
} satisfies Record<string, TSESLint.RuleModule<string, readonly unknown[]>>;

export type RuleId = keyof typeof rules;
