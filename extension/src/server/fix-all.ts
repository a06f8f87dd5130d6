// Applies every fix of a rule (or of all rules) in passes, as `eslint --fix` does, and keeps the text parseable.

import type { OffsetEdit, Problem } from './problems';

/** Lints a candidate text; null when it does not parse. */
export type LintForFix = (text: string) => Problem[] | null;

const MAX_PASSES = 10;

/**
 * Which edits a fix-all applies. `autofix`: only the rules' autofixes, which never change what runs
 * (fix on save, which nobody reviews). `preferred`: each problem's autofix, else its first (preferred)
 * suggestion, which may change what reaches Redis or the database, so only on an explicit request.
 */
export type FixMode = 'autofix' | 'preferred';

function chosenFix(problem: Problem, mode: FixMode): OffsetEdit | undefined {
  return mode === 'autofix' ? problem.fix : (problem.fix ?? problem.suggestions[0]?.fix);
}

export function applyEdits<E extends OffsetEdit>(text: string, edits: readonly E[]): { text: string; applied: number; appliedEdits: E[] } {
  const sorted = [...edits].sort((left, right) => left.range[0] - right.range[0] || left.range[1] - right.range[1]);
  let output = '';
  let cursor = 0;
  let applied = 0;
  const appliedEdits: E[] = [];
  let lastStart = -1;
  for (const edit of sorted) {
    const [start, end] = edit.range;
    // Overlapping edits, and two insertions at one point, wait for the next pass on fresh findings.
    if (start < cursor || start === lastStart) continue;
    output += text.slice(cursor, start) + edit.text;
    cursor = end;
    lastStart = start;
    applied += 1;
    appliedEdits.push(edit);
  }
  return { text: output + text.slice(cursor), applied, appliedEdits };
}

/** One fix a fix-all applied, in offsets of the text it started from. */
export interface AppliedFix extends OffsetEdit {
  ruleId: string;
  /** The suggestion's description; undefined for an autofix. */
  desc: string | undefined;
}

export interface FixAllResult {
  text: string;
  fixed: number;
  /** Rules whose fixes were applied, sorted. */
  rules: string[];
  /**
   * Each fix applied, in offsets of the original text, when one pass applied them all (their ranges
   * do not overlap); undefined when a later pass built on an earlier one's output.
   */
  fixes: AppliedFix[] | undefined;
}

export function fixAll(text: string, lint: LintForFix, includeRule: (ruleId: string) => boolean, mode: FixMode): FixAllResult {
  let current = text;
  let fixed = 0;
  const rules = new Set<string>();
  let fixes: AppliedFix[] | undefined = [];
  let problems = lint(current);
  for (let pass = 0; pass < MAX_PASSES && problems !== null; pass += 1) {
    const chosen = problems
      .filter((problem) => includeRule(problem.ruleId))
      .flatMap((problem): AppliedFix[] => {
        const edit = chosenFix(problem, mode);
        if (edit === undefined) return [];
        return [{ ...edit, ruleId: problem.ruleId, desc: problem.fix === undefined ? problem.suggestions[0]?.desc : undefined }];
      });
    if (chosen.length === 0) break;
    const next = applyEdits(current, chosen);
    const nextProblems = lint(next.text);
    // A fix that breaks the parse is not kept; the pass before it stands.
    if (next.applied === 0 || nextProblems === null) break;
    current = next.text;
    problems = nextProblems;
    fixed += next.applied;
    for (const entry of next.appliedEdits) rules.add(entry.ruleId);
    fixes = pass === 0 ? next.appliedEdits : undefined;
  }
  return { text: current, fixed, rules: [...rules].sort(), fixes };
}

/** The single smallest replacement turning `before` into `after`, in offsets of `before`. */
export function minimalEdit(before: string, after: string): OffsetEdit | undefined {
  if (before === after) return undefined;
  let prefix = 0;
  const shorter = Math.min(before.length, after.length);
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (suffix < shorter - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix))
    suffix += 1;
  return { range: [prefix, before.length - suffix], text: after.slice(prefix, after.length - suffix) };
}
