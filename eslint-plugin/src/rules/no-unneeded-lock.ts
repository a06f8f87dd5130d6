// no-unneeded-lock: a lock whose whole critical section is one SQL statement on one table.

import { dropLockFix } from '../fixes/drop-lock.js';
import { getLockModel, singleStatement } from '../model/index.js';
import { createRule } from '../rule-support/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'unneededLock' | 'dropLock';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'no-unneeded-lock',
  meta: {
    type: 'suggestion',
    docs: {
      description: 'Disallow locks whose whole critical section is one SQL statement on one table',
      recommended: false,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      dropLock: 'Drop the lock and let the database serialise the single `{{statement}}`',
      unneededLock:
        "The whole critical section of this lock is one {{statement}} on `{{table}}`: the database already serialises that write, so the lock only adds a failure mode. Drop it and make the statement conditional (`WHERE ... AND state = 'pending'`), or use `SELECT ... FOR UPDATE` in a transaction.",
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context);
        const sql = model.sql;
        // The rule is about a lock around one SQL statement: without SQL there is nothing to find.
        if (sql.queries.length === 0 && sql.writes.length === 0) return;
        const sourceCode = context.sourceCode;
        const redis = model.redis;
        for (const lock of model.locks.all) {
          // A lock table is itself the database's serialisation; its rules are no-lock-takeover and require-lock-ttl.
          if (lock.kind === 'lock-table') continue;
          const single = singleStatement(sourceCode, redis, sql, lock);
          if (!single) continue;
          const drop = dropLockFix(sourceCode, lock, single.node);
          context.report({
            node: lock.node,
            messageId: 'unneededLock',
            data: {
              statement: single.statement,
              table: single.table,
              ...relatedData(
                { message: 'The one statement the lock protects', node: single.node },
                lock.release !== undefined && { message: 'The lock is released here', node: lock.release },
              ),
            },
            // A suggestion, never an autofix: removing a lock changes what may run concurrently, and
            // which condition makes the statement safe is the author's call.
            suggest: drop ? [{ messageId: 'dropLock', data: { statement: single.statement.replaceAll('`', '') }, fix: drop }] : [],
          });
        }
      },
    };
  },
});
