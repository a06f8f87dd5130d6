// The guard a try-acquisition's dropped or unread result needs: `if (!(await …)) return;` in place of
// the statement, `if (!ok) return;` after the declaration, or `return …` when nothing follows.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { TryAcquisition } from '../model/questions/try-acquisitions.js';
import { isFunctionLike, type ScopeOwner, valueCarrier } from '../util/ast.js';

/** `return …` in place of the last statement, or a guard (`if (!ok) return;`) that the suggestion's message shows. */
export type GuardFix =
  | { readonly kind: 'return'; readonly fix: TSESLint.ReportFixFunction }
  | { readonly kind: 'guard'; readonly guard: string; readonly fix: TSESLint.ReportFixFunction };

/**
 * `await redis.set(k, t, 'NX', 'PX', ms);` → `if (!(await redis.set(...))) return;`, or `return await ...;` when nothing follows.
 * `access` reads the answer from the awaited value (`.rows[0]?.locked` for a try-lock's row).
 */
export function guardStatementFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  acquisition: TryAcquisition,
  statement: TSESTree.ExpressionStatement | undefined,
  access: string,
): GuardFix | undefined {
  if (!statement || !canReturnFrom(statement, acquisition.owner)) return undefined;
  const carrier = valueCarrier(acquisition.node);
  const owner = acquisition.owner;
  let valueText = sourceCode.getText(carrier);
  if (carrier.type !== AST_NODE_TYPES.AwaitExpression) {
    if (!isFunctionLike(owner) || !owner.async) return undefined;
    valueText = `await ${valueText}`;
  }
  const block = statement.parent;
  const isLast = block.type === AST_NODE_TYPES.BlockStatement && block.body.at(-1) === statement && isFunctionLike(block.parent);
  if (isLast) {
    const returned = access ? `(${valueText})${access}` : valueText;
    return { kind: 'return', fix: (fixer) => fixer.replaceText(statement, `return ${returned};`) };
  }
  const guard = `if (!(${valueText})${access}) return;`;
  return { kind: 'guard', guard: `if (!(await …)${access}) return;`, fix: (fixer) => fixer.replaceText(statement, guard) };
}

/** `const ok = await redis.set(...);` never read → `if (!ok) return;` on the next line (`if (!rows[0]?.locked) return;` for a try-lock's row). */
export function guardAfterDeclarationFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  acquisition: TryAcquisition,
  declaration: TSESTree.VariableDeclaration,
  answer: string,
): GuardFix | undefined {
  if (!canReturnFrom(declaration, acquisition.owner)) return undefined;
  const line = sourceCode.lines[declaration.loc.start.line - 1] ?? '';
  const indent = /^\s*/u.exec(line)?.[0] ?? '';
  const guard = `if (!${answer}) return;`;
  return { kind: 'guard', guard, fix: (fixer) => fixer.insertTextAfter(declaration, `\n${indent}${guard}`) };
}

/** A statement directly in a block of a function, with no loop or switch between: `return` leaves the work. */
function canReturnFrom(statement: TSESTree.Node, owner: ScopeOwner): boolean {
  if (!isFunctionLike(owner)) return false;
  if (statement.parent?.type !== AST_NODE_TYPES.BlockStatement) return false;
  for (let current: TSESTree.Node = statement.parent; current !== owner; current = current.parent!) {
    switch (current.type) {
      case AST_NODE_TYPES.ForStatement:
      case AST_NODE_TYPES.ForInStatement:
      case AST_NODE_TYPES.ForOfStatement:
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement:
      case AST_NODE_TYPES.SwitchCase:
        return false;
      default:
        break;
    }
  }
  return true;
}
