// The one SQL statement a held lock's critical section runs, when it runs nothing else: the question
// no-unneeded-lock asks of each lock (the database serialises that statement without the lock).

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionLike, methodCallParts, skipTypeWrappers } from '../../util/ast.js';
import { childrenOverlapping } from '../../util/ranges.js';
import type { RedisModel } from '../nouns/redis-events.js';
import type { Lock } from '../nouns/lock-types.js';
import type { SqlModel, SqlQuery, SqlWrite } from '../nouns/sql-items.js';

// The lock's own machinery: token and timestamp minting, renewal timers, connection hand-back. Exact
// names, and narrower than helper-summaries.ts's list: here a call taken for machinery can leave one
// statement, and no-unneeded-lock reports it (tables/lock-words.ts's RANDOM_TOKEN_WORDS says why the
// lists stay apart).
const MACHINERY_FUNCTIONS = new Set([
  'randomUUID',
  'uuid',
  'v4',
  'nanoid',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
  'now',
  'String',
  'Number',
]);
const MACHINERY_METHODS = new Set(['release', 'unlock', 'extend', 'randomUUID', 'randomBytes', 'toString', 'now']);

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The one statement the critical section runs, or undefined when it does anything else. */
export function singleStatement(
  sourceCode: SourceCode,
  redis: RedisModel,
  sql: SqlModel,
  lock: Lock,
): { statement: string; table: string; node: TSESTree.Node } | undefined {
  const [from, to] = sectionRange(lock);
  const steps: TSESTree.Node[] = [];
  const { queryByNode, writeByNode, redisCalls } = fileLookups(redis, sql);
  const visit = (node: TSESTree.Node): void => {
    if (node.range[1] <= from || node.range[0] >= to) return;
    const inside = node.range[0] >= from && node.range[1] <= to;
    if (
      inside &&
      node !== lock.node &&
      node !== lock.release &&
      (node.type === AST_NODE_TYPES.CallExpression ||
        node.type === AST_NODE_TYPES.TaggedTemplateExpression ||
        node.type === AST_NODE_TYPES.NewExpression)
    ) {
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
  if (
    (statement.kind !== 'update' && statement.kind !== 'insert' && statement.kind !== 'delete') ||
    !statement.singleTable ||
    statement.table === undefined
  )
    return undefined;
  return { statement: `\`${statement.kind.toUpperCase()}\``, table: statement.table, node: only };
}

function inLoopWithin(node: TSESTree.Node, from: number, owner: TSESTree.Node): boolean {
  for (let current = node.parent; current && current !== owner; current = current.parent) {
    if (current.range[0] < from) return false;
    if (
      current.type === AST_NODE_TYPES.ForStatement ||
      current.type === AST_NODE_TYPES.ForOfStatement ||
      current.type === AST_NODE_TYPES.ForInStatement ||
      current.type === AST_NODE_TYPES.WhileStatement ||
      current.type === AST_NODE_TYPES.DoWhileStatement
    )
      return true;
    // `rows.map(...)`/`forEach(...)` callbacks run the statement per item too.
    if (
      current.type === AST_NODE_TYPES.CallExpression &&
      current.arguments.some((argument) => argument.range[0] <= node.range[0] && node.range[1] <= argument.range[1]) &&
      current.callee.type === AST_NODE_TYPES.MemberExpression &&
      ['map', 'forEach', 'flatMap'].includes(current.callee.property.type === AST_NODE_TYPES.Identifier ? current.callee.property.name : '')
    )
      return true;
  }
  return false;
}

/** From the acquisition to its release; a `using(keys, ttl, fn)` callback's body when there is one. */
function sectionRange(lock: Lock): [number, number] {
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
  return (
    statements !== undefined &&
    statements.length > 0 &&
    statements.every((statement) => statement.kind === 'begin' || statement.kind === 'commit' || statement.kind === 'rollback')
  );
}
