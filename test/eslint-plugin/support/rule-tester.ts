// The RuleTester every rule test uses: typescript-eslint's, with each rule wrapped so that every
// suggestion it reports, in every valid and invalid case, is checked to stay at its lock site (see
// suggestion-bound.ts). A rule test cannot forget the check, since constructing this tester is all
// it takes.

import { RuleTester as BaseRuleTester, type RunTests } from '@typescript-eslint/rule-tester';
import type { TSESLint } from '@typescript-eslint/utils';
import { assertSuggestionBounded } from './suggestion-bound.js';

type NoInfer<T> = [T][T extends unknown ? 0 : never];

export class RuleTester extends BaseRuleTester {
  override run<MessageIds extends string, Options extends readonly unknown[]>(
    ruleName: string,
    rule: TSESLint.RuleModule<MessageIds, Options>,
    tests: RunTests<NoInfer<MessageIds>, NoInfer<Options>>,
  ): void {
    super.run(ruleName, withBoundedSuggestions(rule), tests);
  }
}

/** `rule`, with every suggestion of every report checked by `assertSuggestionBounded` before ESLint sees it. */
export function withBoundedSuggestions<MessageIds extends string, Options extends readonly unknown[]>(
  rule: TSESLint.RuleModule<MessageIds, Options>,
): TSESLint.RuleModule<MessageIds, Options> {
  return {
    ...rule,
    create(context) {
      const report = (descriptor: TSESLint.ReportDescriptor<MessageIds>): void => {
        for (const suggestion of descriptor.suggest ?? []) assertSuggestionBounded(context.sourceCode, descriptor, suggestion);
        context.report(descriptor);
      };
      // ESLint freezes the context: a child object that inherits everything else and has its own `report`.
      const checked = Object.create(context, { report: { value: report } }) as typeof context;
      return rule.create(checked);
    },
  };
}
