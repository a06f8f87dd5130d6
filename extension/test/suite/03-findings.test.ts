// Findings and quick fixes for every rule the bundled plugin exports that has a fixture here.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  actionsFor,
  api,
  applyAction,
  assertParses,
  assertRelated,
  closeAll,
  codeActions,
  findingOf,
  fixesOf,
  locksmithDiagnostics,
  ofRule,
  openCopy,
  serverRules,
  updateSetting,
  waitForDiagnostics,
  waitForEvent,
} from './helpers';
import { FINDING_FIXTURES } from './fixtures';

for (const [ruleId, fixtures] of Object.entries(FINDING_FIXTURES)) {
  describe(`rule ${ruleId}`, function () {
    let docsUrl: string | null | undefined;
    before(async function () {
      const rules = await serverRules();
      assert.ok(rules.has(ruleId), `the server lints with ${ruleId}`);
      docsUrl = rules.get(ruleId);
    });
    afterEach(closeAll);

    for (const { file: fixture, related } of fixtures) {
      it(`reports ${fixture} with the rule id, its doc link and related locations`, async () => {
        const editor = await openCopy(fixture);
        const finding = await findingOf(editor.document.uri, ruleId);
        assert.equal(finding.source, 'locksmith');
        assert.ok(typeof finding.code === 'object', 'the code carries a link');
        assert.equal(finding.code.value, ruleId);
        assert.equal(finding.code.target.toString(true), docsUrl);
        assert.match(finding.code.target.toString(true), new RegExp(`rules-docs/${ruleId}\\.md$`));
        assertRelated(editor.document, finding, related);
      });

      it(`applies each quick fix of ${fixture}, leaving no ${ruleId} finding and a file that parses`, async () => {
        const probe = await openCopy(fixture);
        const suggestions = fixesOf(await actionsFor(probe.document.uri, await findingOf(probe.document.uri, ruleId)), ruleId);
        assert.ok(suggestions.length > 0, `${ruleId} offers at least one quick fix`);
        assert.equal(suggestions[0]!.isPreferred, true, 'the first quick fix is the preferred one');
        assert.ok(
          suggestions.slice(1).every((action) => action.isPreferred !== true),
          'only one quick fix is preferred',
        );
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
      const fixture = fixtures[0]!.file;
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

    it(`leaves a file with a ${ruleId} finding byte-identical on save with editor.codeActionsOnSave "source.fixAll.locksmith"`, async () => {
      await updateSetting('editor', 'codeActionsOnSave', { 'source.fixAll.locksmith': 'explicit' });
      try {
        const editor = await openCopy(fixtures[0]!.file);
        const uri = editor.document.uri;
        await findingOf(uri, ruleId);
        // The save participant asks the server for exactly this kind; it must answer with no edit.
        const onSave = await codeActions(uri, new vscode.Range(0, 0, 0, 0), 'source.fixAll.locksmith');
        assert.deepEqual(
          onSave.filter((action) => action.edit !== undefined).map((action) => action.title),
          [],
          'no fix-all edit is offered for a save',
        );
        await editor.edit((builder) => {
          builder.insert(new vscode.Position(0, 0), '// edited\n');
        });
        const expected = editor.document.getText();
        const saved = waitForEvent(
          vscode.workspace.onDidSaveTextDocument,
          (document) => document.uri.toString() === uri.toString(),
          'the save to complete',
        );
        assert.ok(await editor.document.save(), 'the save succeeds');
        await saved;
        // What reached the disk is exactly what the editor held before the save: no fix ran.
        const onDisk = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
        assert.equal(onDisk, expected, 'the saved file is byte-identical to the text before the save');
        assert.equal(editor.document.getText(), expected);
        assert.equal(editor.document.isDirty, false);
        await findingOf(uri, ruleId);
      } finally {
        await updateSetting('editor', 'codeActionsOnSave', undefined);
      }
    });

    it(`turns ${ruleId} off through locksmith.rules`, async () => {
      const editor = await openCopy(fixtures[0]!.file);
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
  afterEach(closeAll);

  it('"onSave" keeps the findings of the saved text while typing, and updates them on save', async () => {
    const editor = await openCopy(`${ruleId}.ts`);
    const uri = editor.document.uri;
    const finding = await findingOf(uri, ruleId);
    // The server re-lints every open file when the settings change; that lint must land before the
    // edit, or it would lint the edited text and take the finding away before the save. Waited on as
    // the server's own publish: any diagnostics change (the TypeScript extension's, late on a busy
    // machine) would let the edit go first.
    const key = uri.toString();
    const relinted = waitForEvent(
      (await api()).onDidPublishDiagnostics,
      (published) => published.toString() === key,
      'the re-lint after locksmith.run changed',
    );
    await updateSetting('locksmith', 'run', 'onSave');
    try {
      await relinted;
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
