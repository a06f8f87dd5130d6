// no-unneeded-lock: a lock whose whole critical section is one SQL statement on one table.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getLockModel } from '../model/index.js';
import type { RedisModel } from '../model/redis-model.js';
import { heldLocks, type HeldLock } from '../model/sql/critical-sections.js';
import { getSqlModel, type SqlModel, type SqlQuery, type SqlWrite } from '../model/sql/index.js';
import { contains, isFunctionLike, methodCallParts, skipTypeWrappers } from '../util/ast.js';
import { createRule } from '../util/create-rule.js';
import { childrenOverlapping } from '../util/ranges.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'unneededLock' | 'dropLock';
export type Options = [];

// The lock's own machinery: token and timestamp minting, renewal timers, connection hand-back.
const MACHINERY_FUNCTIONS = new Set(['randomUUID', 'uuid', 'v4', 'nanoid', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'now', 'String', 'Number']);
const MACHINERY_METHODS = new Set(['release', 'unlock', 'extend', 'randomUUID', 'randomBytes', 'toString', 'now']);

export default createRule<Options, MessageId>({
  name: 'no-unneeded-lock',
  meta: {
    type: 'suggestion',
    docs: {
      description: 'Disallow locks whose whole critical section is one SQL statement on one table',
      recommended: false,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      dropLock: 'Drop the lock and let the database serialise the single `{{statement}}`',
      unneededLock: 'The whole critical section of this lock is one {{statement}} on `{{table}}`: the database already serialises that write, so the lock only adds a failure mode. Drop it and make the statement conditional (`WHERE ... AND state = \'pending\'`), or use `SELECT ... FOR UPDATE` in a transaction.',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const sql = getSqlModel(context);
        // The rule is about a lock around one SQL statement: without SQL there is nothing to find.
        if (sql.queries.length === 0 && sql.writes.length === 0) return;
        const sourceCode = context.sourceCode;
        const redis = getLockModel(context).redis;
        for (const lock of heldLocks(sourceCode, redis, sql)) {
          // A lock table is itself the database's serialisation; its rules are no-lock-takeover and require-lock-ttl.
          if (lock.kind === 'lock-table') continue;
          const single = singleStatement(sourceCode, redis, sql, lock);
          if (!single) continue;
          const drop = dropLockFix(sourceCode, lock, single.node);
          context.report({
            node: lock.node,
            messageId: 'unneededLock',
            data: {
              statement: single.statement,
              table: single.table,
              ...relatedData({ message: 'The one statement the lock protects', node: single.node }, lock.release !== undefined && { message: 'The lock is released here', node: lock.release }),
            },
            // A suggestion, never an autofix: removing a lock changes what may run concurrently, and
            // which condition makes the statement safe is the author's call.
            suggest: drop ? [{ messageId: 'dropLock', data: { statement: single.statement.replaceAll('`', '') }, fix: drop }] : [],
          });
        }
      },
    };
  },
});

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The one statement the critical section runs, or undefined when it does anything else. */
function singleStatement(sourceCode: SourceCode, redis: RedisModel, sql: SqlModel, lock: HeldLock): { statement: string; table: string; node: TSESTree.Node } | undefined {
  const [from, to] = sectionRange(lock);
  const steps: TSESTree.Node[] = [];
  const { queryByNode, writeByNode, redisCalls } = fileLookups(redis, sql);
  const visit = (node: TSESTree.Node): void => {
    if (node.range[1] <= from || node.range[0] >= to) return;
    const inside = node.range[0] >= from && node.range[1] <= to;
    if (inside && node !== lock.node && node !== lock.release && (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.TaggedTemplateExpression || node.type === AST_NODE_TYPES.NewExpression)) {
      if (queryByNode.has(node) || writeByNode.has(node)) {
        steps.push(node);
        return;
      }
      if (!isMachinery(node, redisCalls)) steps.push(node);
    }
    for (const child of childrenOverlapping(sourceCode.visitorKeys, node, from, to)) visit(child);
  };
  visit(lock.owner);
  const meaningful = steps.filter((step) => !isTransactionControl(queryByNode.get(step)));
  if (meaningful.length !== 1) return undefined;
  const [only] = meaningful as [TSESTree.Node];
  // One statement run once per item of a loop is a batch, and the lock makes the batch exclusive.
  if (inLoopWithin(only, from, lock.owner)) return undefined;
  const write = writeByNode.get(only);
  if (write?.orm) return write.table ? { statement: `\`${write.orm.method}\``, table: write.table, node: only } : undefined;
  const query = queryByNode.get(only);
  const statements = query?.statements;
  if (statements?.length !== 1) return undefined;
  const [statement] = statements as [NonNullable<typeof statements>[number]];
  if ((statement.kind !== 'update' && statement.kind !== 'insert' && statement.kind !== 'delete') || !statement.singleTable || statement.table === undefined) return undefined;
  return { statement: `\`${statement.kind.toUpperCase()}\``, table: statement.table, node: only };
}

function inLoopWithin(node: TSESTree.Node, from: number, owner: TSESTree.Node): boolean {
  for (let current = node.parent; current && current !== owner; current = current.parent) {
    if (current.range[0] < from) return false;
    if (current.type === AST_NODE_TYPES.ForStatement || current.type === AST_NODE_TYPES.ForOfStatement || current.type === AST_NODE_TYPES.ForInStatement
      || current.type === AST_NODE_TYPES.WhileStatement || current.type === AST_NODE_TYPES.DoWhileStatement) return true;
    // `rows.map(...)`/`forEach(...)` callbacks run the statement per item too.
    if (current.type === AST_NODE_TYPES.CallExpression && current.arguments.some((argument) => argument.range[0] <= node.range[0] && node.range[1] <= argument.range[1])
      && current.callee.type === AST_NODE_TYPES.MemberExpression && ['map', 'forEach', 'flatMap'].includes(current.callee.property.type === AST_NODE_TYPES.Identifier ? current.callee.property.name : '')) return true;
  }
  return false;
}

/** From the acquisition to its release; a `using(keys, ttl, fn)` callback's body when there is one. */
function sectionRange(lock: HeldLock): [number, number] {
  if (lock.node.type === AST_NODE_TYPES.CallExpression) {
    const callback = lock.node.arguments.find((argument) => isFunctionLike(argument));
    if (callback) return [callback.body.range[0], callback.body.range[1]];
  }
  return [lock.node.range[1], lock.to];
}

function isMachinery(node: TSESTree.Node, redisCalls: ReadonlySet<TSESTree.Node>): boolean {
  // Redis commands inside the section are the lock's own (fence INCR, renewals, the release).
  if (redisCalls.has(node)) return true;
  if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) return false;
  const callee = skipTypeWrappers(node.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return MACHINERY_FUNCTIONS.has(callee.name);
  if (node.type === AST_NODE_TYPES.CallExpression) {
    const parts = methodCallParts(node);
    if (parts && MACHINERY_METHODS.has(parts.method)) return true;
  }
  return false;
}

interface FileLookups {
  /** The first query sent by each node. */
  readonly queryByNode: ReadonlyMap<TSESTree.Node, SqlQuery>;
  readonly writeByNode: ReadonlyMap<TSESTree.Node, SqlWrite>;
  readonly redisCalls: ReadonlySet<TSESTree.Node>;
}

const fileLookupsByModel = new WeakMap<SqlModel, WeakMap<RedisModel, FileLookups>>();

/** What every lock's critical section is checked against, gathered once per file. */
function fileLookups(redis: RedisModel, sql: SqlModel): FileLookups {
  let byRedis = fileLookupsByModel.get(sql);
  if (!byRedis) {
    byRedis = new WeakMap();
    fileLookupsByModel.set(sql, byRedis);
  }
  const cached = byRedis.get(redis);
  if (cached) return cached;
  const queryByNode = new Map<TSESTree.Node, SqlQuery>();
  for (const query of sql.queries) if (!queryByNode.has(query.node)) queryByNode.set(query.node, query);
  const lookups: FileLookups = {
    queryByNode,
    writeByNode: new Map<TSESTree.Node, SqlWrite>(sql.writes.map((write) => [write.node, write])),
    redisCalls: new Set<TSESTree.Node>(redis.commands.map((command) => command.call)),
  };
  byRedis.set(redis, lookups);
  return lookups;
}

function isTransactionControl(query: SqlQuery | undefined): boolean {
  const statements = query?.statements;
  return statements !== undefined && statements.length > 0
    && statements.every((statement) => statement.kind === 'begin' || statement.kind === 'commit' || statement.kind === 'rollback');
}

/**
 * Replaces the whole locked stretch with the statement alone, for the plain layouts: `using(keys,
 * ttl, async () => { stmt })`, or acquire; an optional `if (!ok) return;`; then `stmt; release;` or
 * `try { stmt } finally { release }`.
 */
function dropLockFix(sourceCode: SourceCode, lock: HeldLock, statementNode: TSESTree.Node): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined {
  const work = statementOf(statementNode);
  if (!work) return undefined;
  const acquisition = statementOf(lock.node);
  if (!acquisition) return undefined;
  if (lock.node.type === AST_NODE_TYPES.CallExpression && lock.node.arguments.some((argument) => isFunctionLike(argument))) {
    const callback = lock.node.arguments.find((argument) => isFunctionLike(argument));
    if (!callback || !isFunctionLike(callback) || callback.body.type !== AST_NODE_TYPES.BlockStatement || callback.body.body.length !== 1 || callback.body.body[0] !== work) return undefined;
    if (acquisition.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
    return (fixer) => fixer.replaceText(acquisition, sourceCode.getText(work));
  }
  if (!lock.release) return undefined;
  const body = acquisition.parent.type === AST_NODE_TYPES.BlockStatement || acquisition.parent.type === AST_NODE_TYPES.Program ? acquisition.parent.body : undefined;
  if (!body) return undefined;
  const start = (body as readonly TSESTree.Node[]).indexOf(acquisition);
  let index = start + 1;
  const result = acquisition.type === AST_NODE_TYPES.VariableDeclaration ? acquisition.declarations[0].id : undefined;
  const guard = body[index];
  if (result?.type === AST_NODE_TYPES.Identifier && guard?.type === AST_NODE_TYPES.IfStatement && isResultGuard(guard, result.name)) index++;
  else if (acquisition.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
  const next = body[index];
  const release = lock.release;
  let last: TSESTree.Node | undefined;
  if (next === work && isOnlyStatementOf(body[index + 1], release)) last = body[index + 1];
  else if (next?.type === AST_NODE_TYPES.TryStatement && !next.handler && next.block.body.length === 1 && next.block.body[0] === work
    && next.finalizer?.body.length === 1 && isOnlyStatementOf(next.finalizer.body[0], release)) last = next;
  if (!last) return undefined;
  const end = last.range[1];
  let first: TSESTree.Node = acquisition;
  // The token minted only for this lock goes with it.
  const previous = body[start - 1];
  if (previous?.type === AST_NODE_TYPES.VariableDeclaration && sourceCode.getDeclaredVariables(previous).every((variable) => variable.references.every(
    (reference) => reference.init === true || (reference.identifier.range[0] >= acquisition.range[0] && reference.identifier.range[1] <= end && !contains(work, reference.identifier)),
  ))) first = previous;
  const range: TSESTree.Range = [first.range[0], end];
  return (fixer) => fixer.replaceTextRange(range, sourceCode.getText(work));
}

function statementOf(node: TSESTree.Node): TSESTree.Statement | undefined {
  let current: TSESTree.Node = node;
  while (current.parent && current.parent.type !== AST_NODE_TYPES.BlockStatement && current.parent.type !== AST_NODE_TYPES.Program) {
    if (isFunctionLike(current.parent)) return undefined;
    current = current.parent;
  }
  return current.parent ? (current as TSESTree.Statement) : undefined;
}

/** `if (!ok) return;` (or `{ return; }`) on the acquisition's result. */
function isResultGuard(statement: TSESTree.IfStatement, name: string): boolean {
  const test = statement.test;
  const returns = statement.consequent.type === AST_NODE_TYPES.ReturnStatement
    || (statement.consequent.type === AST_NODE_TYPES.BlockStatement && statement.consequent.body.length === 1 && statement.consequent.body[0]?.type === AST_NODE_TYPES.ReturnStatement);
  return returns && !statement.alternate && test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!'
    && test.argument.type === AST_NODE_TYPES.Identifier && test.argument.name === name;
}

function isOnlyStatementOf(statement: TSESTree.Node | undefined, call: TSESTree.Node): boolean {
  if (statement?.type !== AST_NODE_TYPES.ExpressionStatement) return false;
  let expression: TSESTree.Node = skipTypeWrappers(statement.expression);
  if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = skipTypeWrappers(expression.argument);
  return expression === call;
}
