// Bad input: a file that does not parse gets no findings and no toast (valid CommonJS does parse); an
// oversized file is skipped with a hint.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, locksmithDiagnostics, openFixture, ruleOf, ui, waitFor, waitForDiagnostics, writeWorkspaceFile } from './helpers';

describe('bad input', () => {
  it('gives a file with a syntax error no diagnostics and no error notification', async () => {
    const locksmith = await api();
    const editor = await openFixture('syntax-error.ts');
    const status = await waitFor(
      locksmith.onDidChangeStatus,
      () => locksmith.fileStatus(editor.document.uri),
      'syntax-error.ts to be linted',
    );
    assert.equal(status.state, 'parseError');
    assert.deepEqual(locksmithDiagnostics(editor.document.uri), []);
    if (process.env.LOCKSMITH_TEST_CONTROL !== undefined) {
      const { toasts } = await ui<{ toasts: string[] }>({ type: 'notifications' });
      assert.deepEqual(
        toasts.filter((toast) => /locksmith/i.test(toast)),
        [],
        'no Locksmith notification is shown',
      );
    }
  });

  it('parses valid CommonJS as Node does: a top-level return is no parse error, and its finding shows', async () => {
    // The workspace has no package.json "type": Node (and the CLI) run this file as CommonJS.
    const uri = await writeWorkspaceFile(
      'commonjs/with-lock.js',
      [
        "'use strict';",
        "const Redis = require('ioredis');",
        'const redis = new Redis();',
        "if (process.env.LOCKS_DISABLED === '1') return;",
        'module.exports = async function withLock(token, work) {',
        "  if ((await redis.set('lock:x', token, 'NX', 'PX', 30000)) !== 'OK') return;",
        '  try {',
        '    await work();',
        '  } finally {',
        "    await redis.del('lock:x');",
        '  }',
        '};',
        '',
      ].join('\n'),
    );
    await vscode.window.showTextDocument(uri, { preview: false });
    const diagnostics = await waitForDiagnostics(uri, (all) => all.length > 0, 'the plain DEL finding');
    assert.deepEqual(
      diagnostics.map((diagnostic) => [ruleOf(diagnostic), diagnostic.range.start.line + 1]),
      [['no-unsafe-release', 10]],
    );
    assert.equal((await api()).fileStatus(uri)?.state, 'ok');
  });

  it('skips a file over locksmith.maxFileSizeKb with one output line and a status bar hint', async () => {
    const locksmith = await api();
    const maxKb = vscode.workspace.getConfiguration('locksmith').get<number>('maxFileSizeKb') ?? 512;
    const block = "await redis.del('lock:oversized');\n";
    const text = `import Redis from 'ioredis';\nconst redis = new Redis();\n${block.repeat(Math.ceil((maxKb * 1024 * 1.2) / block.length))}`;
    const uri = await writeWorkspaceFile('oversized.ts', text);
    const linesBefore = locksmith.outputLines.length;
    await vscode.window.showTextDocument(uri);
    const status = await waitFor(locksmith.onDidChangeStatus, () => locksmith.fileStatus(uri), 'oversized.ts to be looked at');
    assert.equal(status.state, 'skipped');
    assert.deepEqual(locksmithDiagnostics(uri), []);
    assert.match(locksmith.statusBar.text, /skipped/);
    const skipLines = locksmith.outputLines.slice(linesBefore).filter((line) => line.includes('oversized.ts'));
    assert.equal(skipLines.length, 1, `one output line about the file, got ${JSON.stringify(skipLines)}`);
    assert.match(skipLines[0]!, /maxFileSizeKb/);
  });
});
