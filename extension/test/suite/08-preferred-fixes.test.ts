// "Locksmith: Apply preferred fixes in this file": nothing changes until the user applies the change in
// the Refactor Preview (clicked in the rendered workbench), then the findings are gone.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { assertParses, closeAll, locksmithDiagnostics, openCopy, ruleOf, ui, waitForDiagnostics } from './helpers';

const COMMAND = 'locksmith.applyPreferredFixes';

describe('apply preferred fixes (refactor preview)', function () {
  before(function () {
    // Confirming the preview needs the code-server runner that drives the browser.
    if (process.env.LOCKSMITH_TEST_CONTROL === undefined) this.skip();
  });
  afterEach(closeAll);

  it('opens the refactor preview, changes nothing until Apply is clicked, then leaves a file with none of the findings', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const editor = await openCopy('no-unsafe-release.ts');
    const { document } = editor;
    const uri = document.uri;
    // A second copy of the function: the command fixes every finding of the file, not one.
    const text = document.getText();
    const second = text
      .slice(text.indexOf('export async function'))
      .replace('renderInvoice', 'renderInvoiceAgain')
      .replace(/async function render\(/, 'async function renderAgain(');
    await editor.edit((builder) => {
      builder.insert(document.positionAt(text.length), `\n${second}`);
    });
    assert.ok(await document.save());
    const findings = await waitForDiagnostics(
      uri,
      (all) => all.filter((diagnostic) => ruleOf(diagnostic) === 'no-unsafe-release').length >= 2,
      'two no-unsafe-release findings',
    );
    const rules = new Set(findings.map((diagnostic) => ruleOf(diagnostic)));
    const before = document.getText();

    const applying = Promise.resolve(vscode.commands.executeCommand<boolean>(COMMAND));
    const preview = await ui<{ rows: string[] }>({ type: 'refactorPreview', screenshot: 'refactor-preview' });
    // Rows: the file, then one row per change (a category row per rule only once there are two rules).
    assert.ok(
      preview.rows.filter((row) => row.includes('redis.del(lockKey)') && row.includes('redis.eval(')).length === 2,
      `the preview lists each change: ${JSON.stringify(preview.rows)}`,
    );
    assert.equal(document.getText(), before, 'nothing changes while the preview is open');
    assert.equal(document.isDirty, false);

    await ui({ type: 'refactorPreviewApply' });
    assert.equal(await applying, true, 'the command reports the edit applied');
    await waitForDiagnostics(
      uri,
      (all) => !all.some((diagnostic) => rules.has(ruleOf(diagnostic))),
      `none of ${[...rules].join(', ')} once applied`,
    );
    assert.notEqual(document.getText(), before);
    assert.doesNotMatch(document.getText(), /redis\.del\(lockKey\)/);
    assertParses(document);
    assert.ok(await document.save());
    const onDisk = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    assert.equal(onDisk, document.getText());
    assert.deepEqual(
      locksmithDiagnostics(uri).map((diagnostic) => ruleOf(diagnostic)),
      [],
      'the fixed file lints clean',
    );
  });

  it('reports that a file without findings has nothing to fix, and changes nothing', async () => {
    const editor = await openCopy('clean.js');
    const before = editor.document.getText();
    await waitForDiagnostics(editor.document.uri, (all) => all.length === 0, 'no findings');
    assert.equal(await vscode.commands.executeCommand<boolean>(COMMAND), false);
    assert.equal(editor.document.getText(), before);
  });
});
