// Fail closed: the value an acquire helper's `catch` returns instead of its truthy literal, so a failed
// acquisition reads as "not taken".

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/** The falsy counterpart of the literal (`true` → `false`, `1` → `0`, `'OK'` → `null`) and the edit that returns it. */
export function failClosedFix(literal: TSESTree.Literal): { readonly value: string; readonly fix: TSESLint.ReportFixFunction } {
  const value = closedValue(literal);
  return { value, fix: (fixer) => fixer.replaceText(literal, value) };
}

function closedValue(literal: TSESTree.Literal): string {
  if (literal.value === 1) return '0';
  if (literal.value === 'OK') return 'null';
  return 'false';
}
