// Reads a knex query-builder chain (`knex('locks').where({ name }).del()`) into the statement facts
// the raw-SQL path gets from the parser, so lock-table rules judge both forms by one rule.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { constInitializer, propertyName, skipTypeWrappers } from '../../util/ast.js';
import { VERSION_COLUMNS, type ColumnComparison, type OnConflictFacts, type SqlStatementFacts } from '../../sql-syntax/index.js';
import type { OrmWriteFacts, KnexStatement } from '../nouns/sql-items.js';
import { ormWritesOf } from '../tables/sql-clients.js';

// The builder methods whose meaning is read. Any other method in the chain (`whereRaw`, `modify`,
// `joinRaw`, a `where` callback, ...) may change what the statement matches, so the chain is not read:
// no facts, no finding, as for SQL text the parser cannot read.
const WHERE_METHODS: ReadonlySet<string> = new Set(['where', 'andWhere']);
const OR_METHODS: ReadonlySet<string> = new Set(['orWhere', 'orWhereNot', 'orWhereNull', 'orWhereNotNull', 'orWhereIn', 'orWhereNotIn']);
const NULL_CHECK_METHODS: ReadonlySet<string> = new Set([
  'whereNull',
  'whereNotNull',
  'andWhereNull',
  'andWhereNotNull',
  'whereIn',
  'whereNotIn',
  'andWhereIn',
  'andWhereNotIn',
  'whereNot',
  'andWhereNot',
]);
// Methods that change nothing the lock rules ask about.
const NEUTRAL_METHODS: ReadonlySet<string> = new Set([
  'transacting',
  'timeout',
  'withSchema',
  'limit',
  'first',
  'debug',
  'options',
  'connection',
  'onConflict',
  'ignore',
  'merge',
  'returning',
]);
// Where the chain continues past the statement: the promise, not the builder.
const PROMISE_METHODS: ReadonlySet<string> = new Set(['then', 'catch', 'finally', 'asCallback']);
const WRITE_KINDS: Readonly<Record<string, 'insert' | 'update' | 'delete'>> = {
  insert: 'insert',
  upsert: 'insert',
  update: 'update',
  del: 'delete',
  delete: 'delete',
};
const COMPARISON_OPERATORS: ReadonlySet<string> = new Set(['=', '<', '<=', '>', '>=', '<>', '!=']);

/** The write is a chain this reader follows: one that starts by calling the client with the table (`knex('t')…`). */
export function readsAsStatement(write: OrmWriteFacts): boolean {
  return ormWritesOf(write.library)?.spelling === 'table-call';
}

/**
 * The statement a knex write chain (`findOrmWrite`'s knex form) sends, or undefined when some step
 * of the chain is not one this reader understands, or the table is not a literal.
 */
export function readKnexStatement(write: OrmWriteFacts, sourceCode: Readonly<TSESLint.SourceCode>): KnexStatement | undefined {
  const kind = WRITE_KINDS[write.method];
  if (!readsAsStatement(write) || write.table === undefined || kind === undefined) return undefined;
  // The chain from the root `knex('t')` out to the last builder call, then the calls after the write (`.onConflict().merge()`).
  const calls: TSESTree.CallExpression[] = [];
  for (const node of write.chain) {
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    calls.unshift(node);
  }
  const root = calls.shift();
  if (!root || root.arguments.length !== 1) return undefined;
  let outer: TSESTree.CallExpression = write.node;
  for (;;) {
    const member = outer.parent;
    if (
      member.type !== AST_NODE_TYPES.MemberExpression ||
      member.object !== outer ||
      member.parent.type !== AST_NODE_TYPES.CallExpression ||
      member.parent.callee !== member
    )
      break;
    const method = propertyName(member);
    if (method === undefined || PROMISE_METHODS.has(method)) break;
    outer = member.parent;
    calls.push(outer);
  }

  const parameters: TSESTree.Node[] = [];
  const bind = (value: TSESTree.Node): number => parameters.push(value);
  const where: ColumnComparison[] = [];
  const insertColumns: string[] = [];
  const insertParameters = new Map<string, number>();
  const setColumns: string[] = [];
  const setParameters = new Map<string, number>();
  const setNullColumns: string[] = [];
  const returning: string[] = [];
  let hasWhere = false;
  let whereHasOr = false;
  let columnsKnown = true;
  let conflict: { targetColumns: string[]; action: 'nothing' | 'update' | undefined; setColumns: string[] | undefined } | undefined;
  for (const call of calls) {
    const callee = skipTypeWrappers(call.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const method = propertyName(callee);
    if (method === undefined) return undefined;
    const args = call.arguments.map((argument) => skipTypeWrappers(argument));
    if (call === write.node) {
      if (kind === 'delete') continue;
      // `update({ owner: null })`, `insert(row)` of a const row, or knex's `update('owner', null)`.
      const single = kind === 'update' ? columnName(args[0]) : undefined;
      const values = single !== undefined && args[1] ? new Map([[single.toLowerCase(), args[1]]]) : objectLiteralOf(args[0], sourceCode);
      if (!values) columnsKnown = false;
      for (const [column, value] of values ?? []) {
        if (kind === 'insert') {
          insertColumns.push(column);
          insertParameters.set(column, bind(value));
        } else {
          setColumns.push(column);
          if (isNull(value)) setNullColumns.push(column);
          else setParameters.set(column, bind(value));
        }
      }
      // `insert(row, ['id'])`, `update(values, ['id'])`: the argument after the values is the returning list.
      const returned = args[single === undefined ? 1 : 2];
      if (returned) returning.push(...(columnNames(returned) ?? []));
      if (method === 'upsert') conflict = { targetColumns: [], action: 'update', setColumns: undefined };
      continue;
    }
    if (WHERE_METHODS.has(method)) {
      const comparisons = whereComparisons(args, bind);
      if (!comparisons) return undefined;
      hasWhere = true;
      where.push(...comparisons);
    } else if (NULL_CHECK_METHODS.has(method)) {
      // A condition that is no `column = value` still narrows the rows (and names no owner's value).
      if (args.length === 0 || columnName(args[0]) === undefined) return undefined;
      hasWhere = true;
    } else if (OR_METHODS.has(method)) {
      hasWhere = true;
      whereHasOr = true;
    } else if (NEUTRAL_METHODS.has(method)) {
      if (method === 'onConflict')
        conflict = { targetColumns: args[0] ? (columnNames(args[0]) ?? []) : [], action: undefined, setColumns: undefined };
      else if (method === 'ignore' && conflict) conflict.action = 'nothing';
      else if (method === 'merge' && conflict) {
        conflict.action = 'update';
        const merged =
          args[0] === undefined ? undefined : (columnNames(args[0]) ?? [...(objectLiteralOf(args[0], sourceCode)?.keys() ?? [])]);
        conflict.setColumns = merged;
      } else if (method === 'returning' && args[0]) returning.push(...(columnNames(args[0]) ?? []));
    } else {
      return undefined;
    }
  }

  let onConflict: OnConflictFacts | undefined;
  if (kind === 'insert' && conflict?.action) {
    // knex puts an insert's `where` into its `ON CONFLICT` clause: `.merge().where(...)` is the guard.
    onConflict = {
      action: conflict.action,
      targetColumns: conflict.targetColumns,
      where: hasWhere ? where : undefined,
      setColumns: conflict.action === 'update' ? (conflict.setColumns ?? insertColumns) : [],
      setListEnd: undefined,
    };
  }
  const statementWhere = kind === 'insert' ? [] : where;
  const facts: SqlStatementFacts = {
    kind,
    table: knexTableName(write.table),
    tableAlias: undefined,
    advisoryLocks: [],
    insertColumns,
    setColumns,
    setParameters,
    setNullColumns,
    insertParameters,
    where: statementWhere,
    hasWhere: kind !== 'insert' && hasWhere,
    whereHasOr: kind !== 'insert' && whereHasOr,
    onConflict,
    returning,
    optimisticVersionCheck:
      kind === 'update' &&
      statementWhere.some((comparison) => VERSION_COLUMNS.includes(comparison.column) && comparison.operator === '=') &&
      setColumns.some((column) => VERSION_COLUMNS.includes(column)),
    locksRows: false,
    singleTable: true,
    onlyAdvisoryLocks: false,
    // No SQL text: the fixes that edit a statement's text have nothing to edit here.
    location: undefined,
    setListEnd: undefined,
    whereEnd: undefined,
    whereInsertAt: undefined,
  };
  return { node: outer, table: facts.table!, facts, parameters, columnsKnown };
}

/** The table a chain writes as the SQL path names it: lower case, the schema dropped (`knex('public.locks')`). */
export function knexTableName(table: string): string {
  return table.slice(table.lastIndexOf('.') + 1).toLowerCase();
}

/** `where('name', v)`, `where('expires_at', '<', v)`, `where({ name, owner })`; undefined for any other form. */
function whereComparisons(args: readonly TSESTree.Node[], bind: (value: TSESTree.Node) => number): ColumnComparison[] | undefined {
  const [first, second, third] = args;
  if (!first) return undefined;
  if (first.type === AST_NODE_TYPES.ObjectExpression) {
    if (args.length !== 1) return undefined;
    const comparisons: ColumnComparison[] = [];
    for (const property of first.properties) {
      const column = property.type === AST_NODE_TYPES.Property && !property.computed ? keyName(property.key) : undefined;
      if (column === undefined || property.type !== AST_NODE_TYPES.Property) return undefined;
      comparisons.push(comparison(column, '=', property.value, bind));
    }
    return comparisons;
  }
  const column = columnName(first);
  if (column === undefined || !second) return undefined;
  if (args.length === 2) return [comparison(column, '=', second, bind)];
  const operator =
    second.type === AST_NODE_TYPES.Literal && typeof second.value === 'string' ? second.value.trim().toLowerCase() : undefined;
  if (args.length !== 3 || !third || operator === undefined) return undefined;
  return [comparison(column, operator, third, bind)];
}

function comparison(qualified: string, operator: string, value: TSESTree.Node, bind: (value: TSESTree.Node) => number): ColumnComparison {
  const dot = qualified.lastIndexOf('.');
  const column = qualified.slice(dot + 1).toLowerCase();
  const table = dot < 0 ? undefined : qualified.slice(0, dot).toLowerCase();
  // A value is a bound parameter as in raw SQL; a column on the right (`knex.ref`) or the clock is not.
  const clock = isClock(value);
  // `where('owner', null)` is knex's `owner IS NULL`: no value is compared.
  if (isNull(value))
    return { column, table, operator: operator === '=' ? 'is null' : operator, parameter: undefined, comparedWithClock: false };
  const parameter = clock || !COMPARISON_OPERATORS.has(operator) ? undefined : bind(value);
  return { column, table, operator, parameter, comparedWithClock: clock };
}

/** `knex.fn.now()`, `new Date()`, `Date.now()`, `knex.raw('now()')`: the comparison is with the current time. */
function isClock(value: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(value);
  if (expression.type === AST_NODE_TYPES.NewExpression)
    return expression.callee.type === AST_NODE_TYPES.Identifier && expression.callee.name === 'Date' && expression.arguments.length === 0;
  if (expression.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = skipTypeWrappers(expression.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = propertyName(callee);
  if (method === 'now')
    return (
      (callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'Date') ||
      (callee.object.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.object) === 'fn')
    );
  const text = expression.arguments[0];
  return (
    method === 'raw' &&
    text?.type === AST_NODE_TYPES.Literal &&
    typeof text.value === 'string' &&
    /^\s*(?:now\(\)|current_timestamp|clock_timestamp\(\))\s*$/iu.test(text.value)
  );
}

/** An object literal's properties by column, inline or through a const (`const row = { ... }; insert(row)`). */
function objectLiteralOf(
  node: TSESTree.Node | undefined,
  sourceCode: Readonly<TSESLint.SourceCode>,
): Map<string, TSESTree.Node> | undefined {
  let expression = node && skipTypeWrappers(node);
  if (expression?.type === AST_NODE_TYPES.Identifier) {
    const init = constInitializer(sourceCode, expression);
    expression = init && skipTypeWrappers(init);
  }
  if (expression?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const values = new Map<string, TSESTree.Node>();
  for (const property of expression.properties) {
    // A spread (`...defaults`) may add any column.
    if (property.type !== AST_NODE_TYPES.Property || property.computed) return undefined;
    const column = keyName(property.key);
    if (column === undefined) return undefined;
    values.set(column.toLowerCase(), property.value);
  }
  return values;
}

function keyName(key: TSESTree.Node): string | undefined {
  if (key.type === AST_NODE_TYPES.Identifier) return key.name;
  return key.type === AST_NODE_TYPES.Literal && typeof key.value === 'string' ? key.value : undefined;
}

function columnName(node: TSESTree.Node | undefined): string | undefined {
  return node?.type === AST_NODE_TYPES.Literal && typeof node.value === 'string' ? node.value : undefined;
}

/** `'id'` or `['id', 'owner']`, lower case, table prefixes dropped. */
function columnNames(node: TSESTree.Node): string[] | undefined {
  const expression = skipTypeWrappers(node);
  const elements = expression.type === AST_NODE_TYPES.ArrayExpression ? expression.elements : [expression];
  const names: string[] = [];
  for (const element of elements) {
    const name = element ? columnName(skipTypeWrappers(element)) : undefined;
    if (name === undefined) return undefined;
    names.push(name.slice(name.lastIndexOf('.') + 1).toLowerCase());
  }
  return names;
}

function isNull(node: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(node);
  return expression.type === AST_NODE_TYPES.Literal && expression.value === null;
}
