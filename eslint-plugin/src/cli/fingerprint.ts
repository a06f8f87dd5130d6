// Fingerprints that name a finding across runs: rule, file and the reported line's text, never its line number.

import { createHash } from 'node:crypto';

export const FINGERPRINT_KEY = 'locksmithFindingHash/v1';

/** Whitespace-insensitive, so re-indenting or reformatting spaces keeps a finding's identity. */
export function normaliseLine(lineText: string): string {
  return lineText.replace(/\s+/g, ' ').trim();
}

/**
 * Hands out `<hash>:<occurrence>`, where the occurrence counts earlier findings with the same
 * rule, file and line text, so two identical lines in one file stay distinct.
 * Feed it one file's findings in source order.
 */
export class FingerprintCounter {
  private readonly occurrences = new Map<string, number>();

  next(ruleId: string, fileUri: string, lineText: string): string {
    const hash = createHash('sha256')
      .update(ruleId)
      .update('\0')
      .update(fileUri)
      .update('\0')
      .update(normaliseLine(lineText))
      .digest('hex')
      .slice(0, 32);
    const occurrence = this.occurrences.get(hash) ?? 0;
    this.occurrences.set(hash, occurrence + 1);
    return `${hash}:${occurrence}`;
  }
}
