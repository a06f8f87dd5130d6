// A cheap look at a file that tells whether it can hold a Redis lock at all. Most files in a project
// never touch Redis; for them the lock model is empty without walking the AST.

import { AST_TOKEN_TYPES, type TSESLint } from '@typescript-eslint/utils';
import { CLIENT_LIKE_NAME, CLIENT_PACKAGES, GENERIC_COMMAND_METHODS, GENERIC_METHOD_NAMES, REDIS_METHODS } from './client-table.js';

const CLIENT_PACKAGE_NAMES: ReadonlySet<string> = new Set(Object.keys(CLIENT_PACKAGES));
const MAX_PACKAGE_TOKEN_LENGTH = Math.max(...[...CLIENT_PACKAGE_NAMES].map((name) => name.length)) + 2;

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
 */
export function mayUseRedis(sourceCode: Readonly<TSESLint.SourceCode>, helperNames: ReadonlySet<string>): boolean {
  const text = sourceCode.text;
  const helperMentioned = [...helperNames].some((name) => text.includes(name));
  if (!helperMentioned && !SCREEN_WORDS.test(text) && !UPPER_CASE_COMMAND.test(text)) return false;
  const tokens = sourceCode.ast.tokens;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const type = token.type;
    if (type === AST_TOKEN_TYPES.Identifier) {
      const name = token.value;
      const specific = REDIS_SPECIFIC_METHODS.has(name) || helperNames.has(name);
      if (!specific && !GENERIC_METHOD_NAMES.has(name)) continue;
      if (tokens[index + 1]?.value !== '(') continue;
      if (specific) return true;
      const receiver = tokens[index - 2];
      if (tokens[index - 1]?.value === '.' && receiver?.type === AST_TOKEN_TYPES.Identifier && CLIENT_LIKE_NAME.test(receiver.value)) return true;
    } else if (type === AST_TOKEN_TYPES.String && token.value.length <= MAX_PACKAGE_TOKEN_LENGTH && CLIENT_PACKAGE_NAMES.has(token.value.slice(1, -1))) {
      return true;
    }
  }
  return false;
}
