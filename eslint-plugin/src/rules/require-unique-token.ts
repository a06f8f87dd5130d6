// require-unique-token: a lock value that is not unique to this holder and this acquisition.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { randomUuidCall } from '../fixes/random-uuid.js';
import { getLockModel } from '../model/index.js';
import { commandNode, within } from '../model/indexes.js';
import { releasesOfSameKey } from '../model/queries.js';
import { isExportedLockHelper, isInLockFunction, isLockAcquisition } from '../model/lock-acquisitions.js';
import { callerArguments } from '../model/parameter-callers.js';
import type { Acquisition, Expiry, RedisModel, Release } from '../model/redis-model.js';
import { isParameterValue, sharedTokenKind, type SharedTokenKind } from '../model/token-origin.js';
import { contains, findVariable, forEachChild, propertyName, skipTypeWrappers, valueCarrier } from '../util/ast.js';
import { createRule } from '../util/create-rule.js';
import { MAX_RELATED, relatedData } from '../util/related.js';

export type MessageId = 'sharedValue' | 'hostValue' | 'timestampValue' | 'processToken' | 'useRandomToken';
export type Options = [];

const MESSAGE_BY_KIND: Readonly<Record<SharedTokenKind, MessageId>> = {
  literal: 'sharedValue',
  constant: 'sharedValue',
  host: 'hostValue',
  timestamp: 'timestampValue',
  process: 'processToken',
};

export default createRule<Options, MessageId>({
  name: 'require-unique-token',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require the value stored by a lock to be a token unique to each acquisition',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      sharedValue: 'The lock value `{{value}}` is the same for every holder, so "this lock is mine" cannot be checked: a holder whose lock expired frees the next holder\'s lock.',
      hostValue: '`{{value}}` names the process, not the acquisition: two jobs in this process store the same lock value, so one can free the other\'s lock.',
      timestampValue: 'A timestamp is not unique to a holder: two holders that mint it in the same millisecond and take the lock one after the other store the same value, so one can free the other\'s lock.',
      processToken: 'This token is minted once per process and reused for every acquisition: two jobs in this process store the same lock value, so one can free the other\'s lock.',
      useRandomToken: 'Mint a token per acquisition with `crypto.randomUUID()` and release with it',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const { redis: model, settings } = getLockModel(context);
        // A helper whose caller chooses the token (`acquireLock(key, token)`): the caller's value is the finding.
        const helperValues = new Set<TSESTree.Node>();
        const reportedAtCalls = new Set<TSESTree.Node>();
        for (const acquisition of model.acquisitions) {
          if (acquisition.library !== 'helper' || !acquisition.value) continue;
          helperValues.add(acquisition.value);
          if (reportHelperToken(context, model, acquisition, acquisition.value)) reportedAtCalls.add(acquisition.value);
        }
        for (const acquisition of model.acquisitions) {
          if (!acquisition.value || acquisition.library !== 'redis') continue;
          const passed = callerArguments(context.sourceCode, acquisition.value);
          // A parameter followed to calls of a lock helper already reported there: once is enough.
          if (passed?.some((argument) => reportedAtCalls.has(argument))) continue;
          const kind = sharedTokenKind(context.sourceCode, acquisition.value);
          if (kind === undefined || !isLockAcquisition(context.sourceCode, model, settings.lockKeyPattern, acquisition)) continue;
          // In a lock helper (its calls are acquisitions of their own) a release that takes its key as a
          // parameter (`releaseLock(key, token)`) frees whatever its callers name: it is judged where it
          // is called, so only releases and renewals of a key written out count here.
          const related = passed?.some((argument) => helperValues.has(argument))
            ? writtenKeyEvents(context.sourceCode, model, settings.lockKeyPattern)
            : eventsOfSameLock(context.sourceCode, model, settings.lockKeyPattern, acquisition);
          // An exported `acquireLock(key)` that stores a value its callers cannot choose: their
          // release, in other modules, cannot tell holders apart either. No suggestion: a token
          // minted here would not reach it (the helper's signature has to change).
          const helperForOthers = related.count === 0 && isExportedLockHelper(context.sourceCode, settings.lockKeyPattern, acquisition);
          if (related.count === 0 && !helperForOthers) continue;
          // A parameter's value is its callers' choice: a token minted here would leave them passing one in vain.
          const fix = !helperForOthers && related.allInside(acquisition.owner) && !isParameterValue(context.sourceCode, acquisition.value)
            ? randomTokenFix(context.sourceCode, model, acquisition)
            : undefined;
          context.report({
            node: acquisition.value,
            messageId: MESSAGE_BY_KIND[kind],
            data: {
              value: abbreviate(context.sourceCode.getText(acquisition.value)),
              ...relatedData(...related.first(MAX_RELATED).map((event) => ({ message: 'This release or renewal cannot tell holders apart by the value', node: event.node }))),
            },
            // A suggestion, not an autofix: it changes the value stored in Redis.
            suggest: fix ? [{ messageId: 'useRandomToken', fix }] : [],
          });
        }
      },
    };
  },
});

/**
 * The token a caller hands to a lock helper, when the same lock is released or renewed in this
 * module (through the helper's release or the client): no suggestion, the helper's signature decides.
 */
function reportHelperToken(context: Readonly<TSESLint.RuleContext<MessageId, Options>>, model: RedisModel, acquisition: Acquisition, value: TSESTree.Node): boolean {
  const kind = sharedTokenKind(context.sourceCode, value);
  const releases = kind === undefined ? [] : releasesOfSameKey(model, acquisition);
  if (kind === undefined || releases.length === 0) return false;
  context.report({
    node: value,
    messageId: MESSAGE_BY_KIND[kind],
    data: {
      value: abbreviate(context.sourceCode.getText(value)),
      ...relatedData(...releases.slice(0, MAX_RELATED).map((event) => ({ message: 'This release or renewal cannot tell holders apart by the value', node: event.node }))),
    },
  });
  return true;
}

/**
 * The releases and renewals that may be this lock's. The value matters only where something
 * compares it, so a self-expiring lock in a module that releases and renews no lock ("run at most
 * once a minute") may store anything. A suggestion is offered only when all of them are in the
 * acquisition's function: a token minted there could not reach a release anywhere else.
 */
function eventsOfSameLock(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, lockKeyPattern: RegExp, acquisition: Acquisition): SameLockEvents {
  const groups = eventGroups(sourceCode, model, lockKeyPattern);
  if (acquisition.keySignature === undefined) return sameLockEvents([groups.all], groups.order);
  const keyOnly = groups.keyOnly.get(acquisition.keySignature);
  return sameLockEvents(keyOnly ? [groups.base, keyOnly] : [groups.base], groups.order);
}

/** The releases and renewals that may be any lock's and name their key, not take it as a parameter. */
function writtenKeyEvents(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, lockKeyPattern: RegExp): SameLockEvents {
  const groups = eventGroups(sourceCode, model, lockKeyPattern);
  return sameLockEvents([groups.writtenKey], groups.order);
}

/** Releases and renewals, as a list in the model's order (releases first) with its extent. */
interface EventGroup {
  readonly events: (Release | Expiry)[];
  start: number;
  end: number;
}

interface SameLockEvents {
  readonly count: number;
  /** Whether every event lies inside `owner`. */
  allInside(owner: TSESTree.Node): boolean;
  /** The first `limit` events, in the model's order (releases first). */
  first(limit: number): (Release | Expiry)[];
}

interface EventGroups {
  /** Every Redis release and renewal: the lock of an acquisition without a key signature may be any. */
  readonly all: EventGroup;
  /** Those that may be any lock's: no key signature, a lock-like key, or in a lock helper. */
  readonly base: EventGroup;
  /** Of `base`, those whose key is written out, not a parameter of their function. */
  readonly writtenKey: EventGroup;
  /** By key signature, the others: events that are only the lock of the same key. */
  readonly keyOnly: ReadonlyMap<string, EventGroup>;
  readonly order: ReadonlyMap<Release | Expiry, number>;
}

const eventGroupsByModel = new WeakMap<RedisModel, EventGroups>();

/**
 * The releases and renewals that may be an acquisition's own lock fall in groups shared by every
 * acquisition of the file (computed once): those that may be any lock's, and those of one key.
 */
function eventGroups(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, lockKeyPattern: RegExp): EventGroups {
  const cached = eventGroupsByModel.get(model);
  if (cached) return cached;
  const emptyGroup = (): EventGroup => ({ events: [], start: Infinity, end: -Infinity });
  const add = (group: EventGroup, event: Release | Expiry) => {
    group.events.push(event);
    group.start = Math.min(group.start, event.node.range[0]);
    group.end = Math.max(group.end, event.node.range[1]);
  };
  const groups = { all: emptyGroup(), base: emptyGroup(), writtenKey: emptyGroup(), keyOnly: new Map<string, EventGroup>(), order: new Map<Release | Expiry, number>() };
  for (const event of [...model.releases, ...model.expiries]) {
    if (event.library !== 'redis') continue;
    groups.order.set(event, groups.order.size);
    add(groups.all, event);
    if (event.keySignature === undefined || (event.key !== undefined && model.isLockKey(event.key)) || isInLockFunction(event.node, lockKeyPattern)) {
      add(groups.base, event);
      if (event.key !== undefined && !isParameterValue(sourceCode, event.key)) add(groups.writtenKey, event);
      continue;
    }
    let keyGroup = groups.keyOnly.get(event.keySignature);
    if (!keyGroup) {
      keyGroup = emptyGroup();
      groups.keyOnly.set(event.keySignature, keyGroup);
    }
    add(keyGroup, event);
  }
  eventGroupsByModel.set(model, groups);
  return groups;
}

/** The union of disjoint groups, each in the model's order. */
function sameLockEvents(parts: readonly EventGroup[], order: ReadonlyMap<Release | Expiry, number>): SameLockEvents {
  return {
    count: parts.reduce((sum, part) => sum + part.events.length, 0),
    // A node outside the function ends before it, starts after it, or holds it: the extent shows it.
    allInside: (owner) => parts.every((part) => part.events.length === 0 || (part.start >= owner.range[0] && part.end <= owner.range[1])),
    first: (limit) => {
      const merged: (Release | Expiry)[] = [];
      const positions = parts.map(() => 0);
      while (merged.length < limit) {
        let next = -1;
        for (let part = 0; part < parts.length; part++) {
          const candidate = parts[part]!.events[positions[part]!];
          if (candidate === undefined) continue;
          if (next < 0 || order.get(candidate)! < order.get(parts[next]!.events[positions[next]!]!)!) next = part;
        }
        if (next < 0) break;
        merged.push(parts[next]!.events[positions[next]!]!);
        positions[next]! += 1;
      }
      return merged;
    },
  };
}
function abbreviate(text: string): string {
  const line = text.replace(/\s+/gu, ' ');
  return line.length > 40 ? `${line.slice(0, 37)}...` : line;
}

/**
 * `const token = randomUUID();` before the acquisition's statement, and `token` wherever this
 * function stored or compared the shared value for the same lock: the acquisition, and the release
 * or renewal that must send the same token. Undefined when a release elsewhere uses the value (it
 * could not see the local token) or the acquisition is not in a statement list.
 */
function randomTokenFix(
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
    if (event.keySignature === undefined || acquisition.keySignature === undefined || event.keySignature === acquisition.keySignature) replaced.push(argument);
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

interface EventArgument {
  readonly event: Release | Expiry;
  readonly argument: TSESTree.Node;
}

const argumentsByTextByModel = new WeakMap<RedisModel, ReadonlyMap<string, readonly EventArgument[]>>();

/** The arguments of every Redis release and renewal, by their text, in the model's order: found once per file. */
function argumentsByText(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel): ReadonlyMap<string, readonly EventArgument[]> {
  const cached = argumentsByTextByModel.get(model);
  if (cached) return cached;
  const byText = new Map<string, EventArgument[]>();
  for (const event of [...model.releases, ...model.expiries]) {
    if (!event.command || event.library !== 'redis') continue;
    const args = event.command.script ? event.command.script.args : event.command.args;
    for (const argument of args) {
      const text = sourceCode.getText(argument);
      const list = byText.get(text);
      if (list) list.push({ event, argument });
      else byText.set(text, [{ event, argument }]);
    }
  }
  argumentsByTextByModel.set(model, byText);
  return byText;
}

function comparesStoredValue(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel, acquisition: Acquisition, valueText: string): boolean {
  return within(model.commands, acquisition.owner.range, commandNode).some((command) => {
    if (command.name !== 'GET') return false;
    if (command.keySignature !== undefined && acquisition.keySignature !== undefined && command.keySignature !== acquisition.keySignature) return false;
    const comparison = valueCarrier(command.call).parent;
    if (comparison?.type !== AST_NODE_TYPES.BinaryExpression) return false;
    return sourceCode.getText(comparison.left) === valueText || sourceCode.getText(comparison.right) === valueText;
  });
}

/** The initialiser of `const token = ...` when `value` reads a binding declared in `owner` itself. */
function localConstInitializer(sourceCode: Readonly<TSESLint.SourceCode>, value: TSESTree.Node, owner: TSESTree.Node): TSESTree.Expression | undefined {
  const expression = skipTypeWrappers(value);
  if (expression.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(sourceCode, expression);
  const definition = variable?.defs[0];
  if (variable?.defs.length !== 1 || definition?.node.type !== AST_NODE_TYPES.VariableDeclarator || !definition.node.init) return undefined;
  if (variable.scope.block !== owner && !contains(owner, variable.scope.block)) return undefined;
  if (variable.scope.block.type === AST_NODE_TYPES.Program) return undefined;
  return definition.node.init;
}

/** The statement holding `node` that sits directly in a block (or the module body), within `owner`. */
function statementInList(node: TSESTree.Node, owner: TSESTree.Node): TSESTree.Statement | undefined {
  let current: TSESTree.Node = node;
  while (current.parent && current !== owner) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program || parent.type === AST_NODE_TYPES.SwitchCase) {
      // A block that is a function's body belongs to `owner` only if that function is `owner`.
      if (parent.parent && parent.type === AST_NODE_TYPES.BlockStatement && parent.parent !== owner && isFunctionNode(parent.parent)) return undefined;
      return current as TSESTree.Statement;
    }
    if (isFunctionNode(parent) && parent !== owner) return undefined;
    current = parent;
  }
  return undefined;
}

function isFunctionNode(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.ArrowFunctionExpression;
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
    if (node.type === AST_NODE_TYPES.MemberExpression && node.object.type === AST_NODE_TYPES.ThisExpression && propertyName(node) === field
      && !(node.parent.type === AST_NODE_TYPES.AssignmentExpression && node.parent.left === node)) {
      reads.push(node);
    }
    // Functions other than arrows have their own `this`.
    if (node !== owner && (node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.FunctionDeclaration)) return;
    forEachChild(node, sourceCode.visitorKeys, visit);
  };
  visit(owner);
  return reads;
}

/** `preferred`, or `preferred2`..., a name no scope inside `owner` or around it declares or reads. */
function freeLocalName(sourceCode: Readonly<TSESLint.SourceCode>, owner: TSESTree.Node, preferred: string): string {
  const taken = new Set<string>();
  // The scopes inside `owner` are the subtrees of its own scopes (the scope tree follows the AST).
  const ownScope = sourceCode.scopeManager?.acquire(owner) ?? null;
  const pending = ownScope ? [ownScope] : [...(sourceCode.scopeManager?.scopes ?? [])];
  const seen = new Set<TSESLint.Scope.Scope>();
  while (pending.length > 0) {
    const scope = pending.pop()!;
    if (seen.has(scope)) continue;
    seen.add(scope);
    if (!contains(owner, scope.block)) continue;
    for (const variable of scope.variables) taken.add(variable.name);
    for (const reference of scope.through) taken.add(reference.identifier.name);
    pending.push(...scope.childScopes);
  }
  let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(owner);
  while (scope) {
    for (const variable of scope.variables) taken.add(variable.name);
    scope = scope.upper;
  }
  if (!taken.has(preferred)) return preferred;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${preferred}${suffix}`)) return `${preferred}${suffix}`;
}
