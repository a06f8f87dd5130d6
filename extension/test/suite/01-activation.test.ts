// The extension activates on a script file, starts its server, and registers its commands and status bar item.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { State } from 'vscode-languageclient/node';
import { api, locksmithDiagnostics, openFixture, waitFor, writeWorkspaceFile } from './helpers';

describe('activation', () => {
  it('activates on a JavaScript file, with its server running and commands registered', async () => {
    const editor = await openFixture('clean.js');
    const locksmith = await api();
    const serverReadyMs = await locksmith.serverReady;
    assert.ok(serverReadyMs !== undefined, 'the server started');
    await waitFor(
      locksmith.client.onDidChangeState,
      () => (locksmith.client.state === State.Running ? true : undefined),
      'the server to run',
    );
    const commands = await vscode.commands.getCommands(true);
    for (const command of ['locksmith.lintWorkspace', 'locksmith.showOutput', 'locksmith.restartServer']) {
      assert.ok(commands.includes(command), `command ${command} is registered`);
    }
    const status = await waitFor(locksmith.onDidChangeStatus, () => locksmith.fileStatus(editor.document.uri), 'clean.js to be linted');
    assert.equal(status.state, 'ok');
    assert.deepEqual(locksmithDiagnostics(editor.document.uri), []);
    assert.match(locksmith.statusBar.text, /Locksmith/);
    assert.ok(
      locksmith.outputLines.some((line) => /Locksmith activated in \d+ ms/.test(line)),
      'the output tells the activation time',
    );

    const outputDir = process.env.LOCKSMITH_TEST_OUTPUT;
    if (outputDir !== undefined) {
      fs.mkdirSync(outputDir, { recursive: true });
      fs.writeFileSync(
        path.join(outputDir, 'activation.json'),
        `${JSON.stringify({ activationMs: locksmith.activationMs, serverReadyAfterActivationMs: serverReadyMs, host: vscode.env.appName, version: vscode.version }, null, 2)}\n`,
      );
    }
  });

  it('restarts the server on "Locksmith: Restart server"', async () => {
    const locksmith = await api();
    const stopped = waitFor(
      locksmith.client.onDidChangeState,
      () => (locksmith.client.state === State.Stopped ? true : undefined),
      'the server to stop',
    );
    const restart = vscode.commands.executeCommand('locksmith.restartServer');
    await stopped;
    await restart;
    await waitFor(
      locksmith.client.onDidChangeState,
      () => (locksmith.client.state === State.Running ? true : undefined),
      'the server to run again',
    );
    assert.ok(locksmith.outputLines.includes('Server restarted.'));
  });

  it('shows the output channel on "Locksmith: Show output"', async () => {
    await vscode.commands.executeCommand('locksmith.showOutput');
  });
});

describe('server crash', () => {
  it('restarts a server that dies, without taking the extension host down, and lints again', async () => {
    const locksmith = await api();
    const before = await locksmith.serverInfo();
    const running = (): true | undefined => (locksmith.client.state === State.Running ? true : undefined);
    const stopped = waitFor(
      locksmith.client.onDidChangeState,
      () => (locksmith.client.state !== State.Running ? true : undefined),
      'the client to notice the crash',
    );
    process.kill(before.pid, 'SIGKILL');
    await stopped;
    await waitFor(locksmith.client.onDidChangeState, running, 'the client to restart the server');
    const after = await locksmith.serverInfo();
    assert.notEqual(after.pid, before.pid, 'a new server process serves');
    // The restarted server lints again: a fresh file gets its status.
    const uri = await writeWorkspaceFile('after-crash.js', 'export const answer = 42;\n');
    await vscode.window.showTextDocument(uri);
    const status = await waitFor(locksmith.onDidChangeStatus, () => locksmith.fileStatus(uri), 'after-crash.js to be linted');
    assert.equal(status.state, 'ok');
  });
});
