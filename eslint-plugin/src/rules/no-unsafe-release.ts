// no-unsafe-release: freeing a lock without atomically checking that this holder still owns it.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isExpressionAvailableAt } from '../fixes/edits.js';
import { compareAndDeleteFix as primitiveCompareAndDeleteFix } from '../fixes/primitive-call.js';
import { bindParameter } from '../fixes/sql-bindings.js';
import { scriptCallFix, tokenTextAt } from '../fixes/script-call.js';
import { tokenByName } from '../fixes/token-by-name.js';
import { getLockModel } from '../model/index.js';
import { within } from '../model/indexes.js';
import { compareAndDeleteCommand } from '../model/servers.js';
import { acquiredAt, acquisitionForRelease, ownerCheckAround } from '../model/queries.js';
import type { RedisModel, Release } from '../model/redis-model.js';
import { EXPIRY_COLUMNS, getSqlModel, OWNER_COLUMNS, type LockTableAcquisition, type LockTableRelease, type SqlModel } from '../model/sql/index.js';
import { luaCompareFirstEdit } from '../fixes/lua-compare-first.js';
import { createRule } from '../util/create-rule.js';
import { luaLoc, luaModelOf } from '../util/lua-report.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'plainDelete' | 'checkThenDelete' | 'uncheckedScript' | 'useCompareAndDelete' | 'useServerCompareAndDelete' | 'unownedRowRelease' | 'compareOwner' | 'compareInScript';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'no-unsafe-release',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow releasing a lock without atomically comparing its token',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      plainDelete: '`{{command}}` releases the lock even when another holder owns it now: if this holder\'s lock expired, it frees the next holder\'s lock and lets a third one in.',
      checkThenDelete: 'The owner check and the `{{command}}` are two commands: the lock can expire and pass to another holder between them, and this `{{command}}` then frees that holder\'s lock.',
      uncheckedScript: 'This script deletes the lock without first comparing its value with the caller\'s token, so it frees whoever holds the lock now.',
      useCompareAndDelete: 'Release with the compare-and-delete script',
      useServerCompareAndDelete: 'Release with the server\'s `{{primitive}}`, which deletes only while the lock holds this token',
      unownedRowRelease: 'This `{{statement}}` frees the lock row whoever owns it now: if this holder\'s lock expired and another holder took it, it frees that holder\'s lock and lets a third one in. An owner check in JavaScript before it does not help: the row can change hands in between.',
      compareOwner: 'Release only this holder\'s row: add `AND {{column}} = {{value}}` to the `WHERE`',
      compareInScript: 'Delete only while the lock holds the caller\'s token: compare it with `{{token}}` first (callers pass their token there)',
    },
  },
  // In a `.lua` file: each DEL/UNLINK of a `KEYS[n]` key that no owner comparison guards.
  lua(context) {
    return {
      'Chunk:exit'() {
        const model = luaModelOf(context);
        for (const release of model?.unguardedReleases ?? []) {
          const edit = luaCompareFirstEdit(context.sourceCode.text, context.sourceCode.ast, release);
          context.report({
            loc: luaLoc(context, release.range),
            messageId: 'plainDelete',
            data: { command: release.command },
            // A suggestion, not an autofix: the script's callers must start passing their token.
            suggest: edit ? [{ messageId: 'compareInScript', data: { token: edit.tokenArgument }, fix: (fixer) => fixer.replaceTextRange(edit.range, edit.text) }] : [],
          });
        }
      },
    };
  },
  create(context) {
    return {
      'Program:exit'() {
        const { redis: model, settings } = getLockModel(context);
        const primitive = compareAndDeleteCommand(settings.redis);
        for (const release of model.releases) {
          if (release.safe || release.library !== 'redis' || !release.command || !release.key) continue;
          // A test's setup or teardown, or the deletion of a value its own function just wrote.
          if (model.isHousekeeping(release)) continue;
          const checkedBy = release.kind === 'del' ? ownerCheckAround(model, release) : undefined;
          // Comparing the stored value with a token before deleting is itself the mark of a lock.
          if (!checkedBy && !model.isLockKey(release.key)) continue;
          const messageId: MessageId = release.kind === 'script' ? 'uncheckedScript' : checkedBy ? 'checkThenDelete' : 'plainDelete';
          const fix = compareAndDeleteFix(context, model, release, checkedBy);
          // The server's own compare-and-delete first, when the configured server has one.
          const primitiveFix = fix && primitive ? serverCompareAndDeleteFix(context, model, release, checkedBy, primitive) : undefined;
          const suggest: TSESLint.SuggestionReportDescriptor<MessageId>[] = [];
          if (primitiveFix) suggest.push({ messageId: 'useServerCompareAndDelete', data: { primitive: primitive === 'DELEX' ? 'DELEX … IFEQ' : 'DELIFEQ' }, fix: primitiveFix });
          if (fix) suggest.push({ messageId: 'useCompareAndDelete', fix });
          context.report({
            node: release.node,
            messageId,
            data: {
              command: release.command.name,
              ...relatedData(
                acquiredAt(model, release),
                checkedBy && { message: 'The owner check, a separate command', node: checkedBy },
              ),
            },
            // A suggestion, not an autofix: the release starts sending a script instead of DEL.
            suggest,
          });
        }
        const sql = getSqlModel(context);
        for (const release of sql.lockTableReleases) {
          if (release.ownerCompared || !isUnownedRelease(sql, release)) continue;
          const acquisition = acquisitionOf(sql, release);
          const suggestion = ownerComparisonFix(context, release, acquisition);
          context.report({
            node: release.node,
            messageId: 'unownedRowRelease',
            data: {
              statement: release.kind === 'delete' ? 'DELETE' : 'UPDATE',
              ...relatedData(acquisition && { message: 'The lock row is taken here', node: acquisition.node }),
            },
            // A suggestion, not an autofix: the statement stops freeing rows that another holder owns.
            suggest: suggestion ? [suggestion] : [],
          });
        }
      },
    };
  },
});

/**
 * A release of one named lock row that does not ask who owns it: `DELETE FROM locks WHERE name = $1`,
 * or an `UPDATE` that sets the owner to `NULL` with such a `WHERE`. Not a release: a sweep of expired
 * rows (`WHERE expires_at < now()`), a statement with no `WHERE` or an `OR` in it, and a `WHERE` on a
 * handle the acquisition returned (`RETURNING id`), which names this holder's row. The table must
 * show that it is taken as a lock in this file: an acquisition, or an owner column in some statement
 * (a lone `DELETE FROM account_locks WHERE user_id = $1` may be an account lockout, not a mutex).
 */
function isUnownedRelease(model: SqlModel, release: LockTableRelease): boolean {
  const statement = release.statement;
  const columns = model.tableColumns.get(release.table);
  const byTable = lockTables(model).get(release.table);
  const takenAsLock = byTable !== undefined || OWNER_COLUMNS.some((column) => columns?.has(column));
  if (!takenAsLock) return false;
  if (!statement.hasWhere || statement.whereHasOr) return false;
  if (release.kind === 'update' && !statement.setNullColumns.some((column) => OWNER_COLUMNS.includes(column))) return false;
  if (statement.where.some((comparison) => EXPIRY_COLUMNS.includes(comparison.column))) return false;
  const returned = byTable?.returned;
  if (returned && statement.where.some((comparison) => returned.has(comparison.column))) return false;
  return statement.where.some((comparison) => comparison.operator === '=' && !OWNER_COLUMNS.includes(comparison.column));
}

/** The acquisition of the same table: the one earlier in the same function, else the file's only one. */
function acquisitionOf(model: SqlModel, release: LockTableRelease): LockTableAcquisition | undefined {
  const sameTable = lockTables(model).get(release.table)?.acquisitions ?? [];
  return within(sameTable, release.function.range, (acquisition) => acquisition.node)
    .filter((acquisition) => acquisition.function === release.function && acquisition.range[1] < release.range[0]).at(-1)
    ?? (sameTable.length === 1 ? sameTable[0] : undefined);
}

interface LockTable {
  readonly acquisitions: LockTableAcquisition[];
  /** The columns the acquisitions return (`RETURNING id`): a handle naming this holder's row. */
  readonly returned: Set<string>;
}

const lockTablesByModel = new WeakMap<SqlModel, ReadonlyMap<string, LockTable>>();

/** The file's lock-table acquisitions by table, gathered once per file. */
function lockTables(model: SqlModel): ReadonlyMap<string, LockTable> {
  const cached = lockTablesByModel.get(model);
  if (cached) return cached;
  const tables = new Map<string, LockTable>();
  for (const acquisition of model.lockTableAcquisitions) {
    let table = tables.get(acquisition.table);
    if (!table) {
      table = { acquisitions: [], returned: new Set() };
      tables.set(acquisition.table, table);
    }
    table.acquisitions.push(acquisition);
    for (const column of acquisition.statement.returning) table.returned.add(column);
  }
  lockTablesByModel.set(model, tables);
  return tables;
}

/**
 * `AND owner = <the owner the acquisition wrote>`, in the release's placeholder dialect. The owner
 * value is the expression bound to the acquisition's owner column, when it can be written at the
 * release: visible there, or a binding of the same name visible there (`release(name, owner)`).
 */
function ownerComparisonFix(
  context: Readonly<TSESLint.RuleContext<MessageId, Options>>,
  release: LockTableRelease,
  acquisition: LockTableAcquisition | undefined,
): TSESLint.SuggestionReportDescriptor<MessageId> | undefined {
  const sourceCode = context.sourceCode;
  if (!acquisition) return undefined;
  const column = acquisition.statement.insertColumns.find((candidate) => OWNER_COLUMNS.includes(candidate) && acquisition.statement.insertParameters.has(candidate));
  if (column === undefined) return undefined;
  const owner = acquisition.query.parameters[acquisition.statement.insertParameters.get(column)! - 1];
  if (!owner) return undefined;
  const ownerText = ownerTextAt(sourceCode, owner, release.node);
  const whereEnd = release.statement.whereEnd;
  if (ownerText === undefined || whereEnd === undefined) return undefined;
  const at = release.query.sql.toSourceOffset(whereEnd);
  const binding = bindParameter(sourceCode, release.query, ownerText, whereEnd);
  if (at === undefined || !binding) return undefined;
  const condition = ` AND ${column} = ${binding.placeholder}`;
  return {
    messageId: 'compareOwner',
    data: { column, value: binding.placeholder },
    fix: (fixer) => {
      const fixes = [fixer.insertTextAfterRange([at, at], condition)];
      if (binding.bind) fixes.push(binding.bind(fixer));
      return fixes;
    },
  };
}

function ownerTextAt(sourceCode: Readonly<TSESLint.SourceCode>, owner: TSESTree.Node, at: TSESTree.Node): string | undefined {
  if (isExpressionAvailableAt(sourceCode, owner, at)) return sourceCode.getText(owner);
  if (owner.type !== AST_NODE_TYPES.Identifier) return undefined;
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(at); scope; scope = scope.upper) {
    const variable = scope.set.get(owner.name);
    if (variable) return variable.defs.some((definition) => definition.name.range[0] < at.range[0]) ? owner.name : undefined;
  }
  return undefined;
}

/** The token the release must compare, as text visible at the release. */
function releaseTokenText(
  context: Readonly<TSESLint.RuleContext<MessageId, Options>>,
  model: RedisModel,
  release: Release,
  checkedBy: TSESTree.Node | undefined,
): string | undefined {
  const sourceCode = context.sourceCode;
  const command = release.command!;
  const acquisition = acquisitionForRelease(model, release);
  const available = (expression: TSESTree.Node, at: TSESTree.Node) => isExpressionAvailableAt(sourceCode, expression, at);
  // A split lock's acquisition builds its token in another function: its text means nothing here.
  const acquiredToken = acquisition?.keySignature === release.keySignature ? acquisition?.value : undefined;
  return tokenTextAt(sourceCode, [checkedBy, acquiredToken, command.script?.args[0]], release.node, available)
    ?? tokenByName(sourceCode, release.node);
}

function serverCompareAndDeleteFix(
  context: Readonly<TSESLint.RuleContext<MessageId, Options>>,
  model: RedisModel,
  release: Release,
  checkedBy: TSESTree.Node | undefined,
  primitive: 'DELEX' | 'DELIFEQ',
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const command = release.command;
  if (!command || !release.key) return undefined;
  const tokenText = releaseTokenText(context, model, release, checkedBy);
  if (tokenText === undefined) return undefined;
  return primitiveCompareAndDeleteFix(context.sourceCode, primitive, { command, keyText: context.sourceCode.getText(release.key), tokenText });
}

function compareAndDeleteFix(
  context: Readonly<TSESLint.RuleContext<MessageId, Options>>,
  model: RedisModel,
  release: Release,
  checkedBy: TSESTree.Node | undefined,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const sourceCode = context.sourceCode;
  const command = release.command;
  if (!command || !release.key) return undefined;
  const tokenText = releaseTokenText(context, model, release, checkedBy);
  if (tokenText === undefined) return undefined;
  return scriptCallFix(sourceCode, model, { kind: 'release', command, keyText: sourceCode.getText(release.key), argTexts: [tokenText] });
}
