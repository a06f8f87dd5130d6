// locksmith.json in the editor: writing one changes an open file's findings (through the file
// watcher, or the editor's save where the watcher sees nothing; no reload), and a broken one shows a
// diagnostic in it and a line in the output.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closeAll, createWatchedFolder, waitFor, waitForDiagnostics, workspaceUri, writeWorkspaceFile } from './helpers';

// The same code as the ESLint and CLI tests of locksmith.json: a plain DEL is an unsafe release
// only when its key looks like a lock (lockKeyPattern).
const RELEASES = [
  "import Redis from 'ioredis';",
  'const redis = new Redis();',
  "export async function releaseLock() { await redis.del('lock:a'); }",
  "export async function releaseMutex() { await redis.del('mutex:b'); }",
  '',
].join('\n');

/** `line:rule:severity` per finding, lines 1-based as in the CLI. */
function summary(diagnostics: readonly vscode.Diagnostic[]): string[] {
  return diagnostics
    .map((diagnostic) => {
      const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
      return `${diagnostic.range.start.line + 1}:${String(code)}:${diagnostic.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warn'}`;
    })
    .sort();
}

function isExactly(expected: readonly string[]) {
  return (diagnostics: vscode.Diagnostic[]): boolean => JSON.stringify(summary(diagnostics)) === JSON.stringify(expected);
}

describe('project configuration (locksmith.json)', function () {
  afterEach(closeAll);
  after(async () => {
    await vscode.workspace.fs.delete(workspaceUri('project-config'), { recursive: true, useTrash: false });
  });

  it("changes an open file's findings when locksmith.json turns a rule off or sets lockKeyPattern", async () => {
    // Written from outside the editor (as git or a terminal would), locksmith.json reaches the server
    // only through the file watcher: its folder must be one the watcher watches.
    await createWatchedFolder('project-config/app');
    const file = await writeWorkspaceFile('project-config/app/releases.js', RELEASES);
    await vscode.window.showTextDocument(file, { preview: false });
    await waitForDiagnostics(file, isExactly(['3:no-unsafe-release:error']), 'the recommended finding on lock:a');

    await writeWorkspaceFile('project-config/app/locksmith.json', JSON.stringify({ rules: { 'no-unsafe-release': 'off' } }));
    await waitForDiagnostics(file, isExactly([]), 'no finding once locksmith.json turns the rule off');

    await writeWorkspaceFile(
      'project-config/app/locksmith.json',
      JSON.stringify({ rules: { 'locksmith/no-unsafe-release': 'warn' }, settings: { lockKeyPattern: '^mutex:' } }),
    );
    await waitForDiagnostics(file, isExactly(['4:no-unsafe-release:warn']), 'a warning on mutex:b only, from lockKeyPattern');
  });

  it("changes an open file's findings when locksmith.json is saved in the editor, where the file watcher reports nothing", async () => {
    // The fixture's files.watcherExclude hides unwatched/ from the watcher: only the save can tell the server.
    const file = await writeWorkspaceFile('project-config/unwatched/releases.js', RELEASES);
    await vscode.window.showTextDocument(file, { preview: false });
    await waitForDiagnostics(file, isExactly(['3:no-unsafe-release:error']), 'the recommended finding on lock:a');

    const config = await writeWorkspaceFile('project-config/unwatched/locksmith.json', '{}\n');
    const editor = await vscode.window.showTextDocument(config, { preview: false });
    const whole = new vscode.Range(new vscode.Position(0, 0), editor.document.lineAt(editor.document.lineCount - 1).range.end);
    assert.ok(
      await editor.edit((builder) => {
        builder.replace(whole, JSON.stringify({ rules: { 'no-unsafe-release': 'off' } }));
      }),
      'the edit applies',
    );
    assert.ok(await editor.document.save(), 'locksmith.json is saved');
    await waitForDiagnostics(file, isExactly([]), 'no finding once the saved locksmith.json turns the rule off');
  });

  it('shows a broken locksmith.json as a diagnostic in it and a line in the output, and keeps linting', async () => {
    const locksmith = await api();
    await createWatchedFolder('project-config/broken');
    const file = await writeWorkspaceFile('project-config/broken/releases.js', RELEASES);
    await vscode.window.showTextDocument(file, { preview: false });
    await waitForDiagnostics(file, isExactly(['3:no-unsafe-release:error']), 'the recommended finding');

    const config = await writeWorkspaceFile(
      'project-config/broken/locksmith.json',
      JSON.stringify({ rules: { 'no-unsafe-releas': 'off' } }),
    );
    const shown = await waitFor(
      vscode.languages.onDidChangeDiagnostics,
      () => {
        const diagnostics = vscode.languages.getDiagnostics(config).filter((diagnostic) => diagnostic.source === 'locksmith');
        return diagnostics.length > 0 ? diagnostics : undefined;
      },
      'a diagnostic in the broken locksmith.json',
    );
    assert.deepEqual(
      shown.map((diagnostic) => [diagnostic.message, diagnostic.severity]),
      [['rules.no-unsafe-releas: unknown rule', vscode.DiagnosticSeverity.Error]],
    );
    assert.ok(
      locksmith.outputLines.some((line) => line.includes('locksmith.json: rules.no-unsafe-releas: unknown rule')),
      'the output names the file and the key in one line',
    );
    // The file is linted as if the broken configuration were not there, never left without findings.
    assert.deepEqual(summary(vscode.languages.getDiagnostics(file).filter((diagnostic) => diagnostic.source === 'locksmith')), [
      '3:no-unsafe-release:error',
    ]);

    await writeWorkspaceFile('project-config/broken/locksmith.json', JSON.stringify({ rules: { 'no-unsafe-release': 'off' } }));
    await waitForDiagnostics(file, isExactly([]), 'the fixed locksmith.json applies');
    assert.deepEqual(
      vscode.languages.getDiagnostics(config).filter((diagnostic) => diagnostic.source === 'locksmith'),
      [],
      'its diagnostic is gone',
    );
  });
});
