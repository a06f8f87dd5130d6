// Applies every fix of a rule (or of all rules) in passes, as `eslint --fix` does, and keeps the text parseable.

import type { OffsetEdit, Problem } from './problems';

/** Lints a candidate text; null when it does not parse. */
export type LintForFix = (text: string) => Problem[] | null;

const MAX_PASSES = 10;

/** The edit a fix-all applies to a problem: its autofix, else its first (preferred) suggestion. */
function chosenFix(problem: Problem): OffsetEdit | undefined {
  return problem.fix ?? problem.suggestions[0]?.fix;
}

export function applyEdits(text: string, edits: readonly OffsetEdit[]): { text: string; applied: number } {
  const sorted = [...edits].sort((left, right) => left.range[0] - right.range[0] || left.range[1] - right.range[1]);
  let output = '';
  let cursor = 0;
  let applied = 0;
  let lastStart = -1;
  for (const edit of sorted) {
    const [start, end] = edit.range;
    // Overlapping edits, and two insertions at one point, wait for the next pass on fresh findings.
    if (start < cursor || start === lastStart) continue;
    output += text.slice(cursor, start) + edit.text;
    cursor = end;
    lastStart = start;
    applied += 1;
  }
  return { text: output + text.slice(cursor), applied };
}

export function fixAll(text: string, lint: LintForFix, includeRule: (ruleId: string) => boolean): { text: string; fixed: number } {
  let current = text;
  let fixed = 0;
  let problems = lint(current);
  for (let pass = 0; pass < MAX_PASSES && problems !== null; pass += 1) {
    const edits = problems.filter((problem) => includeRule(problem.ruleId)).map(chosenFix).filter((edit) => edit !== undefined);
    if (edits.length === 0) break;
    const next = applyEdits(current, edits);
    const nextProblems = lint(next.text);
    // A fix that breaks the parse is not kept; the pass before it stands.
    if (next.applied === 0 || nextProblems === null) break;
    current = next.text;
    problems = nextProblems;
    fixed += next.applied;
  }
  return { text: current, fixed };
}

/** The single smallest replacement turning `before` into `after`, in offsets of `before`. */
export function minimalEdit(before: string, after: string): OffsetEdit | undefined {
  if (before === after) return undefined;
  let prefix = 0;
  const shorter = Math.min(before.length, after.length);
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (suffix < shorter - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix += 1;
  return { range: [prefix, before.length - suffix], text: after.slice(prefix, after.length - suffix) };
}
