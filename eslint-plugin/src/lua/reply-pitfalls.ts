// Finds Lua conditions that misread Redis replies, as a pure function of a luaparse chunk parsed
// with `ranges: true`: both the JavaScript rule (scripts in strings and loaded files) and the Lua
// language (whole `.lua` files) call it and map the Lua ranges to their own report locations.
//
// Only replies whose Lua value is certain are judged. Under RESP2 (the default) an integer reply is
// a Lua number, and every number, 0 included, is true; no reply converts to `nil` (a missing value
// is `false`), so a reply compared with `nil` never matches — until `redis.setresp(3)`.

import type * as luaparse from 'luaparse';
import { LUA_REDIS_GLOBAL, parseRedisLua } from './parse-script.js';

type LuaNode = luaparse.Node;
type LuaExpression = luaparse.Expression;

export type LuaPitfallKind = 'integerTruthiness' | 'nilComparison' | 'builtKey';

export interface LuaPitfall {
  readonly kind: LuaPitfallKind;
  /** Upper-case Redis command whose reply or key is misused. */
  readonly command: string;
  /** Offsets into the script text, end exclusive. */
  readonly range: readonly [number, number];
}

/** Commands whose reply is always an integer under RESP2 (never `false`, never a table). */
const INTEGER_REPLY_COMMANDS = new Set([
  'SETNX',
  'HSETNX',
  'MSETNX',
  'RENAMENX',
  'EXISTS',
  'HEXISTS',
  'SISMEMBER',
  'DEL',
  'UNLINK',
  'HDEL',
  'SREM',
  'ZREM',
  'LREM',
  'EXPIRE',
  'PEXPIRE',
  'EXPIREAT',
  'PEXPIREAT',
  'PERSIST',
  'TTL',
  'PTTL',
  'INCR',
  'INCRBY',
  'DECR',
  'DECRBY',
  'HINCRBY',
  'SADD',
  'LPUSH',
  'RPUSH',
  'LPUSHX',
  'RPUSHX',
  'SCARD',
  'LLEN',
  'HLEN',
  'ZCARD',
  'STRLEN',
  'TOUCH',
  'PUBLISH',
  'APPEND',
  'SMOVE',
  'COPY',
  'PFADD',
  'HSET',
  'GETBIT',
  'SETBIT',
  'BITCOUNT',
  'ZCOUNT',
  'XLEN',
]);

/** Commands whose first argument is a key (a closed list: others take a subcommand or a channel first). */
const KEY_FIRST_COMMANDS = new Set([
  'GET',
  'SET',
  'SETNX',
  'SETEX',
  'PSETEX',
  'GETSET',
  'GETDEL',
  'GETEX',
  'DEL',
  'UNLINK',
  'EXISTS',
  'EXPIRE',
  'PEXPIRE',
  'EXPIREAT',
  'PEXPIREAT',
  'PERSIST',
  'TTL',
  'PTTL',
  'TYPE',
  'INCR',
  'INCRBY',
  'INCRBYFLOAT',
  'DECR',
  'DECRBY',
  'APPEND',
  'STRLEN',
  'HGET',
  'HSET',
  'HSETNX',
  'HDEL',
  'HEXISTS',
  'HINCRBY',
  'HMGET',
  'HMSET',
  'HGETALL',
  'HKEYS',
  'HVALS',
  'HLEN',
  'LPUSH',
  'RPUSH',
  'LPOP',
  'RPOP',
  'LRANGE',
  'LLEN',
  'LREM',
  'LINDEX',
  'LSET',
  'LTRIM',
  'SADD',
  'SREM',
  'SISMEMBER',
  'SMEMBERS',
  'SCARD',
  'SPOP',
  'ZADD',
  'ZREM',
  'ZSCORE',
  'ZRANGE',
  'ZRANGEBYSCORE',
  'ZREMRANGEBYSCORE',
  'ZCARD',
  'ZINCRBY',
  'ZRANK',
  'ZCOUNT',
  'XADD',
  'XLEN',
  'XTRIM',
  'XDEL',
  'RENAME',
  'RENAMENX',
]);

const CACHE_LIMIT = 2000;
const cache = new Map<string, readonly LuaPitfall[] | null>();

/** The pitfalls of a script's text; undefined when the text does not parse. */
export function luaReplyPitfalls(source: string): readonly LuaPitfall[] | undefined {
  const cached = cache.get(source);
  if (cached !== undefined) return cached ?? undefined;
  const chunk = parseRedisLua(source);
  const result = chunk ? findLuaReplyPitfalls(chunk) : null;
  if (cache.size > CACHE_LIMIT) cache.clear();
  cache.set(source, result);
  return result ?? undefined;
}

/** The pitfalls of a parsed chunk (parsed with `ranges: true`), in source order. */
export function findLuaReplyPitfalls(chunk: luaparse.Chunk): LuaPitfall[] {
  return new PitfallScan(chunk).run();
}

type Context = 'test' | 'value';

class PitfallScan {
  private readonly callAliases = new Set<string>();
  /** How many times each name is bound (declared, assigned, a parameter or loop variable). */
  private readonly bindings = new Map<string, number>();
  /** `local x = <init>` for names bound exactly once. */
  private readonly initOf = new Map<string, LuaExpression>();
  private resp3 = false;
  private readonly found: LuaPitfall[] = [];
  private readonly reported = new Set<string>();

  constructor(private readonly chunk: luaparse.Chunk) {}

  run(): LuaPitfall[] {
    this.collect(this.chunk);
    for (const [name, count] of this.bindings) if (count !== 1) this.initOf.delete(name);
    this.visit(this.chunk, 'value');
    return this.found.sort((a, b) => a.range[0] - b.range[0]);
  }

  /** First pass: aliases of `redis.call`, bindings, and whether the script switches to RESP3. */
  private collect(node: LuaNode): void {
    switch (node.type) {
      case 'LocalStatement':
      case 'AssignmentStatement':
        node.variables.forEach((variable, index) => {
          if (variable.type !== 'Identifier') return;
          const init = node.init[index];
          // `local a, b = f()`: the last init spreads, so later names have no init of their own.
          if (init && isRedisCallMember(init) && node.type === 'LocalStatement') this.callAliases.add(variable.name);
          this.bind(variable.name);
          if (node.type === 'LocalStatement' && init && index < node.init.length) this.initOf.set(variable.name, init);
        });
        break;
      case 'FunctionDeclaration':
        if (node.identifier?.type === 'Identifier') this.bind(node.identifier.name);
        for (const parameter of node.parameters) if (parameter.type === 'Identifier') this.bind(parameter.name);
        break;
      case 'ForNumericStatement':
        this.bind(node.variable.name);
        break;
      case 'ForGenericStatement':
        for (const variable of node.variables) this.bind(variable.name);
        break;
      case 'CallExpression':
        if (isSetResp3(node)) this.resp3 = true;
        break;
      default:
        break;
    }
    for (const child of children(node)) this.collect(child);
  }

  private bind(name: string): void {
    this.bindings.set(name, (this.bindings.get(name) ?? 0) + 1);
  }

  private visit(node: LuaNode, context: Context): void {
    if (context === 'test') this.checkTruthiness(node);
    switch (node.type) {
      case 'IfClause':
      case 'ElseifClause':
        this.visit(node.condition, 'test');
        for (const statement of node.body) this.visit(statement, 'value');
        return;
      case 'WhileStatement':
      case 'RepeatStatement':
        this.visit(node.condition, 'test');
        for (const statement of node.body) this.visit(statement, 'value');
        return;
      case 'UnaryExpression':
        this.visit(node.argument, node.operator === 'not' ? 'test' : 'value');
        return;
      case 'LogicalExpression':
        // In a condition both sides are tested. As a value, `x and y` still tests x (the `a and b or c`
        // idiom); `x or default` with an integer x is only a dead default, harmless, so it is left alone.
        this.visit(node.left, context === 'test' || node.operator === 'and' ? 'test' : 'value');
        this.visit(node.right, context);
        return;
      case 'BinaryExpression':
        this.checkNilComparison(node);
        break;
      case 'CallExpression':
        this.checkKey(node);
        break;
      default:
        break;
    }
    for (const child of children(node)) this.visit(child, 'value');
  }

  private checkTruthiness(node: LuaNode): void {
    const command = this.replyCommand(node as LuaExpression);
    if (command !== undefined && INTEGER_REPLY_COMMANDS.has(command)) this.report('integerTruthiness', command, node);
  }

  private checkNilComparison(node: luaparse.BinaryExpression): void {
    if (this.resp3 || (node.operator !== '==' && node.operator !== '~=')) return;
    const other = node.left.type === 'NilLiteral' ? node.right : node.right.type === 'NilLiteral' ? node.left : undefined;
    if (!other) return;
    // Under RESP2 no reply is `nil`: a missing value is `false`, an error from pcall a table.
    const command = this.replyCommand(other);
    if (command !== undefined) this.report('nilComparison', command, node);
  }

  private checkKey(call: luaparse.CallExpression): void {
    const command = this.commandOf(call);
    if (command === undefined || !KEY_FIRST_COMMANDS.has(command)) return;
    const key = call.arguments[1];
    if (key && this.isBuiltKey(key, 0)) this.report('builtKey', command, key);
  }

  /** A key the script makes itself: a literal, a concatenation, a format, or an `ARGV` value. */
  private isBuiltKey(expression: LuaExpression, depth: number): boolean {
    switch (expression.type) {
      case 'StringLiteral':
        return true;
      case 'BinaryExpression':
        return expression.operator === '..';
      case 'IndexExpression':
        return expression.base.type === 'Identifier' && expression.base.name === 'ARGV' && !this.bindings.has('ARGV');
      case 'CallExpression':
        return calleeName(expression.base) === 'string.format';
      case 'Identifier': {
        const init = this.initOf.get(expression.name);
        return init !== undefined && depth < 4 && this.isBuiltKey(init, depth + 1);
      }
      default:
        return false;
    }
  }

  /** The command whose reply this expression is: a Redis call, or a once-bound local holding one. */
  private replyCommand(expression: LuaExpression): string | undefined {
    if (expression.type === 'CallExpression') return this.commandOf(expression);
    if (expression.type === 'Identifier') {
      const init = this.initOf.get(expression.name);
      return init?.type === 'CallExpression' ? this.commandOf(init) : undefined;
    }
    return undefined;
  }

  private commandOf(call: luaparse.CallExpression): string | undefined {
    const callee = call.base;
    const isRedis =
      callee.type === 'Identifier'
        ? this.callAliases.has(callee.name) && this.bindings.get(callee.name) === 1
        : isRedisCallMember(callee) && !this.bindings.has(LUA_REDIS_GLOBAL);
    if (!isRedis) return undefined;
    const first = call.arguments[0];
    return first?.type === 'StringLiteral' && typeof first.value === 'string' ? first.value.toUpperCase() : undefined;
  }

  private report(kind: LuaPitfallKind, command: string, node: LuaNode): void {
    const range = (node as { range?: [number, number] }).range;
    if (!range) return;
    const id = `${kind}:${range[0]}:${range[1]}`;
    if (this.reported.has(id)) return;
    this.reported.add(id);
    this.found.push({ kind, command, range: [range[0], range[1]] });
  }
}

function isRedisCallMember(expression: LuaExpression): boolean {
  return (
    expression.type === 'MemberExpression' &&
    expression.indexer === '.' &&
    expression.base.type === 'Identifier' &&
    expression.base.name === LUA_REDIS_GLOBAL &&
    (expression.identifier.name === 'call' || expression.identifier.name === 'pcall')
  );
}

function isSetResp3(call: luaparse.CallExpression): boolean {
  const argument = call.arguments[0];
  return calleeName(call.base) === `${LUA_REDIS_GLOBAL}.setresp` && argument?.type === 'NumericLiteral' && argument.value === 3;
}

function calleeName(callee: LuaExpression): string | undefined {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && callee.base.type === 'Identifier') return `${callee.base.name}.${callee.identifier.name}`;
  return undefined;
}

/** Child nodes of any luaparse node, in source order. */
function children(node: LuaNode): LuaNode[] {
  const result: LuaNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'range' || key === 'loc' || key === 'raw') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) result.push(item);
    } else if (isNode(value)) result.push(value);
  }
  return result;
}

function isNode(value: unknown): value is LuaNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
