// The SQL half's nouns: every query a file sends, its sender, and the advisory locks, lock-table rows
// and writes it contains. Types only, like the rest of nouns/.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { AdvisoryLockCall, SqlStatementFacts, SqlText } from '../../sql-syntax/index.js';
import type { ScopeOwner } from '../../util/ast.js';
import type { SenderKind, SqlLibrary } from './vocabulary.js';

export interface SqlQuery extends FoundQuery {
  /** Facts per statement; `undefined` when the text does not parse or holds nothing lock-related. */
  readonly statements: readonly SqlStatementFacts[] | undefined;
  readonly owner: ScopeOwner;
  /** The sender is bound to an explicit transaction (callback handle, `BEGIN` earlier on it, ...). */
  readonly inTransaction: boolean;
}

export interface SqlItem {
  /** What a rule reports. */
  readonly node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  readonly owner: ScopeOwner;
  readonly range: TSESTree.Range;
}

export interface AdvisoryLockItem extends SqlItem {
  readonly query: SqlQuery;
  readonly call: AdvisoryLockCall;
  readonly statement: SqlStatementFacts;
  readonly statementIndex: number;
  /** The statement runs inside an explicit transaction (same text after `BEGIN`, or the query is). */
  readonly inTransaction: boolean;
}

export interface LockTableAcquisition extends SqlItem {
  /** The raw SQL query; `undefined` for a knex builder chain, which carries `builder` instead. */
  readonly query: SqlQuery | undefined;
  readonly builder: KnexStatement | undefined;
  readonly statement: SqlStatementFacts;
  readonly table: string;
  /** `INSERT ... ON CONFLICT ... DO UPDATE`: takes an existing row over. */
  readonly upsert: boolean;
}

export interface LockTableRelease extends SqlItem {
  /** The raw SQL query; `undefined` for a knex builder chain, which carries `builder` instead. */
  readonly query: SqlQuery | undefined;
  readonly builder: KnexStatement | undefined;
  readonly statement: SqlStatementFacts;
  readonly table: string;
  readonly kind: 'delete' | 'update';
  /** The WHERE compares the owner column: only the holder's own row is freed. */
  readonly ownerCompared: boolean;
}

export interface SqlWrite extends SqlItem {
  readonly library: SqlLibrary;
  readonly table: string | undefined;
  /** Set for raw SQL writes (parsed on first read; `undefined` when the text does not parse); ORM writes carry `orm` instead. */
  readonly query: SqlQuery | undefined;
  readonly statement: SqlStatementFacts | undefined;
  readonly orm: OrmWriteFacts | undefined;
  /** Idempotent by construction: `ON CONFLICT DO NOTHING`, an optimistic version check. */
  readonly idempotent: boolean;
  /** The write's WHERE compares one of `fenceColumns` with a parameter using `<`. */
  isFenced(fenceColumns: readonly string[]): boolean;
}

export interface SqlModel {
  readonly queries: readonly SqlQuery[];
  readonly advisoryLocks: readonly AdvisoryLockItem[];
  readonly lockTableAcquisitions: readonly LockTableAcquisition[];
  readonly lockTableReleases: readonly LockTableRelease[];
  /** UPDATEs of a lock table that keep the owner (renewals). */
  readonly lockTableRenewals: readonly LockTableRelease[];
  readonly writes: readonly SqlWrite[];
  /** Columns seen per table across the file's statements (raw SQL and knex builder chains). */
  readonly tableColumns: ReadonlyMap<string, ReadonlySet<string>>;
  /** Tables a knex chain writes in a way the builder reader cannot follow (`whereRaw`, `insert(row)` of an unknown row). */
  readonly tablesWrittenUnread: ReadonlySet<string>;
  isLockTable(table: string): boolean;
}

/** Where the SQL text of a query sits in the file, for fixes that edit it. */
export type SqlSourceNode = TSESTree.StringLiteral | TSESTree.TemplateLiteral;

export interface FoundQuery {
  /** The call (or tagged template) that sends the SQL: what a rule reports. */
  readonly node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  readonly method: string;
  readonly sender: SqlSender;
  readonly source: SqlSourceNode;
  /** The template is tagged (`sql\`...\``): interpolations are bound parameters. */
  readonly tagged: boolean;
  readonly sql: SqlText;
  /** The JavaScript expression bound to `$n`, at index n - 1, where the code shows it. */
  readonly parameters: readonly (TSESTree.Node | undefined)[];
  /** Options object passed after the bindings (Sequelize `{ transaction }`). */
  readonly options: TSESTree.ObjectExpression | undefined;
}

export interface SqlHandle {
  readonly kind: SenderKind;
  readonly library: SqlLibrary;
  /** The handle belongs to one explicit transaction (a transaction callback's parameter, `knex.transaction()`). */
  readonly inTransaction: boolean;
  /**
   * A one-connection pool (`postgres(url, { max: 1 })`, `new Pool({ max: 1, idleTimeoutMillis: 0 })`):
   * one session at a time, but when that connection drops the pool opens a new one, without the
   * session's advisory locks. Set only there; a dedicated client fails instead of reconnecting.
   */
  readonly reconnects?: boolean;
}

export interface SqlSender extends SqlHandle {
  /** The receiver expression as written (`pool`, `this.db`, `tx`). */
  readonly node: TSESTree.Node;
  readonly text: string;
  /** Same identity ⇔ same object: the variable when one resolves, else the source text. */
  readonly identity: TSESLint.Scope.Variable | string;
}

export interface KnexStatement {
  /** The outermost call of the chain (`.onConflict('name').ignore()` included): the statement as written. */
  readonly node: TSESTree.CallExpression;
  readonly table: string;
  readonly facts: SqlStatementFacts;
  /**
   * The JavaScript values the statement binds, in the order the chain gives them (insert or update
   * values, then the `where` values); the facts' parameter numbers index it from 1, as `$n` indexes a
   * raw query's bindings.
   */
  readonly parameters: readonly TSESTree.Node[];
  /** The insert's (or update's) columns are all written in the code; false for `insert(row)` of an unknown `row`. */
  readonly columnsKnown: boolean;
}

export interface OrmWriteFacts {
  readonly node: TSESTree.CallExpression;
  readonly library: SqlLibrary;
  readonly method: string;
  readonly sender: SqlSender;
  /** The model or table written, when written as a literal or property name. */
  readonly table: string | undefined;
  /** The call chain's nodes, where fence conditions are looked for. */
  readonly chain: readonly TSESTree.Node[];
}
