// The server on Lua documents: a Redis lock script gets diagnostics and the compare-first
// suggestion, other Lua gets none, and "Disable for this line" writes a Lua comment.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentEdit } from 'vscode-languageserver';
import { lintText } from '../../../extension/src/server/lint';
import { quickFixes, toDiagnostic, toProblems } from '../../../extension/src/server/problems';
import { Settings } from '../../../extension/src/shared/settings';

const UNLOCK = "-- frees the lock\nif redis.call('EXISTS', KEYS[1]) == 1 then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0\n";
const URI = 'file:///work/scripts/unlock.lua';

describe('Lua documents in the server', () => {
  const settings = Settings.from({});

  it('reports an unguarded DEL in a lock script, with the compare-first suggestion', () => {
    const outcome = lintText({ text: UNLOCK, filePath: '/work/scripts/unlock.lua', languageId: 'lua', settings });
    if (outcome.kind !== 'linted') assert.fail(JSON.stringify(outcome));
    assert.deepEqual(
      outcome.messages.map((message) => [message.ruleId, message.line, message.column]),
      [['locksmith/no-unsafe-release', 3, 10]],
    );
    assert.equal(outcome.messages[0]!.suggestions?.length, 1);
  });

  it('lints untitled Lua by its language id, and stays silent on Lua that is not a Redis script', () => {
    const untitled = lintText({ text: UNLOCK, filePath: 'Untitled-1', languageId: 'lua', settings });
    assert.equal(untitled.kind, 'linted');
    const neovim = lintText({
      text: "local x: number = 1\nvim.keymap.set('n', 'x', function() end)\n",
      filePath: '/work/init.lua',
      languageId: 'lua',
      settings,
    });
    assert.deepEqual(neovim.kind === 'linted' ? neovim.messages : neovim, []);
  });

  it("honours the editor's rule levels and turns the rules that cannot read Lua off", () => {
    const off = lintText({
      text: UNLOCK,
      filePath: '/work/scripts/unlock.lua',
      languageId: 'lua',
      settings: Settings.from({ rules: { 'no-unsafe-release': 'off', 'require-lock-ttl': 'error' } }),
    });
    assert.deepEqual(off.kind === 'linted' ? off.messages : off, []);
  });

  it('writes "Disable for this line" as a `--` comment', () => {
    const outcome = lintText({ text: UNLOCK, filePath: '/work/scripts/unlock.lua', languageId: 'lua', settings });
    if (outcome.kind !== 'linted') assert.fail(JSON.stringify(outcome));
    const document = TextDocument.create(URI, 'lua', 1, UNLOCK);
    const problems = toProblems(document, outcome.messages, outcome.reports);
    const actions = quickFixes(document, { uri: URI, version: 1, problems }, [toDiagnostic(problems[0]!, URI)]);
    const disable = actions.find((action) => action.title === 'Disable no-unsafe-release for this line');
    const edit = disable?.edit?.documentChanges?.[0] as TextDocumentEdit;
    assert.deepEqual(edit.edits, [
      {
        range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } },
        newText: '  -- eslint-disable-next-line locksmith/no-unsafe-release\n',
      },
    ]);
    const again = lintText({
      text: UNLOCK.replace(
        "  return redis.call('DEL'",
        "  -- eslint-disable-next-line locksmith/no-unsafe-release\n  return redis.call('DEL'",
      ),
      filePath: '/work/scripts/unlock.lua',
      languageId: 'lua',
      settings,
    });
    assert.deepEqual(again.kind === 'linted' ? again.messages : again, []);
  });
});
