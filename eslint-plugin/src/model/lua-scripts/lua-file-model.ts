// The lock model of a whole `.lua` file (the `locksmith/lua` language): the same script analysis
// the JavaScript side runs on scripts in strings, read for where each unguarded write sits, and
// whether the file is a lock script at all or a file of helpers other scripts include.

import * as path from 'node:path';
import type * as luaparse from 'luaparse';
import { analyzeLuaChunk, type LuaKeyWrite, type LuaScriptSummary } from '../../lua/analyze-script.js';
import { findLuaReplyPitfalls, luaReplyPitfalls, type LuaPitfall } from '../../lua/reply-pitfalls.js';
import { parseRedisLua } from '../../lua/parse-script.js';
import { LUA_VISITOR_KEYS, type LuaChunk, type LuaSyntaxNode } from '../../lua/source-code.js';
import { matchesLockPattern } from '../facts/keys.js';

export interface LuaFileModel {
  readonly summary: LuaScriptSummary;
  /**
   * A file of helper functions only (no Redis command, return or registration at its top level):
   * it runs inside the scripts that include it, which may compare the owner before calling it.
   */
  readonly include: boolean;
  /** DEL/UNLINK of a `KEYS[n]` key in a lock script, with no owner comparison before it. */
  readonly unguardedReleases: readonly LuaKeyWrite[];
  /** EXPIRE/PEXPIRE… of a `KEYS[n]` key in a lock script that only renews, with no owner comparison. */
  readonly unguardedRenewals: readonly LuaKeyWrite[];
  /** Reply and key pitfalls that hold wherever the code runs. */
  readonly pitfalls: readonly LuaPitfall[];
}

const cache = new WeakMap<LuaChunk, LuaFileModel>();

// Commands by which a script takes or counts the key: it acquires (or limits a rate), it does not renew.
const ACQUIRING_COMMANDS = ['SET', 'SETNX', 'SETEX', 'PSETEX', 'INCR', 'INCRBY', 'HINCRBY', 'HSET', 'HSETNX'];

export function luaFileModel(chunk: LuaChunk, filename: string, lockKeyPattern: RegExp): LuaFileModel {
  const cached = cache.get(chunk);
  if (cached) return cached;
  const summary = analyzeLuaChunk(chunk);
  const include = isInclude(chunk);
  // A file is a lock script when its name says so (`unlock.lua`, `lock/extend.lua`), or when it
  // compares the stored value with the caller's token somewhere: that comparison is the mark of a lock.
  const comparesOwner = [...summary.deletes, ...summary.expiries].some((write) => write.ownerChecked);
  const lockScript = !include && (comparesOwner || namesLock(filename, lockKeyPattern));
  const onKeys = (write: LuaKeyWrite) => !write.ownerChecked && write.keyRef?.startsWith('KEYS[') === true;
  const acquires = ACQUIRING_COMMANDS.some((command) => summary.commands.has(command));
  const literalKeys = new LiteralKeys(chunk);
  const pitfalls = findLuaReplyPitfalls(chunk as luaparse.Chunk)
    // An include cannot know whether its includer switched to RESP3, which makes `nil` replies real.
    .filter((pitfall) => !(include && pitfall.kind === 'nilComparison'))
    .filter((pitfall) => pitfall.kind !== 'builtKey' || literalKeys.isLiteralOnly(pitfall.range));
  const model: LuaFileModel = {
    summary,
    include,
    unguardedReleases: lockScript ? summary.deletes.filter(onKeys) : [],
    unguardedRenewals: lockScript && !acquires ? summary.expiries.filter(onKeys) : [],
    pitfalls,
  };
  cache.set(chunk, model);
  return model;
}

/**
 * The pitfalls of a script held in JavaScript (a string, or a `.lua` file it reads), with keys built
 * inside the script judged as in a `.lua` file: reported when made of literals alone, and, when the
 * script runs on a cluster client, whatever they are built from. A key built on a prefix the caller
 * passes (`ARGV[1] .. id`) may carry the caller's hash tag, and off a cluster every key is on the one node.
 */
export function scriptTextPitfalls(text: string, onCluster: boolean): readonly LuaPitfall[] {
  const pitfalls = luaReplyPitfalls(text) ?? [];
  if (onCluster || !pitfalls.some((pitfall) => pitfall.kind === 'builtKey')) return pitfalls;
  const chunk = parseRedisLua(text);
  if (!chunk) return pitfalls.filter((pitfall) => pitfall.kind !== 'builtKey');
  const literalKeys = new LiteralKeys(chunk as LuaChunk);
  return pitfalls.filter((pitfall) => pitfall.kind !== 'builtKey' || literalKeys.isLiteralOnly(pitfall.range));
}

/** Every top-level statement declares a function or binds a value without calling Redis. */
function isInclude(chunk: LuaChunk): boolean {
  let functions = 0;
  for (const statement of chunk.body) {
    if (statement.type === 'FunctionDeclaration') functions += 1;
    else if (statement.type === 'LocalStatement' && statement.init.every((init) => !callsAnything(init))) continue;
    else return false;
  }
  return functions > 0;
}

function callsAnything(expression: luaparse.Expression): boolean {
  switch (expression.type) {
    case 'CallExpression':
    case 'StringCallExpression':
    case 'TableCallExpression':
      return true;
    case 'BinaryExpression':
    case 'LogicalExpression':
      return callsAnything(expression.left) || callsAnything(expression.right);
    case 'UnaryExpression':
      return callsAnything(expression.argument);
    case 'TableConstructorExpression':
      return expression.fields.some((field) => callsAnything(field.value));
    default:
      // `local call = redis.call` binds, `local f = function() … end` declares: neither runs anything.
      return false;
  }
}

/** The file's own name or its folder's, word by word: `release_lock`, `unlock`, `lock/renew`, `mutexRelease`. */
function namesLock(filename: string, lockKeyPattern: RegExp): boolean {
  const base = path.basename(filename).replace(/\.lua$/iu, '');
  const folder = path.basename(path.dirname(filename));
  const words = `${base} ${folder}`.split(/[^A-Za-z0-9]+/u).filter((word) => word.length > 0);
  return words.some(
    (word) =>
      /^(?:un)?lock$/iu.test(word) ||
      matchesLockPattern(word, lockKeyPattern) ||
      word
        .replace(/([a-z0-9])([A-Z])/gu, '$1 $2')
        .split(' ')
        .some((hump) => /^(?:un)?lock$/iu.test(hump)),
  );
}

/**
 * Whether a key a script builds is made of literals only (`'lock:global'`, `'lock:' .. 'jobs'`, a
 * local holding one). In a `.lua` file the rest stays silent: a key built on a passed key, an
 * argument or a helper's parameter (`KEYS[1] .. id`, BullMQ's `prefix .. jobId`) can carry the
 * caller's hash tag, which is how such libraries stay on one cluster slot; only the call site, which
 * a `.lua` file does not show, could tell.
 */
class LiteralKeys {
  private readonly inits = new Map<string, luaparse.Expression[]>();
  private readonly unknown = new Set<string>();
  private readonly nodes: LuaSyntaxNode[] = [];

  constructor(chunk: LuaChunk) {
    const visit = (node: LuaSyntaxNode): void => {
      this.nodes.push(node);
      if (node.type === 'LocalStatement' || node.type === 'AssignmentStatement') {
        node.variables.forEach((variable, index) => {
          if (variable.type !== 'Identifier') return;
          const init = node.init[index];
          if (init) this.inits.set(variable.name, [...(this.inits.get(variable.name) ?? []), init]);
          else this.unknown.add(variable.name);
        });
      } else if (node.type === 'FunctionDeclaration') {
        for (const parameter of node.parameters) if (parameter.type === 'Identifier') this.unknown.add(parameter.name);
      } else if (node.type === 'ForNumericStatement') {
        this.unknown.add(node.variable.name);
      } else if (node.type === 'ForGenericStatement') {
        for (const variable of node.variables) this.unknown.add(variable.name);
      }
      for (const key of LUA_VISITOR_KEYS[node.type] ?? []) {
        const value = (node as unknown as Record<string, unknown>)[key];
        for (const child of Array.isArray(value) ? value : [value]) {
          if (typeof child === 'object' && child !== null && 'range' in child) visit(child as LuaSyntaxNode);
        }
      }
    };
    visit(chunk);
  }

  isLiteralOnly(range: readonly [number, number]): boolean {
    const node = this.nodes.find(
      (candidate) => candidate.range[0] === range[0] && candidate.range[1] === range[1] && candidate.type !== 'Chunk',
    );
    return node !== undefined && this.literal(node as luaparse.Expression, 0);
  }

  private literal(expression: luaparse.Expression, depth: number): boolean {
    if (depth > 4) return false;
    switch (expression.type) {
      case 'StringLiteral':
      case 'NumericLiteral':
        return true;
      case 'BinaryExpression':
        return expression.operator === '..' && this.literal(expression.left, depth + 1) && this.literal(expression.right, depth + 1);
      case 'Identifier': {
        const inits = this.inits.get(expression.name);
        return !this.unknown.has(expression.name) && inits?.length === 1 && this.literal(inits[0]!, depth + 1);
      }
      default:
        return false;
    }
  }
}
