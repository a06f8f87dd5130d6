// A token minted per acquisition (`const token = randomUUID();`) in place of a value every holder
// shares, sent wherever the function stores or compares that value for the same lock.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { argumentsByText, comparesStoredValue } from '../model/questions/same-lock.js';
import type { Acquisition, RedisModel } from '../model/nouns/redis-events.js';
import { contains, findVariable, forEachChild, propertyName, skipTypeWrappers, statementInList } from '../util/ast.js';
import { freeLocalName } from './edits.js';
import { randomUuidCall } from './random-uuid.js';

/**
 * `const token = randomUUID();` before the acquisition's statement, and `token` wherever this
 * function stored or compared the shared value for the same lock: the acquisition, and the release
 * or renewal that must send the same token. Undefined when a release elsewhere uses the value (it
 * could not see the local token) or the acquisition is not in a statement list.
 */
export function randomTokenFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
  acquisition: Acquisition,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const value = acquisition.value!;
  const uuid = randomUuidCall(sourceCode);
  if (!uuid) return undefined;
  const valueText = sourceCode.getText(value);
  // `if ((await redis.get(key)) === WORKER_ID)`: the function re-enters a lock it may hold from an
  // earlier call (a leader lease). A token minted per call would never match it again.
  if (comparesStoredValue(sourceCode, model, acquisition, valueText)) return undefined;
  const localInit = localConstInitializer(sourceCode, value, acquisition.owner);
  if (localInit) {
    // `const token = 'locked'` in this function: mint there instead.
    return (fixer) => [fixer.replaceText(localInit, uuid)];
  }
  const statement = statementInList(acquisition.node, acquisition.owner);
  if (!statement) return undefined;
  const insideFunction = (node: TSESTree.Node) => contains(acquisition.owner, node) && node.range[0] >= statement.range[0];

  const replaced: TSESTree.Node[] = [value];
  for (const { event, argument } of argumentsByText(sourceCode, model).get(valueText) ?? []) {
    // Key identity cannot follow `lock:${name}` across two methods: any release elsewhere that
    // sends the same value may be this lock's, and it could not see a local token.
    if (!insideFunction(argument)) return undefined;
    if (event.keySignature === undefined || acquisition.keySignature === undefined || event.keySignature === acquisition.keySignature)
      replaced.push(argument);
  }
  // A named value (`TOKEN`, `this.owner`) is replaced at each of its reads after the new token.
  for (const reference of namedValueReads(sourceCode, value, acquisition.owner)) {
    if (insideFunction(reference) && !replaced.includes(reference)) replaced.push(reference);
  }

  const name = freeLocalName(sourceCode, acquisition.owner, 'token');
  const lineStart = sourceCode.text.lastIndexOf('\n', statement.range[0] - 1) + 1;
  const before = sourceCode.text.slice(lineStart, statement.range[0]);
  const indent = /^\s*$/u.test(before) ? before : '';
  return (fixer) => {
    const fixes = [fixer.insertTextBefore(statement, `const ${name} = ${uuid};\n${indent}`)];
    for (const node of replaced) fixes.push(fixer.replaceText(node, name));
    return fixes;
  };
}

/** The initialiser of `const token = ...` when `value` reads a binding declared in `owner` itself. */
function localConstInitializer(
  sourceCode: Readonly<TSESLint.SourceCode>,
  value: TSESTree.Node,
  owner: TSESTree.Node,
): TSESTree.Expression | undefined {
  const expression = skipTypeWrappers(value);
  if (expression.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(sourceCode, expression);
  const definition = variable?.defs[0];
  if (variable?.defs.length !== 1 || definition?.node.type !== AST_NODE_TYPES.VariableDeclarator || !definition.node.init) return undefined;
  if (variable.scope.block !== owner && !contains(owner, variable.scope.block)) return undefined;
  if (variable.scope.block.type === AST_NODE_TYPES.Program) return undefined;
  return definition.node.init;
}

/** Reads of the same binding (`TOKEN`) or the same `this.owner` field inside `owner`. */
function namedValueReads(sourceCode: Readonly<TSESLint.SourceCode>, value: TSESTree.Node, owner: TSESTree.Node): TSESTree.Node[] {
  const expression = skipTypeWrappers(value);
  if (expression.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, expression);
    return (variable?.references ?? [])
      .filter((reference) => reference.isRead() && !reference.isWrite() && contains(owner, reference.identifier))
      .map((reference) => reference.identifier);
  }
  if (expression.type !== AST_NODE_TYPES.MemberExpression || expression.object.type !== AST_NODE_TYPES.ThisExpression) return [];
  const field = propertyName(expression);
  const reads: TSESTree.Node[] = [];
  const visit = (node: TSESTree.Node): void => {
    if (
      node.type === AST_NODE_TYPES.MemberExpression &&
      node.object.type === AST_NODE_TYPES.ThisExpression &&
      propertyName(node) === field &&
      !(node.parent.type === AST_NODE_TYPES.AssignmentExpression && node.parent.left === node)
    ) {
      reads.push(node);
    }
    // Functions other than arrows have their own `this`.
    if (node !== owner && (node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.FunctionDeclaration)) return;
    forEachChild(node, sourceCode.visitorKeys, visit);
  };
  visit(owner);
  return reads;
}
