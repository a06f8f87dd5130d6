// SQL lock helpers: the project's functions and methods that take or free a PostgreSQL lock — a
// session advisory lock (`acquireRunLock(key)` running `pg_try_advisory_lock`, a `MigrationLock`
// class's `acquire()`/`release()`) or a lock-table row (`acquireLock(name, ttl)` inserting into
// `locks`) — summarised as helper-summaries.ts summarises Redis ones, so that a call to one in
// another module is an acquisition or a release for every rule. Each SQL lock step becomes a lock
// event of its function; the summary logic (roles, key parameters, what the helper returns) is
// helper-summaries.ts's own.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionLike } from '../../util/ast.js';
import { keySignature } from '../facts/keys.js';
import { summarizeLockHelpers } from './helper-summaries.js';
import type { LockHelperSummary, Acquisition, Expiry, Release } from '../nouns/redis-events.js';
import type { AdvisoryLockItem, SqlModel } from '../nouns/sql-items.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Family = NonNullable<LockHelperSummary['family']>;

/** The module's SQL lock helpers, by function. */
export function summarizeSqlLockHelpers(
  sourceCode: SourceCode,
  sql: SqlModel,
  lockKeyPattern: RegExp,
): Map<FunctionLike, LockHelperSummary> {
  const acquisitions: Acquisition[] = [];
  const releases: Release[] = [];
  const expiries: Expiry[] = [];
  const families = new Map<TSESTree.Node, Family>();
  for (const item of sql.advisoryLocks) {
    // A transaction-level lock ends with its transaction, inside the helper: no lock reaches the caller.
    if (item.call.scope !== 'session' || item.node.type !== AST_NODE_TYPES.CallExpression) continue;
    const base = {
      node: item.node,
      library: 'wrapper' as const,
      command: undefined,
      owner: item.owner,
      ...advisoryKey(sourceCode, item),
    };
    families.set(item.node, 'advisory');
    if (item.call.action === 'lock')
      acquisitions.push({ ...base, kind: 'wrapper', value: undefined, hasTtl: false, isTry: item.call.mode === 'try', mintsFence: false });
    else releases.push({ ...base, kind: 'wrapper', safe: true });
  }
  for (const item of sql.lockTableAcquisitions) {
    if (item.node.type !== AST_NODE_TYPES.CallExpression) continue;
    families.set(item.node, 'lock-table');
    // An upsert or a conditional insert can find the row taken: the helper reports it through its result.
    acquisitions.push({
      node: item.node,
      library: 'wrapper',
      command: undefined,
      owner: item.owner,
      ...rowKey(sourceCode, item.table, item.query?.parameters ?? item.builder?.parameters ?? []),
      kind: 'wrapper',
      value: undefined,
      hasTtl: true,
      isTry: true,
      mintsFence: false,
    });
  }
  for (const [list, target] of [
    [sql.lockTableReleases, releases],
    [sql.lockTableRenewals, expiries],
  ] as const) {
    for (const item of list) {
      if (item.node.type !== AST_NODE_TYPES.CallExpression) continue;
      families.set(item.node, 'lock-table');
      const event = {
        node: item.node,
        library: 'wrapper' as const,
        command: undefined,
        owner: item.owner,
        ...rowKey(sourceCode, item.table, item.query?.parameters ?? item.builder?.parameters ?? []),
        kind: 'wrapper' as const,
        safe: item.ownerCompared,
      };
      (target as (Release | Expiry)[]).push(target === releases ? event : { ...event, kind: 'library' });
    }
  }
  const summaries = new Map<FunctionLike, LockHelperSummary>();
  if (acquisitions.length + releases.length + expiries.length === 0) return summaries;
  const byOrder = (left: { node: TSESTree.Node }, right: { node: TSESTree.Node }) => left.node.range[0] - right.node.range[0];
  const events = {
    commands: [],
    acquisitions: acquisitions.sort(byOrder),
    releases: releases.sort(byOrder),
    expiries: expiries.sort(byOrder),
  };
  for (const [fn, summary] of summarizeLockHelpers(sourceCode, events, lockKeyPattern)) {
    summaries.set(fn, { ...summary, family: families.get(summary.event.node) });
  }
  return summaries;
}

/**
 * The advisory key as a key signature: the JavaScript bound to the call's first placeholder
 * (`hashtext(${key})` reads `key`), else the call's argument text (`(42)`), marked as an
 * advisory key so it never meets a Redis key.
 */
function advisoryKey(sourceCode: SourceCode, item: AdvisoryLockItem): { key: TSESTree.Node | undefined; keySignature: string | undefined } {
  const location = item.call.location;
  const text = location ? item.query.sql.text.slice(location.start, location.end) : undefined;
  const placeholder = text ? /\$(\d+)/u.exec(text) : null;
  const bound = placeholder ? item.query.parameters[Number(placeholder[1]) - 1] : undefined;
  if (bound) {
    // A key the signatures cannot spell (`this.#lockId`) is compared by its text: the class's own field in every method.
    const signature = keySignature(sourceCode, bound) ?? (isInstanceField(bound) ? sourceCode.getText(bound) : undefined);
    return { key: bound, keySignature: signature === undefined ? undefined : `advisory(${signature})` };
  }
  const argumentsText = text?.slice(text.indexOf('(')).replace(/\s+/gu, '');
  return { key: undefined, keySignature: argumentsText && !argumentsText.includes('$') ? `advisory${argumentsText}` : undefined };
}

/**
 * A lock row's key: the table and the first value the query binds (the row's name), or the table
 * alone. A knex chain binds its insert's values first, then its `where` values, in the order written.
 */
function rowKey(
  sourceCode: SourceCode,
  table: string,
  parameters: readonly (TSESTree.Node | undefined)[],
): { key: TSESTree.Node | undefined; keySignature: string | undefined } {
  const bound = parameters[0];
  const signature = bound ? keySignature(sourceCode, bound) : undefined;
  return { key: bound, keySignature: `row:${table}(${signature ?? ''})` };
}

/** `this.lockId`, `this.#lockId`: a field of the instance, the same in each of its methods. */
function isInstanceField(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.MemberExpression && node.object.type === AST_NODE_TYPES.ThisExpression && !node.computed;
}
