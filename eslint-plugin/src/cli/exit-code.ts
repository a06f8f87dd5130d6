// Decides the exit status from the findings, ESLint's way: errors (parse errors included) fail, warnings only above --max-warnings.

import type { ESLint } from 'eslint';

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

export interface Tally {
  errors: number;
  warnings: number;
}

export function tally(results: readonly ESLint.LintResult[]): Tally {
  let errors = 0;
  let warnings = 0;
  for (const result of results) {
    errors += result.errorCount;
    warnings += result.warningCount;
  }
  return { errors, warnings };
}

export function exitCodeFor({ errors, warnings }: Tally, maxWarnings: number | undefined): number {
  if (errors > 0) return EXIT_FINDINGS;
  if (maxWarnings !== undefined && warnings > maxWarnings) return EXIT_FINDINGS;
  return EXIT_CLEAN;
}
