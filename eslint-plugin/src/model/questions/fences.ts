// Questions about the fence of a write made under a held lock: whether the lock is exempt (held for
// efficiency only) and whether the fence the write compares was minted too late.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { constInitializer, skipTypeWrappers } from '../../util/ast.js';
import { redisIndex } from '../pairing/indexes.js';
import type { RedisModel } from '../nouns/redis-events.js';
import type { Lock } from '../nouns/lock-types.js';
import type { SqlWrite } from '../nouns/sql-items.js';

const EFFICIENCY_MARKER = /\blocksmith:\s*efficiency\b/u;

/** `// locksmith: efficiency` on or above the acquisition, or a key matching `efficiencyLocks`. */
export function isEfficiencyLock(sourceCode: Readonly<TSESLint.SourceCode>, lock: Lock, patterns: readonly RegExp[]): boolean {
  const line = lock.node.loc.start.line;
  let statement: TSESTree.Node = lock.node;
  while (statement.parent && statement.parent.type !== AST_NODE_TYPES.BlockStatement && statement.parent.type !== AST_NODE_TYPES.Program)
    statement = statement.parent;
  const firstLine = statement.loc.start.line;
  const marked = sourceCode
    .getAllComments()
    .some((comment) => EFFICIENCY_MARKER.test(comment.value) && comment.loc.end.line >= firstLine - 1 && comment.loc.start.line <= line);
  return marked || (lock.keyText !== undefined && patterns.some((pattern) => pattern.test(lock.keyText!)));
}

/** The fence compared in the write comes from an `INCR` that runs after the acquisition. */
export function fenceMintedAfter(
  sourceCode: Readonly<TSESLint.SourceCode>,
  redis: RedisModel,
  write: SqlWrite,
  fenceColumns: readonly string[],
  lock: Lock,
): boolean {
  const comparison = write.statement?.where.find((candidate) => fenceColumns.includes(candidate.column) && candidate.operator === '<');
  if (!comparison?.parameter || !write.query) return false;
  let expression = write.query.parameters[comparison.parameter - 1];
  for (let depth = 0; expression && depth < 4; depth++) {
    expression = skipTypeWrappers(expression);
    if (expression.type === AST_NODE_TYPES.AwaitExpression) {
      expression = expression.argument;
      continue;
    }
    if (expression.type === AST_NODE_TYPES.Identifier) {
      expression = constInitializer(sourceCode, expression);
      continue;
    }
    if (expression.type === AST_NODE_TYPES.CallExpression) {
      const call = expression;
      const command = redisIndex(redis).commandByCall.get(call);
      return command !== undefined && (command.name === 'INCR' || command.name === 'INCRBY') && call.range[0] > lock.node.range[1];
    }
    return false;
  }
  return false;
}
