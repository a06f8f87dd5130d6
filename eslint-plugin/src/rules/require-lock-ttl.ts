// require-lock-ttl: a lock taken with no expiry, so a holder that crashes keeps it forever.

import type { TSESLint } from '@typescript-eslint/utils';
import { DEFAULT_TTL_MS } from '../fixes/scripts.js';
import { setnxToAtomicSet } from '../fixes/setnx-to-set.js';
import { ttlAddition } from '../fixes/ttl.js';
import {
  EXPIRY_COLUMNS,
  getLockModel,
  type LockTableAcquisition,
  type LockTableRelease,
  redisAcquisitionsWithoutTtl,
  type RedisCommand,
  type SqlModel,
} from '../model/index.js';
import { createRule } from '../rule-support/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'noExpiry' | 'noRowExpiry' | 'addExpiry' | 'useAtomicSet';
export type Options = [{ defaultTtlMs?: number }];

export default createRule<Options, MessageId>({
  name: 'require-lock-ttl',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require every lock to be taken with an expiry',
      recommended: 'error',
    },
    hasSuggestions: true,
    defaultOptions: [{ defaultTtlMs: DEFAULT_TTL_MS }],
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          defaultTtlMs: {
            type: 'integer',
            minimum: 1,
            description: 'TTL in milliseconds that the suggestion writes when the code gives none.',
          },
        },
      },
    ],
    messages: {
      noExpiry:
        'This `{{command}}` takes the lock with no expiry: a holder that crashes before releasing it keeps the lock forever, and no one can take it again.',
      noRowExpiry:
        'This lock row carries no expiry: a holder that crashes before its `DELETE` keeps the lock forever, and no one can take it again.',
      addExpiry: 'Give the lock an expiry: add `{{option}}`',
      useAtomicSet: 'Acquire with one atomic `SET key token NX PX {{ttl}}`',
    },
  },
  create(context, [{ defaultTtlMs = DEFAULT_TTL_MS }]) {
    return {
      'Program:exit'() {
        const lockModel = getLockModel(context);
        for (const acquisition of redisAcquisitionsWithoutTtl(context.sourceCode, lockModel)) {
          const command = acquisition.command!;
          const suggestion = expirySuggestion(context.sourceCode, command, String(defaultTtlMs));
          context.report({
            node: acquisition.node,
            messageId: 'noExpiry',
            data: { command: command.name },
            // A suggestion, not an autofix: an expiry changes how long the lock can be held.
            suggest: suggestion ? [suggestion] : [],
          });
        }
        const sql = getLockModel(context).sql;
        for (const { acquisition, release } of lockRowsWithoutExpiry(sql)) {
          // No suggestion: an expiry needs a column the table may not have (a schema migration).
          context.report({
            node: acquisition.node,
            messageId: 'noRowExpiry',
            data: relatedData({ message: 'The row is freed only here, by its holder', node: release.node }),
          });
        }
      },
    };
  },
});

type Suggestion = TSESLint.SuggestionReportDescriptor<MessageId>;

function expirySuggestion(sourceCode: Readonly<TSESLint.SourceCode>, command: RedisCommand, ttlMs: string): Suggestion | undefined {
  if (command.name === 'SETNX') {
    const replacement = setnxToAtomicSet(sourceCode, command, ttlMs);
    if (!replacement) return undefined;
    return {
      messageId: 'useAtomicSet',
      data: { ttl: ttlMs },
      fix: (fixer) => fixer.replaceTextRange([...replacement.range], replacement.text),
    };
  }
  if (command.name !== 'SET' || !command.set) return undefined;
  const addition = ttlAddition(command, ttlMs);
  if (!addition) return undefined;
  return {
    messageId: 'addExpiry',
    data: { option: addition.option },
    fix: (fixer) => fixer.insertTextAfterRange(addition.after.range, `, ${addition.option}`),
  };
}

// A column compared with a time: an expiry by another name (`locked_at < now() - interval '5 minutes'`).
const TIME_COLUMN = /(?:_at|_until|_time|timestamp)$/u;

/**
 * Lock-table acquisitions (`INSERT INTO job_locks ...`) of a table whose rows carry no expiry: the
 * file frees the row with a `DELETE` that no time condition drives, and no SQL text in the file that
 * names the table mentions an expiry column (`expires_at`, `lock_until`, ...) or compares a column
 * with the clock. Anything time-shaped about the table anywhere in the file keeps the rule silent.
 */
function lockRowsWithoutExpiry(model: SqlModel): { acquisition: LockTableAcquisition; release: LockTableRelease }[] {
  const result: { acquisition: LockTableAcquisition; release: LockTableRelease }[] = [];
  const acquisitionsByTable = new Map<string, LockTableAcquisition[]>();
  for (const acquisition of model.lockTableAcquisitions) {
    const list = acquisitionsByTable.get(acquisition.table);
    if (list) list.push(acquisition);
    else acquisitionsByTable.set(acquisition.table, [acquisition]);
  }
  const firstDelete = new Map<string, LockTableRelease>();
  for (const release of model.lockTableReleases)
    if (release.kind === 'delete' && !firstDelete.has(release.table)) firstDelete.set(release.table, release);
  for (const [table, acquisitions] of acquisitionsByTable) {
    const release = firstDelete.get(table);
    if (!release || hasExpiry(model, table)) continue;
    for (const acquisition of acquisitions) result.push({ acquisition, release });
  }
  return result;
}

function hasExpiry(model: SqlModel, table: string): boolean {
  // knex chains, judged as their SQL would be: an expiry column anywhere in the statement, or a
  // comparison with the clock or of a time-named column. A chain the reader cannot follow (`insert(row)`
  // of a row built elsewhere, a `whereRaw`) may hold either.
  if (model.tablesWrittenUnread.has(table)) return true;
  for (const event of [...model.lockTableAcquisitions, ...model.lockTableReleases, ...model.lockTableRenewals]) {
    if (!event.builder || event.table !== table) continue;
    const statement = event.statement;
    const comparisons = [...statement.where, ...(statement.onConflict?.where ?? [])];
    if (
      [...statement.insertColumns, ...statement.setColumns, ...comparisons.map((comparison) => comparison.column)].some((column) =>
        EXPIRY_COLUMNS.includes(column),
      )
    )
      return true;
    if (comparisons.some((comparison) => comparison.comparedWithClock || TIME_COLUMN.test(comparison.column))) return true;
  }
  const expiryWord = new RegExp(`\\b(?:${EXPIRY_COLUMNS.join('|')})\\b`, 'iu');
  const tableWord = new RegExp(`\\b${table.replace(/[^\w]/gu, '')}\\b`, 'iu');
  for (const query of model.queries) {
    const text = query.sql.text;
    if (!tableWord.test(text)) continue;
    if (expiryWord.test(text)) return true;
    for (const statement of query.statements ?? []) {
      const comparisons = [...statement.where, ...(statement.onConflict?.where ?? [])];
      if (comparisons.some((comparison) => comparison.comparedWithClock || TIME_COLUMN.test(comparison.column))) return true;
    }
  }
  return false;
}
