// A session advisory lock's unlocks in its own function: the pairing require-release-in-finally
// judges (an unlock on the success path only leaks the lock).

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { within } from '../indexes.js';
import type { AdvisoryLockItem, SqlModel } from './index.js';

/**
 * A session advisory lock's unlocks: `pg_advisory_unlock` (or `_unlock_all`) later in the same
 * function body, sent by the same client (as `no-pooled-advisory-lock` pairs them), in a query of
 * their own. Unlocks in nested functions are returned too, so the caller stays silent on them.
 * `undefined` when the lock is not a session lock or shares its query with its unlock.
 */
export function advisoryUnlocksOf(sourceCode: Readonly<TSESLint.SourceCode>, model: SqlModel, lock: AdvisoryLockItem): AdvisoryLockItem[] | undefined {
  if (lock.call.scope !== 'session' || lock.call.action !== 'lock') return undefined;
  const key = advisoryKeyText(sourceCode, lock);
  const unlocks = within(model.advisoryLocks, lock.function.range, sqlItemNode).filter((candidate) => candidate.call.scope === 'session' && candidate.call.action !== 'lock'
    && candidate.query.sender.identity === lock.query.sender.identity
    && candidate.range[0] > lock.range[1]
    // `pg_advisory_unlock(2)` does not release `pg_advisory_lock(1)`; unknown keys may match.
    && (candidate.call.action === 'unlock-all' || !differentKeys(key, advisoryKeyText(sourceCode, candidate))));
  if (advisoryByQuery(model).get(lock.query)!.some((other) => other !== lock && other.call.action !== 'lock')) return undefined;
  return unlocks;
}

/**
 * The key arguments of an advisory call as the code writes them, parameters replaced by the
 * JavaScript bound to them: `(42)`, `(jobId)`, `(1, hashtext(name))`. `undefined` when not readable.
 */
function advisoryKeyText(sourceCode: Readonly<TSESLint.SourceCode>, item: AdvisoryLockItem): string | undefined {
  const location = item.call.location;
  if (!location) return undefined;
  const text = item.query.sql.text.slice(location.start, location.end);
  const open = text.indexOf('(');
  if (open < 0) return undefined;
  const argumentsText = text.slice(open);
  const bound = new Map<string, string>();
  for (const match of argumentsText.matchAll(/\$(\d+)/gu)) {
    const parameter = item.query.parameters[Number(match[1]) - 1];
    if (!parameter) return undefined;
    bound.set(match[0], sourceCode.getText(parameter));
  }
  const key = argumentsText.replace(/\$\d+/gu, (placeholder) => bound.get(placeholder) ?? placeholder);
  return key.replace(/\s+/gu, '').toLowerCase();
}

function differentKeys(left: string | undefined, right: string | undefined): boolean {
  return left !== undefined && right !== undefined && left !== right;
}

const sqlItemNode = (item: { readonly node: TSESTree.Node }): TSESTree.Node => item.node;

const advisoryByQueryByModel = new WeakMap<SqlModel, ReadonlyMap<AdvisoryLockItem['query'], readonly AdvisoryLockItem[]>>();

/** The file's advisory calls by the query that sends them, gathered once per file. */
function advisoryByQuery(model: SqlModel): ReadonlyMap<AdvisoryLockItem['query'], readonly AdvisoryLockItem[]> {
  const cached = advisoryByQueryByModel.get(model);
  if (cached) return cached;
  const byQuery = new Map<AdvisoryLockItem['query'], AdvisoryLockItem[]>();
  for (const item of model.advisoryLocks) {
    const list = byQuery.get(item.query);
    if (list) list.push(item);
    else byQuery.set(item.query, [item]);
  }
  advisoryByQueryByModel.set(model, byQuery);
  return byQuery;
}
