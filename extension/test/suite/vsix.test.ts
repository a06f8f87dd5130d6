// The packaged .vsix, installed with --install-extension, shows findings on the examples folder.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, locksmithDiagnostics, waitForDiagnostics } from './helpers';

describe('packaged extension', () => {
  it('is installed from the .vsix (not the development folder) and reports findings in examples/', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension !== undefined, 'the packaged extension is installed');
    const repository = path.resolve(__dirname, '../../../..');
    assert.ok(!extension.extensionPath.startsWith(repository), `runs from the installed package, not ${extension.extensionPath}`);
    const files = await vscode.workspace.findFiles('**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}', '**/node_modules/**');
    assert.ok(files.length > 0, 'examples/ has script files');
    for (const uri of files) await vscode.window.showTextDocument(uri, { preview: false });
    await extension.activate();
    const withFindings = await Promise.any(
      files.map((uri) => waitForDiagnostics(uri, (all) => all.length > 0, 'a finding').then(() => uri)),
    );
    assert.ok(locksmithDiagnostics(withFindings).every((diagnostic) => diagnostic.source === 'locksmith'));
  });
});
