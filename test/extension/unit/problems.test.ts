// Mapping ESLint lint messages to LSP diagnostics and quick fixes, pinned to a document version.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { Linter } from 'eslint';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionKind, DiagnosticSeverity, type TextDocumentEdit } from 'vscode-languageserver';
import { quickFixes, toDiagnostic, toProblems, type LintState } from '../../../extension/src/server/problems';
import { reportKey, type CapturedReports } from '../../../extension/src/server/related';
import { ruleDocsUrl } from '../../../extension/src/server/lint';

const URI = 'file:///work/locks.ts';
const TEXT = 'const lockKey = "lock:a";\n  await redis.del(lockKey);\n';

function message(overrides: Partial<Linter.LintMessage> = {}): Linter.LintMessage {
  return {
    ruleId: 'locksmith/no-unsafe-release',
    message: '`DEL` releases the lock even when another holder owns it now.',
    severity: 2,
    line: 2,
    column: 9,
    endLine: 2,
    endColumn: 26,
    suggestions: [
      { desc: 'Release with the compare-and-delete script', fix: { range: [34, 51], text: 'redis.eval(RELEASE, 1, lockKey, token)' } },
      { desc: 'Release with redlock', fix: { range: [34, 51], text: 'lock.release()' } },
    ],
    ...overrides,
  };
}

function state(document: TextDocument, messages: Linter.LintMessage[], reports: CapturedReports = new Map()): LintState {
  return { uri: document.uri, version: document.version, problems: toProblems(document, messages, reports) };
}

function editsOf(edit: { documentChanges?: unknown[] } | undefined): TextDocumentEdit {
  return edit?.documentChanges?.[0] as TextDocumentEdit;
}

describe('ESLint results to LSP', () => {
  it('maps a message to a diagnostic with 0-based range, severity, source, rule code and doc link', () => {
    const document = TextDocument.create(URI, 'typescript', 3, TEXT);
    const [problem] = toProblems(document, [message(), message({ ruleId: 'other-plugin/rule' })], new Map());
    const diagnostic = toDiagnostic(problem!, URI);
    assert.deepEqual(diagnostic.range, { start: { line: 1, character: 8 }, end: { line: 1, character: 25 } });
    assert.equal(diagnostic.severity, DiagnosticSeverity.Error);
    assert.equal(diagnostic.source, 'locksmith');
    assert.equal(diagnostic.code, 'no-unsafe-release');
    assert.equal(diagnostic.codeDescription?.href, ruleDocsUrl('no-unsafe-release'));
    assert.match(diagnostic.codeDescription!.href, /rules-docs\/no-unsafe-release\.md$/);
    assert.equal(diagnostic.relatedInformation, undefined);
    assert.equal(toDiagnostic({ ...problem!, severity: 1 }, URI).severity, DiagnosticSeverity.Warning);
  });

  it('uses a zero-width range when ESLint gives no end, and ignores messages of other plugins', () => {
    const document = TextDocument.create(URI, 'typescript', 1, TEXT);
    const problems = toProblems(
      document,
      [message({ endLine: undefined, endColumn: undefined }), message({ ruleId: 'no-undef' })],
      new Map(),
    );
    assert.equal(problems.length, 1);
    assert.deepEqual(problems[0]!.range, { start: { line: 1, character: 8 }, end: { line: 1, character: 8 } });
  });

  it('carries related locations the rule attached, in the same document', () => {
    const document = TextDocument.create(URI, 'typescript', 1, TEXT);
    const reports: CapturedReports = new Map([
      [
        reportKey('locksmith/no-unsafe-release', 2, 8),
        [{ message: 'the lock is acquired here', start: { line: 1, column: 6 }, end: { line: 1, column: 13 } }],
      ],
    ]);
    const diagnostic = toDiagnostic(toProblems(document, [message()], reports)[0]!, URI);
    assert.deepEqual(diagnostic.relatedInformation, [
      {
        location: { uri: URI, range: { start: { line: 0, character: 6 }, end: { line: 0, character: 13 } } },
        message: 'the lock is acquired here',
      },
    ]);
  });

  it('shifts fix offsets past a byte order mark, which ESLint does not count', () => {
    const document = TextDocument.create(URI, 'typescript', 1, `\uFEFF${TEXT}`);
    const [problem] = toProblems(document, [message()], new Map());
    assert.deepEqual(problem!.suggestions[0]!.fix.range, [35, 52]);
  });

  it('offers each suggestion as "<desc> (<rule>)", the first preferred, then fix-all, disable and documentation', () => {
    const document = TextDocument.create(URI, 'typescript', 7, TEXT);
    const lintState = state(document, [message()]);
    const diagnostic = toDiagnostic(lintState.problems[0]!, URI);
    const actions = quickFixes(document, lintState, [diagnostic]);
    assert.deepEqual(
      actions.map((action) => action.title),
      [
        'Release with the compare-and-delete script (no-unsafe-release)',
        'Release with redlock (no-unsafe-release)',
        'Fix all no-unsafe-release problems in this file',
        'Disable no-unsafe-release for this line',
        'Show documentation for no-unsafe-release',
      ],
    );
    assert.deepEqual(
      actions.map((action) => action.isPreferred === true),
      [true, false, false, false, false],
    );
    assert.ok(actions.every((action) => action.kind === CodeActionKind.QuickFix));
    const preferred = editsOf(actions[0]!.edit);
    assert.deepEqual(preferred.textDocument, { uri: URI, version: 7 });
    assert.deepEqual(preferred.edits, [
      { range: { start: { line: 1, character: 8 }, end: { line: 1, character: 25 } }, newText: 'redis.eval(RELEASE, 1, lockKey, token)' },
    ]);
    assert.deepEqual(actions[2]!.data, { uri: URI, version: 7, ruleId: 'no-unsafe-release' });
    assert.deepEqual(editsOf(actions[3]!.edit).edits, [
      {
        range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
        newText: '  // eslint-disable-next-line locksmith/no-unsafe-release\n',
      },
    ]);
    assert.deepEqual(actions[4]!.command?.arguments, [ruleDocsUrl('no-unsafe-release')]);
  });

  it('puts an autofix first, and offers no fix-all for a rule with nothing to fix', () => {
    const document = TextDocument.create(URI, 'typescript', 1, TEXT);
    const withFix = state(document, [message({ fix: { range: [34, 51], text: 'x' }, suggestions: [] })]);
    const titles = quickFixes(document, withFix, [toDiagnostic(withFix.problems[0]!, URI)]).map((action) => action.title);
    assert.equal(titles[0], 'Fix this no-unsafe-release problem');
    const bare = state(document, [message({ suggestions: [] })]);
    const bareTitles = quickFixes(document, bare, [toDiagnostic(bare.problems[0]!, URI)]).map((action) => action.title);
    assert.deepEqual(bareTitles, ['Disable no-unsafe-release for this line', 'Show documentation for no-unsafe-release']);
  });

  it('drops stale input: findings of another version, and diagnostics that no longer match a finding', () => {
    const linted = TextDocument.create(URI, 'typescript', 4, TEXT);
    const lintState = state(linted, [message()]);
    const diagnostic = toDiagnostic(lintState.problems[0]!, URI);
    const edited = TextDocument.update(
      TextDocument.create(URI, 'typescript', 4, TEXT),
      [{ text: '// moved\n', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }],
      5,
    );
    assert.deepEqual(quickFixes(edited, lintState, [diagnostic]), []);
    const moved = { ...diagnostic, range: { start: { line: 2, character: 8 }, end: { line: 2, character: 25 } } };
    assert.deepEqual(quickFixes(linted, lintState, [moved]), []);
    assert.deepEqual(quickFixes(linted, lintState, [{ ...diagnostic, source: 'eslint' }]), []);
  });
});
