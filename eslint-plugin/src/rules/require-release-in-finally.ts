// require-release-in-finally: a lock released on the success path only, so an exception leaks it.

import { AST_NODE_TYPES, AST_TOKEN_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getLockModel } from '../model/index.js';
import { commandNode, eventNode, redisIndex, within } from '../model/indexes.js';
import { runsBefore } from '../model/queries.js';
import type { Acquisition, RedisModel, Release } from '../model/redis-model.js';
import { getSqlModel, type AdvisoryLockItem, type LockTableAcquisition, type SqlModel } from '../model/sql/index.js';
import { contains, expressionStatementOf, findVariable, isFunctionLike, isInFinally, methodCallParts, type ScopeOwner, skipTypeWrappers, valueCarrier } from '../util/ast.js';
import { createRule } from '../util/create-rule.js';
import { childrenOverlapping, indexOfContaining } from '../util/ranges.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'releaseNotInFinally' | 'advisoryUnlockNotInFinally' | 'lockRowReleaseNotInFinally' | 'moveReleaseToFinally';
export type Options = [];

/** What the checks below need of an acquisition or a release, whichever lock family it belongs to. */
interface LockStep {
  readonly node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  readonly owner: ScopeOwner;
}

export default createRule<Options, MessageId>({
  name: 'require-release-in-finally',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require a lock to be released in a `finally` block (or by disposal)',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      releaseNotInFinally: 'This lock is released only on the success path: if the work throws, the release never runs and the lock stays taken until it expires, so no other holder can get in meanwhile.',
      advisoryUnlockNotInFinally: 'This advisory lock is unlocked only on the success path: if the work throws, `pg_advisory_unlock` never runs and the lock stays held as long as the connection lives (forever on a pooled connection), so no other holder can get in.',
      lockRowReleaseNotInFinally: 'This lock row is deleted only on the success path: if the work throws, the row stays until it expires (forever without an expiry), so no other holder can get in meanwhile.',
      moveReleaseToFinally: 'Move the work into `try` and the release into `finally`',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const lockModel = getLockModel(context);
        const model = lockModel.redis;
        const sourceCode = context.sourceCode;
        // A test case that takes a lock and fails mid-way leaves it to expire in a throwaway server:
        // test hygiene, not the production leak this rule is about.
        const inTest = (node: TSESTree.Node): boolean => lockModel.inTestCode(node);
        for (const acquisition of model.acquisitions) {
          if (!isScopedAcquisition(acquisition) || inTest(acquisition.node)) continue;
          const releases = releasesOf(sourceCode, model, acquisition);
          if (releases.length === 0) continue;
          // A release in a nested function (`.finally(() => lock.release())`, an exit handler) is
          // a guarantee this rule cannot weigh: stay silent rather than guess.
          if (releases.some((release) => release.owner !== acquisition.owner || isGuaranteed(release))) continue;
          const machinery = lockMachinery(model, acquisition);
          if (!releases.some((release) => hasWorkBetween(sourceCode, acquisition, release, machinery))) continue;
          const fix = releases.length === 1 ? moveToFinallyFix(sourceCode, acquisition, releases[0]!) : undefined;
          context.report({
            node: acquisition.node,
            messageId: 'releaseNotInFinally',
            data: relatedData(...releases.map((release) => ({ message: 'Released here, on the success path only', node: release.node }))),
            // A suggestion: the release starts running on the error path too, which changes behaviour.
            suggest: fix ? [{ messageId: 'moveReleaseToFinally', fix }] : [],
          });
        }
        const sql = getSqlModel(context);
        for (const lock of sql.advisoryLocks) {
          const unlocks = advisoryUnlocksOf(sourceCode, sql, lock);
          if (!unlocks || inTest(lock.node) || endsSessionInFinally(sourceCode, lock)) continue;
          reportSql(context, asStep(lock), unlocks.map(asStep), 'advisoryUnlockNotInFinally', 'Unlocked here, on the success path only');
        }
        for (const acquisition of sql.lockTableAcquisitions) {
          const releases = lockRowReleasesOf(sql, acquisition);
          if (!releases || inTest(acquisition.node)) continue;
          reportSql(context, asStep(acquisition), releases, 'lockRowReleaseNotInFinally', 'Deleted here, on the success path only');
        }
      },
    };
  },
});

function asStep(item: { readonly node: LockStep['node']; readonly function: ScopeOwner }): LockStep {
  return { node: item.node, owner: item.function };
}

/**
 * The SQL forms share the Redis form's judgement: every release in the acquisition's own function,
 * none guaranteed, and something that can throw between the acquisition and one of them.
 */
function reportSql(
  context: Readonly<TSESLint.RuleContext<MessageId, Options>>,
  acquisition: LockStep,
  releases: readonly LockStep[],
  messageId: 'advisoryUnlockNotInFinally' | 'lockRowReleaseNotInFinally',
  releaseMessage: string,
): void {
  const sourceCode = context.sourceCode;
  if (releases.length === 0 || releases.some((release) => release.owner !== acquisition.owner || isGuaranteed(release))) return;
  if (!releases.some((release) => hasWorkBetween(sourceCode, acquisition, release, new Set()))) return;
  const fix = releases.length === 1 ? moveToFinallyFix(sourceCode, acquisition, releases[0]!) : undefined;
  context.report({
    node: acquisition.node,
    messageId,
    data: relatedData(...releases.map((release) => ({ message: releaseMessage, node: release.node }))),
    // A suggestion: the unlock starts running on the error path too, which changes behaviour.
    suggest: fix ? [{ messageId: 'moveReleaseToFinally', fix }] : [],
  });
}

/**
 * A session advisory lock's unlocks: `pg_advisory_unlock` (or `_unlock_all`) later in the same
 * function body, sent by the same client (as `no-pooled-advisory-lock` pairs them), in a query of
 * their own. Unlocks in nested functions are returned too, so the caller stays silent on them.
 * `undefined` when the lock is not a session lock or shares its query with its unlock.
 */
function advisoryUnlocksOf(sourceCode: Readonly<TSESLint.SourceCode>, model: SqlModel, lock: AdvisoryLockItem): AdvisoryLockItem[] | undefined {
  if (lock.call.scope !== 'session' || lock.call.action !== 'lock') return undefined;
  const key = advisoryKeyText(sourceCode, lock);
  const unlocks = within(model.advisoryLocks, lock.function.range, sqlItemNode).filter((candidate) => candidate.call.scope === 'session' && candidate.call.action !== 'lock'
    && candidate.query.sender.identity === lock.query.sender.identity
    && candidate.range[0] > lock.range[1]
    // `pg_advisory_unlock(2)` does not release `pg_advisory_lock(1)`; unknown keys may match.
    && (candidate.call.action === 'unlock-all' || !differentKeys(key, advisoryKeyText(sourceCode, candidate))));
  if (sqlLookups(model).advisoryByQuery.get(lock.query)!.some((other) => other !== lock && other.call.action !== 'lock')) return undefined;
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

/**
 * `client.release(true)` / `client.end()` in a `finally` of the same function: the connection
 * closes on every path, and the session's advisory locks with it.
 */
function endsSessionInFinally(sourceCode: Readonly<TSESLint.SourceCode>, lock: AdvisoryLockItem): boolean {
  const client = lock.query.sender.text;
  const owner = lock.function;
  const stack: TSESTree.Node[] = [owner];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== owner && isFunctionLike(node)) continue;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const parts = methodCallParts(node);
      if (parts && sourceCode.getText(parts.receiver) === client && isInFinally(node, owner)
        && ((parts.method === 'release' && node.arguments.length > 0) || parts.method === 'end' || parts.method === 'destroy')) return true;
    }
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value as unknown[] : [value]) {
        if (child && typeof (child as TSESTree.Node).type === 'string') stack.push(child as TSESTree.Node);
      }
    }
  }
  return false;
}

const sqlItemNode = (item: { readonly node: TSESTree.Node }): TSESTree.Node => item.node;

interface SqlLookups {
  readonly advisoryByQuery: ReadonlyMap<SqlModel['advisoryLocks'][number]['query'], readonly AdvisoryLockItem[]>;
  readonly releaseQueries: ReadonlySet<NonNullable<SqlModel['lockTableReleases'][number]['query']>>;
}

const sqlLookupsByModel = new WeakMap<SqlModel, SqlLookups>();

function sqlLookups(model: SqlModel): SqlLookups {
  const cached = sqlLookupsByModel.get(model);
  if (cached) return cached;
  const advisoryByQuery = new Map<AdvisoryLockItem['query'], AdvisoryLockItem[]>();
  for (const item of model.advisoryLocks) {
    const list = advisoryByQuery.get(item.query);
    if (list) list.push(item);
    else advisoryByQuery.set(item.query, [item]);
  }
  // knex chains carry no query (and cannot free the row they take in the same statement).
  const releaseQueries = new Set(model.lockTableReleases.flatMap((release) => (release.query ? [release.query] : [])));
  const lookups = { advisoryByQuery, releaseQueries };
  sqlLookupsByModel.set(model, lookups);
  return lookups;
}

/**
 * A lock-table row's releases: a `DELETE` (or an `UPDATE` that clears the owner) of the same table
 * later in the same function body, through any client (the row outlives connections).
 */
function lockRowReleasesOf(model: SqlModel, acquisition: LockTableAcquisition): LockStep[] | undefined {
  if (acquisition.query && sqlLookups(model).releaseQueries.has(acquisition.query)) return undefined;
  return within(model.lockTableReleases, acquisition.function.range, sqlItemNode)
    .filter((release) => release.table === acquisition.table && release.range[0] > acquisition.range[1]
      // A release names its row (`WHERE name = $1`); a sweep of expired rows or a reset is not this row's release.
      && release.statement.where.some((comparison) => comparison.operator === '=')
      && !release.statement.where.some((comparison) => comparison.comparedWithClock))
    .map(asStep);
}

/** Acquisitions whose release this rule can look for: not queued, not self-releasing (`using`). */
function isScopedAcquisition(acquisition: Acquisition): boolean {
  if (acquisition.command?.client.chain) return false;
  if (acquisition.library === 'redlock' && methodCallParts(acquisition.node)?.method === 'using') return false;
  // A with-lock helper releases the lock itself, in its own body (judged there).
  if (acquisition.helper?.role === 'with-lock') return false;
  const carrier = valueCarrier(acquisition.node);
  const declaration = carrier.parent?.type === AST_NODE_TYPES.VariableDeclarator ? carrier.parent.parent : undefined;
  // `using lock = ...` / `await using lock = ...`: disposal releases it on every path.
  return !(declaration && (declaration.kind === 'using' || declaration.kind === 'await using'));
}

/**
 * The releases of this acquisition, in the model's order. Only those that can pass
 * `releasesAcquisition` are weighed: the same key, a semaphore's release on the same receiver text,
 * or a call on an identifier named like the handle; each inside the acquisition's function.
 */
function releasesOf(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, acquisition: Acquisition): Release[] {
  const lookups = releaseLookups(sourceCode, model);
  const candidates = new Set<Release>();
  const add = (list: readonly Release[] | undefined) => {
    for (const release of within(list, acquisition.owner.range, eventNode)) candidates.add(release);
  };
  if (acquisition.keySignature !== undefined) add(redisIndex(model).releasesByKey.get(acquisition.keySignature));
  if (acquisition.library === 'redis-semaphore') {
    const acquired = methodCallParts(acquisition.node)?.receiver;
    if (acquired) add(lookups.semaphoreByReceiver.get(sourceCode.getText(acquired)));
  }
  const handle = handleDeclarator(acquisition);
  if (handle?.id.type === AST_NODE_TYPES.Identifier) add(lookups.byTargetName.get(handle.id.name));
  return [...candidates]
    .filter((release) => releasesAcquisition(sourceCode, acquisition, release))
    .sort((left, right) => lookups.order.get(left)! - lookups.order.get(right)!);
}

interface ReleaseLookups {
  readonly order: ReadonlyMap<Release, number>;
  /** redis-semaphore releases by their receiver's text. */
  readonly semaphoreByReceiver: ReadonlyMap<string, readonly Release[]>;
  /** Releases by the identifier they are called on or passed (`lock.release()`, `releaseLock(lock)`). */
  readonly byTargetName: ReadonlyMap<string, readonly Release[]>;
}

const releaseLookupsByModel = new WeakMap<RedisModel, ReleaseLookups>();

function releaseLookups(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel): ReleaseLookups {
  const cached = releaseLookupsByModel.get(model);
  if (cached) return cached;
  const semaphoreByReceiver = new Map<string, Release[]>();
  const byTargetName = new Map<string, Release[]>();
  const push = (map: Map<string, Release[]>, name: string, release: Release) => {
    const list = map.get(name);
    if (list) list.push(release);
    else map.set(name, [release]);
  };
  for (const release of model.releases) {
    const receiver = methodCallParts(release.node)?.receiver;
    if (release.library === 'redis-semaphore' && receiver) push(semaphoreByReceiver, sourceCode.getText(receiver), release);
    const target = receiver ?? release.node.arguments[0];
    const root = target ? skipTypeWrappers(target) : undefined;
    if (root?.type === AST_NODE_TYPES.Identifier) push(byTargetName, root.name, release);
  }
  const lookups = { order: new Map(model.releases.map((release, index) => [release, index])), semaphoreByReceiver, byTargetName };
  releaseLookupsByModel.set(model, lookups);
  return lookups;
}

/** The release frees this acquisition's lock: the same key, or a call on the handle the acquisition returned. */
function releasesAcquisition(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: Acquisition, release: Release): boolean {
  if (!contains(acquisition.owner, release.node) || !runsBefore(acquisition.node, release.node)) return false;
  if (acquisition.keySignature !== undefined && acquisition.keySignature === release.keySignature) return true;
  if (acquisition.library === 'redis-semaphore' && release.library === 'redis-semaphore') {
    const acquired = methodCallParts(acquisition.node)?.receiver;
    const released = methodCallParts(release.node)?.receiver;
    return acquired !== undefined && released !== undefined && sourceCode.getText(acquired) === sourceCode.getText(released);
  }
  const handle = handleDeclarator(acquisition);
  if (!handle) return false;
  // `lock.release()` / `lock.unlock()` on Redlock's handle, or `releaseLock(lock)` for a wrapper.
  const target = methodCallParts(release.node)?.receiver ?? release.node.arguments[0];
  const root = target ? skipTypeWrappers(target) : undefined;
  if (root?.type !== AST_NODE_TYPES.Identifier) return false;
  return findVariable(sourceCode, root)?.defs[0]?.node === handle;
}

/** `const lock = await redlock.acquire(...)`: the declarator holding what the acquisition returned. */
function handleDeclarator(acquisition: Acquisition): TSESTree.VariableDeclarator | undefined {
  const carrier = valueCarrier(acquisition.node);
  const parent = carrier.parent;
  return parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === carrier && parent.id.type === AST_NODE_TYPES.Identifier ? parent : undefined;
}

/**
 * The release runs on the error path too: in a `finally`, or in a `catch` (the `catch { release;
 * throw }` spelling of the same guarantee).
 */
function isGuaranteed(release: LockStep): boolean {
  if (isInFinally(release.node, release.owner)) return true;
  for (let current: TSESTree.Node = release.node; current !== release.owner; current = current.parent!) {
    if (current.parent?.type === AST_NODE_TYPES.CatchClause) return true;
  }
  return false;
}

/** Redis commands on the lock's own key (its expiry, a read-back): the lock's machinery, not work. */
function lockMachinery(model: RedisModel, acquisition: Acquisition): ReadonlySet<TSESTree.Node> {
  const signature = acquisition.keySignature;
  if (signature === undefined) return new Set();
  // Only nodes inside the acquisition's function are looked up in it.
  return new Set(within(redisIndex(model).commandsByKey.get(signature), acquisition.owner.range, commandNode).map((command) => command.call));
}

/** Something between acquiring and releasing can throw: a call, an `await`, a `throw`. */
function hasWorkBetween(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: LockStep, release: LockStep, machinery: ReadonlySet<TSESTree.Node>): boolean {
  const from = acquisition.node.range[1];
  const to = release.node.range[0];
  const stack: TSESTree.Node[] = [acquisition.owner];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.range[1] <= from || node.range[0] >= to) continue;
    const inside = node.range[0] >= from && node.range[1] <= to;
    if (machinery.has(node) || (node.type === AST_NODE_TYPES.AwaitExpression && machinery.has(skipTypeWrappers(node.argument)))) continue;
    if (inside && (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression
      || node.type === AST_NODE_TYPES.AwaitExpression || node.type === AST_NODE_TYPES.ThrowStatement)) {
      return true;
    }
    // A function defined in between runs later, if at all.
    if (inside && isFunctionLike(node)) continue;
    // Work inside `try { } catch { }` cannot skip the release unless the catch throws again.
    if (inside && node.type === AST_NODE_TYPES.TryStatement && node.handler) {
      if (rethrows(sourceCode, node.handler)) return true;
      continue;
    }
    stack.push(...childrenOverlapping(sourceCode.visitorKeys, node, from, to));
  }
  return false;
}

function rethrows(sourceCode: Readonly<TSESLint.SourceCode>, handler: TSESTree.CatchClause): boolean {
  const stack: TSESTree.Node[] = [handler.body];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === AST_NODE_TYPES.ThrowStatement) return true;
    if (isFunctionLike(node)) continue;
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value as unknown[] : [value]) {
        if (child && typeof (child as TSESTree.Node).type === 'string') stack.push(child as TSESTree.Node);
      }
    }
  }
  return false;
}

/**
 * Wraps the statements between the acquisition and the release in `try`, and moves the release
 * into its `finally`. Early-exit guards right after the acquisition (`if (!ok) return;`) stay
 * outside: a lock that was not taken must not be released.
 */
function moveToFinallyFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  acquisition: LockStep,
  release: LockStep,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined {
  const releaseStatement = releaseStatementOf(release);
  const block = releaseStatement?.parent;
  if (!releaseStatement || block?.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  const releaseIndex = indexOfContaining(block.body, releaseStatement);

  let start: number;
  const acquisitionIndex = indexOfContaining(block.body, acquisition.node);
  if (acquisitionIndex >= 0 && acquisitionIndex < releaseIndex) start = acquisitionIndex + 1;
  else if (block.parent.type === AST_NODE_TYPES.IfStatement && block.parent.consequent === block && contains(block.parent.test, acquisition.node)) start = 0;
  else return undefined;
  while (start < releaseIndex && isEarlyExitGuard(block.body[start]!)) start++;
  const work = block.body.slice(start, releaseIndex);
  if (work.length === 0) return undefined;

  const workStart = work[0]!.range[0];
  // Comments right above the release ("release only our own lock") move with it.
  const lastWorkEnd = work.at(-1)!.range[1];
  const releaseStart = sourceCode.getCommentsBefore(releaseStatement).find((comment) => comment.range[0] >= lastWorkEnd)?.range[0] ?? releaseStatement.range[0];
  if (!declarationsStayInside(sourceCode, work, [workStart, releaseStart])) return undefined;

  const text = sourceCode.text;
  const workText = text.slice(workStart, releaseStart).trimEnd();
  const releaseText = text.slice(releaseStart, releaseStatement.range[1]);
  const lineStart = text.lastIndexOf('\n', workStart - 1) + 1;
  const indent = text.slice(lineStart, workStart);
  const replacement = /^[ \t]*$/u.test(indent)
    ? multiLineTry(sourceCode, block, indent, workText, releaseText, [...work, releaseStatement])
    : `try { ${workText} } finally { ${releaseText} }`;
  return (fixer) => fixer.replaceTextRange([workStart, releaseStatement.range[1]], replacement);
}

/**
 * The statement that moves into `finally`: the release itself, or the `if` that holds only the
 * release (`if ((await redis.get(key)) === token) await redis.del(key);`).
 */
function releaseStatementOf(release: LockStep): TSESTree.Statement | undefined {
  const statement = expressionStatementOf(release.node);
  if (!statement) return undefined;
  const parent = statement.parent;
  if (parent.type === AST_NODE_TYPES.IfStatement && !parent.alternate && parent.consequent === statement) return parent;
  if (parent.type === AST_NODE_TYPES.BlockStatement && parent.body.length === 1) {
    const grandparent = parent.parent;
    if (grandparent.type === AST_NODE_TYPES.IfStatement && !grandparent.alternate && grandparent.consequent === parent) return grandparent;
  }
  return statement;
}

function multiLineTry(
  sourceCode: Readonly<TSESLint.SourceCode>,
  block: TSESTree.BlockStatement,
  indent: string,
  workText: string,
  releaseText: string,
  moved: readonly TSESTree.Statement[],
): string {
  const step = indentStep(sourceCode, block, indent);
  // Re-indenting inside a multi-line string would change the string.
  const reindent = !moved.some((statement) => spansMultiLineString(sourceCode, statement));
  const shift = (code: string) => (reindent ? code.replace(/\n(?=[^\r\n])/gu, `\n${step}`) : code);
  return `try {\n${indent}${step}${shift(workText)}\n${indent}} finally {\n${indent}${step}${shift(releaseText)}\n${indent}}`;
}

/** One level of indentation: what the block's statements add to the line that opens the block. */
function indentStep(sourceCode: Readonly<TSESLint.SourceCode>, block: TSESTree.BlockStatement, indent: string): string {
  const openingLine = sourceCode.lines[block.loc.start.line - 1] ?? '';
  const outer = /^[ \t]*/u.exec(openingLine)?.[0] ?? '';
  if (indent.startsWith(outer) && indent.length > outer.length) return indent.slice(outer.length);
  return indent.includes('\t') ? '\t' : '  ';
}

function spansMultiLineString(sourceCode: Readonly<TSESLint.SourceCode>, statement: TSESTree.Node): boolean {
  return sourceCode.getTokens(statement).some((token) => (token.type === AST_TOKEN_TYPES.Template || token.type === AST_TOKEN_TYPES.String) && token.loc.start.line !== token.loc.end.line);
}

/** `if (!ok) return;` / `if (!acquired) throw ...` with no else. */
function isEarlyExitGuard(statement: TSESTree.Statement): boolean {
  if (statement.type !== AST_NODE_TYPES.IfStatement || statement.alternate) return false;
  const consequent = statement.consequent.type === AST_NODE_TYPES.BlockStatement ? statement.consequent.body.at(-1) : statement.consequent;
  return consequent?.type === AST_NODE_TYPES.ReturnStatement || consequent?.type === AST_NODE_TYPES.ThrowStatement;
}

/** Moving the work into a block must not hide a binding that code after it (the release included) reads. */
function declarationsStayInside(sourceCode: Readonly<TSESLint.SourceCode>, work: readonly TSESTree.Statement[], range: readonly [number, number]): boolean {
  for (const statement of work) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration && statement.type !== AST_NODE_TYPES.FunctionDeclaration && statement.type !== AST_NODE_TYPES.ClassDeclaration) continue;
    for (const variable of sourceCode.getDeclaredVariables(statement)) {
      if (variable.references.some((reference) => reference.identifier.range[0] < range[0] || reference.identifier.range[1] > range[1])) return false;
    }
  }
  return true;
}
