// The lock map: one line per lock a file takes, with its life (where it is acquired, released and
// renewed, its TTL, its token, whether writes under it are fenced), for editors that show the locks
// of a workspace (the VS Code extension's Locksmith view and its CodeLens). Read from the same model
// the rules query: the locks with their releases and renewals (pairing/) and the token
// classification (questions/token-origin.ts). Nothing here reports.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { constInitializer, isInFinally, skipTypeWrappers } from '../../util/ast.js';
import { getLockModel } from '../lock-model.js';
import { writesUnder } from '../pairing/locks.js';
import type { AdvisoryLock, Lock, LockTableLock, RedisLock } from '../nouns/lock-types.js';
import { fileMayHoldLocks } from '../file-screen.js';
// The screen without a parse, for an editor that maps the locks of files it has not opened, and
// what it keeps of the modules it read from one file to the next.
export { textMayTakeLocks } from '../file-screen.js';
export { createReachMemo, type ReachMemo } from '../project/import-reach.js';
import type { Acquisition, Release } from '../nouns/redis-events.js';
import { isRawCommand } from '../tables/redis-clients.js';
import { DEFAULT_FENCE_COLUMNS } from '../facts/settings.js';
import { mintsRandomly, sharedTokenKind } from '../questions/token-origin.js';
import type { LocksmithRuleContext } from '../../util/rule-context.js';
import { isLockLibrary } from '../tables/redis-clients.js';

/** Zero-based line and column, as editors (LSP) count them. */
export interface MapPosition {
  readonly line: number;
  readonly character: number;
}

export interface MapRange {
  readonly start: MapPosition;
  readonly end: MapPosition;
}

export type LockMapKind = 'Redis' | 'Redlock' | 'redis-semaphore' | 'advisory' | 'lock table' | 'project helper';

export interface LockSiteSummary {
  readonly range: MapRange;
  /** One short phrase: `in finally`, `compare-and-delete`, `plain DEL`. */
  readonly note: string;
}

export interface LockSummary {
  /** The lock's name as a reader would write it: `invoice:{id}`, a table, an advisory lock's call. */
  readonly name: string;
  readonly kind: LockMapKind;
  readonly acquired: MapRange;
  /** The function the lock is held in, from the acquisition to its release (or the function's end). */
  readonly section: MapRange;
  readonly releases: readonly LockSiteSummary[];
  readonly renewals: readonly LockSiteSummary[];
  /** `30 s`, `ttlMs`, `library default`, `none`, or `until unlock` / `until commit` for PostgreSQL. */
  readonly ttl: string;
  /** `unique (randomUUID)`, `shared (literal)`, `library-minted`, `not shown`. */
  readonly token: string;
  readonly tokenUnique: boolean | undefined;
  /** `fenced`, `not fenced`, `no writes under it`. */
  readonly writes: string;
  readonly fenced: boolean | undefined;
}

const KIND_LABELS: Record<Lock['kind'], LockMapKind> = {
  redis: 'Redis',
  redlock: 'Redlock',
  'redis-semaphore': 'redis-semaphore',
  wrapper: 'project helper',
  helper: 'project helper',
  'lock-table': 'lock table',
  advisory: 'advisory',
};

/** Every lock the linted file takes, in source order, with its life summarised. */
export function lockSummaries(context: LocksmithRuleContext): LockSummary[] {
  // The rules' own screen: a file it turns away holds no lock, and the editor asks on every keystroke.
  if (!fileMayHoldLocks(context)) return [];
  const sourceCode = context.sourceCode;
  const model = getLockModel(context);
  const sql = model.sql;
  const fenceColumns = model.settings.fenceColumns.length > 0 ? model.settings.fenceColumns : DEFAULT_FENCE_COLUMNS;
  const summaries: LockSummary[] = [];
  for (const lock of model.locks.all) {
    const acquisition = lock.redis;
    const { releases, renewals } = lock.redis ? redisEnds(lock) : sqlEnds(lock);
    const writes = writesUnder(lock, sql.writes).filter((write) => !(write.query && !write.statement) && !write.idempotent);
    // An advisory lock ends with its connection: a write on it cannot outlive the lock (require-fencing-token).
    const fenced =
      writes.length === 0 || lock.kind === 'advisory'
        ? undefined
        : lock.mintsFence || writes.every((write) => write.isFenced(fenceColumns));
    const token = acquisition ? tokenOf(sourceCode, acquisition) : { text: 'the connection holds it', unique: undefined };
    summaries.push({
      name: nameOf(sourceCode, lock),
      kind: KIND_LABELS[lock.kind],
      acquired: rangeOf(lock.node),
      section: { start: rangeOf(lock.node).start, end: positionAt(sourceCode, Math.max(lock.to, lock.node.range[1])) },
      releases,
      renewals,
      ttl: lock.redis
        ? ttlOf(sourceCode, lock)
        : lock.kind === 'advisory'
          ? advisoryTtl(sourceCode, lock)
          : 'until released (expiry column, if any)',
      token: token.text,
      tokenUnique: token.unique,
      writes:
        writes.length === 0
          ? 'no writes under it'
          : fenced === undefined
            ? 'writes need no fence'
            : fenced
              ? 'writes fenced'
              : 'writes not fenced',
      fenced,
    });
  }
  return summaries.sort(
    (left, right) => left.acquired.start.line - right.acquired.start.line || left.acquired.start.character - right.acquired.start.character,
  );
}

function redisEnds(lock: RedisLock): { releases: LockSiteSummary[]; renewals: LockSiteSummary[] } {
  return {
    releases: lock.releases.map((release) => ({ range: rangeOf(release.node), note: releaseNote(release) })),
    renewals: lock.renewals.map((expiry) => ({ range: rangeOf(expiry.node), note: expiry.safe ? 'owner-checked' : 'not owner-checked' })),
  };
}

function sqlEnds(lock: LockTableLock | AdvisoryLock): { releases: LockSiteSummary[]; renewals: LockSiteSummary[] } {
  const place = (event: { readonly node: TSESTree.Node; readonly owner: TSESTree.Node }) =>
    isInFinally(event.node, event.owner) ? 'in finally' : 'not in finally';
  return {
    releases: lock.releases.map((release) => ({ range: rangeOf(release.node), note: place(release) })),
    renewals: lock.renewals.map((renewal) => ({
      range: rangeOf(renewal.node),
      note: renewal.ownerCompared ? 'owner-checked' : 'not owner-checked',
    })),
  };
}

function releaseNote(release: Release): string {
  const place = isInFinally(release.node, release.owner) ? 'in finally' : 'not in finally';
  return release.safe ? place : `${place}, not owner-checked`;
}

function ttlOf(sourceCode: Readonly<TSESLint.SourceCode>, lock: RedisLock): string {
  const acquisition = lock.redis;
  const ttl = lock.ttl;
  if (ttl) return `${duration(sourceCode, ttl.node, ttl.unit)}${ttl.completion ? ', set by a separate EXPIRE' : ''}`;
  // redis-semaphore's `lockTimeout` option is not read: its default, or what the option says.
  if (isLockLibrary(acquisition.library)) return 'library default';
  return acquisition.hasTtl ? 'set' : 'none';
}

/** `30 s` for a literal number of milliseconds or seconds, else the expression as written. */
function duration(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, unit: 's' | 'ms'): string {
  const expression = skipTypeWrappers(node);
  const value = expression.type === AST_NODE_TYPES.Literal && typeof expression.value === 'number' ? expression.value : undefined;
  if (value === undefined) return `${abbreviate(sourceCode.getText(node))} (${unit})`;
  const seconds = unit === 's' ? value : value / 1000;
  return Number.isInteger(seconds) ? `${seconds} s` : `${value} ms`;
}

function advisoryTtl(sourceCode: Readonly<TSESLint.SourceCode>, lock: Lock): string {
  return /_xact_/u.test(sourceCode.getText(lock.node)) ? 'until the transaction ends' : 'until unlocked or the session ends';
}

function tokenOf(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: Acquisition): { text: string; unique: boolean | undefined } {
  if (isLockLibrary(acquisition.library)) return { text: 'library-minted', unique: true };
  const value = acquisition.value;
  if (!value) return { text: isRawCommand(acquisition) ? 'not shown' : 'helper-minted', unique: undefined };
  const shared = sharedTokenKind(sourceCode, value);
  if (shared) return { text: `shared (${shared})`, unique: false };
  const origin = randomOrigin(sourceCode, value);
  return origin ? { text: origin, unique: true } : { text: `from ${abbreviate(sourceCode.getText(value))}`, unique: undefined };
}

/** The call that mints the token, following one `const` (`const token = randomUUID()`). */
function randomOrigin(sourceCode: Readonly<TSESLint.SourceCode>, value: TSESTree.Node): string | undefined {
  let expression = skipTypeWrappers(value);
  if (expression.type === AST_NODE_TYPES.Identifier) expression = constInitializer(sourceCode, expression) ?? expression;
  if (!mintsRandomly(expression)) return undefined;
  const call = expression.type === AST_NODE_TYPES.CallExpression ? expression : undefined;
  const callee = call ? skipTypeWrappers(call.callee) : undefined;
  const name =
    callee?.type === AST_NODE_TYPES.Identifier
      ? callee.name
      : callee?.type === AST_NODE_TYPES.MemberExpression && callee.property.type === AST_NODE_TYPES.Identifier
        ? callee.property.name
        : undefined;
  return name ?? 'random';
}

function nameOf(sourceCode: Readonly<TSESLint.SourceCode>, lock: Lock): string {
  if (lock.kind === 'advisory') {
    const text = sourceCode.getText(lock.node);
    return /pg_(?:try_)?advisory_(?:xact_)?lock(?:_shared)?\s*\([^)]*\)/iu.exec(text)?.[0] ?? 'advisory lock';
  }
  if (lock.kind === 'lock-table') return `table ${lock.keyText ?? '?'}`;
  if (lock.key) return readableKey(sourceCode, lock.key, 0);
  return lock.redis?.helper?.name ?? abbreviate(sourceCode.getText(lock.redis?.node.callee ?? lock.node));
}

/** `invoice:{id}` for `` `invoice:${id}` ``; a `const` is followed to its value. */
function readableKey(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, depth: number): string {
  const expression = skipTypeWrappers(node);
  if (expression.type === AST_NODE_TYPES.Literal && typeof expression.value === 'string') return expression.value;
  if (expression.type === AST_NODE_TYPES.TemplateLiteral) {
    return expression.quasis
      .map((quasi, index) => {
        const hole = expression.expressions[index];
        return `${quasi.value.cooked ?? ''}${hole ? `{${abbreviate(sourceCode.getText(hole))}}` : ''}`;
      })
      .join('');
  }
  if (expression.type === AST_NODE_TYPES.BinaryExpression && expression.operator === '+' && depth < 4) {
    const part = (side: TSESTree.Node): string => {
      const inner = skipTypeWrappers(side);
      return inner.type === AST_NODE_TYPES.Literal ||
        inner.type === AST_NODE_TYPES.TemplateLiteral ||
        inner.type === AST_NODE_TYPES.BinaryExpression
        ? readableKey(sourceCode, inner, depth + 1)
        : `{${abbreviate(sourceCode.getText(inner))}}`;
    };
    return `${part(expression.left)}${part(expression.right)}`;
  }
  if (expression.type === AST_NODE_TYPES.Identifier && depth < 4) {
    const init = constInitializer(sourceCode, expression);
    if (
      init &&
      (init.type === AST_NODE_TYPES.Literal ||
        init.type === AST_NODE_TYPES.TemplateLiteral ||
        init.type === AST_NODE_TYPES.BinaryExpression)
    )
      return readableKey(sourceCode, init, depth + 1);
  }
  return abbreviate(sourceCode.getText(node));
}

function abbreviate(text: string): string {
  const line = text.replace(/\s+/gu, ' ');
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

function rangeOf(node: TSESTree.Node): MapRange {
  return {
    start: { line: node.loc.start.line - 1, character: node.loc.start.column },
    end: { line: node.loc.end.line - 1, character: node.loc.end.column },
  };
}

function positionAt(sourceCode: Readonly<TSESLint.SourceCode>, offset: number): MapPosition {
  const location = sourceCode.getLocFromIndex(Math.min(offset, sourceCode.text.length));
  return { line: location.line - 1, character: location.column };
}
