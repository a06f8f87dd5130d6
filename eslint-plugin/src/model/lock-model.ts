// The assembly of one file's lock model: the Redis and SQL halves, built on first read, the locks
// paired from them, and the summaries of the project's other modules that both halves follow.
// Computed once per Program and settings; rules reach it through the face (index.ts).

import type { TSESTree } from '@typescript-eslint/utils';
import type { LocksmithRuleContext } from '../util/rule-context.js';
import { readSharedSettings } from './facts/settings.js';
import { testCodeOf } from './facts/test-code.js';
import { getTypeOracle } from './facts/type-oracle.js';
import { summarizeSqlLockHelpers } from './helpers/sql-helper-summaries.js';
import type { LockModel } from './nouns/lock-types.js';
import type { ModuleHelperSummaries, RedisModel } from './nouns/redis-events.js';
import type { SqlModel } from './nouns/sql-items.js';
import type { SharedSettings } from './nouns/vocabulary.js';
import { locksOf } from './pairing/locks.js';
import { buildRedisModel } from './redis/redis-model.js';
import { getSqlModel, sqlModelOf } from './sql/sql-model.js';

/**
 * Another module's lock helpers, Redis and PostgreSQL alike: its Redis model's helpers, and the
 * SQL helpers of its SQL model. Handed to the builders rather than imported by them, since building
 * another module's model is the same build again (helpers/imported-helpers.ts memoises per module).
 */
export const moduleHelperSummaries: ModuleHelperSummaries = (sourceCode, filePath, settings) => {
  const redis = buildRedisModel(sourceCode, filePath, null, settings, moduleHelperSummaries).lockHelpers;
  // Only a module whose text can hold SQL is handed to the SQL model (its own screen decides).
  const sql = summarizeSqlLockHelpers(sourceCode, sqlModelOf(sourceCode, filePath), settings.lockKeyPattern);
  return sql.size === 0 ? redis : new Map([...sql, ...redis]);
};

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
      redis ??= buildRedisModel(sourceCode, context.filename, typeOracle, settings, moduleHelperSummaries);
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
