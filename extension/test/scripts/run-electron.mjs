// Runs the same integration suite in a desktop VS Code downloaded by @vscode/test-electron.
// For contributors with a display and internet; CI here uses run-vscode.mjs (code-server) instead.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const scratch = await mkdtemp(path.join(os.tmpdir(), 'locksmith-electron-'));
const workspace = path.join(scratch, 'workspace');
await cp(path.join(repoRoot, 'extension/test/fixtures/workspace'), workspace, { recursive: true });
let exitCode = 0;
try {
  await runTests({
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: path.join(repoRoot, 'extension/out/test/suite/index.js'),
    // The UI test needs the code-server runner's control channel and is skipped without it.
    extensionTestsEnv: { LOCKSMITH_TEST_OUTPUT: path.join(repoRoot, 'test-output') },
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome'],
  });
} catch (error) {
  console.error(`run-electron: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
}
await rm(scratch, { recursive: true, force: true });
process.exit(exitCode);
