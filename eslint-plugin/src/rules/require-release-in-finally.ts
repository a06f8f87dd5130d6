// require-release-in-finally: a lock released on the success path only, so an exception leaks it.

import type { TSESTree } from '@typescript-eslint/utils';
import { moveToFinallyFix } from '../fixes/move-to-finally.js';
import {
  endsSessionInFinally,
  getLockModel,
  hasWorkBetween,
  isGuaranteed,
  isKeptOnSuccess,
  isScopedAcquisition,
  lockMachinery,
  type LockStep,
  releasesAfterAcquisition,
} from '../model/index.js';
import { createRule, type LocksmithRuleContext } from '../rule-support/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'releaseNotInFinally' | 'advisoryUnlockNotInFinally' | 'lockRowReleaseNotInFinally' | 'moveReleaseToFinally';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'require-release-in-finally',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require a lock to be released in a `finally` block (or by disposal)',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      releaseNotInFinally:
        'This lock is released only on the success path: if the work throws, the release never runs and the lock stays taken until it expires, so no other holder can get in meanwhile.',
      advisoryUnlockNotInFinally:
        'This advisory lock is unlocked only on the success path: if the work throws, `pg_advisory_unlock` never runs and the lock stays held as long as the connection lives (forever on a pooled connection), so no other holder can get in.',
      lockRowReleaseNotInFinally:
        'This lock row is deleted only on the success path: if the work throws, the row stays until it expires (forever without an expiry), so no other holder can get in meanwhile.',
      moveReleaseToFinally: 'Move the work into `try` and the release into `finally`',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const lockModel = getLockModel(context);
        const model = lockModel.redis;
        const sourceCode = context.sourceCode;
        // A test case that takes a lock and fails mid-way leaves it to expire in a throwaway server:
        // test hygiene, not the production leak this rule is about.
        const inTest = (node: TSESTree.Node): boolean => lockModel.inTestCode(node);
        for (const lock of lockModel.locks.redis) {
          const acquisition = lock.redis;
          if (!isScopedAcquisition(acquisition) || inTest(acquisition.node)) continue;
          const releases = releasesAfterAcquisition(lock);
          if (releases.length === 0) continue;
          // A release in a nested function (`.finally(() => lock.release())`, an exit handler) is
          // a guarantee this rule cannot weigh: stay silent rather than guess.
          if (releases.some((release) => release.owner !== acquisition.owner || isGuaranteed(release))) continue;
          // Released only where the work is given up (a candidate passed over): success keeps the lock.
          if (isKeptOnSuccess(releases)) continue;
          const machinery = lockMachinery(model, acquisition);
          if (!releases.some((release) => hasWorkBetween(sourceCode, acquisition, release, machinery))) continue;
          const fix = releases.length === 1 ? moveToFinallyFix(sourceCode, acquisition, releases[0]!) : undefined;
          context.report({
            node: acquisition.node,
            messageId: 'releaseNotInFinally',
            data: relatedData(...releases.map((release) => ({ message: 'Released here, on the success path only', node: release.node }))),
            // A suggestion: the release starts running on the error path too, which changes behaviour.
            suggest: fix ? [{ messageId: 'moveReleaseToFinally', fix }] : [],
          });
        }
        const sqlLocks = lockModel.locks.sql;
        for (const lock of sqlLocks) {
          if (lock.library !== 'advisory') continue;
          const unlocks = releasesAfterAcquisition(lock);
          if (unlocks.length === 0 || inTest(lock.node) || endsSessionInFinally(sourceCode, lock.advisory)) continue;
          reportSql(context, lock.advisory, unlocks, 'advisoryUnlockNotInFinally', 'Unlocked here, on the success path only');
        }
        for (const lock of sqlLocks) {
          if (lock.library !== 'lock-table') continue;
          const releases = releasesAfterAcquisition(lock);
          if (releases.length === 0 || inTest(lock.node)) continue;
          reportSql(context, lock.lockTable, releases, 'lockRowReleaseNotInFinally', 'Deleted here, on the success path only');
        }
      },
    };
  },
});

/**
 * The SQL forms share the Redis form's judgement: every release in the acquisition's own function,
 * none guaranteed, and something that can throw between the acquisition and one of them.
 */
function reportSql(
  context: LocksmithRuleContext<MessageId, Options>,
  acquisition: LockStep,
  releases: readonly LockStep[],
  messageId: 'advisoryUnlockNotInFinally' | 'lockRowReleaseNotInFinally',
  releaseMessage: string,
): void {
  const sourceCode = context.sourceCode;
  if (releases.length === 0 || releases.some((release) => release.owner !== acquisition.owner || isGuaranteed(release))) return;
  if (isKeptOnSuccess(releases)) return;
  if (!releases.some((release) => hasWorkBetween(sourceCode, acquisition, release, new Set()))) return;
  const fix = releases.length === 1 ? moveToFinallyFix(sourceCode, acquisition, releases[0]!) : undefined;
  context.report({
    node: acquisition.node,
    messageId,
    data: relatedData(...releases.map((release) => ({ message: releaseMessage, node: release.node }))),
    // A suggestion: the unlock starts running on the error path too, which changes behaviour.
    suggest: fix ? [{ messageId: 'moveReleaseToFinally', fix }] : [],
  });
}
