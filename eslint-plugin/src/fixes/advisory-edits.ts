// Edits the advisory-lock fixes share: renaming the lock function inside the SQL text, sending a
// query through another handle, dropping the unlock a transaction-level lock no longer needs, and
// moving Prisma to `$executeRaw` for a lock function that returns `void`.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { expressionStatementOf, skipTypeWrappers } from '../util/ast.js';
import type { TransactionHelperLibrary } from './sql-templates.js';
import { SQL_CLIENTS, sqlClientSemantics } from '../model/tables/sql-clients.js';
import type { AdvisoryLockItem } from '../model/nouns/sql-items.js';
import type { StatementSpan, TextEdit } from '../model/sql/statement-span.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Source range of the advisory function's name inside the SQL text, when it maps one to one. */
export function advisoryFunctionRange(sourceCode: SourceCode, item: AdvisoryLockItem): TSESTree.Range | undefined {
  const start = item.call.location?.start;
  if (start === undefined) return undefined;
  const from = item.query.sql.toSourceOffset(start);
  const to = item.query.sql.toSourceOffset(start + item.call.functionName.length);
  if (from === undefined || to === undefined) return undefined;
  if (sourceCode.text.slice(from, to).toLowerCase() !== item.call.functionName) return undefined;
  return [from, to];
}

/** Edits that send `item`'s query through `handle` instead of its pooled client. */
export function handleEdits(item: AdvisoryLockItem, handle: string): TextEdit[] {
  const query = item.query;
  if (!sqlClientSemantics(query.sender.library)?.callbackGetsOptionsObject) return [{ range: query.sender.node.range, text: handle }];
  // Sequelize keeps the client and names the transaction in the options.
  const property = handle === 'transaction' ? 'transaction' : `transaction: ${handle}`;
  if (query.options) {
    const last = query.options.properties.at(-1);
    if (!last) return [{ range: query.options.range, text: `{ ${property} }` }];
    return [{ range: [last.range[1], last.range[1]], text: `, ${property}` }];
  }
  const call = query.node;
  if (call.type !== AST_NODE_TYPES.CallExpression) return [];
  const lastArgument = call.arguments.at(-1);
  if (!lastArgument) return [];
  const insertion = call.arguments.length === 1 ? `, { ${property} }` : `, { ${property} }`;
  if (call.arguments.length > 1 && skipTypeWrappers(lastArgument).type !== AST_NODE_TYPES.ArrayExpression) return [];
  return [{ range: [lastArgument.range[1], lastArgument.range[1]], text: insertion }];
}

/**
 * Removes the unlock from the end of the span: the unlock statement itself, or a `try { ... } finally
 * { unlock }` whose `finally` holds only the unlock, which is unwrapped.
 */
export function unlockStatementEdit(sourceCode: SourceCode, span: StatementSpan, unlock: AdvisoryLockItem): TextEdit | undefined {
  const last = span.last;
  if (last.type === AST_NODE_TYPES.ExpressionStatement && isOnlyCall(last.expression, unlock.node)) {
    return { range: [lineBreakBefore(sourceCode, last), last.range[1]], text: '' };
  }
  if (last.type === AST_NODE_TYPES.TryStatement && !last.handler && last.finalizer?.body.length === 1) {
    const only = last.finalizer.body[0];
    if (only?.type !== AST_NODE_TYPES.ExpressionStatement || !isOnlyCall(only.expression, unlock.node)) return undefined;
    const inner = last.block.body;
    const first = inner[0];
    const end = inner.at(-1);
    if (!first || !end) return { range: [lineBreakBefore(sourceCode, last), last.range[1]], text: '' };
    // The try's statements already sit one level deeper: exactly where the wrapped span goes.
    const text = sourceCode.text.slice(first.range[0], end.range[1]);
    return { range: last.range, text };
  }
  return undefined;
}

function isOnlyCall(expression: TSESTree.Expression, call: TSESTree.Node): boolean {
  const inner = skipTypeWrappers(expression);
  const unwrapped = inner.type === AST_NODE_TYPES.AwaitExpression ? skipTypeWrappers(inner.argument) : inner;
  return unwrapped === call;
}

function lineBreakBefore(sourceCode: SourceCode, node: TSESTree.Node): number {
  const index = sourceCode.text.lastIndexOf('\n', node.range[0]);
  return index === -1 ? node.range[0] : index;
}

/** How the fix's message names the helper: `prisma.$transaction`, `sql.begin`. */
export function helperName(library: TransactionHelperLibrary, client: string): string {
  const helper = SQL_CLIENTS[library].transactionHelper;
  return helper === undefined ? 'BEGIN' : `${client}.${helper}`;
}

/** Lock functions returning `void`, which Prisma's `$queryRaw` cannot deserialise. */
const VOID_LOCK_FUNCTIONS: ReadonlySet<string> = new Set([
  'pg_advisory_lock',
  'pg_advisory_lock_shared',
  'pg_advisory_xact_lock',
  'pg_advisory_xact_lock_shared',
  'pg_advisory_unlock_all',
]);

/**
 * Prisma runs a statement whose lock function returns `void` only through `$executeRaw`: `$queryRaw`
 * fails to deserialise the `void` column. When a fix leaves `item` calling such a function (after any
 * rename) through `$queryRaw` whose rows nobody reads, this switches the method. Functions whose
 * boolean answer is read (`pg_try_*`, `pg_advisory_unlock`) stay on `$queryRaw`.
 */
export function prismaExecuteEdits(item: AdvisoryLockItem, functionName: string): TextEdit[] {
  const executeForms = sqlClientSemantics(item.query.sender.library)?.voidStatementMethods;
  if (!executeForms || !VOID_LOCK_FUNCTIONS.has(functionName)) return [];
  const node = item.query.node;
  const target = node.type === AST_NODE_TYPES.TaggedTemplateExpression ? node.tag : node.callee;
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.computed || target.property.type !== AST_NODE_TYPES.Identifier) return [];
  const replacement = executeForms[target.property.name];
  // A statement of its own (`await prisma.$queryRaw`...`;`): its rows are not read.
  if (replacement === undefined || expressionStatementOf(node) === undefined) return [];
  return [{ range: target.property.range, text: replacement }];
}
