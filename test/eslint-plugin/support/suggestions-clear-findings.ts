// Applies every suggestion of every invalid case of a rule's tests and lints the result again with
// the same rule: each suggestion's output must parse and must clear the finding it was offered for.

import * as assert from 'node:assert/strict';
import * as typescriptParser from '@typescript-eslint/parser';
import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import type { TSESLint } from '@typescript-eslint/utils';
import { Linter, type Rule } from 'eslint';
import { describe, it } from 'mocha';

type AnyRule = TSESLint.RuleModule<string, readonly unknown[]>;
type AnyInvalidCase = InvalidTestCase<string, readonly unknown[]>;

/** RuleTester's own default for files parsed by @typescript-eslint/parser. */
const DEFAULT_FILENAME = 'file.ts';

function lint(ruleId: string, rule: AnyRule, testCase: AnyInvalidCase, code: string): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  const config: Linter.Config = {
    files: ['**/*'],
    plugins: { locksmith: { rules: { [ruleId]: rule as unknown as Rule.RuleModule } } },
    languageOptions: {
      parser: typescriptParser,
      ...testCase.languageOptions,
    },
    settings: testCase.settings,
    rules: { [`locksmith/${ruleId}`]: ['error', ...(testCase.options ?? [])] as Linter.RuleEntry },
  };
  return linter.verify(code, [config], testCase.filename ?? DEFAULT_FILENAME);
}

/**
 * Registers one mocha test per invalid case: for each finding's each suggestion, the fixed code
 * parses (no fatal message) and has fewer findings of the rule than the original.
 */
export function suggestionsClearFindings(ruleId: string, rule: AnyRule, invalid: readonly AnyInvalidCase[]): void {
  describe(`${ruleId}: every suggestion parses and clears its finding`, () => {
    for (const [index, testCase] of invalid.entries()) {
      const firstLine = testCase.code.split('\n').find((line) => line.trim() !== '') ?? '';
      it(`invalid case ${index + 1}: ${firstLine.trim().slice(0, 60)}`, () => {
        const findings = lint(ruleId, rule, testCase, testCase.code);
        assert.ok(
          findings.every((message) => !message.fatal),
          'the original code does not parse',
        );
        for (const finding of findings) {
          for (const suggestion of finding.suggestions ?? []) {
            const [from, to] = suggestion.fix.range;
            const fixed = testCase.code.slice(0, from) + suggestion.fix.text + testCase.code.slice(to);
            const after = lint(ruleId, rule, testCase, fixed);
            const fatal = after.find((message) => message.fatal);
            assert.equal(fatal, undefined, `suggestion "${suggestion.desc}" does not parse: ${fatal?.message ?? ''}\n${fixed}`);
            assert.ok(
              after.length < findings.length,
              `suggestion "${suggestion.desc}" leaves ${after.length} of ${findings.length} findings:\n${fixed}\n${after.map((message) => `${message.line}:${message.column} ${message.message}`).join('\n')}`,
            );
          }
        }
      });
    }
  });
}
