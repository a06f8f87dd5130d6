// no-pooled-advisory-lock: a session-level advisory lock or unlock sent through a connection pool.

import type { TSESLint } from '@typescript-eslint/utils';
import { freeName } from '../fixes/edits.js';
import {
  type AdvisoryLockItem,
  getLockModel,
  isPooledSessionCall,
  renderSpanBody,
  spanBetween,
  spanDeclarationsUsedAfter,
  spanLeavesCallback,
  type SqlModel,
  type StatementSpan,
  type TextEdit,
} from '../model/index.js';
import {
  HANDLE_NAMES,
  fixWritesTransaction,
  renderCheckoutWrap,
  sqlClientSemantics,
  renderTransactionWrap,
  transactionLevelName,
  type TransactionHelperLibrary,
} from '../fixes/sql-templates.js';
import { advisoryFunctionRange, handleEdits, helperName, prismaExecuteEdits, unlockStatementEdit } from '../fixes/advisory-edits.js';
import { createRule, type LocksmithRuleContext } from '../rule-support/create-rule.js';

export type MessageId = 'pooledLock' | 'pooledUnlock' | 'useDedicatedConnection' | 'useTransactionLock';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'no-pooled-advisory-lock',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow session-level PostgreSQL advisory locks sent through a connection pool',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      pooledLock:
        '`{{fn}}` runs on whichever connection the pool `{{client}}` hands out: the unlock can land on another connection, and the session lock leaks into the pool, held by a connection nobody owns.',
      pooledUnlock:
        '`{{fn}}` through the pool `{{client}}` can run on a different connection from the lock: it frees nothing, and the lock stays held.',
      useDedicatedConnection: 'Lock, work and unlock on one connection from `{{checkout}}`, released in `finally`',
      useTransactionLock: 'Take `{{xact}}` inside `{{helper}}` instead, released when the transaction ends',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context).sql;
        for (const item of model.advisoryLocks) {
          if (!isPooledSessionCall(item)) continue;
          const data = { fn: item.call.functionName, client: item.query.sender.text };
          if (item.call.action !== 'lock') {
            context.report({ node: item.node, messageId: 'pooledUnlock', data });
            continue;
          }
          // Suggestions, not autofixes: they change which connection and transaction the lock lives on.
          context.report({ node: item.node, messageId: 'pooledLock', data, suggest: suggestions(context, model, item) });
        }
      },
    };
  },
});

type Context = LocksmithRuleContext<MessageId, Options>;

/** The lock's own `pg_advisory_unlock` in its function (same client, a key that may be its own), as locks.ts pairs it. */
function matchingUnlock(context: Context, lock: AdvisoryLockItem): AdvisoryLockItem | undefined {
  return getLockModel(context)
    .locks.lockOfAcquisition(lock)
    ?.releases.find((candidate) => candidate.call.action === 'unlock' && candidate.owner === lock.owner);
}

function suggestions(context: Context, model: SqlModel, lock: AdvisoryLockItem): TSESLint.SuggestionReportDescriptor<MessageId>[] {
  const sourceCode = context.sourceCode;
  const unlock = matchingUnlock(context, lock);
  if (!unlock) return [];
  const span = spanBetween(sourceCode, lock.node, unlock.node);
  if (!span || spanDeclarationsUsedAfter(span, sourceCode)) return [];
  const library = lock.query.sender.library;
  const dedicated = sqlClientSemantics(library)?.checkout;
  // A checkout that `release()` alone gives back (it names a handle): the fix wraps the span in checkout … finally release.
  if (dedicated?.handle !== undefined && library !== 'unknown') {
    const handle = freeName(sourceCode, dedicated.handle);
    const edits: TextEdit[] = [...handleEdits(lock, handle), ...handleEdits(unlock, handle)];
    const checkout = `${lock.query.sender.text}.${dedicated.method}()`;
    const text = renderCheckoutWrap(library, {
      client: lock.query.sender.text,
      handle,
      body: renderSpanBody(span, sourceCode, edits),
      indent: span.indent,
    });
    return [{ messageId: 'useDedicatedConnection', data: { checkout }, fix: (fixer) => replaceSpan(fixer, span, text) }];
  }
  if (!fixWritesTransaction(library)) return [];
  const fix = transactionLockFix(context, lock, unlock, span, library);
  return fix ? [fix] : [];
}

function transactionLockFix(
  context: Context,
  lock: AdvisoryLockItem,
  unlock: AdvisoryLockItem,
  span: StatementSpan,
  library: TransactionHelperLibrary,
): TSESLint.SuggestionReportDescriptor<MessageId> | undefined {
  const sourceCode = context.sourceCode;
  if (spanLeavesCallback(span, sourceCode)) return undefined;
  const rename = advisoryFunctionRange(sourceCode, lock);
  const unlockEdit = unlockStatementEdit(sourceCode, span, unlock);
  if (!rename || !unlockEdit) return undefined;
  const handle = freeName(sourceCode, HANDLE_NAMES[library]);
  const xact = transactionLevelName(lock.call.functionName);
  const edits: TextEdit[] = [{ range: rename, text: xact }, ...prismaExecuteEdits(lock, xact), ...handleEdits(lock, handle), unlockEdit];
  const body = renderSpanBody(span, sourceCode, edits);
  const text = renderTransactionWrap(library, { client: lock.query.sender.text, handle, body, indent: span.indent });
  return {
    messageId: 'useTransactionLock',
    data: { xact, helper: helperName(library, lock.query.sender.text) },
    fix: (fixer) => replaceSpan(fixer, span, text),
  };
}

function replaceSpan(fixer: TSESLint.RuleFixer, span: StatementSpan, text: string): TSESLint.RuleFix {
  return fixer.replaceTextRange([span.first.range[0], span.last.range[1]], text);
}
