// no-check-then-set's rewrite: the test that read the lock free becomes one atomic `SET key value
// NX PX ttl`, and the separate write goes.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { Decider } from '../model/questions/read-decides.js';
import type { RedisCommand } from '../model/nouns/redis-events.js';
import { contains, expressionStatementOf, skipTypeWrappers } from '../util/ast.js';
import { isExpressionAvailableAt, removeStatement } from './edits.js';
import { renderAtomicSet } from './templates.js';
import { secondsAsMilliseconds } from './ttl.js';

export interface AtomicSetFix {
  readonly ttlText: string;
  readonly apply: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];
}

/**
 * The deciding test becomes the atomic `SET NX PX` (its reply is truthy exactly when this caller
 * took the lock), and the separate write goes. Offered for awaited code whose test is the read alone.
 */
export function atomicSetFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  write: RedisCommand,
  decider: Decider,
  defaultTtl: string,
): AtomicSetFix | undefined {
  const { result, decision } = decider;
  // In MULTI/pipeline the reply is queued: the rewrite would change what exec() returns.
  if (!result.awaited || !decision.simpleTest || write.callback || write.resultUsed || write.client.chain) return undefined;
  const writeStatement = expressionStatementOf(write.call);
  if (!writeStatement || write.owner !== decider.read.owner) return undefined;
  const test = decision.statement.test;

  const value = write.name === 'SET' ? write.args[1] : write.args[2];
  const ttlText = ttlOf(sourceCode, write, defaultTtl);
  if (!value || ttlText === undefined) return undefined;
  if (!isExpressionAvailableAt(sourceCode, value, test) || !isExpressionAvailableAt(sourceCode, write.key!, test)) return undefined;

  const atomicSet = renderAtomicSet(write.dialect, {
    client: sourceCode.getText(write.receiver),
    key: sourceCode.getText(write.key),
    value: sourceCode.getText(value),
    ttlMs: ttlText,
  });
  // The branch that wrote runs when the SET succeeds; an early exit or a wait runs when it fails.
  const newTest = decision.presentWhenTrue ? `!(await ${atomicSet})` : `await ${atomicSet}`;
  // `const holder = await redis.get(k)` goes when only the test read it; kept when a log line reads it too.
  const declaration = result.uses.every((use) => contains(test, use)) ? result.declaration : undefined;
  // `if (!held) await redis.set(k, v);`: the whole statement becomes the atomic SET.
  const whole = writeStatement.parent === decision.statement;
  if (whole && (decision.statement.type !== AST_NODE_TYPES.IfStatement || decision.statement.alternate)) return undefined;
  if (!whole && !isInStatementList(writeStatement)) return undefined;
  return {
    ttlText,
    apply: (fixer) => {
      const fixes = whole
        ? [fixer.replaceText(decision.statement, `await ${atomicSet};`)]
        : [fixer.replaceText(test, newTest), removeStatement(fixer, sourceCode, writeStatement)];
      if (declaration) fixes.push(removeStatement(fixer, sourceCode, declaration));
      return fixes;
    },
  };
}

function isInStatementList(statement: TSESTree.Node): boolean {
  const parent = statement.parent;
  return (
    parent?.type === AST_NODE_TYPES.BlockStatement || parent?.type === AST_NODE_TYPES.Program || parent?.type === AST_NODE_TYPES.SwitchCase
  );
}

/** The write's own TTL in milliseconds (`'EX', 60` → `60000`), the default without one, undefined for absolute expiries. */
function ttlOf(sourceCode: Readonly<TSESLint.SourceCode>, write: RedisCommand, defaultTtl: string): string | undefined {
  if (write.name === 'SETEX' || write.name === 'PSETEX') {
    const amount = write.args[1];
    return amount ? inMilliseconds(sourceCode, amount, write.name === 'SETEX' ? 'EX' : 'PX') : undefined;
  }
  const expiry = write.set?.expiry;
  if (!expiry) return defaultTtl;
  if (!expiry.value || (expiry.unit !== 'EX' && expiry.unit !== 'PX')) return undefined;
  return inMilliseconds(sourceCode, expiry.value, expiry.unit);
}

function inMilliseconds(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, unit: 'EX' | 'PX'): string {
  return unit === 'PX' ? sourceCode.getText(skipTypeWrappers(node)) : secondsAsMilliseconds(sourceCode, node);
}
