// Lua documents: a Redis lock script's unguarded DEL is a diagnostic with the compare-first quick
// fix, "Disable for this line" writes a `--` comment, and Lua that is not a Redis script stays clean.

import * as assert from 'node:assert/strict';
import {
  actionsFor,
  applyAction,
  closeAll,
  findingOf,
  fixesOf,
  locksmithDiagnostics,
  ofRule,
  openCopy,
  waitForDiagnostics,
} from './helpers';

describe('Lua scripts', function () {
  afterEach(closeAll);

  it('reports the unguarded DEL in a .lua lock script and fixes it with the compare-and-delete form', async () => {
    const { document } = await openCopy('lua/unlock.lua');
    assert.equal(document.languageId, 'lua');
    const finding = await findingOf(document.uri, 'no-unsafe-release');
    assert.equal(finding.range.start.line, 2);
    assert.equal(document.getText(finding.range), "redis.call('DEL', KEYS[1])");
    const [fix] = fixesOf(await actionsFor(document.uri, finding), 'no-unsafe-release');
    assert.ok(fix, 'a quick fix for the DEL');
    await applyAction(document.uri, fix);
    await waitForDiagnostics(document.uri, (all) => !all.some(ofRule('no-unsafe-release')), 'no no-unsafe-release finding after the fix');
    assert.ok(document.getText().includes('if redis.call("GET", KEYS[1]) == ARGV[1] then'), document.getText());
  });

  it('disables the rule for the line with a Lua comment', async () => {
    const { document } = await openCopy('lua/unlock.lua');
    const finding = await findingOf(document.uri, 'no-unsafe-release');
    const disable = (await actionsFor(document.uri, finding)).find((action) => action.title === 'Disable no-unsafe-release for this line');
    assert.ok(disable, 'a Disable for this line action');
    await applyAction(document.uri, disable);
    await waitForDiagnostics(document.uri, (all) => !all.some(ofRule('no-unsafe-release')), 'no finding once disabled');
    assert.equal(document.lineAt(2).text, '  -- eslint-disable-next-line locksmith/no-unsafe-release');
  });

  it('leaves Lua that is not a Redis script without diagnostics', async () => {
    const { document } = await openCopy('lua/init.lua');
    assert.equal(document.languageId, 'lua');
    // The Redis script opened beside it is linted after it: once its finding shows, this one was linted too.
    const { document: script } = await openCopy('lua/unlock.lua');
    await findingOf(script.uri, 'no-unsafe-release');
    assert.deepEqual(locksmithDiagnostics(document.uri), []);
  });
});
