// Whether a Redis acquisition takes a lock or only a write-once marker, for rules whose finding
// only makes sense for a lock (a missing TTL, a shared value, a check-then-set).

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionLike, propertyName } from '../util/ast.js';
import { isReleasedInModule } from './indexes.js';
import { looksLikeLockKey, matchesLockPattern } from './keys.js';
import type { Acquisition, RedisModel } from './redis-model.js';

/**
 * `SET NX`/`SETNX` also writes markers meant to stay (`SETNX processed:42 1` for idempotency), and a
 * marker needs neither a TTL nor a unique value. An acquisition is a lock when its key looks like a
 * lock key (`lockKeyPattern`), when this module releases the same key again, or when it sits in a
 * function named like a lock helper (`acquireLock(key)`, `tryLock`), whose key is a parameter.
 */
export function isLockAcquisition(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
  lockKeyPattern: RegExp,
  acquisition: Acquisition,
): boolean {
  if (acquisition.key && looksLikeLockKey(sourceCode, acquisition.key, lockKeyPattern)) return true;
  if (isReleasedInModule(model, acquisition)) return true;
  return isInLockFunction(acquisition.node, lockKeyPattern);
}

/**
 * The nearest named function around `node` is named like a lock helper (`acquireLock`,
 * `releaseLock`), or is a method of a class named like one (`JobLock.acquire`).
 */
export function isInLockFunction(node: TSESTree.Node, lockKeyPattern: RegExp): boolean {
  let current: TSESTree.Node | undefined = node.parent;
  let sawNamedFunction = false;
  while (current) {
    if (isFunctionLike(current) && !sawNamedFunction) {
      const name = functionName(current);
      if (name !== undefined && matchesLockPattern(name, lockKeyPattern)) return true;
      sawNamedFunction = name !== undefined;
    }
    if ((current.type === AST_NODE_TYPES.ClassDeclaration || current.type === AST_NODE_TYPES.ClassExpression) && current.id) {
      return matchesLockPattern(current.id.name, lockKeyPattern);
    }
    current = current.parent;
  }
  return false;
}

/** The name a function is called by: its own, its variable's, its method's or property's. */
export function functionName(fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if ((parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.Property || parent.type === AST_NODE_TYPES.PropertyDefinition) && !parent.computed) {
    return parent.key.type === AST_NODE_TYPES.Identifier ? parent.key.name : undefined;
  }
  if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.left.type === AST_NODE_TYPES.MemberExpression) return propertyName(parent.left);
  return undefined;
}
