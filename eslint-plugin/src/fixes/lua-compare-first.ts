// The suggestion for an unguarded DEL or PEXPIRE inside a `.lua` file: wrap its statement in the
// compare-first form of RELEASE_SCRIPT / EXTEND_SCRIPT, comparing the key's value with a new
// `ARGV[n]` that the callers now pass their token in.

import type { LuaKeyWrite } from '../lua/analyze-script.js';
import { LUA_VISITOR_KEYS, type LuaChunk, type LuaSyntaxNode } from '../lua/source-code.js';

export interface LuaCompareFirstEdit {
  readonly range: readonly [number, number];
  readonly text: string;
  /** The `ARGV[n]` the token is now read from. */
  readonly tokenArgument: string;
}

/**
 * The edit, when the write is a statement of its own (`redis.call('DEL', KEYS[1])` or
 * `return redis.call('DEL', KEYS[1])`); a write inside an expression is left alone.
 */
export function luaCompareFirstEdit(text: string, chunk: LuaChunk, write: LuaKeyWrite): LuaCompareFirstEdit | undefined {
  if (!write.keyRange) return undefined;
  const statement = statementOf(chunk, write.range);
  if (!statement) return undefined;
  const lineStart = text.lastIndexOf('\n', statement.range[0] - 1) + 1;
  const indent = /^[ \t]*/u.exec(text.slice(lineStart, statement.range[0]))?.[0] ?? '';
  if (lineStart + indent.length !== statement.range[0]) return undefined;
  const unit = indentUnit(text);
  const tokenArgument = `ARGV[${nextArgvIndex(text)}]`;
  const keyText = text.slice(write.keyRange[0], write.keyRange[1]);
  const body = text.slice(statement.range[0], statement.range[1]);
  const lines = [`if redis.call("GET", ${keyText}) == ${tokenArgument} then`, `${indent}${unit}${body}`];
  // A script that returned the command's reply still returns an integer when the lock is not ours.
  if (statement.type === 'ReturnStatement') lines.push(`${indent}else`, `${indent}${unit}return 0`);
  lines.push(`${indent}end`);
  return { range: statement.range, text: lines.join('\n'), tokenArgument };
}

/** The file's own indentation step: its first indented line's, else four spaces. */
function indentUnit(text: string): string {
  return /^([ \t]+)\S/mu.exec(text)?.[1] ?? '    ';
}

function nextArgvIndex(text: string): number {
  let highest = 0;
  for (const match of text.matchAll(/\bARGV\s*\[\s*(\d+)\s*\]/gu)) highest = Math.max(highest, Number(match[1]));
  return highest + 1;
}

/** The statement that is exactly this call, or returns exactly it. */
function statementOf(chunk: LuaChunk, range: readonly [number, number]): LuaSyntaxNode | undefined {
  const same = (node: unknown) => {
    const nodeRange = (node as { range?: [number, number] } | undefined)?.range;
    return nodeRange?.[0] === range[0] && nodeRange[1] === range[1];
  };
  let found: LuaSyntaxNode | undefined;
  const visit = (node: LuaSyntaxNode): void => {
    if (found || node.range[0] > range[0] || node.range[1] < range[1]) return;
    if (node.type === 'CallStatement' && same(node.expression)) found = node;
    else if (node.type === 'ReturnStatement' && node.arguments.length === 1 && same(node.arguments[0])) found = node;
    if (found) return;
    for (const key of LUA_VISITOR_KEYS[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value : [value]) {
        if (typeof child === 'object' && child !== null && 'range' in child) visit(child as LuaSyntaxNode);
      }
    }
  };
  visit(chunk);
  return found;
}
