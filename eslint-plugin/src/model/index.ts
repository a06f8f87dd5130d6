// The lock model: one shared analysis of a file, computed once per Program and settings, that every
// rule queries. Rules never walk the AST for Redis themselves.

import type { TSESTree } from '@typescript-eslint/utils';
import { locksOf, type Locks } from './locks.js';
import { buildRedisModel, type RedisModel } from './redis-model.js';
import { readSharedSettings, type SharedSettings } from './settings.js';
import { getSqlModel, type SqlModel } from './sql/index.js';
import { testCodeOf } from './test-code.js';
import { getTypeOracle, type TypeOracle } from './type-oracle.js';
import type { LocksmithRuleContext } from '../util/rule-context.js';

export type { Acquisition, Expiry, RedisCommand, RedisModel, Release, ScriptCall } from './redis-model.js';
export type { SharedSettings } from './settings.js';
export type { Lock, Locks } from './locks.js';

/** Each half is built on first read: a SQL-only rule never builds the Redis half, nor the reverse. */
export interface LockModel {
  readonly redis: RedisModel;
  readonly sql: SqlModel;
  /** Every lock of the file with its releases and renewals, paired in one place (locks.ts). */
  readonly locks: Locks;
  readonly settings: SharedSettings;
  readonly typeOracle: TypeOracle | null;
  /** True when `node` runs inside a test case or a setup/teardown hook of a test framework. */
  inTestCode(node: TSESTree.Node): boolean;
}

const cache = new WeakMap<TSESTree.Program, Map<SharedSettings, LockModel>>();

export function getLockModel(context: LocksmithRuleContext): LockModel {
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast;
  const settings = readSharedSettings(context);
  let perSettings = cache.get(program);
  if (!perSettings) {
    perSettings = new Map();
    cache.set(program, perSettings);
  }
  const cached = perSettings.get(settings);
  if (cached) return cached;
  const typeOracle = getTypeOracle(context);
  let redis: RedisModel | undefined;
  let sql: SqlModel | undefined;
  const model: LockModel = {
    get redis() {
      redis ??= buildRedisModel(sourceCode, context.filename, typeOracle, settings);
      return redis;
    },
    get sql() {
      // Per Program, whatever the settings: the SQL half reads none of them.
      sql ??= getSqlModel(context);
      return sql;
    },
    get locks() {
      return locksOf(sourceCode, model);
    },
    settings,
    typeOracle,
    inTestCode: (node) => testCodeOf(sourceCode).callbackAround(node) !== undefined,
  };
  perSettings.set(settings, model);
  return model;
}

// The model's face: the questions rules ask of it. Rules import the model from here only
// (test/eslint-plugin/model-face.test.ts holds them to it); what is not listed is the model's own.

// Settings a rule reads with overrides of its own (require-fencing-token's fence columns).
export { DEFAULT_FENCE_COLUMNS, readSharedSettings, type RawSharedSettings } from './settings.js';

// Acquisitions: which calls take a lock, and which of them owe a release or an expiry.
export { isExportedLockHelper, isInLockFunction, isLockAcquisition, isLockKeyWrite, isScopedAcquisition, redisAcquisitionsWithoutTtl } from './lock-acquisitions.js';
export { precedesInScope, splitAcquisitionOf } from './queries.js';

// Acquisition results: whether a try-acquire's answer decides anything, and helpers that fail open.
export { TRY_ACQUISITION_SOURCES, type TryAcquisition } from './try-acquisitions.js';
export { failOpenReturn, tryAcquisitionFate } from './acquire-results.js';
export { isResultDiscarded, isUsedOnlyAsCondition, resultAccess, type ResultFate } from './result-flow.js';

// Releases and renewals: whose lock each one ends or extends, whether it compares the owner first,
// and whether anything reads the answer it gives.
export { lockMachinery, ownerCheckAround } from './queries.js';
// Which lock a release or renewal ends or extends, and a lock's releases: paired once, in locks.ts.
export { acquiredAt, keyedReleasesAndRenewals, releasesAfterAcquisition, type AdvisoryLock, type LockTableLock, type RedisLock } from './locks.js';
export { droppedReleaseResults } from './release-results.js';
export { isUnsafeRenewal } from './renewals.js';
export { watchGuardOf } from './watch-guards.js';
export { admits, compareAndDeleteCommand } from './servers.js';

// Tokens: whether the value a lock stores is this holder's alone.
export { eventsOfSameLock, writtenKeyEvents } from './queries.js';
export { isParameterValue, sharedTokenKind, type SharedTokenKind } from './token-origin.js';
export { callerArguments } from './parameter-callers.js';

// Work under the lock: what the critical section does, and what happens to it when the lock is lost,
// never taken, or the work throws.
export { checkThenSetRead } from './read-decides.js';
export { isPlainWrite } from './housekeeping.js';
export { lockKeyWrites } from './lock-key-writes.js';
export { singleStatement } from './single-statement.js';
export { fenceMintedAfter, isEfficiencyLock } from './fences.js';
export { hasAutoExtendingLocks, locksIgnoringLoss } from './lock-loss.js';
export { endsSessionInFinally, hasWorkBetween, isGuaranteed, type LockStep } from './error-paths.js';

// Lua scripts: the script texts of a file, and script calls whose keys span hash slots.
export { luaTextsOf, type LuaText } from './lua-texts.js';
export { crossSlotScriptCalls } from './hash-slots.js';

// PostgreSQL: advisory locks and lock tables, their pairing, and the transactions they run in.
export {
  controlsTransactionIn, EXPIRY_COLUMNS, isPooledSessionCall, isTrailingBarrier, OWNER_COLUMNS, runsOutsideTransaction,
  type AdvisoryLockItem, type LockTableAcquisition, type LockTableRelease, type SqlModel, type SqlWrite,
} from './sql/index.js';
export { writesUnder } from './locks.js';
export { isUnownedRelease, isUnownedRenewal } from './sql/lock-table-events.js';
// The statements between a lock and its unlock, as a suggestion moves them into a transaction.
export { renderSpanBody, spanBetween, spanDeclarationsUsedAfter, spanLeavesCallback, spanToBlockEnd, type StatementSpan, type TextEdit } from './sql/statement-span.js';
