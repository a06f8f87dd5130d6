// The `locksmith/lua` language (ESLint >= 9.7's languages API): parses a `.lua` file with luaparse
// the way Redis runs scripts, so that the Lua rules report inside the script itself.
//
// Most `.lua` files are not Redis scripts (Neovim, LÖVE, OpenResty, Luau): a file with no sign of
// Redis is not parsed at all and lints as an empty chunk, whatever its dialect; a Redis script that
// does not parse gets one parse error.

import * as luaparse from 'luaparse';
import { LUA_VISITOR_KEYS, LuaSourceCode, type LuaChunk } from './source-code.js';

/** `redis.call`/`redis.pcall`, a Redis Function registration, or `KEYS[…]`/`ARGV[…]`. */
const REDIS_SCRIPT_SIGN = /\bredis\s*\.\s*(?:p?call|register_function)\b|\b(?:KEYS|ARGV)\s*\[/u;

/** Whether a `.lua` file's text looks like a Redis script at all. */
export function looksLikeRedisScript(text: string): boolean {
  return REDIS_SCRIPT_SIGN.test(text);
}

export interface LuaFile {
  readonly body: string | Uint8Array;
  readonly path: string;
}

export type ParseResult = { ok: true; ast: LuaChunk } | { ok: false; errors: { message: string; line: number; column: number }[] };

export const luaLanguage = {
  fileType: 'text' as const,
  lineStart: 1 as const,
  columnStart: 0 as const,
  nodeTypeKey: 'type',
  visitorKeys: LUA_VISITOR_KEYS,
  defaultLanguageOptions: {},

  validateLanguageOptions(languageOptions: Record<string, unknown>): void {
    const unknown = Object.keys(languageOptions);
    if (unknown.length > 0) throw new TypeError(`The Lua language takes no language options (got ${unknown.join(', ')}).`);
  },

  parse(file: LuaFile): ParseResult {
    const text = typeof file.body === 'string' ? file.body : new TextDecoder().decode(file.body);
    if (!looksLikeRedisScript(text)) return { ok: true, ast: emptyChunk(text) };
    try {
      const chunk = luaparse.parse(withoutShebang(text), {
        luaVersion: '5.2',
        encodingMode: 'x-user-defined',
        comments: true,
        locations: true,
        ranges: true,
      }) as LuaChunk;
      // luaparse's chunk spans its statements; ESLint counts lines and columns from the root's start.
      return { ok: true, ast: Object.assign(chunk, { lockScript: true, range: [0, text.length], loc: wholeFile(text) }) };
    } catch (error) {
      const { message, line, column } = error as { message: string; line?: number; column?: number };
      // luaparse writes the position into the message as well: `[3:4] unexpected symbol near 'x'`.
      return { ok: false, errors: [{ message: message.replace(/^\[\d+:\d+\]\s*/u, ''), line: line ?? 1, column: (column ?? 0) + 1 }] };
    }
  },

  createSourceCode(file: LuaFile, parseResult: { ast: LuaChunk }): LuaSourceCode {
    const text = typeof file.body === 'string' ? file.body : new TextDecoder().decode(file.body);
    return new LuaSourceCode({ text, ast: parseResult.ast });
  },
};

/**
 * A Redis Function library starts with `#!lua name=lib`: blanked (same length, so offsets hold) for
 * luaparse, which does not read a first-line shebang.
 */
function withoutShebang(text: string): string {
  if (!text.startsWith('#!')) return text;
  const end = text.indexOf('\n');
  const lineEnd = end === -1 ? text.length : end;
  return ' '.repeat(lineEnd) + text.slice(lineEnd);
}

/** The chunk of a file that is not a Redis script: nothing to visit, nothing to report. */
function emptyChunk(text: string): LuaChunk {
  return { type: 'Chunk', body: [], comments: [], range: [0, text.length], loc: wholeFile(text), lockScript: false } as unknown as LuaChunk;
}

function wholeFile(text: string): LuaChunk['loc'] {
  const lines = text.split(/\r\n|[\r\n]/u);
  return { start: { line: 1, column: 0 }, end: { line: lines.length, column: lines.at(-1)?.length ?? 0 } };
}

/** Whether a rule runs on a Lua file: the only SourceCode of ours that is not ESLint's JavaScript one. */
export function isLuaSourceCode(sourceCode: unknown): sourceCode is LuaSourceCode {
  return sourceCode instanceof LuaSourceCode;
}
