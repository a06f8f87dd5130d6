// The bound check itself: it rejects the suggestions that made JSON output quadratic (a script
// constant inserted after the imports, or before the top-level statement, merged with the edit at
// the call) and accepts the same edit with the script passed at the call.

import * as assert from 'node:assert/strict';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import * as typescriptParser from '@typescript-eslint/parser';
import { Linter, type Rule } from 'eslint';
import { describe, it } from 'mocha';
import { RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';
import { renderScriptLiteral } from '../../../eslint-plugin/src/fixes/templates.js';
import { createRule } from '../../../eslint-plugin/src/rule-support/create-rule.js';
import { withBoundedSuggestions } from './rule-tester.js';

type Placement = 'after-imports' | 'before-top-level-statement' | 'at-call';

/** A rule offering, on each `redis.del(key)`, the compare-and-delete call with its script placed as `placement` says. */
function releaseRule(placement: Placement): TSESLint.RuleModule<'plainDelete'> {
  return createRule<[], 'plainDelete'>({
    name: 'release-probe',
    meta: {
      type: 'problem',
      docs: { description: 'Reports a plain DEL', recommended: false },
      hasSuggestions: true,
      schema: [],
      messages: { plainDelete: 'plain DEL' },
    },
    create(context) {
      return {
        'CallExpression[callee.property.name="del"]'(call: TSESTree.CallExpression) {
          const key = context.sourceCode.getText(call.arguments[0]);
          context.report({
            node: call,
            messageId: 'plainDelete',
            suggest: [
              {
                messageId: 'plainDelete',
                fix: (fixer) => {
                  if (placement === 'at-call')
                    return fixer.replaceText(call, `redis.eval(${renderScriptLiteral(RELEASE_SCRIPT)}, 1, ${key}, token)`);
                  const program = context.sourceCode.ast;
                  let topLevel: TSESTree.Node = call;
                  while (topLevel.parent && topLevel.parent !== program) topLevel = topLevel.parent;
                  const constant = `const RELEASE = \`${RELEASE_SCRIPT}\`;\n`;
                  return [
                    placement === 'after-imports'
                      ? fixer.insertTextAfter(program.body[0]!, `\n${constant}`)
                      : fixer.insertTextBefore(topLevel, constant),
                    fixer.replaceText(call, `redis.eval(RELEASE, 1, ${key}, token)`),
                  ];
                },
              },
            ],
          });
        },
      };
    },
  });
}

function lint(placement: Placement, code: string): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: typescriptParser as unknown as Linter.Parser },
        plugins: { probe: { rules: { release: withBoundedSuggestions(releaseRule(placement)) as unknown as Rule.RuleModule } } },
        rules: { 'probe/release': 'error' },
      },
    ],
    'file.ts',
  );
}

const site = (name: string) => `async function ${name}(token) {\n  try { await work(); } finally { await redis.del('lock:${name}'); }\n}\n`;
const functions = `import Redis from 'ioredis';\nconst redis = new Redis();\n${['a', 'b', 'c', 'd', 'e'].map(site).join('')}`;
const oneClass = `import Redis from 'ioredis';\nconst redis = new Redis();\nclass Jobs {\n${['a', 'b', 'c', 'd', 'e'].map((name) => `  ${site(name).replace('async function ', 'async ')}`).join('')}}\n`;

describe('the suggestion bound', () => {
  it('rejects a script constant inserted after the imports, once sites sit further down than the slack', () => {
    assert.throws(() => lint('after-imports', functions), /(replaces|writes) \d+ characters, more than \d+/u);
  });

  it('rejects a constant inserted before the top-level statement when every site is a method of one class', () => {
    assert.throws(() => lint('before-top-level-statement', oneClass), /more than \d+/u);
  });

  it('accepts the script passed at the call, in functions and in one class', () => {
    assert.equal(lint('at-call', functions).filter((message) => message.suggestions?.length === 1).length, 5);
    assert.equal(lint('at-call', oneClass).filter((message) => message.suggestions?.length === 1).length, 5);
  });
});
