// Binds every rule's documentation URL once, as typescript-eslint's RuleCreator does.

import { ESLintUtils } from '@typescript-eslint/utils';

export const REPOSITORY_URL = 'https://github.com/locksmith-lint/locksmith';
export const DOCS_BASE_URL = `${REPOSITORY_URL}/blob/main/rules-docs/`;

export function ruleDocsUrl(ruleId: string): string {
  return `${DOCS_BASE_URL}${ruleId}.md`;
}

export interface LocksmithDocs {
  description: string;
  /** Severity in the `recommended` config; `false` for rules only `strict` enables. */
  recommended: 'error' | 'warn' | false;
  /** The rule gains precision from type information but never requires it. */
  requiresTypeChecking?: false;
}

export const createRule = ESLintUtils.RuleCreator<LocksmithDocs>(ruleDocsUrl);
