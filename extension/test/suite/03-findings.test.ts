// Findings and quick fixes for every rule the bundled plugin exports that has a fixture here.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  api,
  applyAction,
  assertParses,
  codeActions,
  copyFixture,
  locksmithDiagnostics,
  ruleOf,
  serverRules,
  updateSetting,
  waitForDiagnostics,
} from './helpers';

/** Fixture files per rule, one per client dialect; each holds exactly one finding of its rule. */
const FIXTURES: Record<string, string[]> = {
  'no-split-acquire': ['no-split-acquire.ts'],
  'no-unsafe-release': ['no-unsafe-release.ts', 'no-unsafe-release.mjs'],
};
/** Rules this suite must check once the plugin exports them. */
const REQUIRED_RULES = ['no-split-acquire', 'no-unsafe-release'];

let copies = 0;

async function openCopy(fixture: string): Promise<vscode.TextEditor> {
  copies += 1;
  const extension = fixture.slice(fixture.lastIndexOf('.'));
  const uri = await copyFixture(fixture, `copies/${fixture.slice(0, fixture.lastIndexOf('.'))}-${copies}${extension}`);
  return vscode.window.showTextDocument(uri, { preview: false });
}

async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.files.saveAll');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

function ofRule(ruleId: string) {
  return (diagnostic: vscode.Diagnostic): boolean => ruleOf(diagnostic) === ruleId;
}

async function findingOf(uri: vscode.Uri, ruleId: string): Promise<vscode.Diagnostic> {
  const diagnostics = await waitForDiagnostics(uri, (all) => all.some(ofRule(ruleId)), `a ${ruleId} finding`);
  return diagnostics.find(ofRule(ruleId))!;
}

async function actionsFor(uri: vscode.Uri, diagnostic: vscode.Diagnostic, resolveCount = 0): Promise<vscode.CodeAction[]> {
  const actions = await codeActions(uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value, resolveCount);
  return actions.filter((action) => action.diagnostics?.some((other) => ruleOf(other) === ruleOf(diagnostic)) === true || action.title.includes(String(ruleOf(diagnostic))));
}

// Every rule with a fixture here; a rule the plugin does not export (yet) shows as pending.
for (const ruleId of [...new Set([...REQUIRED_RULES, ...Object.keys(FIXTURES)])].sort()) {
  describe(`rule ${ruleId}`, function () {
    let docsUrl: string | null | undefined;
    before(async function () {
      const rules = await serverRules();
      if (!rules.has(ruleId)) this.skip();
      docsUrl = rules.get(ruleId);
    });
    afterEach(closeAll);

    for (const fixture of FIXTURES[ruleId] ?? []) {
      it(`reports ${fixture} with the rule id, its doc link and related locations`, async () => {
        const editor = await openCopy(fixture);
        const finding = await findingOf(editor.document.uri, ruleId);
        assert.equal(finding.source, 'locksmith');
        assert.ok(typeof finding.code === 'object', 'the code carries a link');
        assert.equal(finding.code.value, ruleId);
        assert.equal(finding.code.target.toString(true), docsUrl);
        assert.match(finding.code.target.toString(true), new RegExp(`rules-docs/${ruleId}\\.md$`));
        for (const related of finding.relatedInformation ?? []) {
          assert.equal(related.location.uri.toString(), editor.document.uri.toString());
          assert.ok(related.location.range.start.line < editor.document.lineCount);
          assert.notEqual(related.message, '');
        }
      });

      it(`applies each quick fix of ${fixture}, leaving no ${ruleId} finding and a file that parses`, async () => {
        const probe = await openCopy(fixture);
        const suggestions = (await actionsFor(probe.document.uri, await findingOf(probe.document.uri, ruleId)))
          .filter((action) => action.title.endsWith(`(${ruleId})`) || action.title === `Fix this ${ruleId} problem`);
        assert.ok(suggestions.length > 0, `${ruleId} offers at least one quick fix`);
        assert.equal(suggestions[0]!.isPreferred, true, 'the first quick fix is the preferred one');
        assert.ok(suggestions.slice(1).every((action) => action.isPreferred !== true), 'only one quick fix is preferred');
        await closeAll();
        for (const [index, title] of suggestions.map((action) => action.title).entries()) {
          const editor = await openCopy(fixture);
          const uri = editor.document.uri;
          const action = (await actionsFor(uri, await findingOf(uri, ruleId))).find((candidate) => candidate.title === title);
          assert.ok(action !== undefined, `quick fix ${index} "${title}" is offered again on a fresh copy`);
          await applyAction(uri, action);
          await waitForDiagnostics(uri, (all) => !all.some(ofRule(ruleId)), `no ${ruleId} finding after "${title}"`);
          assertParses(editor.document);
          await closeAll();
        }
      });

      it(`offers "Disable ${ruleId} for this line" and "Show documentation for ${ruleId}" on ${fixture}`, async () => {
        const editor = await openCopy(fixture);
        const uri = editor.document.uri;
        const actions = await actionsFor(uri, await findingOf(uri, ruleId));
        const documentation = actions.find((action) => action.title === `Show documentation for ${ruleId}`);
        assert.equal(documentation?.command?.command, 'locksmith.showDocumentation');
        assert.deepEqual(documentation.command.arguments, [docsUrl]);
        const disable = actions.find((action) => action.title === `Disable ${ruleId} for this line`);
        assert.ok(disable !== undefined);
        await applyAction(uri, disable);
        await waitForDiagnostics(uri, (all) => !all.some(ofRule(ruleId)), `no ${ruleId} finding once disabled`);
        assert.match(editor.document.getText(), new RegExp(`// eslint-disable-next-line locksmith/${ruleId}\\n`));
        assertParses(editor.document);
      });
    }

    it(`fixes all ${ruleId} problems in a file with "Fix all ${ruleId} problems in this file"`, async () => {
      const fixture = FIXTURES[ruleId]![0]!;
      const editor = await openCopy(fixture);
      const uri = editor.document.uri;
      // Two copies of the function body: the fix-all has more than one problem to fix.
      const text = editor.document.getText();
      const second = text.replace(/export async function (\w+)/, 'export async function $1Again');
      await editor.edit((builder) => {
        builder.insert(editor.document.positionAt(text.length), `\n${second.slice(second.indexOf('export async function'))}`);
      });
      const findings = await waitForDiagnostics(uri, (all) => all.filter(ofRule(ruleId)).length >= 2, `two ${ruleId} findings`);
      const actions = await actionsFor(uri, findings.find(ofRule(ruleId))!, 50);
      const fixAll = actions.find((action) => action.title === `Fix all ${ruleId} problems in this file`);
      assert.ok(fixAll !== undefined, 'the fix-all action is offered');
      await applyAction(uri, fixAll);
      await waitForDiagnostics(uri, (all) => !all.some(ofRule(ruleId)), `no ${ruleId} finding after fix-all`);
      assertParses(editor.document);
    });

    it(`fixes ${ruleId} on save with editor.codeActionsOnSave "source.fixAll.locksmith"`, async () => {
      await updateSetting('editor', 'codeActionsOnSave', { 'source.fixAll.locksmith': 'explicit' });
      try {
        const editor = await openCopy(FIXTURES[ruleId]![0]!);
        const uri = editor.document.uri;
        await findingOf(uri, ruleId);
        await editor.edit((builder) => {
          builder.insert(new vscode.Position(0, 0), '// edited\n');
        });
        assert.ok(await editor.document.save(), 'the save succeeds');
        await waitForDiagnostics(uri, (all) => !all.some(ofRule(ruleId)), `no ${ruleId} finding after saving`);
        assert.equal(editor.document.isDirty, false, 'the fix was part of the save');
        assertParses(editor.document);
      } finally {
        await updateSetting('editor', 'codeActionsOnSave', undefined);
      }
    });

    it(`turns ${ruleId} off through locksmith.rules`, async () => {
      const editor = await openCopy(FIXTURES[ruleId]![0]!);
      const uri = editor.document.uri;
      await findingOf(uri, ruleId);
      await updateSetting('locksmith', 'rules', { [ruleId]: 'off' });
      try {
        await waitForDiagnostics(uri, (all) => !all.some(ofRule(ruleId)), `no ${ruleId} finding once it is off`);
      } finally {
        await updateSetting('locksmith', 'rules', undefined);
      }
      await findingOf(uri, ruleId);
    });
  });
}

describe('locksmith.run', function () {
  const ruleId = 'no-unsafe-release';
  before(async function () {
    if (!(await serverRules()).has(ruleId)) this.skip();
  });
  afterEach(closeAll);

  it('"onSave" keeps the findings of the saved text while typing, and updates them on save', async () => {
    const editor = await openCopy(`${ruleId}.ts`);
    const uri = editor.document.uri;
    const finding = await findingOf(uri, ruleId);
    await updateSetting('locksmith', 'run', 'onSave');
    try {
      await editor.edit((builder) => {
        builder.insert(new vscode.Position(finding.range.start.line, 0), `// eslint-disable-next-line locksmith/${ruleId}\n`);
      });
      // A round trip through the server after the edit: an onType lint would have published by now.
      await (await api()).serverInfo();
      await codeActions(uri, finding.range);
      assert.ok(locksmithDiagnostics(uri).some(ofRule(ruleId)), 'the finding stays until the file is saved');
      assert.ok(await editor.document.save());
      await waitForDiagnostics(uri, (all) => !all.some(ofRule(ruleId)), `no ${ruleId} finding after saving`);
    } finally {
      await updateSetting('locksmith', 'run', undefined);
    }
  });
});
