// Binds every rule's documentation URL once, as typescript-eslint's RuleCreator does, and lets the
// lock model collect its nodes during ESLint's own traversal instead of walking each file again.

import { ESLintUtils, type TSESLint } from '@typescript-eslint/utils';
import { collectingListeners } from './collect-nodes.js';

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

const createDocumentedRule = ESLintUtils.RuleCreator<LocksmithDocs>(ruleDocsUrl);

export function createRule<Options extends readonly unknown[], MessageIds extends string>(
  rule: Readonly<ESLintUtils.RuleWithMetaAndName<Options, MessageIds, LocksmithDocs>>,
): ESLintUtils.RuleModule<MessageIds, Options, LocksmithDocs> & { name: string } {
  return createDocumentedRule<Options, MessageIds>({
    ...rule,
    create(context, optionsWithDefault) {
      return mergeListeners(collectingListeners(context.sourceCode), rule.create(context, optionsWithDefault));
    },
  });
}

/** Both listener sets on the same events, the collector's first (it must finish before rules read). */
function mergeListeners(first: TSESLint.RuleListener, second: TSESLint.RuleListener): TSESLint.RuleListener {
  const merged: Record<string, (node: never) => void> = { ...(second as Record<string, (node: never) => void>) };
  for (const [selector, listener] of Object.entries(first as Record<string, ((node: never) => void) | undefined>)) {
    if (!listener) continue;
    const other = merged[selector];
    merged[selector] = other ? (node: never) => { listener(node); other(node); } : listener;
  }
  return merged;
}
