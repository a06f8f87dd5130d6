// What a try-acquisition's answer meets (a view of result-flow.ts), and the acquire helpers that
// fail open (report the lock as taken when taking it failed).

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { functionName, isFunctionLike, skipTypeWrappers } from '../../util/ast.js';
import { callbackIgnoresReply, REPLY, resultFate, returnsResultOf, visitStatements, type ResultFate } from '../facts/result-flow.js';
import type { AnyAcquisition, TryAcquisition } from './try-acquisitions.js';

/**
 * What happens to a try-acquisition's answer: a Redis reply (or a node_redis v3 callback's reply
 * argument, `ignored` when the callback never reads it), or the boolean column of a try-lock's row.
 */
export function tryAcquisitionFate(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: TryAcquisition): ResultFate {
  if (acquisition.callback)
    return callbackIgnoresReply(sourceCode, acquisition.callback) ? { kind: 'ignored', statement: undefined } : { kind: 'checked' };
  const column = acquisition.resultColumn;
  return resultFate(sourceCode, acquisition.node, column ? { column: column.name, shape: column.shape } : REPLY);
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
    const name = functionName(owner) ?? '';
    // An answer object (`{ acquired: true }`) is a lock's answer only where the helper or its class is named for one:
    // `tryAcquireIdempotency` answers the same way about a duplicate request.
    const literal = truthyReturnIn(sourceCode, parent.handler.body, LOCK_NOUN_NAME.test(name) || LOCK_NOUN_NAME.test(className(owner)));
    if (!literal) continue;
    if ((ACQUIRE_HELPER_NAME.test(name) && !RUN_HELPER_NAME.test(name)) || returnsResultOf(sourceCode, parent.block, acquisition.node))
      return literal;
  }
  return undefined;
}

function truthyReturnIn(
  sourceCode: Readonly<TSESLint.SourceCode>,
  block: TSESTree.BlockStatement,
  answersForLock: boolean,
): TSESTree.Literal | undefined {
  let found: TSESTree.Literal | undefined;
  visitStatements(sourceCode, block, (node) => {
    if (found || node.type !== AST_NODE_TYPES.ReturnStatement || !node.argument) return;
    const argument = skipTypeWrappers(node.argument);
    if (argument.type === AST_NODE_TYPES.Literal && (argument.value === true || argument.value === 1 || argument.value === 'OK'))
      found = argument;
    // `return { acquired: true, token }`: the answer object saying the lock was taken.
    if (argument.type === AST_NODE_TYPES.ObjectExpression && answersForLock) found = takenFlag(argument);
  });
  return found;
}

// A lock's own name in a helper's or its class's name: `acquireLock`, `RedisLock#acquire`, `MutexService`.
const LOCK_NOUN_NAME = /lock|mutex|semaphore|lease/iu;

/** The name of the class a method belongs to, or ''. */
function className(fn: TSESTree.Node): string {
  const body = fn.parent?.parent;
  const owner = body?.type === AST_NODE_TYPES.ClassBody ? body.parent : undefined;
  return owner?.id?.name ?? '';
}

// The property an acquire helper's answer object says "taken" with (`{ acquired: true }`, `{ ok: true }`).
const TAKEN_FLAG = /^(?:acquired|locked|ok|success|obtained|held|isLocked|hasLock|gotLock)$/u;

function takenFlag(answer: TSESTree.ObjectExpression): TSESTree.Literal | undefined {
  for (const property of answer.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed || property.key.type !== AST_NODE_TYPES.Identifier) continue;
    const value = skipTypeWrappers(property.value);
    if (TAKEN_FLAG.test(property.key.name) && value.type === AST_NODE_TYPES.Literal && value.value === true) return value;
  }
  return undefined;
}
