// Proves the PostgreSQL rules' suggestions: each output parses as TypeScript, every SQL text in it
// parses with the same PostgreSQL parser the rules use, and the rule no longer reports it.

import * as assert from 'node:assert/strict';
import { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import { describe, it } from 'mocha';
import { getSqlModel } from '../../../eslint-plugin/src/model/sql/sql-model.js';
import { isValidSql } from '../../../eslint-plugin/src/sql-syntax/index.js';
import { createRule } from '../../../eslint-plugin/src/rule-support/create-rule.js';

/** Any rule module; typed loosely because the plugin and the rule tester may resolve different utils copies. */
type AnyRule = object;

interface SuggestionCase {
  readonly code?: string;
  readonly options?: readonly unknown[];
  readonly settings?: Record<string, unknown>;
  readonly errors: readonly { readonly suggestions?: readonly { readonly output: string }[] | null }[];
}

const sqlProbe = createRule<[], 'bad'>({
  name: 'sql-probe',
  meta: {
    type: 'problem',
    docs: { description: 'Reports SQL the PostgreSQL parser rejects', recommended: false },
    schema: [],
    messages: { bad: 'SQL does not parse: {{text}}' },
  },
  create(context) {
    return {
      'Program:exit'() {
        for (const query of getSqlModel(context).queries) {
          if (!isValidSql(query.sql.text)) context.report({ node: query.node, messageId: 'bad', data: { text: query.sql.text } });
        }
      },
    };
  },
});

/** Registers one mocha test per suggestion output of `cases`. */
export function proveSuggestions(
  ruleId: string,
  rule: AnyRule,
  cases: readonly SuggestionCase[],
  alsoSilent: Readonly<Record<string, AnyRule>> = {},
): void {
  describe(`${ruleId} suggestions`, () => {
    const outputs = cases.flatMap((testCase) =>
      testCase.errors.flatMap((error) =>
        (error.suggestions ?? []).map((suggestion) => ({
          code: testCase.code ?? '',
          output: suggestion.output,
          options: testCase.options ?? [],
          settings: testCase.settings ?? {},
        })),
      ),
    );
    outputs.forEach(({ code, output, options, settings }, index) => {
      it(`output ${index + 1} parses, its SQL parses, and it clears the finding`, () => {
        const lint = (text: string): Linter.LintMessage[] => {
          const linter = new Linter({ configType: 'flat' });
          const rules: Linter.RulesRecord = { 'locksmith/probe': 'error', [`locksmith/${ruleId}`]: ['error', ...options] };
          for (const other of Object.keys(alsoSilent)) rules[`locksmith/${other}`] = 'error';
          return linter.verify(
            text,
            [
              {
                files: ['**/*.ts'],
                languageOptions: { parser: typescriptParser as unknown as Linter.Parser },
                settings,
                plugins: { locksmith: { rules: { probe: sqlProbe, [ruleId]: rule, ...alsoSilent } as never } },
                rules,
              },
            ],
            'suggestion.ts',
          );
        };
        const before = lint(code).filter((message) => message.ruleId === `locksmith/${ruleId}`);
        const after = lint(output);
        const describe = (messages: Linter.LintMessage[]) => messages.map((message) => `${String(message.ruleId)}: ${message.message}`);
        // Nothing else may appear: no parse error, no unparseable SQL, no finding of the companion rules.
        assert.deepEqual(describe(after.filter((message) => message.ruleId !== `locksmith/${ruleId}`)), []);
        const remaining = after.filter((message) => message.ruleId === `locksmith/${ruleId}`);
        assert.ok(
          remaining.length < before.length,
          `the suggestion leaves ${remaining.length} of ${before.length} findings:\n${describe(remaining).join('\n')}`,
        );
      });
    });
  });
}
