// Entry point the extension host calls (`extensionTestsPath`): runs the mocha suite against the real `vscode` API.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { WAIT_MS } from './helpers';

export async function run(): Promise<void> {
  const { default: Mocha } = await import('mocha');
  const grep = process.env.LOCKSMITH_TEST_GREP;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 4 * WAIT_MS, reporter: 'spec', ...(grep === undefined ? {} : { grep }) });
  const onlyVsix = process.env.LOCKSMITH_TEST_MODE === 'vsix';
  for (const file of fs.readdirSync(__dirname).sort()) {
    if (!file.endsWith('.test.js')) continue;
    // The packaged extension is checked by its own test; the others need the development build.
    if (onlyVsix !== (file === 'vsix.test.js')) continue;
    mocha.addFile(path.join(__dirname, file));
  }
  await mocha.loadFilesAsync();
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}
