// "Locksmith: Lint workspace" lints files that are not open (scripts and Lua) and puts the results in the Problems panel.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, locksmithDiagnostics, workspaceUri } from './helpers';

describe('lint workspace', () => {
  it('lints every script file, open or not, with a progress notification', async () => {
    const locksmith = await api();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const result = await vscode.commands.executeCommand<{ files: number; problems: number }>('locksmith.lintWorkspace');
    const scripts = await vscode.workspace.findFiles('**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx,lua}', '**/node_modules/**');
    assert.equal(result.files, scripts.length);
    assert.ok(locksmith.outputLines.some((line) => line.startsWith(`Linted ${result.files} files`)));
    const release = workspaceUri('no-unsafe-release.ts');
    assert.ok(result.problems > 0);
    assert.ok(
      locksmithDiagnostics(release).some(
        (diagnostic) => typeof diagnostic.code === 'object' && diagnostic.code.value === 'no-unsafe-release',
      ),
    );
    assert.deepEqual(locksmithDiagnostics(workspaceUri('clean.js')), []);
    // Lua files too: the Redis lock script has its finding, the Neovim config none.
    assert.ok(
      locksmithDiagnostics(workspaceUri('lua/unlock.lua')).some(
        (diagnostic) => typeof diagnostic.code === 'object' && diagnostic.code.value === 'no-unsafe-release',
      ),
    );
    assert.deepEqual(locksmithDiagnostics(workspaceUri('lua/init.lua')), []);
  });
});
