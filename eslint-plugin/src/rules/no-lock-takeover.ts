// no-lock-takeover: a lock-table upsert that takes a live lock over, or whose owner is never checked.

import { renderTakeoverGuard } from '../fixes/sql-templates.js';
import {
  EXPIRY_COLUMNS,
  getLockModel,
  isResultDiscarded,
  type LockTableAcquisition,
  OWNER_COLUMNS,
  type SqlModel,
} from '../model/index.js';
import { createRule, type LocksmithRuleContext } from '../rule-support/create-rule.js';

export type MessageId = 'unguardedTakeover' | 'ownerNotCompared' | 'addExpiryGuard';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'no-lock-takeover',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow lock-table upserts that take over a lock without checking that it expired',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      unguardedTakeover:
        'This `ON CONFLICT ... DO UPDATE` on lock table `{{table}}` overwrites the row whoever holds it: a live lock is taken over, and two holders run at once. Guard it with `WHERE {{table}}.<expiry> < now()`.',
      ownerNotCompared:
        'The upsert into lock table `{{table}}` returns `{{owner}}`, but the result is never compared with the caller: when the row belonged to a live holder nothing comes back, and this code runs as if it held the lock.',
      addExpiryGuard: 'Take the row over only when it has expired: add `WHERE {{guard}}`',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context).sql;
        for (const acquisition of model.lockTableAcquisitions) {
          if (!acquisition.upsert) continue;
          const conflict = acquisition.statement.onConflict;
          if (conflict?.where === undefined) {
            const guard = guardFix(context, model, acquisition);
            context.report({
              node: acquisition.node,
              messageId: 'unguardedTakeover',
              data: { table: acquisition.table },
              // A suggestion: the guard changes which rows the upsert takes over.
              suggest: guard
                ? [
                    {
                      messageId: 'addExpiryGuard',
                      data: { guard: guard.text.replace(/^ WHERE /u, '') },
                      fix: (fixer) => fixer.insertTextAfterRange([guard.at, guard.at], guard.text),
                    },
                  ]
                : [],
            });
            continue;
          }
          const owner = acquisition.statement.returning.find((column) => OWNER_COLUMNS.includes(column));
          if (owner !== undefined && isResultDiscarded(context.sourceCode, acquisition.node)) {
            context.report({ node: acquisition.node, messageId: 'ownerNotCompared', data: { table: acquisition.table, owner } });
          }
        }
      },
    };
  },
});

type Context = LocksmithRuleContext<MessageId, Options>;

/** Where the guard goes (after the `DO UPDATE SET` list) and its text, when the expiry column is visible. */
function guardFix(context: Context, model: SqlModel, acquisition: LockTableAcquisition): { at: number; text: string } | undefined {
  const statement = acquisition.statement;
  const seen = [
    ...statement.insertColumns,
    ...(statement.onConflict?.setColumns ?? []),
    ...(model.tableColumns.get(acquisition.table) ?? []),
  ];
  const expiry = EXPIRY_COLUMNS.find((column) => seen.includes(column));
  const end = statement.onConflict?.setListEnd;
  // A knex chain has no SQL text to insert the guard into (its `setListEnd` is undefined too): no suggestion.
  if (expiry === undefined || end === undefined || !acquisition.query) return undefined;
  const at = acquisition.query.sql.toSourceOffset(end);
  if (at === undefined || at > context.sourceCode.text.length) return undefined;
  return { at, text: renderTakeoverGuard(statement.tableAlias ?? acquisition.table, expiry) };
}
