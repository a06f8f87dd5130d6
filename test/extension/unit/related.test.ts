// Related locations: kept from the data a rule passes to context.report (which ESLint drops from messages), for the plugin's real rules too.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { Linter, type Rule } from 'eslint';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createReportCapture, relatedLocationsOf, reportKey, type CapturedReports } from '../../../extension/src/server/related';
import { lintText } from '../../../extension/src/server/lint';
import { toDiagnostic, toProblems, type Problem } from '../../../extension/src/server/problems';
import { Settings } from '../../../extension/src/shared/settings';
import { FINDING_FIXTURES, QUICK_FIX_FIXTURES, type Fixture } from '../../../extension/test/suite/fixtures';

describe('related locations', () => {
  it('reads data.related items with a loc or a node, and node-valued data entries; nothing otherwise', () => {
    const loc = { start: { line: 3, column: 2 }, end: { line: 3, column: 9 } };
    assert.deepEqual(
      relatedLocationsOf({
        related: [{ message: 'acquired here', loc }, { node: { type: 'CallExpression', loc } }, { message: 'no location' }],
      }),
      [
        { message: 'acquired here', ...loc },
        { message: 'related', ...loc },
      ],
    );
    assert.deepEqual(relatedLocationsOf({ acquisition: { type: 'CallExpression', loc }, command: 'DEL' }), [
      { message: 'acquisition', ...loc },
    ]);
    assert.deepEqual(relatedLocationsOf({ command: 'DEL' }), []);
    assert.deepEqual(relatedLocationsOf(undefined), []);
  });

  it('captures them from a real lint run without changing what the rule reports', () => {
    const rule: Rule.RuleModule = {
      meta: { type: 'problem', messages: { release: '{{command}} releases without checking the token' } },
      create(context) {
        let acquisition: Rule.Node | undefined;
        return {
          CallExpression(node) {
            if (node.callee.type !== 'MemberExpression' || node.callee.property.type !== 'Identifier') return;
            if (node.callee.property.name === 'set') acquisition = node;
            if (node.callee.property.name === 'del') {
              // ESLint's own types allow only primitives in `data`; typescript-eslint's (the plugin's) allow any value.
              const data = {
                command: 'DEL',
                related: acquisition === undefined ? [] : [{ message: 'the lock is taken here', node: acquisition }],
              };
              context.report({ node, messageId: 'release', data: data as unknown as Record<string, string> });
            }
          },
        };
      },
    };
    const capture = createReportCapture({ rules: { 'toy-release': rule } });
    const linter = new Linter();
    const code = "redis.set('lock:a', token, 'NX');\nredis.del('lock:a');\n";
    const { result: messages, reports } = capture.during(() =>
      linter.verify(code, [{ plugins: { locksmith: capture.plugin }, rules: { 'locksmith/toy-release': 'error' } }], 'file.js'),
    );
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.message, 'DEL releases without checking the token');
    assert.deepEqual(reports.get(reportKey('locksmith/toy-release', messages[0]!.line, messages[0]!.column - 1)), [
      { message: 'the lock is taken here', start: { line: 1, column: 0 }, end: { line: 1, column: 32 } },
    ]);
  });
});

describe("related locations of the plugin's own rules", () => {
  const workspace = path.resolve(__dirname, '../../../extension/test/fixtures/workspace');
  const fixtures: [string, Fixture][] = [
    ...Object.entries(FINDING_FIXTURES).flatMap(([ruleId, list]) => list.map((fixture): [string, Fixture] => [ruleId, fixture])),
    ...Object.entries(QUICK_FIX_FIXTURES),
  ];

  function lint(filePath: string): {
    document: TextDocument;
    problems: Problem[];
    reports: CapturedReports;
    messages: Linter.LintMessage[];
  } {
    const text = fs.readFileSync(filePath, 'utf8');
    const outcome = lintText({ text, filePath, settings: Settings.from({}) });
    if (outcome.kind !== 'linted') assert.fail(`${filePath}: ${JSON.stringify(outcome)}`);
    const document = TextDocument.create(`file://${filePath}`, 'typescript', 1, text);
    return {
      document,
      problems: toProblems(document, outcome.messages, outcome.reports),
      reports: outcome.reports,
      messages: outcome.messages,
    };
  }

  for (const [ruleId, fixture] of fixtures) {
    it(`${ruleId} in ${fixture.file}: the diagnostic points where the fixture says, and the file has no other rule's finding`, () => {
      const { document, problems } = lint(path.join(workspace, fixture.file));
      assert.deepEqual([...new Set(problems.map((problem) => problem.ruleId))], [ruleId]);
      const [finding] = problems;
      assert.ok(finding!.suggestions.length > 0, 'the finding has a suggestion');
      const shown = (toDiagnostic(finding!, document.uri).relatedInformation ?? []).map((related, index) => {
        assert.equal(related.location.uri, document.uri);
        const text = document.getText(related.location.range);
        const prefix = fixture.related[index]?.text;
        return {
          message: related.message,
          line: related.location.range.start.line + 1,
          text: prefix !== undefined && text.startsWith(prefix) ? prefix : text,
        };
      });
      assert.deepEqual(shown, fixture.related);
    });
  }

  it('reaches a diagnostic for every report that carries them, in the fixtures and the examples', () => {
    const examples = path.resolve(__dirname, '../../../examples');
    const files = [
      ...fixtures.map(([, fixture]) => path.join(workspace, fixture.file)),
      ...fs
        .readdirSync(examples, { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.[cm]?[jt]sx?$/.test(file))
        .map((file) => path.join(examples, file)),
    ];
    let withRelated = 0;
    for (const file of files) {
      const { problems, reports, messages } = lint(file);
      // Each captured report is keyed by where it starts; a key no message has would be a location lost on the way.
      const messageKeys = new Set(messages.map((message) => reportKey(message.ruleId ?? '', message.line, message.column - 1)));
      for (const key of reports.keys()) assert.ok(messageKeys.has(key), `${file}: related locations of ${key} reach no message`);
      withRelated += problems.filter((problem) => problem.related.length > 0).length;
    }
    assert.ok(withRelated >= 10, `findings with related locations: ${withRelated}`);
  });
});
