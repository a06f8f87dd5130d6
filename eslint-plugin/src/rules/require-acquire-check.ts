// require-acquire-check: a try-acquire whose result never decides whether the work runs, and acquire
// helpers that fail open (report the lock as taken when taking it failed).

import type { TSESLint } from '@typescript-eslint/utils';
import { guardAfterDeclarationFix, guardStatementFix, type GuardFix } from '../fixes/acquire-guard.js';
import { failClosedFix } from '../fixes/fail-closed.js';
import {
  failOpenReturn,
  getLockModel,
  resultAccess,
  TRY_ACQUISITION_SOURCES,
  type TryAcquisition,
  tryAcquisitionFate,
} from '../model/index.js';
import { createRule, type LocksmithRuleContext } from '../rule-support/create-rule.js';

export type MessageId = 'resultIgnored' | 'resultNeverChecked' | 'failOpen' | 'guardWithResult' | 'returnResult' | 'failClosed';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'require-acquire-check',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require the result of a try-acquire to decide whether the protected work runs',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      resultIgnored:
        'The result of `{{acquire}}` is dropped: the work runs whether or not the lock was taken, so two holders can run at once.',
      resultNeverChecked:
        '`{{name}}` holds the result of `{{acquire}}` but is never tested: the work runs whether or not the lock was taken, so two holders can run at once.',
      failOpen: 'This helper reports the lock as taken when taking it failed: a Redis outage or timeout lets every worker in at once.',
      guardWithResult: 'Return early when the lock is not taken: `{{guard}}`',
      returnResult: 'Return the result so the caller can tell whether the lock was taken: `return …`',
      failClosed: 'Report the lock as not taken when acquiring fails: `return {{value}}`',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context);
        const sourceCode = context.sourceCode;
        for (const source of TRY_ACQUISITION_SOURCES) {
          for (const acquisition of source.tries(model, context)) reportUnchecked(context, acquisition);
          for (const acquisition of source.all(model, context)) {
            const failOpen = failOpenReturn(sourceCode, acquisition);
            if (!failOpen) continue;
            const failClosed = failClosedFix(failOpen);
            context.report({
              node: acquisition.node,
              messageId: 'failOpen',
              // A suggestion: failing closed keeps every worker out during an outage, a behaviour change.
              suggest: [{ messageId: 'failClosed', data: { value: failClosed.value }, fix: failClosed.fix }],
            });
          }
        }
      },
    };
  },
});

function reportUnchecked(context: LocksmithRuleContext<MessageId, Options>, acquisition: TryAcquisition): void {
  if (acquisition.verifiedLater) return;
  const sourceCode = context.sourceCode;
  const fate = tryAcquisitionFate(sourceCode, acquisition);
  const column = acquisition.resultColumn;
  if (fate.kind === 'checked') return;
  if (fate.kind === 'ignored') {
    const access = column ? resultAccess(column.shape, column.name) : '';
    const fix = access === undefined ? undefined : guardStatementFix(sourceCode, acquisition, fate.statement, access);
    context.report({
      node: acquisition.node,
      messageId: 'resultIgnored',
      data: { acquire: acquisition.label },
      // A suggestion: the work stops running when the lock is held elsewhere.
      suggest: guardSuggestions(fix),
    });
    return;
  }
  const fix = fate.declaration && fate.guard ? guardAfterDeclarationFix(sourceCode, acquisition, fate.declaration, fate.guard) : undefined;
  context.report({
    node: acquisition.node,
    messageId: 'resultNeverChecked',
    data: { acquire: acquisition.label, name: fate.name },
    suggest: guardSuggestions(fix),
  });
}

function guardSuggestions(fix: GuardFix | undefined): TSESLint.SuggestionReportDescriptor<MessageId>[] {
  if (!fix) return [];
  if (fix.kind === 'return') return [{ messageId: 'returnResult', fix: fix.fix }];
  return [{ messageId: 'guardWithResult', data: { guard: fix.guard }, fix: fix.fix }];
}
