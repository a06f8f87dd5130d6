// no-unsafe-release: freeing a lock without atomically checking that this holder still owns it.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isExpressionAvailableAt } from '../fixes/edits.js';
import { scriptCallFix, tokenTextAt } from '../fixes/script-call.js';
import { getLockModel } from '../model/index.js';
import { acquisitionForRelease } from '../model/queries.js';
import type { RedisModel, Release } from '../model/redis-model.js';
import { contains, propertyName, skipTypeWrappers } from '../util/ast.js';
import { createRule } from '../util/create-rule.js';

export type MessageId = 'plainDelete' | 'checkThenDelete' | 'uncheckedScript' | 'useCompareAndDelete';
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
    },
  },
  defaultOptions: [],
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context).redis;
        for (const release of model.releases) {
          if (release.safe || release.library !== 'redis' || !release.command || !release.key) continue;
          const checkedBy = release.kind === 'del' ? ownerCheckAround(model, release) : undefined;
          // Comparing the stored value with a token before deleting is itself the mark of a lock.
          if (!checkedBy && !model.isLockKey(release.key)) continue;
          const messageId: MessageId = release.kind === 'script' ? 'uncheckedScript' : checkedBy ? 'checkThenDelete' : 'plainDelete';
          const fix = compareAndDeleteFix(context, model, release, checkedBy);
          context.report({
            node: release.node,
            messageId,
            data: { command: release.command.name },
            // A suggestion, not an autofix: the release starts sending a script instead of DEL.
            suggest: fix ? [{ messageId: 'useCompareAndDelete', fix }] : [],
          });
        }
      },
    };
  },
});

/**
 * `if ((await redis.get(key)) === token) await redis.del(key)`: the value the JavaScript compared
 * the stored token with, when the release sits under such a check.
 */
function ownerCheckAround(model: RedisModel, release: Release): TSESTree.Node | undefined {
  let current: TSESTree.Node | undefined = release.node.parent;
  while (current && current !== release.owner) {
    if (current.type === AST_NODE_TYPES.IfStatement && contains(current.consequent, release.node)) {
      const compared = comparedWithStoredValue(model, current.test, release.keySignature);
      if (compared) return compared;
    }
    current = current.parent;
  }
  return undefined;
}

function comparedWithStoredValue(model: RedisModel, test: TSESTree.Node, keySignature: string | undefined): TSESTree.Node | undefined {
  const expression = skipTypeWrappers(test);
  if (expression.type === AST_NODE_TYPES.LogicalExpression && expression.operator === '&&') {
    return comparedWithStoredValue(model, expression.left, keySignature) ?? comparedWithStoredValue(model, expression.right, keySignature);
  }
  if (expression.type !== AST_NODE_TYPES.BinaryExpression || (expression.operator !== '===' && expression.operator !== '==')) return undefined;
  const isStoredRead = (side: TSESTree.Node): boolean => {
    let node = skipTypeWrappers(side);
    if (node.type === AST_NODE_TYPES.AwaitExpression) node = skipTypeWrappers(node.argument);
    return model.commands.some((command) => command.call === node && command.name === 'GET' && command.keySignature === keySignature);
  };
  if (isStoredRead(expression.left)) return expression.right;
  if (isStoredRead(expression.right)) return expression.left;
  return undefined;
}

const TOKEN_NAME = /^(?:lock_?)?(?:token|owner(?:_?id)?|value)$/iu;

function compareAndDeleteFix(
  context: Readonly<TSESLint.RuleContext<MessageId, Options>>,
  model: RedisModel,
  release: Release,
  checkedBy: TSESTree.Node | undefined,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const sourceCode = context.sourceCode;
  const command = release.command!;
  const acquisition = acquisitionForRelease(model, release);
  const available = (expression: TSESTree.Node, at: TSESTree.Node) => isExpressionAvailableAt(sourceCode, expression, at);
  const tokenText = tokenTextAt(sourceCode, [checkedBy, acquisition?.value, command.script?.args[0]], release.node, available)
    ?? tokenByName(sourceCode, release.node);
  if (tokenText === undefined) return undefined;
  return scriptCallFix(sourceCode, model, { kind: 'release', command, keyText: sourceCode.getText(release.key!), argTexts: [tokenText] });
}

/** A binding named like a lock token (`token`, `lockToken`, `this.owner`) visible at the release. */
export function tokenByName(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string | undefined {
  let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(node);
  while (scope && scope.type !== 'global') {
    for (const variable of scope.variables) {
      // `value` alone is too vague a name to trust; `lockValue` is not.
      if (TOKEN_NAME.test(variable.name) && variable.name !== 'value' && variable.defs[0] && variable.defs[0].name.range[0] < node.range[0]) return variable.name;
    }
    scope = scope.upper;
  }
  let current: TSESTree.Node | undefined = node.parent;
  while (current && current.type !== AST_NODE_TYPES.ClassBody) current = current.parent;
  if (current?.type === AST_NODE_TYPES.ClassBody) {
    for (const element of current.body) {
      if (element.type === AST_NODE_TYPES.PropertyDefinition && element.key.type === AST_NODE_TYPES.Identifier && TOKEN_NAME.test(element.key.name) && !element.static) {
        return `this.${element.key.name}`;
      }
    }
    for (const assignment of constructorAssignments(current)) if (TOKEN_NAME.test(assignment)) return `this.${assignment}`;
  }
  return undefined;
}

function constructorAssignments(classBody: TSESTree.ClassBody): string[] {
  const names: string[] = [];
  for (const element of classBody.body) {
    if (element.type !== AST_NODE_TYPES.MethodDefinition) continue;
    for (const statement of element.value.body?.body ?? []) {
      if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression) continue;
      const target = statement.expression.left;
      if (target.type === AST_NODE_TYPES.MemberExpression && target.object.type === AST_NODE_TYPES.ThisExpression) {
        const name = propertyName(target);
        if (name !== undefined) names.push(name);
      }
    }
  }
  return names;
}
