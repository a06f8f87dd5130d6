// The SQL half of the lock model: every query in a file, who sends it, whether a transaction
// holds it, and the advisory locks, lock-table rows and writes it contains. Computed once per file.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  contains,
  enclosingFunction,
  expressionStatementOf,
  functionName,
  isFunctionLike,
  methodCallParts,
  propertyName,
  type ScopeOwner,
  skipTypeWrappers,
} from '../../util/ast.js';
import { collectImports } from '../facts/imports.js';
import { earlyExitBranch, within } from '../facts/source-order.js';
import { collectNodes } from '../../util/collect-nodes.js';
import {
  comparesColumn,
  comparesColumnBelowParameter,
  describeSql,
  isConflictDoNothing,
  type SqlStatementFacts,
} from '../../sql-syntax/index.js';
import { EXPIRY_COLUMNS, LOCK_TABLE_WORDS, OWNER_COLUMNS, SQL_CALL_METHODS, TRANSACTION_BOUNDARY_METHODS } from '../tables/sql-clients.js';
import { knexTableName, readKnexStatement, readsAsStatement } from './knex-statements.js';
import type {
  KnexStatement,
  OrmWriteFacts,
  FoundQuery,
  SqlQuery,
  SqlItem,
  AdvisoryLockItem,
  LockTableAcquisition,
  LockTableRelease,
  SqlWrite,
  SqlModel,
} from '../nouns/sql-items.js';
import { findOrmWrite, ormWriteIsFenced, ormWriteIsIdempotent } from './orm-writes.js';
import { findQuery, objectProperty } from './sql-queries.js';
import { mayContainSql } from '../screen/sql-prefilter.js';
import { SenderResolver } from './senders.js';
import type { LocksmithRuleContext } from '../../util/rule-context.js';

export type { SenderKind, SqlLibrary } from '../nouns/vocabulary.js';
export type { SqlSender } from '../nouns/sql-items.js';
export type { SqlSourceNode } from '../nouns/sql-items.js';
export type { KnexStatement } from '../nouns/sql-items.js';
export { EXPIRY_COLUMNS, OWNER_COLUMNS } from '../tables/sql-clients.js';

// Only texts that can hold a lock-related fact are parsed: plain SELECTs never are. Transaction
// control words count only where a statement starts: `end` anywhere also matches every
// `CASE … END` of a long catalog SELECT, and the parser takes hundreds of milliseconds on one of those.
const INTERESTING_SQL = /\bpg_(?:try_)?advisory_|\b(?:insert|update|delete)\b|(?:^|;)\s*(?:begin|start|commit|rollback|end|abort)\b/iu;

const cache = new WeakMap<TSESTree.Program, SqlModel>();

/**
 * A barrier, not a mutex: the lock is its function's last statement (nothing after it to protect),
 * taken to wait until holders of it are done, in a function not named for locking. A function
 * named for locking (`lockJob`) hands the lock to its caller, and that is not a barrier.
 */
export function isTrailingBarrier(item: AdvisoryLockItem): boolean {
  const fn = item.owner;
  if (!isFunctionLike(fn) || fn.body.type !== AST_NODE_TYPES.BlockStatement) return false;
  const statement = expressionStatementOf(item.node);
  if (!statement || fn.body.body.at(-1) !== statement) return false;
  return !/lock|mutex|acquire|guard|exclusive/iu.test(functionName(fn) ?? 'lock');
}

/**
 * A session-level advisory lock or unlock sent through a pool, outside any transaction: each query
 * runs on whichever connection is free, so the unlock can land on another connection than the lock
 * (and answer `false`), and the lock stays with a pooled connection nobody owns. Not a text that
 * locks and unlocks itself (one query, one connection), nor a query bound to a transaction
 * (Sequelize's `{ transaction }`), which runs on that transaction's one connection.
 */
export function isPooledSessionCall(item: AdvisoryLockItem): boolean {
  return (
    item.call.scope === 'session' && item.query.sender.kind === 'pool' && !item.query.inTransaction && !lockedAndUnlockedInOneText(item)
  );
}

/**
 * A session-level advisory call through a one-connection pool that reconnects (postgres.js or pg
 * with `max: 1`): every query shares one session while it lives, but when the connection drops the
 * pool opens a fresh one, where the lock is no longer held and the unlock answers `false`.
 */
export function isReconnectingSessionCall(item: AdvisoryLockItem): boolean {
  return item.call.scope === 'session' && item.query.sender.reconnects === true && !item.query.inTransaction;
}

/** `SELECT pg_advisory_lock(1); ...; SELECT pg_advisory_unlock(1)` in one text runs on one connection. */
function lockedAndUnlockedInOneText(item: AdvisoryLockItem): boolean {
  const calls = (item.query.statements ?? []).flatMap((statement) => statement.advisoryLocks);
  return (
    calls.some((call) => call.scope === 'session' && call.action === 'lock') &&
    calls.some((call) => call.scope === 'session' && call.action !== 'lock')
  );
}

export function getSqlModel(context: LocksmithRuleContext): SqlModel {
  return sqlModelOf(context.sourceCode, context.filename);
}

/** The SQL model of any parsed module (another module's lock helpers, model/project/), cached like a linted file's. */
export function sqlModelOf(sourceCode: Readonly<TSESLint.SourceCode>, filename: string): SqlModel {
  const program = sourceCode.ast;
  let model = cache.get(program);
  if (!model) {
    model = buildSqlModel(sourceCode, filename);
    cache.set(program, model);
  }
  return model;
}

/** A method call whose name the SQL model knows (SQL_CALL_METHODS); plain calls (`knex('t')`) hold no query or write by themselves. */
function isSqlCallCandidate(call: TSESTree.CallExpression): boolean {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = propertyName(callee);
  return method !== undefined && SQL_CALL_METHODS.has(method);
}

function buildSqlModel(sourceCode: Readonly<TSESLint.SourceCode>, filename: string): SqlModel {
  const program = sourceCode.ast;
  if (!mayContainSql(sourceCode.text, program)) return emptyModel();
  const imports = collectImports(program);
  const senders = new SenderResolver(sourceCode, imports, filename);
  // The file's calls and tagged templates come from the walk the Redis half shares (collectNodes).
  const collected = collectNodes(sourceCode);
  // Filtered before sorting: a large ORM file has tens of thousands of calls, a handful of them SQL.
  const calls: (TSESTree.CallExpression | TSESTree.TaggedTemplateExpression)[] = [
    ...collected.calls.filter(isSqlCallCandidate),
    ...collected.taggedTemplates,
  ].sort((left, right) => left.range[0] - right.range[0]);
  for (const { name, value } of collected.memberInitializers) senders.noteMemberInitializer(name, value);

  const found: {
    query: FoundQuery;
    owner: ScopeOwner;
    statements: readonly SqlStatementFacts[] | undefined;
    plainWrite: PlainWrite | undefined;
  }[] = [];
  const ormWrites: OrmWriteFacts[] = [];
  const markers: TransactionMarker[] = [];
  for (const call of calls) {
    const query = findQuery(call, sourceCode, imports, senders);
    if (query) {
      const text = query.sql.text;
      // A plain write on an ordinary table is parsed only when a rule asks about it (the parser is the slow part).
      const plainWrite = INTERESTING_SQL.test(text) ? plainWriteOf(text) : undefined;
      const statements = plainWrite || !INTERESTING_SQL.test(text) ? undefined : describeSql(text);
      const owner = enclosingFunction(call);
      found.push({ query, owner, statements, plainWrite });
      for (const statement of statements ?? []) {
        if (statement.kind === 'begin') markers.push({ identity: query.sender.identity, owner, node: call, begins: true });
        if (statement.kind === 'commit' || statement.kind === 'rollback')
          markers.push({ identity: query.sender.identity, owner, node: call, begins: false });
      }
      continue;
    }
    if (call.type !== AST_NODE_TYPES.CallExpression) continue;
    const parts = methodCallParts(call);
    // TypeORM QueryRunner transactions.
    const boundary =
      parts && Object.hasOwn(TRANSACTION_BOUNDARY_METHODS, parts.method) ? TRANSACTION_BOUNDARY_METHODS[parts.method] : undefined;
    if (parts && boundary) {
      markers.push({
        identity: senders.sender(parts.receiver).identity,
        owner: enclosingFunction(call),
        node: call,
        begins: boundary === 'begin',
      });
      continue;
    }
    const write = findOrmWrite(call, senders);
    if (write) ormWrites.push(write);
  }

  markers.sort((left, right) => left.node.range[0] - right.node.range[0]);
  // Each query asks about the markers of its own function only.
  const markersByFunction = new Map<ScopeOwner, TransactionMarker[]>();
  for (const marker of markers) {
    const list = markersByFunction.get(marker.owner);
    if (list) list.push(marker);
    else markersByFunction.set(marker.owner, [marker]);
  }
  const lazy = new Map<SqlQuery, PlainWrite>();
  const queries: SqlQuery[] = found.map(({ query, owner, statements, plainWrite }) => {
    const built: SqlQuery = {
      ...query,
      statements,
      owner,
      inTransaction:
        query.sender.inTransaction ||
        (query.options !== undefined && objectProperty(query.options, 'transaction') !== undefined) ||
        (query.sender.kind !== 'pool' &&
          openTransaction(markersByFunction.get(owner) ?? [], query.sender.identity, owner, query.node.range[0])),
    };
    if (!plainWrite) return built;
    lazy.set(built, plainWrite);
    const text = query.sql.text;
    Object.defineProperty(built, 'statements', { get: () => describeSql(text), enumerable: true });
    return built;
  });

  const tableColumns = new Map<string, Set<string>>();
  for (const query of queries) {
    if (lazy.has(query)) continue;
    for (const statement of query.statements ?? []) {
      if (!statement.table) continue;
      const columns = tableColumns.get(statement.table) ?? new Set<string>();
      for (const column of [...statement.insertColumns, ...statement.setColumns, ...statement.where.map((comparison) => comparison.column)])
        columns.add(column);
      tableColumns.set(statement.table, columns);
    }
  }
  // knex chains add their columns as raw statements do, so one rule (isLockTable) decides for both.
  const builders = new Map<OrmWriteFacts, KnexStatement>();
  const tablesWrittenUnread = new Set<string>();
  for (const write of ormWrites) {
    if (!readsAsStatement(write) || write.table === undefined) continue;
    const builder = readKnexStatement(write, sourceCode);
    if (!builder || !builder.columnsKnown) tablesWrittenUnread.add(knexTableName(write.table));
    if (!builder) continue;
    builders.set(write, builder);
    const statement = builder.facts;
    const columns = tableColumns.get(builder.table) ?? new Set<string>();
    for (const column of [
      ...statement.insertColumns,
      ...statement.setColumns,
      ...statement.where.map((comparison) => comparison.column),
      ...(statement.onConflict?.where ?? []).map((comparison) => comparison.column),
    ])
      columns.add(column);
    tableColumns.set(builder.table, columns);
  }
  const isLockTable = (table: string): boolean => {
    const words = table
      .replace(/([a-z])([A-Z])/gu, '$1_$2')
      .toLowerCase()
      .split(/[^a-z0-9]+/u);
    // The table is named for what it holds: `job_locks`, `shedlock`, `app_lock`, not `lock_events`.
    if (LOCK_TABLE_WORDS.has(words.at(-1) ?? '')) return true;
    const columns = tableColumns.get(table);
    return (
      columns !== undefined && OWNER_COLUMNS.some((column) => columns.has(column)) && EXPIRY_COLUMNS.some((column) => columns.has(column))
    );
  };

  const advisoryLocks: AdvisoryLockItem[] = [];
  const lockTableAcquisitions: LockTableAcquisition[] = [];
  const lockTableReleases: LockTableRelease[] = [];
  const lockTableRenewals: LockTableRelease[] = [];
  const writes: SqlWrite[] = [];
  for (const query of queries) {
    const item = { node: query.node, owner: query.owner, range: query.node.range };
    const plainWrite = lazy.get(query);
    if (plainWrite && !isLockTable(plainWrite.table)) {
      writes.push(lazyWrite(item, query, plainWrite));
      continue;
    }
    const statements = query.statements ?? [];
    statements.forEach((statement, statementIndex) => {
      const earlier = statements.slice(0, statementIndex);
      const inTransaction =
        query.inTransaction ||
        (earlier.some((other) => other.kind === 'begin') &&
          !earlier.some((other) => other.kind === 'commit' || other.kind === 'rollback')) ||
        // Several statements in one simple query run as one implicit transaction.
        statementIndex < statements.length - 1;
      for (const call of statement.advisoryLocks) advisoryLocks.push({ ...item, query, call, statement, statementIndex, inTransaction });
      const table = statement.table;
      if (table === undefined) return;
      if (isLockTable(table)) {
        lockTableEvent({ ...item, query, builder: undefined, statement, table });
        return;
      }
      if (statement.kind === 'insert' || statement.kind === 'update' || statement.kind === 'delete') {
        writes.push({
          ...item,
          library: query.sender.library,
          table,
          query,
          statement,
          orm: undefined,
          idempotent: isConflictDoNothing(statement) || statement.optimisticVersionCheck,
          isFenced: (fenceColumns) => comparesColumnBelowParameter(statement, fenceColumns),
        });
      }
    });
  }
  let builderEvents = false;
  for (const write of ormWrites) {
    const builder = builders.get(write);
    if (readsAsStatement(write) && write.table !== undefined && isLockTable(knexTableName(write.table))) {
      // A lock table's own statements are its acquisitions and releases, not writes under a lock; a
      // chain the reader cannot follow is neither (what it does to the row is unknown).
      if (builder) {
        lockTableEvent({
          node: builder.node,
          owner: enclosingFunction(builder.node),
          range: builder.node.range,
          query: undefined,
          builder,
          statement: builder.facts,
          table: builder.table,
        });
        builderEvents = true;
      }
      continue;
    }
    // A knex chain read whole also sees what follows the write call (`.onConflict('id').ignore()`,
    // `.update(...).where('fence', '<', f)`), which the call's own chain does not reach.
    const facts = builder?.facts;
    writes.push({
      node: write.node,
      owner: enclosingFunction(write.node),
      range: write.node.range,
      library: write.library,
      table: write.table,
      query: undefined,
      statement: undefined,
      orm: write,
      idempotent: ormWriteIsIdempotent(write) || (facts !== undefined && (isConflictDoNothing(facts) || facts.optimisticVersionCheck)),
      isFenced: (fenceColumns) =>
        ormWriteIsFenced(write, fenceColumns) || (facts !== undefined && comparesColumnBelowParameter(facts, fenceColumns)),
    });
  }
  writes.sort((left, right) => left.range[0] - right.range[0]);
  if (builderEvents) {
    // Lookups over these lists are binary searches by position (facts/source-order.ts's `within`).
    for (const list of [lockTableAcquisitions, lockTableReleases, lockTableRenewals])
      list.sort((left, right) => left.range[0] - right.range[0]);
  }

  return {
    queries,
    advisoryLocks,
    lockTableAcquisitions,
    lockTableReleases,
    lockTableRenewals,
    writes,
    tableColumns,
    tablesWrittenUnread,
    isLockTable,
  };

  /** One statement on a lock table, raw or built: an insert takes the row, a delete or an update frees or renews it. */
  function lockTableEvent(event: SqlItem & Pick<LockTableAcquisition, 'query' | 'builder' | 'statement' | 'table'>): void {
    const statement = event.statement;
    if (statement.kind === 'insert') {
      lockTableAcquisitions.push({ ...event, upsert: statement.onConflict?.action === 'update' });
    } else if (statement.kind === 'delete' || statement.kind === 'update') {
      const release: LockTableRelease = { ...event, kind: statement.kind, ownerCompared: comparesColumn(statement, OWNER_COLUMNS) };
      if (statement.kind === 'update' && !statement.setColumns.some((column) => OWNER_COLUMNS.includes(column)))
        lockTableRenewals.push(release);
      else lockTableReleases.push(release);
    }
  }
}

/** What a regular expression can tell of one plain statement, enough to list it before parsing. */
interface PlainWrite {
  readonly kind: 'insert' | 'update' | 'delete';
  readonly table: string;
}

const PLAIN_WRITE = /^\s*(update|insert\s+into|delete\s+from)\s+(?:"?[A-Za-z_][\w$]*"?\.)?"?([A-Za-z_][\w$]*)"?[\s(]/iu;
// Anything beyond one plain statement on an ordinary table is parsed at once.
const NEEDS_PARSE =
  /pg_(?:try_)?advisory_|\bon\s+conflict\b|\breturning\b|;|\b(?:owner|locked_by|lock_owner|holder|lock_until|locked_until|expires_at)\b/iu;

function plainWriteOf(text: string): PlainWrite | undefined {
  if (NEEDS_PARSE.test(text)) return undefined;
  const match = PLAIN_WRITE.exec(text);
  if (!match) return undefined;
  const keyword = match[1]!.toLowerCase();
  const kind = keyword.startsWith('update') ? 'update' : keyword.startsWith('insert') ? 'insert' : 'delete';
  return { kind, table: match[2]!.toLowerCase() };
}

/** A write listed from its text; its facts are parsed when a rule first reads them. Unparseable: no facts, no finding. */
function lazyWrite(
  item: { node: SqlQuery['node']; owner: ScopeOwner; range: TSESTree.Range },
  query: SqlQuery,
  plain: PlainWrite,
): SqlWrite {
  const statement = (): SqlStatementFacts | undefined => {
    const statements = query.statements;
    return statements?.length === 1 && statements[0]!.kind === plain.kind ? statements[0] : undefined;
  };
  return {
    ...item,
    library: query.sender.library,
    table: plain.table,
    query,
    get statement() {
      return statement();
    },
    orm: undefined,
    get idempotent() {
      const facts = statement();
      return facts !== undefined && (isConflictDoNothing(facts) || facts.optimisticVersionCheck);
    },
    isFenced: (fenceColumns) => {
      const facts = statement();
      return facts !== undefined && comparesColumnBelowParameter(facts, fenceColumns);
    },
  };
}

function emptyModel(): SqlModel {
  return {
    queries: [],
    advisoryLocks: [],
    lockTableAcquisitions: [],
    lockTableReleases: [],
    lockTableRenewals: [],
    writes: [],
    tableColumns: new Map(),
    tablesWrittenUnread: new Set(),
    isLockTable: () => false,
  };
}

interface TransactionMarker {
  readonly identity: TSESLint.Scope.Variable | string;
  readonly owner: ScopeOwner;
  readonly node: TSESTree.Node;
  readonly begins: boolean;
}

/**
 * A `BEGIN` on the same connection earlier in the same function, not yet ended. A `BEGIN` or
 * `COMMIT` on a branch that returns or throws before `position` (`if (done) { COMMIT; return }`)
 * does not reach it: the code after that branch runs without having passed through it.
 */
function openTransaction(
  markers: readonly TransactionMarker[],
  identity: TSESLint.Scope.Variable | string,
  owner: ScopeOwner,
  position: number,
): boolean {
  let open = false;
  for (const marker of markers) {
    if (marker.identity !== identity || marker.owner !== owner || marker.node.range[0] >= position) continue;
    const exit = earlyExitBranch(marker.node, owner);
    if (exit && !(exit.range[0] <= position && position < exit.range[1])) continue;
    open = marker.begins;
  }
  return open;
}

/** Statements of a query that are writes under no transaction helper: what a critical section does. */
export function queriesIn(model: SqlModel, owner: ScopeOwner, from: number, to: number): readonly SqlQuery[] {
  return within(model.queries, [from, to], (query) => query.node).filter(
    (query) => query.owner === owner && query.node.range[0] > from && query.node.range[1] <= to,
  );
}

/**
 * The advisory call runs outside any transaction. Certain only for a pool (each statement its own
 * transaction) or a connection this function checked out and never began a transaction on; a
 * connection handed in may already be in one.
 */
export function runsOutsideTransaction(sourceCode: Readonly<TSESLint.SourceCode>, item: AdvisoryLockItem): boolean {
  const sender = item.query.sender;
  if (sender.kind === 'pool') return true;
  if (sender.kind !== 'connection' || sender.inTransaction || typeof sender.identity === 'string') return false;
  const definition = sender.identity.defs[0];
  return (
    definition?.node.type === AST_NODE_TYPES.VariableDeclarator &&
    item.owner.type !== AST_NODE_TYPES.Program &&
    contains(item.owner, definition.node) &&
    sourceCode.getScope(definition.node).block === item.owner
  );
}

/** A query between `from` and `to` begins, commits or rolls back a transaction. */
export function controlsTransactionIn(model: SqlModel, from: number, to: number): boolean {
  return within(model.queries, [from, to], (query) => query.node).some((query) =>
    query.statements?.some((statement) => statement.kind === 'begin' || statement.kind === 'commit' || statement.kind === 'rollback'),
  );
}
