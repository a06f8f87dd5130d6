// Fail closed: the value an acquire helper's `catch` returns instead of its truthy literal, so a failed
// acquisition reads as "not taken".

import type { TSESTree } from '@typescript-eslint/utils';

export function closedValue(literal: TSESTree.Literal): string {
  if (literal.value === 1) return '0';
  if (literal.value === 'OK') return 'null';
  return 'false';
}
