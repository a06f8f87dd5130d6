// Reads a Redis Lua script with a real Lua parser and answers what the lock rules ask of it: which
// keys it deletes, expires or sets, and whether each of those writes runs only after the script has
// compared the stored value with the caller's token.

import type * as luaparse from 'luaparse';
import { LUA_REDIS_GLOBAL, parseRedisLua } from './parse-script.js';

type LuaNode = luaparse.Node;
type LuaExpression = luaparse.Expression;

/** A write the script makes to a key, and whether an owner check guards it. */
export interface LuaKeyWrite {
  readonly command: string;
  /** `KEYS[1]`-style reference of the key argument, or undefined when it is computed. */
  readonly keyRef: string | undefined;
  /** True when the write can run only after the stored value was found equal to a caller value. */
  readonly ownerChecked: boolean;
  /** Offsets of the `redis.call(...)` in the script text, end exclusive (the Lua language reports there). */
  readonly range: readonly [number, number];
  /** Offsets of the key argument, when there is one. */
  readonly keyRange: readonly [number, number] | undefined;
}

export interface LuaSetWrite extends LuaKeyWrite {
  readonly nx: boolean;
  readonly hasExpiry: boolean;
}

export interface LuaScriptSummary {
  readonly deletes: readonly LuaKeyWrite[];
  readonly expiries: readonly LuaKeyWrite[];
  readonly sets: readonly LuaSetWrite[];
  readonly increments: readonly LuaKeyWrite[];
  /** Every command the script sends, upper case, once each. */
  readonly commands: ReadonlySet<string>;
}

const DELETE_COMMANDS = new Set(['DEL', 'UNLINK']);
const EXPIRY_COMMANDS = new Set(['EXPIRE', 'PEXPIRE', 'EXPIREAT', 'PEXPIREAT']);
const READ_COMMANDS = new Set(['GET', 'HGET', 'HMGET', 'HGETALL', 'LINDEX', 'GETEX']);
// Functions that keep a value's identity for comparison purposes (decode, convert).
const VALUE_PRESERVING_CALLS = new Set(['cjson.decode', 'tostring', 'tonumber', 'cmsgpack.unpack', 'string.lower']);

const summaryCache = new Map<string, LuaScriptSummary | null>();

/** Parses and summarises a script; `undefined` when the text is not valid Lua. */
export function analyzeLuaScript(source: string): LuaScriptSummary | undefined {
  const cached = summaryCache.get(source);
  if (cached !== undefined) return cached ?? undefined;
  const chunk = parseRedisLua(source);
  let summary: LuaScriptSummary | null = null;
  try {
    if (chunk) summary = analyzeLuaChunk(chunk);
  } catch {
    // A script shape the analysis does not foresee is no finding, never a crash.
  }
  if (summaryCache.size > 2000) summaryCache.clear();
  summaryCache.set(source, summary);
  return summary ?? undefined;
}

/**
 * Summarises a chunk parsed with `ranges: true`: the JavaScript side's scripts (through
 * analyzeLuaScript) and the Lua language's whole `.lua` files share this one analysis.
 */
export function analyzeLuaChunk(chunk: luaparse.Chunk): LuaScriptSummary {
  return new ScriptAnalysis().run(chunk);
}

/** The compare-and-delete shape: deletes, and every delete is owner-checked. */
export function isCompareAndDelete(summary: LuaScriptSummary): boolean {
  return summary.deletes.length > 0 && summary.deletes.every((write) => write.ownerChecked);
}

/** The compare-and-expire shape: renews, and every renewal is owner-checked. */
export function isCompareAndExpire(summary: LuaScriptSummary): boolean {
  return summary.expiries.length > 0 && summary.expiries.every((write) => write.ownerChecked);
}

/** What a value in the script is known to be, for owner-check detection. */
type Provenance = 'stored' | 'caller' | 'other';

class ScriptAnalysis {
  private readonly deletes: LuaKeyWrite[] = [];
  private readonly expiries: LuaKeyWrite[] = [];
  private readonly sets: LuaSetWrite[] = [];
  private readonly increments: LuaKeyWrite[] = [];
  private readonly commands = new Set<string>();
  /** Locals bound to `redis.call`/`redis.pcall`. */
  private readonly callAliases = new Set<string>();
  /** Locals bound to a stored value, a caller value, or a key reference. */
  private readonly localProvenance = new Map<string, Provenance>();
  private readonly localKeyRefs = new Map<string, string>();

  /** Parameters of the script's own functions that every call fills with a caller's value (`unlock(ARGV[2])`). */
  private callerParameters = new Map<luaparse.FunctionDeclaration, ReadonlySet<string>>();

  run(chunk: luaparse.Chunk): LuaScriptSummary {
    this.callerParameters = parametersFilledByCaller(chunk);
    this.walkBlock(chunk.body, false);
    return { deletes: this.deletes, expiries: this.expiries, sets: this.sets, increments: this.increments, commands: this.commands };
  }

  private walkBlock(statements: readonly luaparse.Statement[], guarded: boolean): void {
    let blockGuarded = guarded;
    for (const statement of statements) {
      this.walkStatement(statement, blockGuarded);
      if (statement.type === 'IfStatement' && this.isEarlyExitOnMismatch(statement)) blockGuarded = true;
    }
  }

  private walkStatement(statement: luaparse.Statement, guarded: boolean): void {
    switch (statement.type) {
      case 'LocalStatement':
      case 'AssignmentStatement':
        statement.init.forEach((init, index) => {
          this.walkExpression(init, guarded);
          const variable = statement.variables[index];
          if (variable?.type === 'Identifier') this.bindLocal(variable.name, init);
        });
        return;
      case 'IfStatement': {
        for (const clause of statement.clauses) {
          if (clause.type === 'ElseClause') {
            const guardedByMismatch = statement.clauses.some(
              (other) => other.type !== 'ElseClause' && this.conditionKind(other.condition) === 'mismatch',
            );
            this.walkBlock(clause.body, guarded || guardedByMismatch);
          } else {
            this.walkExpression(clause.condition, guarded);
            this.walkBlock(clause.body, guarded || this.conditionKind(clause.condition) === 'match');
          }
        }
        return;
      }
      case 'ReturnStatement':
        statement.arguments.forEach((argument) => {
          this.walkExpression(argument, guarded);
        });
        return;
      case 'CallStatement':
        this.walkExpression(statement.expression, guarded);
        return;
      case 'DoStatement':
        this.walkBlock(statement.body, guarded);
        return;
      case 'WhileStatement':
      case 'RepeatStatement':
        this.walkExpression(statement.condition, guarded);
        this.walkBlock(statement.body, guarded);
        return;
      case 'ForNumericStatement':
      case 'ForGenericStatement':
        this.walkBlock(statement.body, guarded);
        return;
      case 'FunctionDeclaration':
        // A helper function's body runs wherever it is called; judge it unguarded.
        this.walkFunction(statement);
        return;
      default:
        return;
    }
  }

  /** A parameter every call fills from `ARGV`/`KEYS` is the caller's value inside the body (`unlock(token)`). */
  private walkFunction(fn: luaparse.FunctionDeclaration): void {
    const fromCaller = this.callerParameters.get(fn);
    const shadowed = new Map<string, Provenance | undefined>();
    for (const parameter of fn.parameters) {
      if (parameter.type !== 'Identifier') continue;
      shadowed.set(parameter.name, this.localProvenance.get(parameter.name));
      this.localProvenance.set(parameter.name, fromCaller?.has(parameter.name) ? 'caller' : 'other');
    }
    this.walkBlock(fn.body, false);
    for (const [name, provenance] of shadowed) {
      if (provenance === undefined) this.localProvenance.delete(name);
      else this.localProvenance.set(name, provenance);
    }
  }

  private walkExpression(expression: LuaExpression, guarded: boolean): void {
    switch (expression.type) {
      case 'CallExpression':
      case 'StringCallExpression':
      case 'TableCallExpression': {
        this.recordRedisCall(expression, guarded);
        const callArguments = expression.type === 'CallExpression' ? expression.arguments : [];
        callArguments.forEach((argument) => {
          this.walkExpression(argument, guarded);
        });
        return;
      }
      case 'BinaryExpression':
      case 'LogicalExpression':
        this.walkExpression(expression.left, guarded);
        this.walkExpression(expression.right, guarded);
        return;
      case 'UnaryExpression':
        this.walkExpression(expression.argument, guarded);
        return;
      case 'FunctionDeclaration':
        this.walkFunction(expression);
        return;
      case 'TableConstructorExpression':
        for (const field of expression.fields) this.walkExpression(field.value, guarded);
        return;
      default:
        return;
    }
  }

  private recordRedisCall(
    call: luaparse.CallExpression | luaparse.StringCallExpression | luaparse.TableCallExpression,
    guarded: boolean,
  ): void {
    const command = this.redisCommandName(call);
    if (command === undefined || call.type !== 'CallExpression') return;
    this.commands.add(command);
    const keyArgument = call.arguments[1];
    const write: LuaKeyWrite = {
      command,
      keyRef: keyArgument ? this.keyRefOf(keyArgument) : undefined,
      ownerChecked: guarded,
      range: rangeOf(call),
      keyRange: keyArgument ? rangeOf(keyArgument) : undefined,
    };
    // The server's own compare-and-delete: `DELEX k IFEQ v` / `IFDEQ digest`, Valkey's `DELIFEQ k v`.
    // A bare DELEX, or IFNE/IFDNE, deletes as DEL does.
    const comparesOwner = (index: number) => {
      const condition = call.arguments[index] ? this.stringValue(call.arguments[index])?.toUpperCase() : undefined;
      return condition === 'IFEQ' || condition === 'IFDEQ';
    };
    if (DELETE_COMMANDS.has(command)) this.deletes.push(write);
    else if (command === 'DELIFEQ' || command === 'DELEX')
      this.deletes.push({ ...write, ownerChecked: guarded || command === 'DELIFEQ' || comparesOwner(2) });
    else if (EXPIRY_COMMANDS.has(command)) this.expiries.push(write);
    else if (command === 'INCR' || command === 'INCRBY') this.increments.push(write);
    else if (command === 'SET') {
      const flags = call.arguments.slice(3).map((argument) => this.stringValue(argument)?.toUpperCase());
      const hasTimedExpiry = flags.some((flag) => flag === 'PX' || flag === 'EX' || flag === 'PXAT' || flag === 'EXAT');
      // `SET k v IFEQ v PX ttl`: a renewal the server makes only for the owner (without PX/EX it is a plain write).
      if (hasTimedExpiry && (flags.includes('IFEQ') || flags.includes('IFDEQ'))) {
        this.expiries.push({ ...write, ownerChecked: true });
        return;
      }
      this.sets.push({
        ...write,
        nx: flags.includes('NX'),
        hasExpiry: flags.some((flag) => flag === 'PX' || flag === 'EX' || flag === 'PXAT' || flag === 'EXAT' || flag === 'KEEPTTL'),
      });
    }
  }

  /** `GET`, `DEL`, ... when the call is `redis.call(...)`, `redis.pcall(...)` or a local alias. */
  private redisCommandName(call: LuaNode): string | undefined {
    if (call.type !== 'CallExpression') return undefined;
    if (!this.isRedisCallee(call.base)) return undefined;
    const first = call.arguments[0];
    return first ? this.stringValue(first)?.toUpperCase() : undefined;
  }

  private isRedisCallee(callee: LuaExpression): boolean {
    if (callee.type === 'Identifier') return this.callAliases.has(callee.name);
    return (
      callee.type === 'MemberExpression' &&
      callee.base.type === 'Identifier' &&
      callee.base.name === LUA_REDIS_GLOBAL &&
      (callee.identifier.name === 'call' || callee.identifier.name === 'pcall')
    );
  }

  private stringValue(expression: LuaExpression): string | undefined {
    if (expression.type !== 'StringLiteral') return undefined;
    // luaparse fills `value` only with an encoding mode, which analyzeLuaScript always sets.
    return expression.value;
  }

  private keyRefOf(expression: LuaExpression): string | undefined {
    if (expression.type === 'Identifier') return this.localKeyRefs.get(expression.name);
    if (
      expression.type === 'IndexExpression' &&
      expression.base.type === 'Identifier' &&
      (expression.base.name === 'KEYS' || expression.base.name === 'ARGV') &&
      expression.index.type === 'NumericLiteral'
    ) {
      return `${expression.base.name}[${expression.index.value}]`;
    }
    return undefined;
  }

  private bindLocal(name: string, init: LuaExpression): void {
    if (init.type === 'MemberExpression' && this.isRedisCallee(init)) {
      this.callAliases.add(name);
      return;
    }
    const keyRef = this.keyRefOf(init);
    if (keyRef !== undefined) this.localKeyRefs.set(name, keyRef);
    this.localProvenance.set(name, this.provenance(init));
  }

  private provenance(expression: LuaExpression): Provenance {
    switch (expression.type) {
      case 'Identifier':
        return this.localProvenance.get(expression.name) ?? 'other';
      case 'IndexExpression':
        if (expression.base.type === 'Identifier' && (expression.base.name === 'ARGV' || expression.base.name === 'KEYS')) return 'caller';
        return this.provenance(expression.base);
      case 'MemberExpression':
        return this.provenance(expression.base);
      case 'CallExpression': {
        const command = this.redisCommandName(expression);
        if (command !== undefined) return READ_COMMANDS.has(command) ? 'stored' : 'other';
        const calleeName = luaCalleeName(expression.base);
        const first = expression.arguments[0];
        if (calleeName !== undefined && VALUE_PRESERVING_CALLS.has(calleeName) && first) return this.provenance(first);
        return 'other';
      }
      case 'LogicalExpression':
        // `redis.call('GET', k) or ''` keeps the stored value's identity.
        return this.provenance(expression.left);
      default:
        return 'other';
    }
  }

  /** 'match' when the condition being true implies the caller owns the key; 'mismatch' for the converse. */
  private conditionKind(condition: LuaExpression): 'match' | 'mismatch' | 'none' {
    switch (condition.type) {
      case 'BinaryExpression': {
        if (condition.operator !== '==' && condition.operator !== '~=') return 'none';
        const fieldCheck = this.ownerFieldCheck(condition);
        if (fieldCheck !== 'none') return fieldCheck;
        const sides = [this.provenance(condition.left), this.provenance(condition.right)];
        if (!(sides.includes('stored') && sides.includes('caller'))) return 'none';
        return condition.operator === '==' ? 'match' : 'mismatch';
      }
      case 'UnaryExpression': {
        if (condition.operator !== 'not') return 'none';
        const inner = this.conditionKind(condition.argument);
        return inner === 'match' ? 'mismatch' : inner === 'mismatch' ? 'match' : 'none';
      }
      case 'LogicalExpression': {
        const left = this.conditionKind(condition.left);
        const right = this.conditionKind(condition.right);
        // a and b: true implies both; a or b: false implies neither.
        if (condition.operator === 'and') return left === 'match' || right === 'match' ? 'match' : 'none';
        return left === 'mismatch' || right === 'mismatch' ? 'mismatch' : 'none';
      }
      default:
        return 'none';
    }
  }

  /**
   * A hash lock (Redisson's shape) names its holder by a field: `HEXISTS key ARGV[n]` compared
   * with `1` asks whether the caller holds it, with `0` whether it does not.
   */
  private ownerFieldCheck(condition: luaparse.BinaryExpression): 'match' | 'mismatch' | 'none' {
    const [call, other] = condition.left.type === 'CallExpression' ? [condition.left, condition.right] : [condition.right, condition.left];
    if (call.type !== 'CallExpression' || other.type !== 'NumericLiteral' || this.redisCommandName(call) !== 'HEXISTS') return 'none';
    const field = call.arguments[2];
    if (!field || this.provenance(field) !== 'caller' || (other.value !== 0 && other.value !== 1)) return 'none';
    const holds = other.value === 1;
    return holds === (condition.operator === '==') ? 'match' : 'mismatch';
  }

  /** `if stored ~= ARGV[1] then return 0 end`: what follows runs only for the owner. */
  private isEarlyExitOnMismatch(statement: luaparse.IfStatement): boolean {
    const [first] = statement.clauses;
    if (first?.type !== 'IfClause' || this.conditionKind(first.condition) !== 'mismatch') return false;
    const last = first.body.at(-1);
    if (!last) return false;
    if (last.type === 'ReturnStatement') return true;
    return (
      last.type === 'CallStatement' &&
      last.expression.type === 'CallExpression' &&
      last.expression.base.type === 'Identifier' &&
      last.expression.base.name === 'error'
    );
  }
}

/**
 * For each named function of the script (`local function unlock(token)`), the parameters that every
 * call of it fills with `ARGV[n]`/`KEYS[n]` (or a local bound once to one). A function whose name is
 * also read otherwise (passed on, rebound) or that nothing calls gets none: its callers are unknown.
 */
function parametersFilledByCaller(chunk: luaparse.Chunk): Map<luaparse.FunctionDeclaration, ReadonlySet<string>> {
  const functions = new Map<string, luaparse.FunctionDeclaration[]>();
  const calls = new Map<string, luaparse.Expression[][]>();
  const otherReads = new Set<string>();
  const bindings = new Map<string, luaparse.Expression[]>();
  const visit = (node: unknown, parent: unknown, key: string): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, parent, key);
      return;
    }
    if (typeof node !== 'object' || node === null || typeof (node as { type?: unknown }).type !== 'string') return;
    const current = node as luaparse.Node;
    if (current.type === 'FunctionDeclaration' && current.identifier?.type === 'Identifier') {
      functions.set(current.identifier.name, [...(functions.get(current.identifier.name) ?? []), current]);
    } else if (current.type === 'CallExpression' && current.base.type === 'Identifier') {
      calls.set(current.base.name, [...(calls.get(current.base.name) ?? []), current.arguments]);
    } else if (current.type === 'Identifier' && !(key === 'base' && (parent as luaparse.Node).type === 'CallExpression')) {
      if (key !== 'identifier' && key !== 'parameters') otherReads.add(current.name);
    }
    if (current.type === 'LocalStatement' || current.type === 'AssignmentStatement') {
      current.variables.forEach((variable, index) => {
        const init = current.init[index];
        if (variable.type === 'Identifier' && init) bindings.set(variable.name, [...(bindings.get(variable.name) ?? []), init]);
      });
    }
    for (const [childKey, value] of Object.entries(current)) {
      if (childKey !== 'range' && childKey !== 'loc') visit(value, current, childKey);
    }
  };
  visit(chunk, undefined, '');
  const isCallerValue = (argument: luaparse.Expression | undefined): boolean => {
    if (!argument) return false;
    if (argument.type === 'IndexExpression')
      return argument.base.type === 'Identifier' && (argument.base.name === 'ARGV' || argument.base.name === 'KEYS');
    if (argument.type !== 'Identifier') return false;
    const inits = bindings.get(argument.name);
    return inits?.length === 1 && inits[0]!.type === 'IndexExpression' && isCallerValue(inits[0]);
  };
  const result = new Map<luaparse.FunctionDeclaration, ReadonlySet<string>>();
  for (const [name, declarations] of functions) {
    const fnCalls = calls.get(name) ?? [];
    if (declarations.length !== 1 || fnCalls.length === 0 || otherReads.has(name)) continue;
    const fn = declarations[0]!;
    const filled = new Set<string>();
    fn.parameters.forEach((parameter, index) => {
      if (parameter.type === 'Identifier' && fnCalls.every((args) => isCallerValue(args[index]))) filled.add(parameter.name);
    });
    result.set(fn, filled);
  }
  return result;
}

function rangeOf(node: LuaNode): readonly [number, number] {
  const range = (node as { range?: [number, number] }).range;
  return range ? [range[0], range[1]] : [0, 0];
}

function luaCalleeName(callee: LuaExpression): string | undefined {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && callee.base.type === 'Identifier') return `${callee.base.name}.${callee.identifier.name}`;
  return undefined;
}
