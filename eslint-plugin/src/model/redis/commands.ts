// Normalises a call in any client dialect into one Redis command: name, key, value, SET options,
// callback and chain, so rules never look at argument conventions themselves.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { RedisDialect } from '../nouns/vocabulary.js';
import { methodCallParts, propertyName, skipTypeWrappers, staticString, propertyValue } from '../../util/ast.js';
import { ARRAY_ONLY_COMMAND_METHODS, GENERIC_COMMAND_METHODS, REDIS_METHODS } from '../tables/redis-clients.js';
import type { ExpiryUnit, CompareCondition, SetOptions } from '../nouns/redis-events.js';
export const COMPARE_CONDITIONS: ReadonlySet<string> = new Set<CompareCondition>(['IFEQ', 'IFNE', 'IFDEQ', 'IFDNE']);

export interface CommandShape {
  readonly name: string;
  readonly method: string;
  readonly form: 'method' | 'generic';
  readonly receiver: TSESTree.Expression;
  /** Command arguments after the name, without a trailing callback. */
  readonly args: readonly TSESTree.Node[];
  readonly callback: TSESTree.Node | undefined;
  readonly set: SetOptions | undefined;
  /** The value condition of a `SET … IFEQ`, `DELEX … IFEQ` or `DELIFEQ`: the write is conditional on the stored value. */
  readonly compare: SetOptions['compare'];
  /** Dialect the call's own shape shows, if any. */
  readonly shapeDialect: RedisDialect | undefined;
}

/** Reads `receiver.method(...)` as a Redis command, when the method names one. */
export function readCommandShape(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.CallExpression): CommandShape | undefined {
  const parts = methodCallParts(call);
  if (!parts) return undefined;
  const { receiver, method } = parts;
  let name = REDIS_METHODS[method];
  let form: 'method' | 'generic' = 'method';
  let args: TSESTree.Node[] = [...call.arguments];
  let shapeDialect: RedisDialect | undefined;

  if (name === undefined && GENERIC_COMMAND_METHODS.has(method)) {
    // ioredis call('SET', k, v), node-redis sendCommand(['SET', k, v]), v3 send_command('set', [k, v], cb)
    const first = call.arguments[0];
    if (!first) return undefined;
    if (first.type === AST_NODE_TYPES.ArrayExpression) {
      const [commandNode, ...rest] = first.elements;
      const commandName =
        commandNode && commandNode.type !== AST_NODE_TYPES.SpreadElement ? staticString(sourceCode, commandNode) : undefined;
      if (commandName === undefined || rest.some((element) => !element || element.type === AST_NODE_TYPES.SpreadElement)) return undefined;
      name = commandName.toUpperCase();
      args = rest as TSESTree.Node[];
      // Upstash's `exec([...])` is its raw command form; node-redis's is `sendCommand([...])`.
      shapeDialect = ARRAY_ONLY_COMMAND_METHODS.has(method) ? 'upstash' : 'node-redis';
    } else {
      if (ARRAY_ONLY_COMMAND_METHODS.has(method)) return undefined;
      const commandName = staticString(sourceCode, first);
      if (commandName === undefined) return undefined;
      name = commandName.toUpperCase();
      const second = call.arguments[1];
      if (method === 'send_command' && second?.type === AST_NODE_TYPES.ArrayExpression) {
        args = second.elements.filter(
          (element): element is TSESTree.Expression => !!element && element.type !== AST_NODE_TYPES.SpreadElement,
        );
        args.push(...call.arguments.slice(2));
        shapeDialect = 'node-redis-v3';
      } else {
        args = call.arguments.slice(1);
        shapeDialect = 'ioredis';
      }
    }
    form = 'generic';
  }
  if (name === undefined) return undefined;

  let callback: TSESTree.Node | undefined;
  const last = args.at(-1);
  if (last && isCallbackLike(last)) {
    callback = last;
    args = args.slice(0, -1);
    shapeDialect = 'node-redis-v3';
  }
  if (shapeDialect === undefined && /[a-z][A-Z]/u.test(method)) shapeDialect = 'node-redis';
  if (shapeDialect === undefined && method === method.toUpperCase() && method !== method.toLowerCase()) shapeDialect = 'node-redis';

  let set: SetOptions | undefined;
  if (name === 'SET') {
    set = readSetOptions(sourceCode, args.slice(2));
    if (shapeDialect === undefined && set.spelling !== undefined && set.spelling !== 'positional') shapeDialect = set.spelling;
  }
  const compare =
    name === 'SET'
      ? set?.compare
      : name === 'DELEX'
        ? readDelexCondition(sourceCode, args.slice(1))
        : name === 'DELIFEQ'
          ? { condition: 'IFEQ' as const, value: args[1] }
          : undefined;
  if (name === 'DELEX' && shapeDialect === undefined && args[1] && skipTypeWrappers(args[1]).type === AST_NODE_TYPES.ObjectExpression)
    shapeDialect = 'node-redis-v5';
  return { name, method, form, receiver, args, callback, set, compare, shapeDialect };
}

/**
 * `DELEX key IFEQ token` (positional, raw arrays) or node-redis 5's `delEx(key, { condition, matchValue })`.
 * An unreadable condition reads as none: the call is then judged as the plain delete it may be.
 */
function readDelexCondition(sourceCode: Readonly<TSESLint.SourceCode>, conditionArgs: readonly TSESTree.Node[]): SetOptions['compare'] {
  const first = conditionArgs[0] ? skipTypeWrappers(conditionArgs[0]) : undefined;
  if (!first) return undefined;
  if (first.type === AST_NODE_TYPES.ObjectExpression) {
    const conditionNode = propertyValue(first, 'condition');
    const condition = conditionNode ? conditionName(sourceCode, conditionNode) : undefined;
    return condition ? { condition, value: propertyValue(first, 'matchValue') } : undefined;
  }
  const condition = conditionName(sourceCode, first);
  return condition ? { condition, value: conditionArgs[1] } : undefined;
}

/** `'IFEQ'`, or node-redis's `DelexCondition.IFEQ`. */
function conditionName(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): CompareCondition | undefined {
  const value = skipTypeWrappers(node);
  const text = value.type === AST_NODE_TYPES.MemberExpression ? propertyName(value) : staticString(sourceCode, value);
  const upper = text?.toUpperCase();
  return upper !== undefined && COMPARE_CONDITIONS.has(upper) ? (upper as CompareCondition) : undefined;
}

function isCallbackLike(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression) return true;
  return node.type === AST_NODE_TYPES.Identifier && /^(?:cb|callback|done|next)$/u.test(node.name);
}

const EXPIRY_UNITS = new Set<string>(['PX', 'EX', 'PXAT', 'EXAT']);

/** SET's options, whether positional strings or an options object in any spelling. */
export function readSetOptions(sourceCode: Readonly<TSESLint.SourceCode>, optionArgs: readonly TSESTree.Node[]): SetOptions {
  const flags = { nx: false, xx: false, get: false, keepTtl: false };
  let expiry: SetOptions['expiry'];
  let compare: SetOptions['compare'];
  let opaque = false;
  let optionsObject: TSESTree.ObjectExpression | undefined;
  let spelling: SetOptions['spelling'];

  const first = optionArgs[0] ? skipTypeWrappers(optionArgs[0]) : undefined;
  if (first?.type === AST_NODE_TYPES.ObjectExpression) {
    optionsObject = first;
    for (const property of first.properties) {
      if (property.type !== AST_NODE_TYPES.Property) {
        opaque = true;
        continue;
      }
      const key =
        property.key.type === AST_NODE_TYPES.Identifier
          ? property.key.name
          : property.key.type === AST_NODE_TYPES.Literal
            ? String(property.key.value)
            : undefined;
      if (key === undefined) {
        opaque = true;
        continue;
      }
      const upper = key.toUpperCase();
      spelling ??= key === 'condition' || key === 'expiration' ? 'node-redis-v5' : key === key.toLowerCase() ? 'upstash' : 'node-redis';
      if (key === 'condition') {
        const condition = staticString(sourceCode, property.value);
        if (condition === undefined) opaque = true;
        else if (condition.toUpperCase() === 'NX') flags.nx = true;
        else if (condition.toUpperCase() === 'XX') flags.xx = true;
        // node-redis 5: `{ condition: 'IFEQ', matchValue: token }`.
        else if (COMPARE_CONDITIONS.has(condition.toUpperCase()))
          compare = { condition: condition.toUpperCase() as CompareCondition, value: propertyValue(first, 'matchValue') };
      } else if (key === 'expiration') {
        const value = skipTypeWrappers(property.value);
        if (value.type === AST_NODE_TYPES.ObjectExpression) {
          const typeNode = propertyValue(value, 'type');
          const unit = typeNode ? staticString(sourceCode, typeNode)?.toUpperCase() : undefined;
          const amount = propertyValue(value, 'value');
          if (unit !== undefined && EXPIRY_UNITS.has(unit)) expiry = { unit: unit as ExpiryUnit, value: amount };
          else opaque = true;
        } else if (staticString(sourceCode, value)?.toUpperCase() === 'KEEPTTL') flags.keepTtl = true;
        else opaque = true;
      } else if (upper === 'NX' || upper === 'XX' || upper === 'GET' || upper === 'KEEPTTL') {
        const enabled = isTruthyLiteral(property.value);
        if (enabled === undefined) opaque = true;
        else if (enabled) flags[upper === 'NX' ? 'nx' : upper === 'XX' ? 'xx' : upper === 'GET' ? 'get' : 'keepTtl'] = true;
      } else if (EXPIRY_UNITS.has(upper)) {
        expiry = { unit: upper as ExpiryUnit, value: property.value };
      }
    }
    return { ...flags, expiry, compare, opaque: opaque || optionArgs.length > 1, optionsObject, spelling };
  }

  for (let index = 0; index < optionArgs.length; index++) {
    const option = staticString(sourceCode, optionArgs[index]!)?.toUpperCase();
    if (option === undefined) {
      opaque = true;
      continue;
    }
    spelling = 'positional';
    if (option === 'NX') flags.nx = true;
    else if (option === 'XX') flags.xx = true;
    else if (option === 'GET') flags.get = true;
    else if (option === 'KEEPTTL') flags.keepTtl = true;
    else if (EXPIRY_UNITS.has(option)) {
      expiry = { unit: option as ExpiryUnit, value: optionArgs[index + 1] };
      index++;
    } else if (COMPARE_CONDITIONS.has(option)) {
      compare = { condition: option as CompareCondition, value: optionArgs[index + 1] };
      index++;
    }
  }
  return { ...flags, expiry, compare, opaque, optionsObject, spelling };
}

function isTruthyLiteral(node: TSESTree.Node): boolean | undefined {
  const value = skipTypeWrappers(node);
  if (value.type === AST_NODE_TYPES.Literal) return Boolean(value.value);
  return undefined;
}

/** The receiver's method name in `x.y(...)`, for callers that only need that. */
export function calledMethod(call: TSESTree.CallExpression): string | undefined {
  const callee = skipTypeWrappers(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee) : undefined;
}
