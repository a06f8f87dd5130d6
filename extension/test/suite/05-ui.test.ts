// What a user sees: the Quick Fix menu on a real finding and the file after the fix, as PNG screenshots.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { codeActions, copyFixture, ruleOf, ui, waitForDiagnostics } from './helpers';

const RULE = 'no-unsafe-release';

describe('quick fix menu (UI)', function () {
  before(function () {
    // Needs the code-server runner that drives the browser (not @vscode/test-electron).
    if (process.env.LOCKSMITH_TEST_CONTROL === undefined) this.skip();
  });

  it(`shows the ${RULE} quick fixes in the menu and applies the preferred one`, async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const uri = await copyFixture(`${RULE}.ts`, 'copies/ui-quick-fix.ts');
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    const findings = await waitForDiagnostics(uri, (all) => all.some((diagnostic) => ruleOf(diagnostic) === RULE), `a ${RULE} finding`);
    const finding = findings.find((diagnostic) => ruleOf(diagnostic) === RULE)!;
    editor.selection = new vscode.Selection(finding.range.start, finding.range.start);
    editor.revealRange(finding.range, vscode.TextEditorRevealType.InCenter);
    // The server answers for this finding before the menu asks (the runner waits for the menu's rows).
    const offered = await codeActions(uri, finding.range, vscode.CodeActionKind.QuickFix.value);
    assert.ok(
      offered.some((action) => action.title.includes(`(${RULE})`)),
      `the server offers the ${RULE} fixes`,
    );

    const { items } = await ui<{ items: string[] }>({ type: 'quickFixMenu' });
    // Also the Marketplace README's screenshot (extension/media/quick-fixes.png).
    const menu = await ui<{ file: string }>({ type: 'screenshot', name: 'quick-fix-menu', media: 'quick-fixes' });
    assert.ok(
      items.some((item) => item.includes(`(${RULE})`)),
      `the menu lists the ${RULE} fixes: ${JSON.stringify(items)}`,
    );
    assert.ok(items.some((item) => item.includes(`Show documentation for ${RULE}`)));

    await ui({ type: 'press', key: 'Enter' });
    await waitForDiagnostics(
      uri,
      (all) => !all.some((diagnostic) => ruleOf(diagnostic) === RULE),
      `no ${RULE} finding after the menu's fix`,
    );
    const fixed = await ui<{ file: string }>({ type: 'screenshot', name: 'quick-fix-applied' });
    for (const file of [menu.file, fixed.file]) assert.ok(fs.statSync(file).size > 10_000, `${file} is a real screenshot`);
  });
});
