// A cheap look at a file that tells whether it can hold a Redis lock at all. Most files in a project
// never touch Redis; for them the lock model is empty without walking the AST.

import type { TSESLint } from '@typescript-eslint/utils';
import { CLIENT_LIKE_NAME, CLIENT_PACKAGES, GENERIC_COMMAND_METHODS, GENERIC_METHOD_NAMES, REDIS_METHODS } from './client-table.js';

const CLIENT_PACKAGE_NAMES: ReadonlySet<string> = new Set(Object.keys(CLIENT_PACKAGES));

/** Methods whose call alone makes a file worth analysing: Redis commands no ordinary object has. */
const REDIS_SPECIFIC_METHODS: ReadonlySet<string> = new Set([
  ...Object.keys(REDIS_METHODS), ...GENERIC_COMMAND_METHODS,
  'multi', 'MULTI', 'pipeline', 'defineCommand', 'defineScript', 'scriptLoad',
].filter((method) => !GENERIC_METHOD_NAMES.has(method)));

// Every signal the token check accepts contains one of these (package names, Redis-specific
// methods, client-like receiver names), so a file without any is skipped after one scan of its
// text, much cheaper than reading its tokens. Plain substrings only: word boundaries and
// look-arounds make the scan several times slower. redis-gate.test.ts checks it admits every method.
const SCREEN_WORDS = /redis|redlock|valkey|upstash|cluster|setnx|expire|eval|sendcommand|send_command|callbuffer|multi|pipeline|definecommand|definescript|scriptload|unlink|setex|getdel|getset|getex|incrby|pttl|persist|fcall|client|conn|kv/iu;
const UPPER_CASE_COMMAND = /\b(?:SET|GET|DEL|EXISTS|INCR|TTL)\b/u;

/**
 * False only when nothing in the file can start a Redis lock: no Redis package imported, no
 * Redis-specific method called, no generic command on a client-like name, no lock helper called.
 * Reads the text around each screen match (an identifier followed by `(`, a client-like name
 * followed by `.method(`, a quoted package name) rather than the whole token list. Matches inside
 * comments or strings only make the answer more generous, never less.
 */
export function mayUseRedis(sourceCode: Readonly<TSESLint.SourceCode>, helperNames: ReadonlySet<string>): boolean {
  const text = sourceCode.text;
  for (const name of helperNames) {
    if (text.includes(name)) return true;
  }
  const screened = SCREEN_WORDS.test(text);
  if (!screened && !UPPER_CASE_COMMAND.test(text)) return false;
  if (screened && PACKAGE_STRING.test(text)) return true;
  for (const pattern of [SCREEN_WORDS_ALL, UPPER_CASE_COMMAND_ALL]) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const identifier = identifierAround(text, match.index, match.index + match[0].length);
      if (identifier === undefined) continue;
      if (REDIS_SPECIFIC_METHODS.has(identifier.name) && nextSignificant(text, identifier.end) === '(') return true;
      if (CLIENT_LIKE_NAME.test(identifier.name) && callsGenericMethod(text, identifier.end)) return true;
      pattern.lastIndex = Math.max(pattern.lastIndex, identifier.end);
    }
  }
  return false;
}

const SCREEN_WORDS_ALL = new RegExp(SCREEN_WORDS.source, 'giu');
const UPPER_CASE_COMMAND_ALL = new RegExp(UPPER_CASE_COMMAND.source, 'gu');
const PACKAGE_STRING = new RegExp(`['"\`](?:${[...CLIENT_PACKAGE_NAMES].map((name) => name.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&')).join('|')})['"\`]`, 'u');
const IDENTIFIER_CHAR = /[\w$]/u;

function identifierAround(text: string, from: number, to: number): { name: string; end: number } | undefined {
  let start = from;
  while (start > 0 && IDENTIFIER_CHAR.test(text[start - 1]!)) start--;
  let end = to;
  while (end < text.length && IDENTIFIER_CHAR.test(text[end]!)) end++;
  return end > start ? { name: text.slice(start, end), end } : undefined;
}

/** The first character after `index` that is not white space. */
function nextSignificant(text: string, index: number): string | undefined {
  let position = index;
  while (position < text.length && /\s/u.test(text[position]!)) position++;
  return text[position];
}

/** `.get(` / `?.set (` right after a client-like name. */
function callsGenericMethod(text: string, index: number): boolean {
  const rest = /^\s*\??\.\s*([\w$]+)\s*\(/u.exec(text.slice(index, index + 64));
  return rest !== null && GENERIC_METHOD_NAMES.has(rest[1]!);
}
