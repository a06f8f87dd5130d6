// require-fencing-token: a write made under a lock that can expire, with no fencing condition.

import type { TSESTree } from '@typescript-eslint/utils';
import { fencedFix } from '../fixes/fenced-acquire.js';
import {
  DEFAULT_FENCE_COLUMNS,
  fenceMintedAfter,
  getLockModel,
  isEfficiencyLock,
  type Lock,
  lockLibraryDisplayName,
  type RawSharedSettings,
  readSharedSettings,
  type SqlWrite,
  writesUnder,
} from '../model/index.js';
import { createRule } from '../rule-support/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'unfencedWrite' | 'lateFence' | 'useFencedAcquire';
export type Options = [{ fenceColumns?: string[]; efficiencyLocks?: string[] }];

export default createRule<Options, MessageId>({
  name: 'require-fencing-token',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require writes made under an expiring lock to carry a fencing token',
      recommended: 'warn',
    },
    hasSuggestions: true,
    defaultOptions: [{}],
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          fenceColumns: {
            type: 'array',
            items: { type: 'string' },
            description:
              'Columns that hold the fencing token in SQL writes. Default: `["fence", "fencing_token"]` (or `settings.locksmith.fenceColumns`).',
          },
          efficiencyLocks: {
            type: 'array',
            items: { type: 'string' },
            description: 'Names or /patterns/ of lock keys held for efficiency only, whose writes need no fence.',
          },
        },
      },
    ],
    messages: {
      unfencedWrite:
        'This {{write}} runs under the {{lock}} lock taken on line {{line}}, with no fencing condition: a holder whose lock expired (a pause, a slow call) still writes after its successor. Compare a fence minted at acquisition (`{{column}} < $n`) in its WHERE.',
      lateFence:
        'The fence this write compares is minted by a separate `INCR` after the lock was taken on line {{line}}: a holder paused between the two mints a larger number than its successor, and its stale write wins. Mint the fence atomically with the acquisition.',
      useFencedAcquire: 'Acquire with the fenced acquire script and write with `{{column}} < {{placeholder}}`',
    },
  },
  create(context, [options]) {
    const overrides: RawSharedSettings = {};
    if (options.fenceColumns) overrides.fenceColumns = options.fenceColumns;
    if (options.efficiencyLocks) overrides.efficiencyLocks = options.efficiencyLocks;
    const settings = readSharedSettings(context, overrides);
    const fenceColumns = settings.fenceColumns.length > 0 ? settings.fenceColumns : DEFAULT_FENCE_COLUMNS;
    return {
      'Program:exit'() {
        const model = getLockModel(context);
        const sql = model.sql;
        // No write, nothing to fence: skip building the Redis half's lock list.
        if (sql.writes.length === 0) return;
        const sourceCode = context.sourceCode;
        const redis = model.redis;
        const reported = new Set<TSESTree.Node>();
        for (const lock of model.locks.all) {
          // Advisory locks end with their connection: a write on it cannot outlive the lock.
          if (lock.kind === 'advisory' || isEfficiencyLock(sourceCode, lock, settings.efficiencyLocks)) continue;
          const line = String(lock.node.loc.start.line);
          for (const write of writesUnder(lock, sql.writes)) {
            // SQL the parser cannot read is no finding.
            if (reported.has(write.node) || (write.query && !write.statement) || write.idempotent) continue;
            if (write.isFenced(fenceColumns)) {
              if (lock.mintsFence || !fenceMintedAfter(sourceCode, redis, write, fenceColumns, lock)) continue;
              reported.add(write.node);
              context.report({
                node: write.node,
                messageId: 'lateFence',
                data: {
                  line,
                  ...relatedData({
                    message: 'The lock is acquired here, before the fence is minted',
                    node: lock.node,
                    role: 'acquisition',
                  }),
                },
              });
              continue;
            }
            reported.add(write.node);
            const column = fenceColumns[0] ?? 'fence';
            const fix = fencedFix(sourceCode, lock, write, column);
            context.report({
              node: write.node,
              messageId: 'unfencedWrite',
              data: {
                write: describeWrite(write),
                lock: lockName(lock),
                line,
                column,
                ...relatedData({ message: 'The lock this write trusts is acquired here', node: lock.node, role: 'acquisition' }),
              },
              // A suggestion: it changes both the acquisition and the write that reach the servers.
              suggest: fix ? [{ messageId: 'useFencedAcquire', data: { column, placeholder: fix.placeholder }, fix: fix.apply }] : [],
            });
          }
        }
      },
    };
  },
});

function describeWrite(write: SqlWrite): string {
  if (write.statement) return `\`${write.statement.kind.toUpperCase()}\`${write.table ? ` of \`${write.table}\`` : ''}`;
  return `\`${write.orm?.method ?? 'write'}\`${write.table ? ` of \`${write.table}\`` : ''}`;
}

function lockName(lock: Lock): string {
  const library = lockLibraryDisplayName(lock.kind);
  if (library !== undefined) return library;
  if (lock.kind === 'lock-table') return `\`${lock.keyText ?? 'lock table'}\` table`;
  return lock.keyText ? `\`${lock.keyText}\`` : 'Redis';
}
