// An imported lock helper is read from the editor while it is open: an unsaved edit to it changes the
// findings of the file that imports it, and reverting the edit brings them back.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAll, ofRule, waitForDiagnostics, writeWorkspaceFile } from './helpers';

// The helper says whether it got the lock: a caller that drops the answer works unlocked.
const RETURNS_ANSWER = `import Redis from 'ioredis';

const redis = new Redis();

export async function acquireLock(key: string, token: string): Promise<boolean> {
  const reply = await redis.set(key, token, 'PX', 30000, 'NX');
  return reply === 'OK';
}
`;
// The same helper throwing when another worker holds the lock: the caller has nothing to check.
const THROWS_WHEN_HELD = `import Redis from 'ioredis';

const redis = new Redis();

export async function acquireLock(key: string, token: string): Promise<void> {
  const reply = await redis.set(key, token, 'PX', 30000, 'NX');
  if (reply !== 'OK') throw new Error(\`\${key} is held by another worker\`);
}
`;
const IMPORTER = `import { randomUUID } from 'node:crypto';
import { acquireLock } from './locks';

export async function runJob(id: string): Promise<void> {
  const token = randomUUID();
  await acquireLock(\`lock:job:\${id}\`, token);
  await work(id);
}

async function work(id: string): Promise<void> {}
`;

describe('imported modules', function () {
  afterEach(closeAll);

  it("follows an unsaved edit of an imported helper into the importer's findings, and back when it is reverted", async () => {
    // Written by the test, not kept in the fixture workspace, so the lock map's view of it stays as it is.
    const helper = await writeWorkspaceFile('imports/locks.ts', RETURNS_ANSWER);
    const importer = await writeWorkspaceFile('imports/job.ts', IMPORTER);
    await vscode.window.showTextDocument(importer, { preview: false });
    const [dropped] = (
      await waitForDiagnostics(importer, (all) => all.some(ofRule('require-acquire-check')), 'the dropped answer of the helper on disk')
    ).filter(ofRule('require-acquire-check'));
    assert.equal(dropped?.range.start.line, 5);

    const editor = await vscode.window.showTextDocument(helper, { preview: false });
    const whole = new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(editor.document.getText().length));
    assert.ok(
      await editor.edit((builder) => {
        builder.replace(whole, THROWS_WHEN_HELD);
      }),
      'the helper was edited',
    );
    assert.ok(editor.document.isDirty, 'the edit is not saved');
    await waitForDiagnostics(
      importer,
      (all) => !all.some(ofRule('require-acquire-check')),
      'no finding once the unsaved helper throws when the lock is held',
    );

    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(editor.document.getText(), RETURNS_ANSWER, "reverted to the disk's text");
    await waitForDiagnostics(importer, (all) => all.some(ofRule('require-acquire-check')), 'the finding back once the helper is reverted');
  });
});
