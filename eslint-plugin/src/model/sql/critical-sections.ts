// Ties writes to the locks held while they run: each Redis, Redlock, redis-semaphore or lock-table
// acquisition, the stretch of its function up to the release, and the SQL it sends meanwhile.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { Acquisition, RedisModel } from '../redis-model.js';
import { contains, type ScopeOwner } from '../../util/ast.js';
import { eventNode, within } from '../indexes.js';
import type { SqlModel, SqlQuery, SqlWrite } from './index.js';

export interface HeldLock {
  /** The acquisition call (or lock-table query). */
  readonly node: TSESTree.Node;
  readonly owner: ScopeOwner;
  readonly kind: 'redis' | 'redlock' | 'redis-semaphore' | 'wrapper' | 'helper' | 'lock-table' | 'advisory';
  readonly key: TSESTree.Node | undefined;
  /** The lock's name as the code writes it, for `efficiencyLocks` patterns. */
  readonly keyText: string | undefined;
  /** The acquisition mints a fence atomically (the fenced acquire script). */
  readonly mintsFence: boolean;
  readonly redis: Acquisition | undefined;
  /** Source offsets the critical section spans: from the acquisition to its release (or the function's end). */
  readonly from: number;
  readonly to: number;
  /** The release (or unlock) call ending the section, when the function shows one. */
  readonly release: TSESTree.Node | undefined;
}

/** Every lock the file takes, with its critical section. */
export function heldLocks(sourceCode: Readonly<TSESLint.SourceCode>, redis: RedisModel, sql: SqlModel): HeldLock[] {
  const locks: HeldLock[] = [];
  for (const acquisition of redis.acquisitions) {
    // The releases after it in its own function (a binary search): the first of the same key, or
    // for Redlock's `lock.release()` and a Mutex's `release()`, which name the handle, not the key.
    const release = within(redis.releases, [acquisition.node.range[1], acquisition.owner.range[1]], eventNode).find((candidate) => candidate.owner === acquisition.owner
      && candidate.node.range[0] > acquisition.node.range[1]
      && ((candidate.keySignature !== undefined && candidate.keySignature === acquisition.keySignature)
        || (candidate.keySignature === undefined && candidate.library === acquisition.library && acquisition.library !== 'redis')));
    locks.push({
      node: acquisition.node,
      owner: acquisition.owner,
      // A PostgreSQL lock taken through a project helper is held as that lock (an advisory lock needs no fence).
      kind: acquisition.helper?.family ?? acquisition.library,
      key: acquisition.key,
      keyText: acquisition.key ? keyText(sourceCode, acquisition.key) : undefined,
      mintsFence: acquisition.mintsFence,
      redis: acquisition,
      from: acquisition.node.range[0],
      // A with-lock helper holds the lock for the call alone (its callback's run).
      to: release?.node.range[0] ?? (acquisition.helper?.role === 'with-lock' ? acquisition.node.range[1] : acquisition.owner.range[1]),
      release: release?.node,
    });
  }
  for (const acquisition of sql.lockTableAcquisitions) {
    const release = within(sql.lockTableReleases, [acquisition.range[1], acquisition.function.range[1]], itemNode)
      .find((candidate) => candidate.function === acquisition.function && candidate.range[0] > acquisition.range[1] && candidate.table === acquisition.table);
    locks.push({
      node: acquisition.node,
      owner: acquisition.function,
      kind: 'lock-table',
      key: undefined,
      keyText: acquisition.table,
      mintsFence: false,
      redis: undefined,
      from: acquisition.range[0],
      to: release?.range[0] ?? acquisition.function.range[1],
      release: release?.node,
    });
  }
  for (const lock of sql.advisoryLocks) {
    if (lock.call.action !== 'lock') continue;
    const unlock = within(sql.advisoryLocks, [lock.range[1], lock.function.range[1]], itemNode)
      .find((candidate) => candidate.call.action !== 'lock' && candidate.function === lock.function && candidate.range[0] > lock.range[1]);
    locks.push({
      node: lock.node,
      owner: lock.function,
      kind: 'advisory',
      key: undefined,
      keyText: undefined,
      mintsFence: false,
      redis: undefined,
      from: lock.range[0],
      // A transaction-level lock holds until the transaction's end: the rest of the function.
      to: unlock?.range[0] ?? lock.function.range[1],
      release: unlock?.node,
    });
  }
  return locks;
}

/** Writes that run inside the lock's critical section. */
export function writesUnder(lock: HeldLock, writes: readonly SqlWrite[]): SqlWrite[] {
  return within(writes, [lock.from, lock.to], itemNode)
    .filter((write) => write.range[0] > lock.from && write.range[1] <= lock.to && contains(lock.owner, write.node) && write.node !== lock.node);
}

/** SQL queries that run inside the lock's critical section, the lock's own queries left out. */
export function queriesUnder(lock: HeldLock, queries: readonly SqlQuery[]): SqlQuery[] {
  return within(queries, [lock.from, lock.to], itemNode)
    .filter((query) => query.node.range[0] > lock.from && query.node.range[1] <= lock.to && contains(lock.owner, query.node)
      && query.node !== lock.node && query.node !== lock.release);
}

const itemNode = (item: { readonly node: TSESTree.Node }): TSESTree.Node => item.node;

function keyText(sourceCode: Readonly<TSESLint.SourceCode>, key: TSESTree.Node): string {
  const text = sourceCode.getText(key);
  return /^(['"`])(?:(?!\1|\$\{).)*\1$/su.test(text) ? text.slice(1, -1) : text;
}
