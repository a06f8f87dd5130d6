// What happens to an acquisition's result: dropped, stored and never read, or tested; and the acquire
// helpers that fail open (report the lock as taken when taking it failed).

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, forEachChild, isFunctionLike, skipTypeWrappers, valueCarrier } from '../util/ast.js';
import type { AnyAcquisition } from './try-acquisitions.js';

export type ResultFate =
  | { kind: 'checked' }
  | { kind: 'ignored'; statement: TSESTree.ExpressionStatement | undefined }
  /** `guard`: the expression a guard tests (the variable itself). */
  | { kind: 'unread'; name: string; declaration: TSESTree.VariableDeclaration | undefined; guard: string };

/**
 * What happens to the call's value. Anything but dropping it or storing it in a variable that is
 * never read counts as a check: a condition, a comparison, returning it, passing it on.
 */
export function resultFate(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.Node): ResultFate {
  const carrier = valueCarrier(call);
  const parent = carrier.parent;
  if (!parent) return { kind: 'checked' };
  if (parent.type === AST_NODE_TYPES.ExpressionStatement) return { kind: 'ignored', statement: parent };
  if (parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void') return { kind: 'ignored', statement: undefined };
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === carrier && parent.id.type === AST_NODE_TYPES.Identifier) {
    const variable = sourceCode.getDeclaredVariables(parent)[0];
    const declaration = parent.parent;
    // An exported binding is read by the modules that import it.
    if (!variable || declaration.parent.type === AST_NODE_TYPES.ExportNamedDeclaration || variable.references.some((reference) => reference.isRead())) return { kind: 'checked' };
    return { kind: 'unread', name: parent.id.name, declaration: declaration.declarations.length === 1 ? declaration : undefined, guard: parent.id.name };
  }
  if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && parent.right === carrier && parent.left.type === AST_NODE_TYPES.Identifier) {
    const reference = sourceCode.getScope(parent.left).references.find((candidate) => candidate.identifier === parent.left);
    const variable = reference?.resolved;
    if (!variable || variable.references.some((candidate) => candidate.isRead())) return { kind: 'checked' };
    return { kind: 'unread', name: parent.left.name, declaration: undefined, guard: parent.left.name };
  }
  return { kind: 'checked' };
}

/** A v3 callback that never looks at its reply argument (or has none). */
export function callbackIgnoresReply(sourceCode: Readonly<TSESLint.SourceCode>, callback: TSESTree.Node): boolean {
  if (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback.type !== AST_NODE_TYPES.FunctionExpression) return false;
  const reply = callback.params[1];
  if (!reply) return true;
  if (reply.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = sourceCode.getDeclaredVariables(callback).find((candidate) => candidate.name === reply.name);
  return variable !== undefined && variable.references.length === 0;
}

// `acquireLock`, `tryLock`, `obtainLease`, `claimLeadership`: the helper's answer is the lock's answer.
const ACQUIRE_HELPER_NAME = /^(?:try_?)?(?:[Aa]cquire|[Oo]btain|[Cc]laim|[Gg]rab|[Tt]ake|[Ll]ock)(?:[A-Z_]\w*)?$/u;
// `withLock`, `runExclusive`, `lockAndRun`: their answer is the work's, not the lock's.
const RUN_HELPER_NAME = /with|run|and|exec|do[A-Z]|process|handle/iu;

/**
 * The truthy literal a `catch` returns around an acquisition in an acquire helper (`catch { return
 * true; }`): a helper named like one, or one that returns the acquisition's result from its `try`.
 */
export function failOpenReturn(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: AnyAcquisition): TSESTree.Literal | undefined {
  const owner = acquisition.owner;
  if (!isFunctionLike(owner)) return undefined;
  for (let current: TSESTree.Node = acquisition.node; current !== owner; current = current.parent!) {
    const parent: TSESTree.Node = current.parent!;
    if (parent.type !== AST_NODE_TYPES.TryStatement || parent.block !== current || !parent.handler) continue;
    const literal = truthyReturnIn(sourceCode, parent.handler.body);
    if (!literal) continue;
    const name = functionName(owner) ?? '';
    if ((ACQUIRE_HELPER_NAME.test(name) && !RUN_HELPER_NAME.test(name)) || returnsResultOf(sourceCode, parent.block, acquisition.node)) return literal;
  }
  return undefined;
}

function truthyReturnIn(sourceCode: Readonly<TSESLint.SourceCode>, block: TSESTree.BlockStatement): TSESTree.Literal | undefined {
  let found: TSESTree.Literal | undefined;
  visitStatements(sourceCode, block, (node) => {
    if (found || node.type !== AST_NODE_TYPES.ReturnStatement || !node.argument) return;
    const argument = skipTypeWrappers(node.argument);
    if (argument.type === AST_NODE_TYPES.Literal && (argument.value === true || argument.value === 1 || argument.value === 'OK')) found = argument;
  });
  return found;
}

/** Whether a `return` in the try block hands back the acquisition's result (directly or through a variable). */
function returnsResultOf(sourceCode: Readonly<TSESLint.SourceCode>, block: TSESTree.BlockStatement, call: TSESTree.Node): boolean {
  const carrier = valueCarrier(call);
  const names = new Set<string>();
  if (carrier.parent?.type === AST_NODE_TYPES.VariableDeclarator && carrier.parent.id.type === AST_NODE_TYPES.Identifier) names.add(carrier.parent.id.name);
  let returns = false;
  visitStatements(sourceCode, block, (node) => {
    if (returns || node.type !== AST_NODE_TYPES.ReturnStatement || !node.argument) return;
    const argument = node.argument;
    if (contains(argument, call)) returns = true;
    else if (names.size > 0 && sourceCode.getText(argument).split(/\W+/u).some((word) => names.has(word))) returns = true;
  });
  return returns;
}

/** Walks the statements and expressions of a block, not entering nested functions. */
function visitStatements(sourceCode: Readonly<TSESLint.SourceCode>, root: TSESTree.Node, visit: (node: TSESTree.Node) => void): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    forEachChild(node, sourceCode.visitorKeys, (child) => {
      if (!isFunctionLike(child)) stack.push(child);
    });
  }
}

// Not lock-acquisitions' functionName: that one prefers a function expression's own name and reads
// `obj.name = function`, which would change which helpers count as acquire helpers here.
function functionName(owner: TSESTree.Node): string | undefined {
  if (owner.type === AST_NODE_TYPES.FunctionDeclaration && owner.id) return owner.id.name;
  const parent = owner.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if ((parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.PropertyDefinition)
    && parent.key.type === AST_NODE_TYPES.Identifier) return parent.key.name;
  return undefined;
}
