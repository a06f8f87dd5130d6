// How the result of a `GET`/`EXISTS` decides whether a later command runs: which condition tests
// it, whether the command runs on the path where the key was absent, and whether the result is
// also used as data (a cache read) rather than only as a decision.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, isFunctionLike, skipTypeWrappers } from '../../util/ast.js';
import { inEnclosingFunctions, redisIndex } from '../pairing/indexes.js';
import { commandNode, within } from '../facts/source-order.js';
import type { RedisCommand, RedisModel } from '../nouns/redis-events.js';
import { valueReaders } from '../facts/result-flow.js';

/** What the truth of a condition says about the key: `present` when true means the key exists. */
type Polarity = 'present' | 'absent';

export interface ReadDecision {
  /** The `if`/`while` whose test decides. */
  readonly statement: TSESTree.IfStatement | TSESTree.WhileStatement | TSESTree.DoWhileStatement;
  /** How the write is reached: in the branch, after an early exit, or after a wait loop. */
  readonly shape: 'branch' | 'early-exit' | 'wait-loop';
  /** The test is the read's result alone, up to `!`, `=== null`, `=== 0` and `Boolean()`. */
  readonly simpleTest: boolean;
  /** True when the test being true means the key is present. */
  readonly presentWhenTrue: boolean;
}

export interface ReadResult {
  /** Where the result is read: the identifiers of its variable (or callback parameter), or the call inline. */
  readonly uses: readonly TSESTree.Node[];
  /** `const held = await redis.get(k);`, when the result went into one. */
  readonly declaration: TSESTree.VariableDeclaration | undefined;
  readonly awaited: boolean;
}

export function readResultOf(sourceCode: Readonly<TSESLint.SourceCode>, read: RedisCommand): ReadResult | undefined {
  // node_redis v3: `client.get(key, (err, value) => ...)` hands the result to the callback.
  if (read.callback) {
    if (!isFunctionLike(read.callback)) return undefined;
    const parameter = read.callback.params[1];
    if (parameter?.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = sourceCode.getDeclaredVariables(read.callback).find((candidate) => candidate.name === parameter.name);
    return {
      uses: (variable?.references ?? []).filter((reference) => reference.isRead()).map((reference) => reference.identifier),
      declaration: undefined,
      awaited: false,
    };
  }
  return valueReaders(sourceCode, read.call);
}

interface ConditionUse {
  readonly test: TSESTree.Expression;
  readonly statement: TSESTree.Node;
  /** Known when every step from the use up to the test keeps the meaning readable. */
  readonly polarity: Polarity | undefined;
  /** The test's truth implies the use's condition (only `&&` between them). */
  readonly impliedWhenTrue: boolean;
  /** The test's falsity implies the use's condition is false (only `||` between them). */
  readonly impliedWhenFalse: boolean;
  readonly simple: boolean;
}

/** Climbs from a use of the result to the condition that tests it, if it is tested. */
function conditionUse(use: TSESTree.Node): ConditionUse | undefined {
  let node: TSESTree.Node = use;
  // A GET's value or an EXISTS count is truthy when the key is present.
  let polarity: Polarity | undefined = 'present';
  let onlyAnd = true;
  let onlyOr = true;
  let simple = true;
  for (;;) {
    const parent: TSESTree.Node | undefined = node.parent;
    if (!parent) return undefined;
    if (parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === '!') {
      polarity = flip(polarity);
    } else if (parent.type === AST_NODE_TYPES.BinaryExpression) {
      const other = parent.left === node ? parent.right : parent.left;
      polarity = comparisonPolarity(parent.operator, other, polarity);
    } else if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.operator !== '??') {
      if (parent.operator === '&&') onlyOr = false;
      else onlyAnd = false;
      simple = false;
    } else if (
      parent.type === AST_NODE_TYPES.CallExpression &&
      parent.callee.type === AST_NODE_TYPES.Identifier &&
      parent.callee.name === 'Boolean' &&
      parent.arguments[0] === node
    ) {
      // Boolean(held) keeps its meaning.
    } else if (
      parent.type === AST_NODE_TYPES.AwaitExpression ||
      parent.type === AST_NODE_TYPES.ChainExpression ||
      skipTypeWrappers(parent) !== parent
    ) {
      // Transparent wrappers.
    } else if (
      (parent.type === AST_NODE_TYPES.IfStatement ||
        parent.type === AST_NODE_TYPES.WhileStatement ||
        parent.type === AST_NODE_TYPES.DoWhileStatement) &&
      parent.test === node
    ) {
      return {
        test: node,
        statement: parent,
        polarity,
        impliedWhenTrue: onlyAnd,
        impliedWhenFalse: onlyOr,
        simple: simple && polarity !== undefined,
      };
    } else {
      return undefined;
    }
    node = parent;
  }
}

function flip(polarity: Polarity | undefined): Polarity | undefined {
  return polarity === undefined ? undefined : polarity === 'present' ? 'absent' : 'present';
}

/** `x === null`, `x != undefined`, `count === 0`, `count > 0`: readable; `x === token`: not. */
function comparisonPolarity(operator: string, other: TSESTree.Node, polarity: Polarity | undefined): Polarity | undefined {
  const value = skipTypeWrappers(other);
  const isNullish =
    (value.type === AST_NODE_TYPES.Literal && value.value === null) ||
    (value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined');
  const isZero = value.type === AST_NODE_TYPES.Literal && value.value === 0;
  const isOne = value.type === AST_NODE_TYPES.Literal && value.value === 1;
  if (isNullish || isZero) {
    if (operator === '===' || operator === '==') return flip(polarity);
    if (operator === '!==' || operator === '!=' || (isZero && operator === '>')) return polarity;
  }
  if (isOne && (operator === '===' || operator === '==' || operator === '>=')) return polarity;
  return undefined;
}

/** The write runs only when the read found the key absent, and the result is used for nothing else. */
export function readDecidesWrite(read: ReadResult, write: TSESTree.CallExpression): ReadDecision | undefined {
  let decision: ReadDecision | undefined;
  for (const use of read.uses) {
    const condition = conditionUse(use);
    if (!condition) {
      // The result also leaves as data (returned, parsed, cached in memory): a cache read.
      if (!isDiagnosticUse(use)) return undefined;
      continue;
    }
    decision ??= decisionFor(condition, write);
  }
  return decision;
}

function decisionFor(condition: ConditionUse, write: TSESTree.CallExpression): ReadDecision | undefined {
  const { statement, polarity } = condition;
  if (polarity === undefined) return undefined;
  const presentWhenTrue = polarity === 'present';
  const base = { simpleTest: condition.simple, presentWhenTrue };
  if (statement.type === AST_NODE_TYPES.IfStatement) {
    if (contains(statement.consequent, write)) {
      return !presentWhenTrue && condition.impliedWhenTrue ? { statement, shape: 'branch', ...base } : undefined;
    }
    if (statement.alternate && contains(statement.alternate, write)) {
      return presentWhenTrue && condition.impliedWhenFalse ? { statement, shape: 'branch', ...base } : undefined;
    }
    if (presentWhenTrue && condition.impliedWhenFalse && alwaysExits(statement.consequent) && followsInList(statement, write)) {
      return { statement, shape: 'early-exit', ...base };
    }
    return undefined;
  }
  if (statement.type === AST_NODE_TYPES.WhileStatement || statement.type === AST_NODE_TYPES.DoWhileStatement) {
    // `while (await redis.get(k)) await sleep(50);` then the write: a spin-wait, then check-then-set.
    if (presentWhenTrue && condition.impliedWhenFalse && followsInList(statement, write)) return { statement, shape: 'wait-loop', ...base };
  }
  return undefined;
}

function alwaysExits(statement: TSESTree.Statement): boolean {
  switch (statement.type) {
    case AST_NODE_TYPES.ReturnStatement:
    case AST_NODE_TYPES.ThrowStatement:
    case AST_NODE_TYPES.BreakStatement:
    case AST_NODE_TYPES.ContinueStatement:
      return true;
    case AST_NODE_TYPES.BlockStatement: {
      const last = statement.body.at(-1);
      return last !== undefined && alwaysExits(last);
    }
    default:
      return false;
  }
}

/** The write sits in a statement after `statement` in the same list (block, module or case). */
function followsInList(statement: TSESTree.Node, write: TSESTree.Node): boolean {
  const parent = statement.parent;
  if (!parent) return false;
  const list =
    parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program
      ? parent.body
      : parent.type === AST_NODE_TYPES.SwitchCase
        ? parent.consequent
        : undefined;
  if (!list) return false;
  const index = list.indexOf(statement as TSESTree.Statement);
  return index >= 0 && list.slice(index + 1).some((later) => contains(later, write));
}

/** Logging the holder or naming it in an error is not using the value as data. */
function isDiagnosticUse(use: TSESTree.Node): boolean {
  let current: TSESTree.Node | undefined = use.parent;
  while (current && !isFunctionLike(current)) {
    if (current.type === AST_NODE_TYPES.ThrowStatement) return true;
    if (current.type === AST_NODE_TYPES.CallExpression) {
      const callee = skipTypeWrappers(current.callee);
      if (callee.type === AST_NODE_TYPES.MemberExpression) {
        const object = skipTypeWrappers(callee.object);
        const name =
          object.type === AST_NODE_TYPES.Identifier
            ? object.name
            : object.type === AST_NODE_TYPES.MemberExpression && object.property.type === AST_NODE_TYPES.Identifier
              ? object.property.name
              : undefined;
        if (name !== undefined && /^(?:console|logger|log)$/iu.test(name)) return true;
      }
    }
    if (
      current.type === AST_NODE_TYPES.ExpressionStatement ||
      current.type === AST_NODE_TYPES.ReturnStatement ||
      current.type === AST_NODE_TYPES.VariableDeclaration
    )
      return false;
    current = current.parent;
  }
  return false;
}

/** A plain write of a key and the read of it whose result alone decides that write (check-then-set). */
export interface Decider {
  readonly read: RedisCommand;
  readonly result: ReadResult;
  readonly decision: ReadDecision;
}

/**
 * The latest `GET`/`EXISTS` of the same key before the write whose result alone decides it: the
 * write is then an attempt to take a lock (attempt 1), not a plain store of data.
 */
export function checkThenSetRead(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, write: RedisCommand): Decider | undefined {
  let found: Decider | undefined;
  const index = redisIndex(model);
  // The reads that can decide it run in the write's function or in one around it.
  for (const read of inEnclosingFunctions(index.commandsByOwnerAndKey, index.commandOrder, write.owner, write.keySignature)) {
    if (read.name !== 'GET' && read.name !== 'EXISTS') continue;
    if (!contains(read.owner, write.call) || !runsFirst(read.call, write.call)) continue;
    const result = readResultOf(sourceCode, read);
    const decision = result ? readDecidesWrite(result, write.call) : undefined;
    if (result && decision && !readsKeyWhenPresent(model, decision, write)) found = { read, result, decision };
  }
  return found;
}

/**
 * `if (await redis.exists(k)) return redis.get(k);` then a write: the path taken when the key is
 * present reads it again, which is a cache hit, not a lock found held.
 */
function readsKeyWhenPresent(model: RedisModel, decision: ReadDecision, write: RedisCommand): boolean {
  const statement = decision.statement;
  if (statement.type !== AST_NODE_TYPES.IfStatement) return false;
  const presentPath = decision.presentWhenTrue ? statement.consequent : statement.alternate;
  return (
    presentPath !== null &&
    within(model.commands, presentPath.range, commandNode).some(
      (command) => command.name === 'GET' && command.keySignature === write.keySignature,
    )
  );
}

/** Source order, or the write inside the read's v3 callback. */
function runsFirst(read: TSESTree.CallExpression, write: TSESTree.CallExpression): boolean {
  return read.range[1] <= write.range[0] || (contains(read, write) && read.arguments.some((argument) => contains(argument, write)));
}
