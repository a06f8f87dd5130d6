// Related locations: kept from the data a rule passes to context.report, which ESLint drops from messages.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { Linter, type Rule } from 'eslint';
import { createReportCapture, relatedLocationsOf, reportKey } from '../../../extension/src/server/related';

describe('related locations', () => {
  it('reads data.related items with a loc or a node, and node-valued data entries; nothing otherwise', () => {
    const loc = { start: { line: 3, column: 2 }, end: { line: 3, column: 9 } };
    assert.deepEqual(relatedLocationsOf({ related: [{ message: 'acquired here', loc }, { node: { type: 'CallExpression', loc } }, { message: 'no location' }] }), [
      { message: 'acquired here', ...loc },
      { message: 'related', ...loc },
    ]);
    assert.deepEqual(relatedLocationsOf({ acquisition: { type: 'CallExpression', loc }, command: 'DEL' }), [{ message: 'acquisition', ...loc }]);
    assert.deepEqual(relatedLocationsOf({ command: 'DEL' }), []);
    assert.deepEqual(relatedLocationsOf(undefined), []);
  });

  it('captures them from a real lint run without changing what the rule reports', () => {
    const rule: Rule.RuleModule = {
      meta: { type: 'problem', messages: { release: '{{command}} releases without checking the token' } },
      create(context) {
        let acquisition: Rule.Node | undefined;
        return {
          CallExpression(node) {
            if (node.callee.type !== 'MemberExpression' || node.callee.property.type !== 'Identifier') return;
            if (node.callee.property.name === 'set') acquisition = node;
            if (node.callee.property.name === 'del') {
              // ESLint's own types allow only primitives in `data`; typescript-eslint's (the plugin's) allow any value.
              const data = { command: 'DEL', related: acquisition === undefined ? [] : [{ message: 'the lock is taken here', node: acquisition }] };
              context.report({ node, messageId: 'release', data: data as unknown as Record<string, string> });
            }
          },
        };
      },
    };
    const capture = createReportCapture({ rules: { 'toy-release': rule } });
    const linter = new Linter();
    const code = "redis.set('lock:a', token, 'NX');\nredis.del('lock:a');\n";
    const { result: messages, reports } = capture.during(() => linter.verify(code, [{ plugins: { locksmith: capture.plugin }, rules: { 'locksmith/toy-release': 'error' } }], 'file.js'));
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.message, 'DEL releases without checking the token');
    assert.deepEqual(reports.get(reportKey('locksmith/toy-release', messages[0]!.line, messages[0]!.column - 1)), [
      { message: 'the lock is taken here', start: { line: 1, column: 0 }, end: { line: 1, column: 32 } },
    ]);
  });
});
