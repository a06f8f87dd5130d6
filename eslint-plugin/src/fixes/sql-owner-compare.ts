// The edit that makes a lock-table release or heartbeat touch only this holder's row: `AND owner = $n`
// at the end of its `WHERE`, the owner being the value the acquisition wrote, bound in the
// statement's own placeholder dialect.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { LockTableAcquisition, LockTableRelease } from '../model/nouns/sql-items.js';
import { OWNER_COLUMNS } from '../model/sql/sql-model.js';
import { isExpressionAvailableAt } from './edits.js';
import { bindParameter } from './sql-bindings.js';

export interface OwnerComparison {
  readonly column: string;
  readonly placeholder: string;
  readonly fix: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];
}

/**
 * `AND owner = <the owner the acquisition wrote>`, in the statement's placeholder dialect. The owner
 * value is the expression bound to the acquisition's owner column, when it can be written at the
 * statement: visible there, or a binding of the same name visible there (`release(name, owner)`).
 */
export function ownerComparisonFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  event: LockTableRelease,
  acquisition: LockTableAcquisition | undefined,
): OwnerComparison | undefined {
  // Only raw SQL text is edited: a knex chain would need a builder call (`.andWhere(...)`), and a SQL
  // condition spliced into a chain is not code. No suggestion for those (the rule pages say so).
  if (!acquisition || !acquisition.query || !event.query) return undefined;
  const column = acquisition.statement.insertColumns.find(
    (candidate) => OWNER_COLUMNS.includes(candidate) && acquisition.statement.insertParameters.has(candidate),
  );
  if (column === undefined) return undefined;
  const owner = acquisition.query.parameters[acquisition.statement.insertParameters.get(column)! - 1];
  if (!owner) return undefined;
  const ownerText = ownerTextAt(sourceCode, owner, event.node);
  const whereEnd = event.statement.whereEnd;
  if (ownerText === undefined || whereEnd === undefined) return undefined;
  const at = event.query.sql.toSourceOffset(whereEnd);
  const query = event.query;
  const binding = bindParameter(sourceCode, query, ownerText, whereEnd);
  if (at === undefined || !binding) return undefined;
  const condition = ` AND ${column} = ${binding.placeholder}`;
  return {
    column,
    placeholder: binding.placeholder,
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
