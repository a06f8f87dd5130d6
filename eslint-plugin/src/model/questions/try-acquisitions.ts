// The acquisitions require-acquire-check judges, from every lock family: try-acquisitions, which say
// whether they took the lock only through their result, and all acquisitions, for fail-open helpers.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { ScopeOwner } from '../../util/ast.js';
import type { LockModel } from '../nouns/lock-types.js';
import { isReleasedInModule, redisIndex } from '../pairing/indexes.js';
import { commandNode, within, runsBefore } from '../facts/source-order.js';
import { looksLikeLockKey } from '../facts/keys.js';
import { isLockAcquisition as isLockTaken } from './lock-acquisitions.js';
import { claimsRecord } from './housekeeping.js';
import type { Acquisition } from '../nouns/redis-events.js';
import { getSqlModel } from '../sql/sql-model.js';
import type { ResultShape } from '../nouns/vocabulary.js';
import { resultShapeOf } from '../tables/sql-results.js';
import type { LocksmithRuleContext } from '../../util/rule-context.js';
import { isRawCommand } from '../tables/redis-clients.js';

/**
 * A call that may fail to take the lock and says so only through its result. The rule asks nothing
 * else of it, so any lock family can contribute: the PostgreSQL model adds `pg_try_advisory_lock`
 * as one more entry of `TRY_ACQUISITION_SOURCES`.
 */
export interface TryAcquisition {
  readonly node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  /** How the message names the call: `SET NX`, `SETNX`, `tryAcquire()`. */
  readonly label: string;
  readonly owner: ScopeOwner;
  /** node_redis v3: the callback that receives the reply instead of the call's value. */
  readonly callback: TSESTree.Node | undefined;
  /** Another way this holder can learn whether it got the lock (reading the key back). */
  readonly verifiedLater: boolean;
  /** The answer is a column of the rows the query returns (`pg_try_advisory_lock(...) AS locked`), not the call's own value. */
  readonly resultColumn?: { readonly name: string; readonly shape: ResultShape };
}

/** Any acquisition, for the fail-open check: a helper can fail open whatever it calls. */
export interface AnyAcquisition {
  readonly node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  readonly owner: ScopeOwner;
}

/**
 * One lock family's contribution: its try-acquisitions (checked for a tested result) and all its
 * acquisitions (checked for fail-open helpers). The extension point for other families.
 */
export interface AcquisitionSource {
  tries(model: LockModel, context: LocksmithRuleContext): readonly TryAcquisition[];
  all(model: LockModel, context: LocksmithRuleContext): readonly AnyAcquisition[];
}

const redisSource: AcquisitionSource = {
  tries(model, context) {
    const sourceCode = context.sourceCode;
    const redis = model.redis;
    const result: TryAcquisition[] = [];
    for (const acquisition of redis.acquisitions) {
      if (!acquisition.isTry) continue;
      // Queued in MULTI/pipeline: the reply arrives with exec(), which this rule does not follow.
      if (acquisition.command?.client.chain) continue;
      // SET NX of a key that is not a lock (an idempotency marker, a first-write-wins cache) may
      // drop its result on purpose; redis-semaphore's tryAcquire is a lock by definition.
      if (isRawCommand(acquisition) && !isLockAcquisition(model, sourceCode, acquisition)) continue;
      result.push({
        node: acquisition.node,
        label: labelOf(acquisition),
        owner: acquisition.owner,
        callback: acquisition.command?.callback,
        verifiedLater: isReadBackLater(model, acquisition),
      });
    }
    return result;
  },
  all(model, context) {
    // A helper that fails open around a SET NX of a key that is no lock (a single-use flag, an
    // idempotency hint) chose to run twice rather than not at all: only a lock's fails open.
    return model.redis.acquisitions.filter(
      (acquisition) =>
        !isRawCommand(acquisition) || isLockTaken(context.sourceCode, model.redis, model.settings.lockKeyPattern, acquisition),
    );
  },
};

/**
 * `SELECT pg_try_advisory_lock($1) AS locked` (and the xact form), alone in its query: the answer is
 * the `locked` column of the one row it returns. A try-lock nested in a larger expression, or in a
 * query of several statements, is not followed.
 */
const advisorySource: AcquisitionSource = {
  tries(_model, context) {
    const result: TryAcquisition[] = [];
    for (const lock of getSqlModel(context).advisoryLocks) {
      const { call, query } = lock;
      if (call.mode !== 'try' || call.action !== 'lock' || call.outputName === undefined) continue;
      if (query.statements?.length !== 1 || lock.statement.advisoryLocks.filter((other) => other.mode === 'try').length !== 1) continue;
      result.push({
        node: lock.node,
        label: call.functionName,
        owner: lock.owner,
        callback: undefined,
        verifiedLater: false,
        resultColumn: { name: call.outputName, shape: resultShapeOf(query.sender.library, query.method) },
      });
    }
    return result;
  },
  all(_model, context) {
    return getSqlModel(context)
      .advisoryLocks.filter((lock) => lock.call.action === 'lock')
      .map((lock) => ({ node: lock.node, owner: lock.owner }));
  },
};

export const TRY_ACQUISITION_SOURCES: readonly AcquisitionSource[] = [redisSource, advisorySource];

/**
 * The key names a lock, or the module also releases it. Not `isLockKey`: every acquired key is a
 * lock key there, which would make each SET NX its own evidence.
 */
function isLockAcquisition(model: LockModel, sourceCode: Readonly<TSESLint.SourceCode>, acquisition: Acquisition): boolean {
  if (!acquisition.key) return false;
  if (looksLikeLockKey(sourceCode, acquisition.key, model.settings.lockKeyPattern)) return true;
  return !claimsRecord(model.redis, acquisition) && isReleasedInModule(model.redis, acquisition);
}

function labelOf(acquisition: Acquisition): string {
  switch (acquisition.kind) {
    case 'set-nx':
      return 'SET NX';
    case 'setnx':
      return 'SETNX';
    case 'semaphore':
      return 'tryAcquire()';
    case 'helper':
      return `${acquisition.helper?.name ?? 'acquire'}()`;
    default:
      return acquisition.command?.name ?? acquisition.kind;
  }
}

/** `SET k token NX` then `GET k` compared with the token: the holder checks ownership by reading back. */
function isReadBackLater(model: LockModel, acquisition: Acquisition): boolean {
  if (acquisition.keySignature === undefined) return false;
  const sameKey = redisIndex(model.redis).commandsByKey.get(acquisition.keySignature);
  return within(sameKey, acquisition.owner.range, commandNode).some(
    (command) =>
      command.name === 'GET' && command.resultUsed && command.owner === acquisition.owner && runsBefore(acquisition.node, command.call),
  );
}
