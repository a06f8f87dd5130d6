// The Explorer's Locksmith view as a user sees it: the rendered tree read from the workbench's page,
// a click on an entry landing the editor on that lock, and the CodeLens over an acquisition.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { closeAll, openFixture, ui, waitFor, workspaceUri } from './helpers';

// no-unsafe-release.ts takes `lock:invoice:${invoiceId}` on line 9 and deletes it, unchecked, in a finally on line 14.
const FILE = 'no-unsafe-release.ts';
const LOCK = 'lock:invoice:{invoiceId}';

describe('lock map (Explorer view and CodeLens)', function () {
  before(function () {
    // Reads the rendered tree through the code-server runner's browser (not @vscode/test-electron).
    if (process.env.LOCKSMITH_TEST_CONTROL === undefined) this.skip();
  });
  after(closeAll);

  it("lists the workspace's locks in the Explorer, with their life, and a click opens the acquisition", async () => {
    await closeAll();
    // The CodeLens's command: focuses the view, which indexes the workspace, and reveals the lock's group.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await ui({ type: 'collapseOtherPanes' });
    await vscode.commands.executeCommand('locksmith.showLockMap', LOCK);
    const { rows } = await ui<{ rows: string[] }>({ type: 'lockMapRows', waitFor: `acquired · ${FILE}:9` });
    const group = rows.findIndex((row) => row.startsWith(`${LOCK} | Redis`));
    assert.ok(group >= 0, `the view shows the ${LOCK} group: ${JSON.stringify(rows)}`);
    assert.match(rows[group]!, /\| Redis · \d+ findings?$/u, 'the group counts its findings');
    const acquisition = rows.find((row) => row.startsWith(`acquired · ${FILE}:9`));
    assert.equal(acquisition, `acquired · ${FILE}:9 | TTL 30 s · token randomUUID · no writes under it`);

    // Expanded: where it is released, its TTL, its token, its writes and its findings.
    await ui({ type: 'lockMapClick', row: `acquired · ${FILE}:9`, twistie: true });
    const { rows: expanded } = await ui<{ rows: string[] }>({ type: 'lockMapRows', waitFor: `no-unsafe-release · ${FILE}:14` });
    assert.ok(expanded.includes(`released · ${FILE}:14 | in finally, not owner-checked`), JSON.stringify(expanded));
    assert.ok(expanded.includes('TTL 30 s'));
    assert.ok(expanded.includes('token randomUUID | unique'));
    assert.ok(
      expanded.some((row) => row.startsWith(`no-unsafe-release · ${FILE}:14 | `)),
      'the finding on the release is listed under the lock',
    );

    // A click on the release lands the editor on it.
    await ui({ type: 'lockMapClick', row: `released · ${FILE}:14` });
    const target = workspaceUri(FILE).toString();
    const editor = await waitFor(
      vscode.window.onDidChangeTextEditorSelection,
      () => {
        const active = vscode.window.activeTextEditor;
        return active?.document.uri.toString() === target && active.selection.start.line === 13 ? active : undefined;
      },
      `the editor to open ${FILE} at line 14`,
    );
    assert.equal(editor.document.lineAt(13).text.trim().startsWith('await redis.del('), true, editor.document.lineAt(13).text);

    // And a click on the acquisition lands it there.
    await ui({ type: 'lockMapClick', row: `acquired · ${FILE}:9` });
    await waitFor(
      vscode.window.onDidChangeTextEditorSelection,
      () => {
        const active = vscode.window.activeTextEditor;
        return active?.document.uri.toString() === target && active.selection.start.line === 8 ? active : undefined;
      },
      `the editor to open ${FILE} at line 9`,
    );

    // What a user sees (also the Marketplace README's screenshot): the map beside the file, with the CodeLens over the acquisition.
    await ui({ type: 'codeLenses', waitFor: `Redis lock \`${LOCK}\`` });
    const shot = await ui<{ file: string }>({ type: 'screenshot', name: 'lock-map', media: 'lock-map' });
    assert.ok(fs.statSync(shot.file).size > 10_000, `${shot.file} is a real screenshot`);
  });

  it("shows the lock's life in one line over its acquisition (CodeLens)", async () => {
    await closeAll();
    const editor = await openFixture(FILE);
    const title = `Redis lock \`${LOCK}\` · TTL 30 s · token: randomUUID · released in finally (not owner-checked) · no writes under it`;
    const { lenses } = await ui<{ lenses: string[] }>({ type: 'codeLenses', waitFor: title });
    const lens = lenses.find((text) => text.startsWith(title));
    assert.ok(lens !== undefined, JSON.stringify(lenses));
    assert.match(lens, / · \d+ findings?$/u);
    assert.equal(editor.document.lineAt(8).text.includes('redis.set(lockKey'), true);
  });
});
