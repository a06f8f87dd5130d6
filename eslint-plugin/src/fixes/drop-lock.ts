// Drops a lock around one statement: the locked stretch (token, acquisition, guard, work, release)
// becomes the statement alone, for the plain layouts only.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { Lock } from '../model/nouns/lock-types.js';
import { contains, isFunctionLike, skipTypeWrappers, statementInList } from '../util/ast.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * Replaces the whole locked stretch with the statement alone, for the plain layouts: `using(keys,
 * ttl, async () => { stmt })`, or acquire; an optional `if (!ok) return;`; then `stmt; release;` or
 * `try { stmt } finally { release }`.
 */
export function dropLockFix(
  sourceCode: SourceCode,
  lock: Lock,
  statementNode: TSESTree.Node,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined {
  const work = statementInList(statementNode);
  if (!work) return undefined;
  const acquisition = statementInList(lock.node);
  if (!acquisition) return undefined;
  if (lock.node.type === AST_NODE_TYPES.CallExpression && lock.node.arguments.some((argument) => isFunctionLike(argument))) {
    const callback = lock.node.arguments.find((argument) => isFunctionLike(argument));
    if (
      !callback ||
      !isFunctionLike(callback) ||
      callback.body.type !== AST_NODE_TYPES.BlockStatement ||
      callback.body.body.length !== 1 ||
      callback.body.body[0] !== work
    )
      return undefined;
    if (acquisition.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
    return (fixer) => fixer.replaceText(acquisition, sourceCode.getText(work));
  }
  if (!lock.release) return undefined;
  const body =
    acquisition.parent.type === AST_NODE_TYPES.BlockStatement || acquisition.parent.type === AST_NODE_TYPES.Program
      ? acquisition.parent.body
      : undefined;
  if (!body) return undefined;
  const start = (body as readonly TSESTree.Node[]).indexOf(acquisition);
  let index = start + 1;
  const result = acquisition.type === AST_NODE_TYPES.VariableDeclaration ? acquisition.declarations[0].id : undefined;
  const guard = body[index];
  if (result?.type === AST_NODE_TYPES.Identifier && guard?.type === AST_NODE_TYPES.IfStatement && isResultGuard(guard, result.name))
    index++;
  else if (acquisition.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
  const next = body[index];
  const release = lock.release;
  let last: TSESTree.Node | undefined;
  if (next === work && isOnlyStatementOf(body[index + 1], release)) last = body[index + 1];
  else if (
    next?.type === AST_NODE_TYPES.TryStatement &&
    !next.handler &&
    next.block.body.length === 1 &&
    next.block.body[0] === work &&
    next.finalizer?.body.length === 1 &&
    isOnlyStatementOf(next.finalizer.body[0], release)
  )
    last = next;
  if (!last) return undefined;
  const end = last.range[1];
  let first: TSESTree.Node = acquisition;
  // The token minted only for this lock goes with it.
  const previous = body[start - 1];
  if (
    previous?.type === AST_NODE_TYPES.VariableDeclaration &&
    sourceCode
      .getDeclaredVariables(previous)
      .every((variable) =>
        variable.references.every(
          (reference) =>
            reference.init === true ||
            (reference.identifier.range[0] >= acquisition.range[0] &&
              reference.identifier.range[1] <= end &&
              !contains(work, reference.identifier)),
        ),
      )
  )
    first = previous;
  const range: TSESTree.Range = [first.range[0], end];
  return (fixer) => fixer.replaceTextRange(range, sourceCode.getText(work));
}

/** `if (!ok) return;` (or `{ return; }`) on the acquisition's result. */
function isResultGuard(statement: TSESTree.IfStatement, name: string): boolean {
  const test = statement.test;
  const returns =
    statement.consequent.type === AST_NODE_TYPES.ReturnStatement ||
    (statement.consequent.type === AST_NODE_TYPES.BlockStatement &&
      statement.consequent.body.length === 1 &&
      statement.consequent.body[0]?.type === AST_NODE_TYPES.ReturnStatement);
  return (
    returns &&
    !statement.alternate &&
    test.type === AST_NODE_TYPES.UnaryExpression &&
    test.operator === '!' &&
    test.argument.type === AST_NODE_TYPES.Identifier &&
    test.argument.name === name
  );
}

function isOnlyStatementOf(statement: TSESTree.Node | undefined, call: TSESTree.Node): boolean {
  if (statement?.type !== AST_NODE_TYPES.ExpressionStatement) return false;
  let expression: TSESTree.Node = skipTypeWrappers(statement.expression);
  if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = skipTypeWrappers(expression.argument);
  return expression === call;
}
