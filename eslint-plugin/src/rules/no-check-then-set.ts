// no-check-then-set: a GET/EXISTS whose result decides a plain SET of the same key (attempt 1).

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isExpressionAvailableAt, removeStatement } from '../fixes/edits.js';
import { DEFAULT_TTL_MS } from '../fixes/scripts.js';
import { renderAtomicSet } from '../fixes/templates.js';
import { getLockModel } from '../model/index.js';
import { redisIndex } from '../model/indexes.js';
import { isPlainWrite } from '../model/housekeeping.js';
import { isInLockFunction } from '../model/lock-acquisitions.js';
import { checkThenSetRead, type Decider } from '../model/read-decides.js';
import type { RedisCommand, RedisModel } from '../model/redis-model.js';
import { contains, expressionStatementOf, skipTypeWrappers } from '../util/ast.js';
import { createRule } from '../util/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'checkThenSet' | 'useAtomicSet';
export type Options = [{ defaultTtlMs?: number }];

export default createRule<Options, MessageId>({
  name: 'no-check-then-set',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow taking a lock by reading its key and then writing it with a plain `SET`',
      recommended: 'error',
    },
    hasSuggestions: true,
    defaultOptions: [{ defaultTtlMs: DEFAULT_TTL_MS }],
    schema: [{
      type: 'object',
      additionalProperties: false,
      properties: {
        defaultTtlMs: {
          type: 'integer',
          minimum: 1,
          description: 'TTL in milliseconds that the suggestion writes when the replaced write had none.',
        },
      },
    }],
    messages: {
      checkThenSet: 'There is a gap between the `{{read}}` that found the lock free and this `{{write}}`: every worker that read "free" in the meantime writes the key too, and all of them believe they hold the lock.',
      useAtomicSet: 'Acquire with one atomic `SET key token NX PX {{ttl}}` and let its reply decide',
    },
  },
  create(context, [{ defaultTtlMs = DEFAULT_TTL_MS }]) {
    return {
      'Program:exit'() {
        const { redis: model, settings } = getLockModel(context);
        for (const write of model.commands) {
          if (!isPlainWrite(write) || !write.key || write.keySignature === undefined) continue;
          if (!isLockKeyWrite(model, settings.lockKeyPattern, write)) continue;
          const found = checkThenSetRead(context.sourceCode, model, write);
          if (!found) continue;
          const fix = atomicSetFix(context.sourceCode, write, found, String(defaultTtlMs));
          context.report({
            node: write.call,
            messageId: 'checkThenSet',
            data: {
              read: found.read.name,
              write: write.name,
              ...relatedData({ message: `The \`${found.read.name}\` that found the lock free`, node: found.read.call, role: 'read' }),
            },
            // A suggestion, not an autofix: the acquisition becomes a different command.
            suggest: fix ? [{ messageId: 'useAtomicSet', data: { ttl: fix.ttlText }, fix: fix.apply }] : [],
          });
        }
      },
    };
  },
});

/**
 * A lock key by name (`lockKeyPattern`), by an `NX` acquisition of it or a release of it in this
 * module, or written by a function named like a lock helper (`acquireLock(key)`).
 */
function isLockKeyWrite(model: RedisModel, lockKeyPattern: RegExp, write: RedisCommand): boolean {
  const index = redisIndex(model);
  const released = write.keySignature === undefined ? index.hasUnsignedRelease : index.releasesByKey.has(write.keySignature);
  return model.isLockKey(write.key!) || released
    || isInLockFunction(write.call, lockKeyPattern);
}

interface AtomicSetFix {
  readonly ttlText: string;
  readonly apply: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];
}

/**
 * The deciding test becomes the atomic `SET NX PX` (its reply is truthy exactly when this caller
 * took the lock), and the separate write goes. Offered for awaited code whose test is the read alone.
 */
function atomicSetFix(sourceCode: Readonly<TSESLint.SourceCode>, write: RedisCommand, decider: Decider, defaultTtl: string): AtomicSetFix | undefined {
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
  return parent?.type === AST_NODE_TYPES.BlockStatement || parent?.type === AST_NODE_TYPES.Program || parent?.type === AST_NODE_TYPES.SwitchCase;
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
  const amount = skipTypeWrappers(node);
  const text = sourceCode.getText(amount);
  if (unit === 'PX') return text;
  if (amount.type === AST_NODE_TYPES.Literal && /^\d+$/u.test(String(amount.value))) return String(Number(amount.value) * 1000);
  return amount.type === AST_NODE_TYPES.Identifier || amount.type === AST_NODE_TYPES.MemberExpression ? `${text} * 1000` : `(${text}) * 1000`;
}
