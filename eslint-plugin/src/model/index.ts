// The lock model: one shared analysis of a file, computed once per Program and settings, that every
// rule queries. Rules never walk the AST for Redis themselves.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { locksOf, type Locks } from './locks.js';
import { buildRedisModel, type RedisModel } from './redis-model.js';
import { readSharedSettings, type SharedSettings } from './settings.js';
import { getSqlModel, type SqlModel } from './sql/index.js';
import { testCodeOf } from './test-code.js';
import { getTypeOracle, type TypeOracle } from './type-oracle.js';

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

type AnyRuleContext = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;

const cache = new WeakMap<TSESTree.Program, Map<SharedSettings, LockModel>>();

export function getLockModel(context: AnyRuleContext): LockModel {
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
