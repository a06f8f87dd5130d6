// The lock model of a whole `.lua` file (the `locksmith/lua` language): the same script analysis
// the JavaScript side runs on scripts in strings, read for where each unguarded write sits, and
// whether the file is a lock script at all or a file of helpers other scripts include.

import * as path from 'node:path';
import type * as luaparse from 'luaparse';
import { analyzeLuaChunk, type LuaKeyWrite, type LuaScriptSummary } from '../lua/analyze-script.js';
import { findLuaReplyPitfalls, type LuaPitfall } from '../lua/reply-pitfalls.js';
import type { LuaChunk } from '../lua/source-code.js';
import { matchesLockPattern } from './keys.js';

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
  const pitfalls = findLuaReplyPitfalls(chunk as luaparse.Chunk)
    // An include cannot know whether its includer switched to RESP3, which makes `nil` replies real.
    .filter((pitfall) => !(include && pitfall.kind === 'nilComparison'));
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
  return words.some((word) => /^(?:un)?lock$/iu.test(word) || matchesLockPattern(word, lockKeyPattern)
    || word.replace(/([a-z0-9])([A-Z])/gu, '$1 $2').split(' ').some((hump) => /^(?:un)?lock$/iu.test(hump)));
}
