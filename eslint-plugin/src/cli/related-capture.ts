// Carries each finding's related locations (where the lock was taken, read, released) from the rule's
// report into the lint message, for the SARIF output: ESLint keeps a report's `data` out of its
// messages, so the CLI lints with the plugin's rules wrapped to record it (the same reader the editor
// uses, src/related) and a processor whose postprocess, run in the same thread right after the rules,
// puts it on the message. A processor, not a hook around the lint, so that worker threads
// (`--concurrency`) and ESLint's cache (which stores the messages) keep it too.

import type { Linter, Rule } from 'eslint';
import locksmith from '../index.js';
import { reportKey, withReportsRecorded, type RelatedLocation } from '../related/index.js';

/** The property the postprocess adds to a lint message; read by sarif.ts, left out of other formats. */
export const RELATED_PROPERTY = 'locksmithRelated';

export type MessageWithRelated = Linter.LintMessage & { [RELATED_PROPERTY]?: RelatedLocation[] };

// Per file, filled while its rules run and emptied by its postprocess: never more than the files
// being linted at once in this thread.
const pending = new Map<string, Map<string, RelatedLocation[]>>();

export const reportingPlugin = withReportsRecorded(
  locksmith as unknown as { rules: Record<string, Rule.RuleModule> },
  (filename, key, related) => {
    let reports = pending.get(filename);
    if (reports === undefined) {
      reports = new Map<string, RelatedLocation[]>();
      pending.set(filename, reports);
    }
    reports.set(key, related);
  },
);

export const relatedProcessor: Linter.Processor = {
  // A name and version: ESLint's cache hashes the config, and a processor without them cannot be.
  meta: { name: 'locksmith/related-locations', version: locksmith.meta.version },
  supportsAutofix: true,
  preprocess: (text: string) => [text],
  postprocess(messages: Linter.LintMessage[][], filename: string): Linter.LintMessage[] {
    const reports = pending.get(filename);
    pending.delete(filename);
    const flat = messages.flat();
    if (reports === undefined) return flat;
    return flat.map((message) => {
      const related = message.ruleId ? reports.get(reportKey(message.ruleId, message.line, message.column - 1)) : undefined;
      return related === undefined ? message : { ...message, [RELATED_PROPERTY]: related };
    });
  },
};

/** A message's related locations, as the rule attached them; empty when it has none. */
export function relatedOf(message: Linter.LintMessage): readonly RelatedLocation[] {
  return (message as MessageWithRelated)[RELATED_PROPERTY] ?? [];
}

/** The results without the related locations: ESLint's own formats print messages as ESLint made them. */
export function withoutRelated<Result extends { messages: Linter.LintMessage[] }>(result: Result): Result {
  if (!result.messages.some((message) => RELATED_PROPERTY in message)) return result;
  return {
    ...result,
    messages: result.messages.map((message) => {
      if (!(RELATED_PROPERTY in message)) return message;
      return Object.fromEntries(Object.entries(message).filter(([key]) => key !== RELATED_PROPERTY)) as unknown as Linter.LintMessage;
    }),
  };
}
