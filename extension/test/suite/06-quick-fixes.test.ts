// Every rule of the recommended config that has suggestions: each quick fix of a real finding applies in the
// editor and leaves a file that parses and has no finding of that rule.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  actionsFor,
  api,
  applyAction,
  assertParses,
  assertRelated,
  closeAll,
  findingOf,
  fixesOf,
  ofRule,
  openCopy,
  waitForDiagnostics,
} from './helpers';
import { FINDING_FIXTURES, QUICK_FIX_FIXTURES } from './fixtures';

describe('quick fixes of every recommended rule', function () {
  afterEach(closeAll);

  it('has a fixture for every rule with suggestions that the recommended config turns on', async () => {
    const rules = await (await api()).rules();
    const expected = rules
      .filter((rule) => rule.recommended && rule.hasSuggestions)
      .map((rule) => rule.id)
      .sort();
    const covered = [...Object.keys(FINDING_FIXTURES), ...Object.keys(QUICK_FIX_FIXTURES)].sort();
    assert.deepEqual(covered, expected, 'rules with fixtures (actual) and recommended rules with suggestions (expected)');
  });

  for (const [ruleId, fixture] of Object.entries(QUICK_FIX_FIXTURES)) {
    it(`${ruleId}: applies each quick fix in ${fixture.file}, leaving no ${ruleId} finding and a file that parses`, async () => {
      // One editor per rule: after each fix the original text comes back for the next one.
      const editor = await openCopy(fixture.file);
      const { document } = editor;
      const original = document.getText();
      const finding = await findingOf(document.uri, ruleId);
      assertRelated(document, finding, fixture.related);
      const titles = fixesOf(await actionsFor(document.uri, finding), ruleId).map((action) => action.title);
      assert.ok(titles.length > 0, `${ruleId} offers at least one quick fix`);
      for (const [index, title] of titles.entries()) {
        if (index > 0) {
          await editor.edit((builder) => {
            builder.replace(new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), original);
          });
        }
        const action = fixesOf(await actionsFor(document.uri, await findingOf(document.uri, ruleId)), ruleId)[index];
        assert.equal(action?.title, title, `quick fix ${index} is offered again on the original text`);
        assert.equal(action.isPreferred === true, index === 0, `only the first quick fix is preferred (${title})`);
        await applyAction(document.uri, action);
        await waitForDiagnostics(document.uri, (all) => !all.some(ofRule(ruleId)), `no ${ruleId} finding after "${title}"`);
        assertParses(document);
        if (index === 0)
          assert.ok(document.getText().includes(fixture.afterPreferredFix), `"${title}" writes ${fixture.afterPreferredFix}`);
      }
    });
  }
});
