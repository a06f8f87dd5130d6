// Renders lint results in the format asked for: ESLint's own stylish and json, or our SARIF.

import type { ESLint } from 'eslint';
import type { OutputFormat } from './args.js';
import { withoutRelated } from './related-capture.js';
import { formatSarif, type SarifContext } from './sarif.js';

export async function formatResults(
  eslint: ESLint,
  results: ESLint.LintResult[],
  format: OutputFormat,
  context: SarifContext,
): Promise<string> {
  if (format === 'sarif') {
    return `${formatSarif(results, context)}\n`;
  }
  const formatter = await eslint.loadFormatter(format);
  // `format` returns a string in ESLint 8.57 and may return a promise in 9 and 10.
  const text = await formatter.format(results.map(withoutRelated), {});
  if (format === 'json') return `${text}\n`;
  return text;
}
