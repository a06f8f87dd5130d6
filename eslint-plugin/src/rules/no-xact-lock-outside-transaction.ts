// no-xact-lock-outside-transaction: a transaction-level advisory lock with no explicit transaction.

import type { TSESLint } from '@typescript-eslint/utils';
import { freeName } from '../fixes/edits.js';
import {
  type AdvisoryLockItem,
  controlsTransactionIn,
  getLockModel,
  isTrailingBarrier,
  renderSpanBody,
  runsOutsideTransaction,
  spanLeavesCallback,
  spanToBlockEnd,
  type StatementSpan,
  type TextEdit,
} from '../model/index.js';
import {
  HANDLE_NAMES,
  fixWritesTransaction,
  renderBeginCommit,
  renderTransactionWrap,
  sqlClientSemantics,
} from '../fixes/sql-templates.js';
import { handleEdits, helperName, prismaExecuteEdits } from '../fixes/advisory-edits.js';
import { createRule, type LocksmithRuleContext } from '../rule-support/create-rule.js';

export type MessageId = 'xactLockOutsideTransaction' | 'wrapInTransaction';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'no-xact-lock-outside-transaction',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow transaction-level PostgreSQL advisory locks outside an explicit transaction',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      xactLockOutsideTransaction:
        '`{{fn}}` runs in its own implicit transaction here: the lock is released as soon as this statement ends, so it protects nothing that follows.',
      wrapInTransaction: 'Take the lock and do the work it protects inside `{{helper}}`',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        for (const item of getLockModel(context).sql.advisoryLocks) {
          if (item.call.scope !== 'xact' || item.call.action !== 'lock' || item.inTransaction || !item.statement.onlyAdvisoryLocks)
            continue;
          if (!runsOutsideTransaction(context.sourceCode, item) || isTrailingBarrier(item)) continue;
          context.report({
            node: item.node,
            messageId: 'xactLockOutsideTransaction',
            data: { fn: item.call.functionName },
            // A suggestion: opening a transaction changes what commits together.
            suggest: suggestions(context, item),
          });
        }
      },
    };
  },
});

type Context = LocksmithRuleContext<MessageId, Options>;

function suggestions(context: Context, item: AdvisoryLockItem): TSESLint.SuggestionReportDescriptor<MessageId>[] {
  const sourceCode = context.sourceCode;
  const sender = item.query.sender;
  const library = sender.library;
  if (!fixWritesTransaction(library)) return [];
  const span = spanToBlockEnd(sourceCode, item.node);
  if (!span || spanLeavesCallback(span, sourceCode)) return [];
  if (sender.kind === 'connection') {
    // BEGIN … COMMIT on the connection itself, where the library has no transaction helper (pg).
    if (sqlClientSemantics(library)?.transactionHelper !== undefined) return [];
    const text = renderBeginCommit(sender.text, renderSpanBody(span, sourceCode, []), span.indent);
    return [
      {
        messageId: 'wrapInTransaction',
        data: { helper: 'BEGIN … COMMIT' },
        fix: (fixer) => fixer.replaceTextRange([span.first.range[0], span.last.range[1]], text),
      },
    ];
  }
  // Transaction control sent through the pool is itself the bug; rewriting around it would keep it.
  if (controlsTransactionIn(getLockModel(context).sql, span.first.range[0], span.last.range[1])) return [];
  const handle = freeName(sourceCode, HANDLE_NAMES[library]);
  const body = renderSpanBody(span, sourceCode, [...prismaExecuteEdits(item, item.call.functionName), ...workEdits(item, handle, span)]);
  const text = renderTransactionWrap(library, { client: sender.text, handle, body, indent: span.indent });
  const checkout = sqlClientSemantics(library)?.checkout;
  const helper =
    sqlClientSemantics(library)?.transactionHelper === undefined && checkout
      ? `${sender.text}.${checkout.method}()` + ' with BEGIN … COMMIT'
      : helperName(library, sender.text);
  return [
    {
      messageId: 'wrapInTransaction',
      data: { helper },
      fix: (fixer) => fixer.replaceTextRange([span.first.range[0], span.last.range[1]], text),
    },
  ];
}

/** The lock, and the work on the same client after it, move onto the transaction's handle. */
function workEdits(item: AdvisoryLockItem, handle: string, span: StatementSpan): TextEdit[] {
  const identity = item.query.sender.identity;
  if (typeof identity === 'string' || sqlClientSemantics(item.query.sender.library)?.callbackGetsOptionsObject)
    return handleEdits(item, handle);
  return identity.references
    .filter((reference) => reference.identifier.range[0] >= span.first.range[0] && reference.identifier.range[1] <= span.last.range[1])
    .map((reference) => ({ range: reference.identifier.range, text: handle }));
}
