// Domain facts about one parsed SQL statement: what a lock rule asks of SQL, answered from the AST.

import type { Expr, NodeLocation, Statement } from 'pgsql-ast-parser';

export type StatementKind = 'select' | 'insert' | 'update' | 'delete' | 'begin' | 'commit' | 'rollback' | 'other';

export interface AdvisoryLockCall {
  /** e.g. `pg_try_advisory_xact_lock`. */
  readonly functionName: string;
  /** Session locks outlive the transaction; xact locks end with it. */
  readonly scope: 'session' | 'xact';
  readonly mode: 'try' | 'blocking';
  readonly action: 'lock' | 'unlock' | 'unlock-all';
  readonly shared: boolean;
  readonly location: NodeLocation | undefined;
  /**
   * The result column that carries the call's value, when the call is a whole output column of a
   * top-level SELECT (`AS locked`, else the function's name); `undefined` when nested in an expression.
   */
  readonly outputName: string | undefined;
}

/** A comparison `column <op> value` among the top-level `AND` conjuncts of a `WHERE`. */
export interface ColumnComparison {
  readonly column: string;
  readonly table: string | undefined;
  /** Operator as if the column stood on the left (`$1 > fence` reads `fence < $1`). */
  readonly operator: string;
  /** The `$n` compared with, when the other side is a parameter. */
  readonly parameter: number | undefined;
  /** The other side is a call to `now()`, `current_timestamp` or similar. */
  readonly comparedWithClock: boolean;
}

export interface OnConflictFacts {
  readonly action: 'nothing' | 'update';
  readonly targetColumns: readonly string[];
  /** Set for `DO UPDATE ... WHERE`. */
  readonly where: readonly ColumnComparison[] | undefined;
  readonly setColumns: readonly string[];
  /** Where the `DO UPDATE SET` list ends: a guard goes after it. */
  readonly setListEnd: number | undefined;
}

export interface SqlStatementFacts {
  readonly kind: StatementKind;
  /** Target table of INSERT/UPDATE/DELETE (lower case, schema dropped). */
  readonly table: string | undefined;
  readonly tableAlias: string | undefined;
  readonly advisoryLocks: readonly AdvisoryLockCall[];
  readonly insertColumns: readonly string[];
  readonly setColumns: readonly string[];
  /** For `SET col = $n`, the parameter number per column. */
  readonly setParameters: ReadonlyMap<string, number>;
  /** Columns an UPDATE sets to `NULL` (an owner cleared). */
  readonly setNullColumns: readonly string[];
  /** For a one-row `INSERT ... VALUES (..., $n, ...)`, the parameter number per column. */
  readonly insertParameters: ReadonlyMap<string, number>;
  readonly where: readonly ColumnComparison[];
  readonly hasWhere: boolean;
  /** The WHERE mixes in `OR` at top level, so conjunct facts would not hold. */
  readonly whereHasOr: boolean;
  readonly onConflict: OnConflictFacts | undefined;
  readonly returning: readonly string[];
  /** Version column compared for equality and bumped in SET: an optimistic concurrency check. */
  readonly optimisticVersionCheck: boolean;
  /** SELECT ... FOR UPDATE/SHARE. */
  readonly locksRows: boolean;
  /** The statement reads and writes one table only: no CTE, FROM/USING list, sub-select or INSERT ... SELECT. */
  readonly singleTable: boolean;
  /** A SELECT whose every output is an advisory lock call: the statement does nothing else. */
  readonly onlyAdvisoryLocks: boolean;
  /** Positions in the statement's text (relative to the whole SQL text). */
  readonly location: NodeLocation | undefined;
  readonly setListEnd: number | undefined;
  readonly whereEnd: number | undefined;
  /** Where `WHERE ...` can be inserted when there is none (end of SET list, or of FROM). */
  readonly whereInsertAt: number | undefined;
}

const ADVISORY_FUNCTION = /^pg_(try_)?advisory_(xact_)?(lock|unlock|unlock_all)(_shared)?$/u;
const COMPARISON_OPERATORS = new Set(['=', '<', '<=', '>', '>=', '<>', '!=']);
const MIRRORED: Readonly<Record<string, string>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const CLOCK_FUNCTIONS = new Set([
  'now',
  'clock_timestamp',
  'statement_timestamp',
  'transaction_timestamp',
  'current_timestamp',
  'localtimestamp',
]);
export const VERSION_COLUMNS: readonly string[] = ['version', 'lock_version', 'row_version', 'revision'];

export function describeStatement(statement: Statement): SqlStatementFacts {
  const advisoryLocks = findAdvisoryLockCalls(statement);
  const target = statement.type === 'with' ? statement.in : statement;
  const base = {
    advisoryLocks,
    location: statement._location,
    singleTable: statement.type !== 'with' && !readsOtherTables(statement),
  };
  switch (target.type) {
    case 'insert': {
      const onConflict = target.onConflict;
      let conflict: OnConflictFacts | undefined;
      if (onConflict) {
        const action = onConflict.do === 'do nothing' ? 'nothing' : 'update';
        const sets = onConflict.do === 'do nothing' ? [] : onConflict.do.sets;
        conflict = {
          action,
          targetColumns:
            onConflict.on?.type === 'on expr'
              ? onConflict.on.exprs.flatMap((expr) => (expr.type === 'ref' ? [expr.name.toLowerCase()] : []))
              : [],
          where: onConflict.where ? conjuncts(onConflict.where).comparisons : undefined,
          setColumns: sets.map((set) => set.column.name.toLowerCase()),
          setListEnd: sets.at(-1)?._location?.end ?? sets.at(-1)?.value._location?.end,
        };
      }
      const insertColumns = (target.columns ?? []).map((column) => column.name.toLowerCase());
      const insertParameters = new Map<string, number>();
      const rows = target.insert.type === 'values' ? target.insert.values : [];
      if (rows.length === 1) {
        rows[0]!.forEach((value, index) => {
          const parameter = parameterNumber(value);
          const column = insertColumns[index];
          if (parameter !== undefined && column !== undefined) insertParameters.set(column, parameter);
        });
      }
      return {
        ...base,
        ...emptyWrite(),
        kind: 'insert',
        table: target.into.name.toLowerCase(),
        tableAlias: target.into.alias?.toLowerCase(),
        insertColumns,
        insertParameters,
        onConflict: conflict,
        returning: returningColumns(target.returning),
      };
    }
    case 'update': {
      const where = target.where ? conjuncts(target.where) : undefined;
      const setParameters = new Map<string, number>();
      for (const set of target.sets) {
        const parameter = parameterNumber(set.value);
        if (parameter !== undefined) setParameters.set(set.column.name.toLowerCase(), parameter);
      }
      const setColumns = target.sets.map((set) => set.column.name.toLowerCase());
      const lastSet = target.sets.at(-1);
      const setListEnd = lastSet?.value._location?.end ?? lastSet?._location?.end;
      const whereComparisons = where?.comparisons ?? [];
      return {
        ...base,
        ...emptyWrite(),
        kind: 'update',
        table: target.table.name.toLowerCase(),
        tableAlias: target.table.alias?.toLowerCase(),
        setColumns,
        setParameters,
        setNullColumns: target.sets.filter((set) => unwrapCast(set.value).type === 'null').map((set) => set.column.name.toLowerCase()),
        where: whereComparisons,
        hasWhere: where !== undefined,
        whereHasOr: where?.hasOr ?? false,
        returning: returningColumns(target.returning),
        optimisticVersionCheck:
          target.sets.some((set) => VERSION_COLUMNS.includes(set.column.name.toLowerCase())) &&
          whereComparisons.some((comparison) => VERSION_COLUMNS.includes(comparison.column) && comparison.operator === '='),
        setListEnd,
        whereEnd: target.where?._location?.end,
        whereInsertAt: target.from?._location?.end ?? setListEnd,
      };
    }
    case 'delete': {
      const where = target.where ? conjuncts(target.where) : undefined;
      return {
        ...base,
        ...emptyWrite(),
        kind: 'delete',
        table: target.from.name.toLowerCase(),
        tableAlias: target.from.alias?.toLowerCase(),
        where: where?.comparisons ?? [],
        hasWhere: where !== undefined,
        whereHasOr: where?.hasOr ?? false,
        returning: returningColumns(target.returning),
        whereEnd: target.where?._location?.end,
        whereInsertAt: target.from._location?.end,
      };
    }
    case 'select': {
      const columns = target.columns ?? [];
      const where = target.where ? conjuncts(target.where) : undefined;
      return {
        ...base,
        ...emptyWrite(),
        kind: 'select',
        table: target.from?.[0]?.type === 'table' ? target.from[0].name.name.toLowerCase() : undefined,
        tableAlias: undefined,
        where: where?.comparisons ?? [],
        hasWhere: where !== undefined,
        whereHasOr: where?.hasOr ?? false,
        locksRows: target.for !== undefined,
        onlyAdvisoryLocks:
          columns.length > 0 &&
          !target.from?.length &&
          columns.every((column) => column.expr.type === 'call' && ADVISORY_FUNCTION.test(column.expr.function.name.toLowerCase())),
      };
    }
    case 'begin':
    case 'start transaction':
      return { ...base, ...emptyWrite(), kind: 'begin', table: undefined, tableAlias: undefined };
    case 'commit':
      return { ...base, ...emptyWrite(), kind: 'commit', table: undefined, tableAlias: undefined };
    case 'rollback':
      return { ...base, ...emptyWrite(), kind: 'rollback', table: undefined, tableAlias: undefined };
    default:
      return { ...base, ...emptyWrite(), kind: 'other', table: undefined, tableAlias: undefined };
  }
}

/**
 * Facts of a bare transaction-control statement (`BEGIN`, `COMMIT WORK`, `END`, `ABORT`), read by
 * model/sql/sql-model.ts without the parser: the same facts describeStatement gives a parsed one.
 */
export function transactionControlFacts(kind: 'begin' | 'commit' | 'rollback', location: NodeLocation): SqlStatementFacts {
  return { advisoryLocks: [], location, singleTable: true, ...emptyWrite(), kind, table: undefined, tableAlias: undefined };
}

/**
 * Facts of a SELECT whose every column is an advisory-lock call, read by advisory-select.ts without
 * the parser: the same facts describeStatement gives the parsed statement.
 */
export function advisorySelectFacts(advisoryLocks: readonly AdvisoryLockCall[], location: NodeLocation): SqlStatementFacts {
  return {
    advisoryLocks,
    location,
    singleTable: true,
    ...emptyWrite(),
    kind: 'select',
    table: undefined,
    tableAlias: undefined,
    onlyAdvisoryLocks: true,
  };
}

function emptyWrite() {
  return {
    insertColumns: [] as readonly string[],
    setColumns: [] as readonly string[],
    setParameters: new Map<string, number>() as ReadonlyMap<string, number>,
    setNullColumns: [] as readonly string[],
    insertParameters: new Map<string, number>() as ReadonlyMap<string, number>,
    where: [] as readonly ColumnComparison[],
    hasWhere: false,
    whereHasOr: false,
    onConflict: undefined,
    returning: [] as readonly string[],
    optimisticVersionCheck: false,
    locksRows: false,
    onlyAdvisoryLocks: false,
    setListEnd: undefined,
    whereEnd: undefined,
    whereInsertAt: undefined,
  };
}

function returningColumns(returning: readonly { expr: Expr }[] | null | undefined): readonly string[] {
  return (returning ?? []).flatMap((column) => (column.expr.type === 'ref' ? [column.expr.name.toLowerCase()] : []));
}

function conjuncts(expr: Expr): { comparisons: ColumnComparison[]; hasOr: boolean } {
  const comparisons: ColumnComparison[] = [];
  let hasOr = false;
  const visit = (node: Expr) => {
    if (node.type !== 'binary') return;
    if (node.op === 'AND') {
      visit(node.left);
      visit(node.right);
      return;
    }
    if (node.op === 'OR') {
      hasOr = true;
      return;
    }
    if (!COMPARISON_OPERATORS.has(node.op)) return;
    const leftColumn = unwrapCast(node.left);
    const rightColumn = unwrapCast(node.right);
    if (leftColumn.type === 'ref') comparisons.push(comparison(leftColumn, node.op, node.right));
    if (rightColumn.type === 'ref') comparisons.push(comparison(rightColumn, MIRRORED[node.op] ?? node.op, node.left));
  };
  visit(expr);
  return { comparisons, hasOr };
}

function comparison(column: Extract<Expr, { type: 'ref' }>, operator: string, other: Expr): ColumnComparison {
  return {
    column: column.name.toLowerCase(),
    table: column.table?.name.toLowerCase(),
    operator,
    parameter: parameterNumber(other),
    comparedWithClock: isClockExpression(other),
  };
}

function unwrapCast(expr: Expr): Expr {
  return expr.type === 'cast' ? unwrapCast(expr.operand) : expr;
}

/** `$n` (possibly cast) → n. */
export function parameterNumber(expr: Expr): number | undefined {
  const inner = unwrapCast(expr);
  if (inner.type !== 'parameter') return undefined;
  const match = /^\$(\d+)$/u.exec(inner.name);
  return match ? Number(match[1]) : undefined;
}

function isClockExpression(expr: Expr): boolean {
  const inner = unwrapCast(expr);
  if (inner.type === 'call') return CLOCK_FUNCTIONS.has(inner.function.name.toLowerCase());
  if (inner.type === 'keyword') return CLOCK_FUNCTIONS.has(inner.keyword.toLowerCase());
  if (inner.type === 'binary') return isClockExpression(inner.left) || isClockExpression(inner.right);
  return false;
}

function findAdvisoryLockCalls(statement: Statement): AdvisoryLockCall[] {
  const calls: AdvisoryLockCall[] = [];
  const outputNames = new Map<object, string>();
  if (statement.type === 'select') {
    for (const column of statement.columns ?? []) {
      if (column.expr.type === 'call') outputNames.set(column.expr, column.alias?.name ?? column.expr.function.name);
    }
  }
  walk(statement, (node) => {
    if (node.type !== 'call') return;
    const call = node as unknown as Extract<Expr, { type: 'call' }>;
    const advisory = advisoryLockCall(call.function.name.toLowerCase(), call._location, outputNames.get(call));
    if (advisory) calls.push(advisory);
  });
  return calls;
}

/** The call of `functionName` (lower case) when it is an advisory-lock function, read from its name. */
export function advisoryLockCall(
  functionName: string,
  location: NodeLocation | undefined,
  outputName: string | undefined,
): AdvisoryLockCall | undefined {
  const match = ADVISORY_FUNCTION.exec(functionName);
  if (!match) return undefined;
  return {
    functionName,
    scope: match[2] ? 'xact' : 'session',
    mode: match[1] ? 'try' : 'blocking',
    action: match[3] === 'unlock_all' ? 'unlock-all' : match[3] === 'unlock' ? 'unlock' : 'lock',
    shared: match[4] !== undefined,
    location,
    outputName,
  };
}

/** A nested SELECT or a FROM list anywhere below the statement's own target. */
function readsOtherTables(statement: Statement): boolean {
  const nested: string[] = [];
  walk(statement, (node) => {
    if (node !== statement && (node.type === 'select' || node.type === 'union' || node.type === 'union all' || node.type === 'with'))
      nested.push(node.type);
  });
  return nested.length > 0 || (statement.type === 'update' && statement.from !== undefined && statement.from !== null);
}

function walk(value: unknown, visit: (node: { type: string }) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (typeof (value as { type?: unknown }).type === 'string') visit(value as { type: string });
  for (const [key, child] of Object.entries(value)) {
    if (key !== '_location') walk(child, visit);
  }
}
