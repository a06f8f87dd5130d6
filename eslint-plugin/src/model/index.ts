// The lock model's face: one shared analysis of a file (lock-model.ts), computed once per Program and
// settings, and the questions rules ask of it. Rules never walk the AST for Redis themselves.

export { getLockModel } from './lock-model.js';

export type { Acquisition, Expiry, RedisCommand, RedisModel, Release, ScriptCall } from './nouns/redis-events.js';
export type { SharedSettings } from './nouns/vocabulary.js';
export type { Lock, LockModel, Locks } from './nouns/lock-types.js';

// The model's face: the questions rules ask of it. Rules import the model from here only
// (test/eslint-plugin/model-face.test.ts holds them to it); what is not listed is the model's own.

// Settings a rule reads with overrides of its own (require-fencing-token's fence columns).
export { DEFAULT_FENCE_COLUMNS, readSharedSettings, type RawSharedSettings } from './facts/settings.js';

// Which events are the code's own Redis commands rather than a lock library's or a helper's call, and
// how a lock library's name reads in a message.
export { isRawCommand, lockLibraryDisplayName } from './tables/redis-clients.js';

// Acquisitions: which calls take a lock, and which of them owe a release or an expiry.
export {
  isExportedLockHelper,
  isLockAcquisition,
  isLockKeyWrite,
  isScopedAcquisition,
  redisAcquisitionsWithoutTtl,
} from './questions/lock-acquisitions.js';
export { isInLockFunction } from './facts/keys.js';
export { precedesInScope } from './facts/source-order.js';
export { splitAcquisitionOf } from './pairing/split-acquisitions.js';

// Acquisition results: whether a try-acquire's answer decides anything, and helpers that fail open.
export { TRY_ACQUISITION_SOURCES, type TryAcquisition } from './questions/try-acquisitions.js';
export { failOpenReturn, tryAcquisitionFate } from './questions/acquire-results.js';
export { isResultDiscarded, isUsedOnlyAsCondition, resultAccess, type ResultFate } from './facts/result-flow.js';

// Releases and renewals: whose lock each one ends or extends, whether it compares the owner first,
// and whether anything reads the answer it gives.
export { lockMachinery, ownerCheckAround } from './questions/same-lock.js';
// Which lock a release or renewal ends or extends, and a lock's releases: paired once, in locks.ts.
export { acquiredAt, keyedReleasesAndRenewals, releasesAfterAcquisition } from './pairing/locks.js';
export type { AdvisoryLock, LockTableLock, RedisLock } from './nouns/lock-types.js';
export { droppedReleaseResults } from './questions/release-results.js';
export { isUnsafeRenewal } from './questions/renewals.js';
export { watchGuardOf } from './questions/watch-guards.js';
export { admits, compareAndDeleteCommand } from './tables/servers.js';

// Tokens: whether the value a lock stores is this holder's alone.
export { eventsOfSameLock, writtenKeyEvents } from './questions/same-lock.js';
export { isParameterValue, sharedTokenKind, type SharedTokenKind } from './questions/token-origin.js';
export { callerArguments } from './facts/parameter-callers.js';

// Work under the lock: what the critical section does, and what happens to it when the lock is lost,
// never taken, or the work throws.
export { checkThenSetRead } from './questions/read-decides.js';
export { isHousekeeping, isLockKey, isPlainWrite } from './questions/housekeeping.js';
export { lockKeyWrites } from './questions/lock-key-writes.js';
export { singleStatement } from './questions/single-statement.js';
export { fenceMintedAfter, isEfficiencyLock } from './questions/fences.js';
export { hasAutoExtendingLocks, locksIgnoringLoss, type LockLossIgnored } from './questions/lock-loss.js';
export { endsSessionInFinally, hasWorkBetween, isGuaranteed, isKeptOnSuccess } from './questions/error-paths.js';
export type { LockStep } from './nouns/lock-types.js';

// Lua scripts: the script texts of a file, and script calls whose keys span hash slots.
export { luaTextsOf, type LuaText } from './lua-scripts/lua-texts.js';
export { scriptTextPitfalls } from './lua-scripts/lua-file-model.js';
export { crossSlotScriptCalls } from './questions/hash-slots.js';

// PostgreSQL: advisory locks and lock tables, their pairing, and the transactions they run in.
export {
  controlsTransactionIn,
  EXPIRY_COLUMNS,
  isPooledSessionCall,
  isTrailingBarrier,
  OWNER_COLUMNS,
  runsOutsideTransaction,
} from './sql/sql-model.js';
export type { AdvisoryLockItem, LockTableAcquisition, LockTableRelease, SqlModel, SqlWrite } from './nouns/sql-items.js';
export { writesUnder } from './pairing/locks.js';
export { isUnownedRelease, isUnownedRenewal } from './questions/lock-table-events.js';
// The statements between a lock and its unlock, as a suggestion moves them into a transaction.
export {
  renderSpanBody,
  spanBetween,
  spanDeclarationsUsedAfter,
  spanLeavesCallback,
  spanToBlockEnd,
  type StatementSpan,
  type TextEdit,
} from './sql/statement-span.js';
