// require-acquire-check: a try-acquire whose result never decides whether the work runs, and acquire
// helpers that fail open (report the lock as taken when taking it failed).

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getLockModel, type LockModel } from '../model/index.js';
import { commandNode, isReleasedInModule, redisIndex, within } from '../model/indexes.js';
import { looksLikeLockKey } from '../model/keys.js';
import { runsBefore } from '../model/queries.js';
import type { Acquisition } from '../model/redis-model.js';
import { getSqlModel } from '../model/sql/index.js';
import { resultAccess, resultShapeOf, tryLockResultFate, type ResultShape } from '../model/sql/try-lock-result.js';
import { contains, isFunctionLike, type ScopeOwner, skipTypeWrappers, valueCarrier } from '../util/ast.js';
import { createRule } from '../util/create-rule.js';

export type MessageId = 'resultIgnored' | 'resultNeverChecked' | 'failOpen' | 'guardWithResult' | 'returnResult' | 'failClosed';
export type Options = [];

/**
 * A call that may fail to take the lock and says so only through its result. The rule asks nothing
 * else of it, so any lock family can contribute: the PostgreSQL model adds `pg_try_advisory_lock`
 * as one more entry of `TRY_ACQUISITION_SOURCES`.
 */
export interface TryAcquisition {
  readonly node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  /** How the message names the call: `SET NX`, `SETNX`, `tryAcquire()`. */
  readonly label: string;
  readonly owner: ScopeOwner;
  /** node_redis v3: the callback that receives the reply instead of the call's value. */
  readonly callback: TSESTree.Node | undefined;
  /** Another way this holder can learn whether it got the lock (reading the key back). */
  readonly verifiedLater: boolean;
  /** The answer is a column of the rows the query returns (`pg_try_advisory_lock(...) AS locked`), not the call's own value. */
  readonly resultColumn?: { readonly name: string; readonly shape: ResultShape };
}

/** Any acquisition, for the fail-open check: a helper can fail open whatever it calls. */
export interface AnyAcquisition {
  readonly node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  readonly owner: ScopeOwner;
}

/**
 * One lock family's contribution: its try-acquisitions (checked for a tested result) and all its
 * acquisitions (checked for fail-open helpers). The extension point for other families.
 */
export interface AcquisitionSource {
  tries(model: LockModel, context: RuleContext): readonly TryAcquisition[];
  all(model: LockModel, context: RuleContext): readonly AnyAcquisition[];
}

type RuleContext = Readonly<TSESLint.RuleContext<MessageId, Options>>;

const redisSource: AcquisitionSource = {
  tries(model, context) {
    const sourceCode = context.sourceCode;
    const redis = model.redis;
    const result: TryAcquisition[] = [];
    for (const acquisition of redis.acquisitions) {
      if (!acquisition.isTry) continue;
      // Queued in MULTI/pipeline: the reply arrives with exec(), which this rule does not follow.
      if (acquisition.command?.client.chain) continue;
      // SET NX of a key that is not a lock (an idempotency marker, a first-write-wins cache) may
      // drop its result on purpose; redis-semaphore's tryAcquire is a lock by definition.
      if (acquisition.library === 'redis' && !isLockAcquisition(model, sourceCode, acquisition)) continue;
      result.push({
        node: acquisition.node,
        label: labelOf(acquisition),
        owner: acquisition.owner,
        callback: acquisition.command?.callback,
        verifiedLater: isReadBackLater(model, acquisition),
      });
    }
    return result;
  },
  all(model) {
    return model.redis.acquisitions;
  },
};

/**
 * `SELECT pg_try_advisory_lock($1) AS locked` (and the xact form), alone in its query: the answer is
 * the `locked` column of the one row it returns. A try-lock nested in a larger expression, or in a
 * query of several statements, is not followed.
 */
const advisorySource: AcquisitionSource = {
  tries(_model, context) {
    const result: TryAcquisition[] = [];
    for (const lock of getSqlModel(context).advisoryLocks) {
      const { call, query } = lock;
      if (call.mode !== 'try' || call.action !== 'lock' || call.outputName === undefined) continue;
      if (query.statements?.length !== 1 || lock.statement.advisoryLocks.filter((other) => other.mode === 'try').length !== 1) continue;
      result.push({
        node: lock.node,
        label: call.functionName,
        owner: lock.function,
        callback: undefined,
        verifiedLater: false,
        resultColumn: { name: call.outputName, shape: resultShapeOf(query.sender.library, query.method) },
      });
    }
    return result;
  },
  all(_model, context) {
    return getSqlModel(context).advisoryLocks
      .filter((lock) => lock.call.action === 'lock')
      .map((lock) => ({ node: lock.node, owner: lock.function }));
  },
};

const TRY_ACQUISITION_SOURCES: readonly AcquisitionSource[] = [redisSource, advisorySource];

export default createRule<Options, MessageId>({
  name: 'require-acquire-check',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require the result of a try-acquire to decide whether the protected work runs',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      resultIgnored: 'The result of `{{acquire}}` is dropped: the work runs whether or not the lock was taken, so two holders can run at once.',
      resultNeverChecked: '`{{name}}` holds the result of `{{acquire}}` but is never tested: the work runs whether or not the lock was taken, so two holders can run at once.',
      failOpen: 'This helper reports the lock as taken when taking it failed: a Redis outage or timeout lets every worker in at once.',
      guardWithResult: 'Return early when the lock is not taken: `{{guard}}`',
      returnResult: 'Return the result so the caller can tell whether the lock was taken: `return …`',
      failClosed: 'Report the lock as not taken when acquiring fails: `return {{value}}`',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context);
        const sourceCode = context.sourceCode;
        for (const source of TRY_ACQUISITION_SOURCES) {
          for (const acquisition of source.tries(model, context)) reportUnchecked(context, acquisition);
          for (const acquisition of source.all(model, context)) {
            const failOpen = failOpenReturn(sourceCode, acquisition);
            if (!failOpen) continue;
            const value = closedValue(failOpen);
            context.report({
              node: acquisition.node,
              messageId: 'failOpen',
              // A suggestion: failing closed keeps every worker out during an outage, a behaviour change.
              suggest: [{ messageId: 'failClosed', data: { value }, fix: (fixer) => fixer.replaceText(failOpen, value) }],
            });
          }
        }
      },
    };
  },
});

/**
 * The key names a lock, or the module also releases it. Not `isLockKey`: every acquired key is a
 * lock key there, which would make each SET NX its own evidence.
 */
function isLockAcquisition(model: LockModel, sourceCode: Readonly<TSESLint.SourceCode>, acquisition: Acquisition): boolean {
  if (!acquisition.key) return false;
  if (looksLikeLockKey(sourceCode, acquisition.key, model.settings.lockKeyPattern)) return true;
  return isReleasedInModule(model.redis, acquisition);
}

function labelOf(acquisition: Acquisition): string {
  switch (acquisition.kind) {
    case 'set-nx': return 'SET NX';
    case 'setnx': return 'SETNX';
    case 'semaphore': return 'tryAcquire()';
    case 'helper': return `${acquisition.helper?.name ?? 'acquire'}()`;
    default: return acquisition.command?.name ?? acquisition.kind;
  }
}

/** `SET k token NX` then `GET k` compared with the token: the holder checks ownership by reading back. */
function isReadBackLater(model: LockModel, acquisition: Acquisition): boolean {
  if (acquisition.keySignature === undefined) return false;
  const sameKey = redisIndex(model.redis).commandsByKey.get(acquisition.keySignature);
  return within(sameKey, acquisition.owner.range, commandNode).some((command) => command.name === 'GET' && command.resultUsed
    && command.owner === acquisition.owner && runsBefore(acquisition.node, command.call));
}

function reportUnchecked(context: Readonly<TSESLint.RuleContext<MessageId, Options>>, acquisition: TryAcquisition): void {
  if (acquisition.verifiedLater) return;
  const sourceCode = context.sourceCode;
  if (acquisition.callback) {
    if (!callbackIgnoresReply(sourceCode, acquisition.callback)) return;
    context.report({ node: acquisition.node, messageId: 'resultIgnored', data: { acquire: acquisition.label } });
    return;
  }
  const column = acquisition.resultColumn;
  const fate = column ? tryLockResultFate(sourceCode, acquisition.node, column.name, column.shape) : resultFate(sourceCode, acquisition.node);
  if (fate.kind === 'checked') return;
  if (fate.kind === 'ignored') {
    const access = column ? resultAccess(column.shape, column.name) : '';
    const fix = access === undefined ? undefined : guardStatementFix(sourceCode, acquisition, fate.statement, access);
    context.report({
      node: acquisition.node,
      messageId: 'resultIgnored',
      data: { acquire: acquisition.label },
      // A suggestion: the work stops running when the lock is held elsewhere.
      suggest: fix ? [fix] : [],
    });
    return;
  }
  const fix = fate.declaration && fate.guard ? guardAfterDeclarationFix(sourceCode, acquisition, fate.declaration, fate.guard) : undefined;
  context.report({
    node: acquisition.node,
    messageId: 'resultNeverChecked',
    data: { acquire: acquisition.label, name: fate.name },
    suggest: fix ? [fix] : [],
  });
}

type ResultFate =
  | { kind: 'checked' }
  | { kind: 'ignored'; statement: TSESTree.ExpressionStatement | undefined }
  /** `guard`: the expression a guard tests (the variable itself). */
  | { kind: 'unread'; name: string; declaration: TSESTree.VariableDeclaration | undefined; guard: string };

/**
 * What happens to the call's value. Anything but dropping it or storing it in a variable that is
 * never read counts as a check: a condition, a comparison, returning it, passing it on.
 */
function resultFate(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.Node): ResultFate {
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
function callbackIgnoresReply(sourceCode: Readonly<TSESLint.SourceCode>, callback: TSESTree.Node): boolean {
  if (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback.type !== AST_NODE_TYPES.FunctionExpression) return false;
  const reply = callback.params[1];
  if (!reply) return true;
  if (reply.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = sourceCode.getDeclaredVariables(callback).find((candidate) => candidate.name === reply.name);
  return variable !== undefined && variable.references.length === 0;
}

type Suggestion = TSESLint.SuggestionReportDescriptor<MessageId>;

/**
 * `await redis.set(k, t, 'NX', 'PX', ms);` → `if (!(await redis.set(...))) return;`, or `return await ...;` when nothing follows.
 * `access` reads the answer from the awaited value (`.rows[0]?.locked` for a try-lock's row).
 */
function guardStatementFix(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: TryAcquisition, statement: TSESTree.ExpressionStatement | undefined, access: string): Suggestion | undefined {
  if (!statement || !canReturnFrom(statement, acquisition.owner)) return undefined;
  const carrier = valueCarrier(acquisition.node);
  const owner = acquisition.owner;
  let valueText = sourceCode.getText(carrier);
  if (carrier.type !== AST_NODE_TYPES.AwaitExpression) {
    if (!isFunctionLike(owner) || !owner.async) return undefined;
    valueText = `await ${valueText}`;
  }
  const block = statement.parent;
  const isLast = block.type === AST_NODE_TYPES.BlockStatement && block.body.at(-1) === statement && isFunctionLike(block.parent);
  if (isLast) {
    const returned = access ? `(${valueText})${access}` : valueText;
    return { messageId: 'returnResult', fix: (fixer) => fixer.replaceText(statement, `return ${returned};`) };
  }
  const guard = `if (!(${valueText})${access}) return;`;
  return { messageId: 'guardWithResult', data: { guard: `if (!(await …)${access}) return;` }, fix: (fixer) => fixer.replaceText(statement, guard) };
}

/** `const ok = await redis.set(...);` never read → `if (!ok) return;` on the next line (`if (!rows[0]?.locked) return;` for a try-lock's row). */
function guardAfterDeclarationFix(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: TryAcquisition, declaration: TSESTree.VariableDeclaration, answer: string): Suggestion | undefined {
  if (!canReturnFrom(declaration, acquisition.owner)) return undefined;
  const line = sourceCode.lines[declaration.loc.start.line - 1] ?? '';
  const indent = /^\s*/u.exec(line)?.[0] ?? '';
  const guard = `if (!${answer}) return;`;
  return { messageId: 'guardWithResult', data: { guard }, fix: (fixer) => fixer.insertTextAfter(declaration, `\n${indent}${guard}`) };
}

/** A statement directly in a block of a function, with no loop or switch between: `return` leaves the work. */
function canReturnFrom(statement: TSESTree.Node, owner: ScopeOwner): boolean {
  if (!isFunctionLike(owner)) return false;
  if (statement.parent?.type !== AST_NODE_TYPES.BlockStatement) return false;
  for (let current: TSESTree.Node = statement.parent; current !== owner; current = current.parent!) {
    switch (current.type) {
      case AST_NODE_TYPES.ForStatement:
      case AST_NODE_TYPES.ForInStatement:
      case AST_NODE_TYPES.ForOfStatement:
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement:
      case AST_NODE_TYPES.SwitchCase:
        return false;
      default:
        break;
    }
  }
  return true;
}

// `acquireLock`, `tryLock`, `obtainLease`, `claimLeadership`: the helper's answer is the lock's answer.
const ACQUIRE_HELPER_NAME = /^(?:try_?)?(?:[Aa]cquire|[Oo]btain|[Cc]laim|[Gg]rab|[Tt]ake|[Ll]ock)(?:[A-Z_]\w*)?$/u;
// `withLock`, `runExclusive`, `lockAndRun`: their answer is the work's, not the lock's.
const RUN_HELPER_NAME = /with|run|and|exec|do[A-Z]|process|handle/iu;

/**
 * The truthy literal a `catch` returns around an acquisition in an acquire helper (`catch { return
 * true; }`): a helper named like one, or one that returns the acquisition's result from its `try`.
 */
function failOpenReturn(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: AnyAcquisition): TSESTree.Literal | undefined {
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
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      const children = Array.isArray(value) ? value as unknown[] : [value];
      for (const child of children) {
        if (child && typeof (child as TSESTree.Node).type === 'string' && !isFunctionLike(child as TSESTree.Node)) stack.push(child as TSESTree.Node);
      }
    }
  }
}

function functionName(owner: TSESTree.Node): string | undefined {
  if (owner.type === AST_NODE_TYPES.FunctionDeclaration && owner.id) return owner.id.name;
  const parent = owner.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if ((parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.PropertyDefinition)
    && parent.key.type === AST_NODE_TYPES.Identifier) return parent.key.name;
  return undefined;
}

function closedValue(literal: TSESTree.Literal): string {
  if (literal.value === 1) return '0';
  if (literal.value === 'OK') return 'null';
  return 'false';
}
