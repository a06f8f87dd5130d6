// Turns ESLint lint messages into LSP diagnostics and quick fixes, for one document version.

import {
  AnnotatedTextEdit,
  CodeAction,
  CodeActionKind,
  Command,
  DiagnosticSeverity,
  TextDocumentEdit,
  TextEdit,
  type ChangeAnnotation,
  type Diagnostic,
  type Range,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Linter } from 'eslint';
import { SHOW_DOCUMENTATION_COMMAND } from '../shared/settings';
import { reportKey, type CapturedReports } from './related';
import { RULE_PREFIX, ruleDocsUrl } from './lint';

export const SOURCE = 'locksmith';
export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.locksmith`;

/** A text replacement in offsets of the document the problem was found in. */
export interface OffsetEdit {
  range: readonly [number, number];
  text: string;
}

export interface Problem {
  ruleId: string;
  message: string;
  severity: 1 | 2;
  range: Range;
  fix?: OffsetEdit;
  suggestions: { desc: string; fix: OffsetEdit }[];
  related: { message: string; range: Range }[];
}

/** The findings for one document version; code actions are only ever built from the matching version. */
export interface LintState {
  uri: string;
  version: number;
  problems: Problem[];
}

function bomOffset(document: TextDocument): number {
  // ESLint strips a byte order mark and counts offsets without it.
  return document.getText().startsWith('\uFEFF') ? 1 : 0;
}

function toOffsetEdit(edit: { range: readonly [number, number]; text: string }, shift: number): OffsetEdit {
  return { range: [edit.range[0] + shift, edit.range[1] + shift], text: edit.text };
}

function clampedRange(line: number, column: number, endLine: number | undefined, endColumn: number | undefined): Range {
  const start = { line: Math.max(line - 1, 0), character: Math.max(column - 1, 0) };
  const end =
    endLine === undefined || endColumn === undefined ? start : { line: Math.max(endLine - 1, 0), character: Math.max(endColumn - 1, 0) };
  return { start, end };
}

export function toProblems(document: TextDocument, messages: readonly Linter.LintMessage[], reports: CapturedReports): Problem[] {
  const shift = bomOffset(document);
  const problems: Problem[] = [];
  for (const message of messages) {
    if (message.ruleId === null || !message.ruleId.startsWith(RULE_PREFIX)) continue;
    const related = reports.get(reportKey(message.ruleId, message.line, message.column - 1)) ?? [];
    problems.push({
      ruleId: message.ruleId.slice(RULE_PREFIX.length),
      message: message.message,
      severity: message.severity === 1 ? 1 : 2,
      range: clampedRange(message.line, message.column, message.endLine, message.endColumn),
      ...(message.fix === undefined ? {} : { fix: toOffsetEdit(message.fix, shift) }),
      suggestions: (message.suggestions ?? []).map((suggestion) => ({ desc: suggestion.desc, fix: toOffsetEdit(suggestion.fix, shift) })),
      related: related.map((location) => ({
        message: location.message,
        range: clampedRange(location.start.line, location.start.column + 1, location.end.line, location.end.column + 1),
      })),
    });
  }
  return problems;
}

export function toDiagnostic(problem: Problem, uri: string): Diagnostic {
  const href = ruleDocsUrl(problem.ruleId);
  return {
    range: problem.range,
    severity: problem.severity === 1 ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error,
    source: SOURCE,
    code: problem.ruleId,
    ...(href === undefined ? {} : { codeDescription: { href } }),
    message: problem.message,
    ...(problem.related.length === 0
      ? {}
      : {
          relatedInformation: problem.related.map((location) => ({ location: { uri, range: location.range }, message: location.message })),
        }),
  };
}

function sameRange(left: Range, right: Range): boolean {
  return (
    left.start.line === right.start.line &&
    left.start.character === right.start.character &&
    left.end.line === right.end.line &&
    left.end.character === right.end.character
  );
}

/** The problem a client-side diagnostic stands for; none when the diagnostic is from another version. */
export function problemFor(state: LintState, diagnostic: Diagnostic): Problem | undefined {
  if (diagnostic.source !== SOURCE) return undefined;
  return state.problems.find(
    (problem) => problem.ruleId === diagnostic.code && problem.message === diagnostic.message && sameRange(problem.range, diagnostic.range),
  );
}

/** An edit that applies only to the version it was computed for: the client refuses it otherwise. */
export function pinnedEdit(document: TextDocument, edits: TextEdit[]): WorkspaceEdit {
  return { documentChanges: [TextDocumentEdit.create({ uri: document.uri, version: document.version }, edits)] };
}

/**
 * An edit pinned to the document's version whose every change carries a change annotation that
 * needs the user's confirmation, one per rule: the client shows it in the refactor preview, grouped
 * by rule, before anything changes.
 */
export function confirmedEdit(
  document: TextDocument,
  changes: readonly { ruleId: string; desc: string | undefined; edit: TextEdit }[],
): WorkspaceEdit {
  const changeAnnotations: Record<string, ChangeAnnotation> = {};
  const edits = changes.map(({ ruleId, desc, edit }) => {
    const id = `locksmith.preferredFixes:${ruleId}`;
    changeAnnotations[id] ??= {
      label: `${desc ?? 'Fix'} (${ruleId})`,
      needsConfirmation: true,
      description: 'The preferred suggestion of a Locksmith finding: it changes what runs against Redis or the database.',
    };
    return AnnotatedTextEdit.replace(edit.range, edit.newText, id);
  });
  return { documentChanges: [TextDocumentEdit.create({ uri: document.uri, version: document.version }, edits)], changeAnnotations };
}

export function toTextEdit(document: TextDocument, edit: OffsetEdit): TextEdit {
  return TextEdit.replace({ start: document.positionAt(edit.range[0]), end: document.positionAt(edit.range[1]) }, edit.text);
}

export interface FixAllData {
  uri: string;
  version: number;
  /** Null for every rule (fix on save). */
  ruleId: string | null;
}

export function fixAllTitle(ruleId: string): string {
  return `Fix all ${ruleId} problems in this file`;
}

/** Quick fixes for the diagnostics the client asked about, preferred first, then per-rule actions. */
export function quickFixes(document: TextDocument, state: LintState, diagnostics: readonly Diagnostic[]): CodeAction[] {
  if (state.version !== document.version) return [];
  const fixes: CodeAction[] = [];
  const ruleActions: CodeAction[] = [];
  const seenRules = new Set<string>();
  const disabledLines = new Set<string>();
  for (const diagnostic of diagnostics) {
    const problem = problemFor(state, diagnostic);
    if (problem === undefined) continue;
    const choices = [
      ...(problem.fix === undefined ? [] : [{ title: `Fix this ${problem.ruleId} problem`, fix: problem.fix }]),
      ...problem.suggestions.map((suggestion) => ({ title: `${suggestion.desc} (${problem.ruleId})`, fix: suggestion.fix })),
    ];
    choices.forEach((choice, index) => {
      const action = CodeAction.create(choice.title, pinnedEdit(document, [toTextEdit(document, choice.fix)]), CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      if (index === 0) action.isPreferred = true;
      fixes.push(action);
    });
    const lineKey = `${problem.ruleId}:${problem.range.start.line}`;
    if (!disabledLines.has(lineKey)) {
      disabledLines.add(lineKey);
      const disable = CodeAction.create(
        `Disable ${problem.ruleId} for this line`,
        pinnedEdit(document, [disableLineEdit(document, problem)]),
        CodeActionKind.QuickFix,
      );
      disable.diagnostics = [diagnostic];
      ruleActions.push(disable);
    }
    if (seenRules.has(problem.ruleId)) continue;
    seenRules.add(problem.ruleId);
    if (state.problems.some((other) => other.ruleId === problem.ruleId && (other.fix !== undefined || other.suggestions.length > 0))) {
      const fixAll = CodeAction.create(fixAllTitle(problem.ruleId), CodeActionKind.QuickFix);
      fixAll.data = { uri: document.uri, version: document.version, ruleId: problem.ruleId } satisfies FixAllData;
      ruleActions.unshift(fixAll);
    }
    const href = ruleDocsUrl(problem.ruleId);
    if (href !== undefined) {
      const docs = CodeAction.create(
        `Show documentation for ${problem.ruleId}`,
        Command.create(`Show documentation for ${problem.ruleId}`, SHOW_DOCUMENTATION_COMMAND, href),
        CodeActionKind.QuickFix,
      );
      ruleActions.push(docs);
    }
  }
  return [...fixes, ...ruleActions];
}

/** `// eslint-disable-next-line` above the problem's line, indented like it (`--` in Lua). */
export function disableLineEdit(document: TextDocument, problem: Problem): TextEdit {
  const line = problem.range.start.line;
  const lineText = document.getText({ start: { line, character: 0 }, end: { line, character: Number.MAX_SAFE_INTEGER } });
  const indent = /^\s*/.exec(lineText)?.[0] ?? '';
  const eol = document.getText().includes('\r\n') ? '\r\n' : '\n';
  const comment = document.languageId === 'lua' || document.uri.toLowerCase().endsWith('.lua') ? '--' : '//';
  return TextEdit.insert({ line, character: 0 }, `${indent}${comment} eslint-disable-next-line ${RULE_PREFIX}${problem.ruleId}${eol}`);
}
