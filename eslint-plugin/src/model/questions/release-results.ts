// Releases and renewals that report failure through their result, and what the code does with it:
// a compare-and-delete or compare-and-pexpire script (0 when the lock was no longer the caller's),
// `pg_advisory_unlock` (false when this session did not hold the lock), a lock-table DELETE/UPDATE
// that compares the owner (no row when the row was someone else's).

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { ScopeOwner } from '../../util/ast.js';
import type { RedisModel } from '../nouns/redis-events.js';
import { isPooledSessionCall, isReconnectingSessionCall } from '../sql/sql-model.js';
import type { AdvisoryLockItem, SqlModel } from '../nouns/sql-items.js';
import { resultFate, type Answer, type ResultFate, WHOLE } from '../facts/result-flow.js';
import { resultShapeOf } from '../tables/sql-results.js';
import { sessionLockBefore } from '../pairing/sql-locks.js';
import { isRawCommand } from '../tables/redis-clients.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface CheckableRelease {
  readonly node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  readonly owner: ScopeOwner;
  /** How a message names it: `compare-and-delete script`, `pg_advisory_unlock`, `DELETE FROM job_locks`. */
  readonly label: string;
  /** What its result says on failure, for the message. */
  readonly failure: string;
  /** Where the answer sits in the result. */
  readonly answer: Answer;
}

export interface DroppedReleaseResult {
  readonly release: CheckableRelease;
  readonly fate: Exclude<ResultFate, { kind: 'checked' }>;
}

const cache = new WeakMap<RedisModel, readonly DroppedReleaseResult[]>();

/** The checkable releases and renewals whose result nothing reads, once per model, in source order. */
export function droppedReleaseResults(sourceCode: SourceCode, redis: RedisModel, sql: SqlModel): readonly DroppedReleaseResult[] {
  const cached = cache.get(redis);
  if (cached) return cached;
  const dropped: DroppedReleaseResult[] = [];
  for (const release of checkableReleases(sourceCode, redis, sql)) {
    const fate = resultFate(sourceCode, release.node, release.answer);
    if (fate.kind !== 'checked') dropped.push({ release, fate });
  }
  dropped.sort((left, right) => left.release.node.range[0] - right.release.node.range[0]);
  cache.set(redis, dropped);
  return dropped;
}

/**
 * `pg_advisory_unlock` answers `false` when it runs in a session that does not hold the lock. The
 * code shows three ways that happens: the unlock goes through a pool (any pooled connection may run
 * it, whichever one locked); through a one-connection pool that reconnects (a dropped connection
 * took the lock with it, and the unlock runs in the new session); or on another connection than the
 * lock of its key in the same function. On one dedicated connection (a pg `Client`, a checked-out client, a reserved
 * connection, a transaction's handle) the lock lives as long as the session, and a dropped session
 * makes the unlock throw rather than answer, so there it is always `true`; an unlock whose sender is
 * unknown, or whose lock is out of sight on a connection of its own, is not reported either.
 */
function unlockMayAnswerFalse(sourceCode: SourceCode, sql: SqlModel, unlock: AdvisoryLockItem): boolean {
  return isPooledSessionCall(unlock) || isReconnectingSessionCall(unlock) || unlocksAnotherConnection(sourceCode, sql, unlock);
}

/** The session lock the unlock answers for was taken on another sender (another client, another reserved connection). */
function unlocksAnotherConnection(sourceCode: SourceCode, sql: SqlModel, unlock: AdvisoryLockItem): boolean {
  // A pool bound to a transaction (Sequelize's `{ transaction }`) is that transaction's connection,
  // whatever locked; a free pool is answered by isPooledSessionCall.
  if (unlock.query.sender.kind === 'pool') return false;
  const lock = sessionLockBefore(sourceCode, sql, unlock);
  return lock !== undefined && lock.query.sender.identity !== unlock.query.sender.identity;
}

function checkableReleases(sourceCode: SourceCode, redis: RedisModel, sql: SqlModel): CheckableRelease[] {
  const releases: CheckableRelease[] = [];
  const scripts = [
    ...redis.releases.map((event) => ({ event, label: 'compare-and-delete script' })),
    ...redis.expiries.map((event) => ({ event, label: 'compare-and-pexpire script' })),
  ];
  for (const { event, label } of scripts) {
    const command = event.command;
    // Only the owner-comparing scripts answer "was it still mine?"; a plain DEL's count is not that
    // answer (and no-unsafe-release reports the DEL itself). Redlock throws on a failed release;
    // redis-semaphore's release answers nothing.
    if (!isRawCommand(event) || event.kind !== 'script' || !event.safe || !command) continue;
    // A v3 callback receives the reply, and a queued link replies through exec(): neither is followed.
    if (command.callback || command.client.chain) continue;
    releases.push({ node: event.node, owner: event.owner, label, failure: '0', answer: WHOLE });
  }
  // A call to a project helper whose result is that answer (`await locks.release(key, token)`): the
  // caller is the one who drops it. The helper's own body returns it, so it is not reported there.
  for (const event of [...redis.releases, ...redis.expiries]) {
    const helper = event.helper;
    if (event.library !== 'helper' || !helper || (helper.role !== 'release' && helper.role !== 'extend') || helper.returns !== 'result')
      continue;
    releases.push({
      node: event.node,
      owner: event.owner,
      label: `${helper.name ?? 'release'}()`,
      failure: 'a falsy answer',
      answer: WHOLE,
    });
  }
  for (const lock of sql.advisoryLocks) {
    const { call, query } = lock;
    // Alone in its query as its own output column: the row's boolean is the answer (as for try-locks).
    if (
      call.action !== 'unlock' ||
      call.outputName === undefined ||
      query.statements?.length !== 1 ||
      lock.statement.advisoryLocks.length !== 1
    )
      continue;
    if (!unlockMayAnswerFalse(sourceCode, sql, lock)) continue;
    releases.push({
      node: lock.node,
      owner: lock.owner,
      label: call.functionName,
      failure: 'false',
      answer: { column: call.outputName, shape: resultShapeOf(query.sender.library, query.method) },
    });
  }
  for (const release of [...sql.lockTableReleases, ...sql.lockTableRenewals]) {
    // One that does not compare the owner cannot fail for a lost lock (no-unsafe-release reports it).
    // A knex chain is one statement; its promise resolves to the affected row count, the answer itself.
    if (!release.ownerCompared || (release.query && release.query.statements?.length !== 1)) continue;
    const verb = release.kind === 'delete' ? `DELETE FROM ${release.table}` : `UPDATE ${release.table}`;
    releases.push({ node: release.node, owner: release.owner, label: verb, failure: 'no row affected', answer: WHOLE });
  }
  return releases;
}
