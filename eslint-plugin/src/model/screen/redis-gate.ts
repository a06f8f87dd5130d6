// A cheap look at a file that tells whether it can hold a Redis lock at all. Most files in a project
// never touch Redis; for them the lock model is empty without walking the AST. The same scan of the
// text notes whether any lock word appears (LOCK_WORDS), which the file screen (file-screen.ts) asks of
// every file without Redis: one pass over the text instead of two.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import {
  CLIENT_LIKE_NAME,
  CLIENT_PACKAGES,
  GENERIC_COMMAND_METHODS,
  GENERIC_METHOD_NAMES,
  REDIS_METHODS,
  SCRIPT_DEFINING_METHODS,
} from '../tables/redis-clients.js';
import { LOCK_ACTS, LOCK_NOUNS, LOCK_TABLE_WORDS } from '../tables/lock-words.js';
import {
  identifierEnd,
  identifierStart,
  isWholeWord,
  nextSignificantCode,
  previousSignificantCode,
  skipSpaces,
  skipSpacesBackward,
  wordAlternation,
} from '../../util/text.js';

const CLIENT_PACKAGE_NAMES: ReadonlySet<string> = new Set(Object.keys(CLIENT_PACKAGES));

/** Methods whose call alone makes a file worth analysing: Redis commands no ordinary object has. */
const REDIS_SPECIFIC_METHODS: ReadonlySet<string> = new Set(
  [
    ...Object.keys(REDIS_METHODS),
    ...GENERIC_COMMAND_METHODS,
    'multi',
    'MULTI',
    'pipeline',
    ...Object.keys(SCRIPT_DEFINING_METHODS),
    'scriptLoad',
  ].filter((method) => !GENERIC_METHOD_NAMES.has(method)),
);

// Every signal the token check accepts contains one of these (package names, Redis-specific
// methods, client-like receiver names), so a file without any is skipped after one scan of its
// text, much cheaper than reading its tokens. Plain substrings only: word boundaries and
// look-arounds make the scan several times slower. redis-gate.test.ts checks it admits every method.
// No `u` flag: case-insensitive matching under `u` folds Unicode cases and scans a third slower.
// `kv`, the one two-letter word, is scanned for apart: in the same alternation it keeps the regex
// engine from skipping ahead by four characters, which costs the scan of every file a tenth.
const SCREEN_WORD_LIST = [
  'redis',
  'redlock',
  'valkey',
  'upstash',
  'cluster',
  'setnx',
  'expire',
  'eval',
  'sendcommand',
  'send_command',
  'callbuffer',
  'multi',
  'pipeline',
  'definecommand',
  'definescript',
  'scriptload',
  'unlink',
  'setex',
  'getdel',
  'getset',
  'getex',
  'incrby',
  'pttl',
  'persist',
  'fcall',
  'delex',
  'delifeq',
  'client',
  'conn',
];
const SCREEN_WORDS = new RegExp(wordAlternation(SCREEN_WORD_LIST), 'gi');

// Every lock a file without Redis can hold is named in its text: an advisory-lock function
// (`pg_advisory_lock`), a lock table (named for locks, `job_locks`, `shedlock`, `leases`, or holding
// an expiry column, `expires_at`, `locked_until`), or a lock helper it calls (`withLock`,
// `acquireMutex`, `leader.elect`, `claimJob`: every word imported-helpers.ts's text screen admits).
// A file that sends SQL but names none of these (an ORM's query builder, a migration, a repository)
// holds nothing any rule reports. screen.test.ts holds every lock table word and expiry column to it.
const LOCK_WORD_LIST = [...LOCK_NOUNS, ...LOCK_ACTS, ...LOCK_TABLE_WORDS];
export const LOCK_WORDS = new RegExp(wordAlternation(LOCK_WORD_LIST), 'i');
// The Redis words and the lock words in one alternation: scanning with it until the first lock word
// costs about what the Redis words alone cost, and saves a second pass over the text.
const SCREEN_AND_LOCK_WORDS = new RegExp(wordAlternation([...SCREEN_WORD_LIST, ...LOCK_WORD_LIST]), 'gi');
// `NX`, the option that makes a `SET` a lock (`set(key, token, 'PX', ttl, 'NX')`, `{ NX: true }`):
// with it a `set` on any receiver counts, so a client imported under a neutral name (`store`, `db`)
// is not screened out. Short, so scanned for beside `kv`.
const SCREEN_SHORT_WORDS = /kv|nx/gi;
// Commands spelled in capitals (`'SET'`, `client.call('DEL', …)`), as whole words. One case-sensitive
// scan, its word boundaries checked by hand: `\b` in the pattern, or a substring search per command
// first, each cost more than this scan.
const UPPER_CASE_COMMANDS = /SET|GET|DEL|EXISTS|INCR|TTL/g;

/**
 * False only when nothing in the file can start a Redis lock: no Redis package imported, no
 * Redis-specific method called, no generic command on a client-like name, no lock helper called.
 * Reads the text around each screen match (an identifier followed by `(`, a client-like name
 * followed by `.method(`, a quoted package name) rather than the whole token list. Long comments
 * are not read (codeStretches); matches inside strings or short comments only make the answer more
 * generous, never less.
 */
export function mayUseRedis(sourceCode: Readonly<TSESLint.SourceCode>, helperNames: ReadonlySet<string>): boolean {
  const text = sourceCode.text;
  for (const name of helperNames) {
    if (text.includes(name)) return true;
  }
  return scanOf(sourceCode).redis;
}

/**
 * Whether a lock word (LOCK_WORDS) appears in the file's code; asked of files without a sign of
 * Redis, whose scan went through all of it. For a file with Redis the scan may have stopped before
 * the first lock word: then the answer comes from a scan of its own.
 */
export function mayNameLock(sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const scan = scanOf(sourceCode);
  return scan.redis ? LOCK_WORDS.test(sourceCode.text) : scan.lockWord;
}

/** The word scan alone, for a text not parsed (yet): another module the model may read. */
export function textMayUseRedis(text: string): boolean {
  const whole = [0, text.length];
  return scanWords(text, whole, SCREEN_WORDS).redis || scanWords(text, whole, SCREEN_SHORT_WORDS).redis || anyCommandIsASignal(text, whole);
}

interface WordScan {
  readonly redis: boolean;
  /** Meaningful only when `redis` is false: a Redis file's scan stops at its first signal. */
  readonly lockWord: boolean;
}

// The four answers a scan can give, made once: a scan allocates nothing for its answer.
const SCANS: readonly WordScan[] = [
  { redis: false, lockWord: false },
  { redis: false, lockWord: true },
  { redis: true, lockWord: false },
  { redis: true, lockWord: true },
];

function wordScan(redis: boolean, lockWord: boolean): WordScan {
  return SCANS[(redis ? 2 : 0) + (lockWord ? 1 : 0)]!;
}

// The scan does not depend on the helper names: the screen and the Redis model both ask, once.
// Keyed by the Program, not the SourceCode: oxlint's JS plugins may hand every file of a thread one
// SourceCode. Only the last file's scan is kept: the screen asks twice in a row (mayUseRedis, then
// mayNameLock), and an entry per file costs more than the scan of a small file (file-screen.ts). The
// Redis model asks again only for a file the screen accepted; if another module was scanned in
// between (an imported helper's), the file is scanned again.
let scannedProgram: TSESTree.Program | undefined;
let lastScan: WordScan = wordScan(false, false);

function scanOf(sourceCode: Readonly<TSESLint.SourceCode>): WordScan {
  if (sourceCode.ast === scannedProgram) return lastScan;
  const text = sourceCode.text;
  const stretches = codeStretches(sourceCode);
  const words = scanWords(text, stretches, SCREEN_AND_LOCK_WORDS, SCREEN_WORDS);
  const scan =
    words.redis || scanWords(text, stretches, SCREEN_SHORT_WORDS).redis || anyCommandIsASignal(text, stretches)
      ? wordScan(true, words.lockWord)
      : words;
  scannedProgram = sourceCode.ast;
  lastScan = scan;
  return scan;
}

// Comments hold no code, and a library's source is a fifth comments: licence headers and JSDoc that
// name `client`, `connection` and `release` on every page. The scans read the text between comments
// of LONG_COMMENT characters or more, which takes a sixth to a third off a scan of the lock packages'
// code (a quarter fewer matches to read); a shorter comment is read with the code around it, as
// cutting the text at every `// x` costs more than it saves (measured: every comment 58 ms, long
// ones only 44 ms, none 66 ms).
const LONG_COMMENT = 40;

/**
 * The stretches of the file's text outside its long comments, as `[start, end, start, end, …]`. A
 * word never spans a comment's edge, so a stretch holds whole identifiers. Without comments to read
 * (a source code that keeps none), the whole text.
 */
function codeStretches(sourceCode: Readonly<TSESLint.SourceCode>): readonly number[] {
  const text = sourceCode.text;
  const stretches: number[] = [];
  let start = 0;
  let comments: readonly TSESTree.Comment[] | undefined;
  try {
    comments = sourceCode.getAllComments();
  } catch {
    comments = undefined;
  }
  for (const comment of comments ?? []) {
    const commentStart = comment.range[0];
    const commentEnd = comment.range[1];
    if (commentEnd - commentStart < LONG_COMMENT || commentStart < start) continue;
    if (commentStart > start) stretches.push(start, commentStart);
    start = commentEnd;
  }
  if (start < text.length) stretches.push(start, text.length);
  return stretches;
}

/** The stretch of `text` from `start` to `end`: the text itself when it is all of it (a slice shares the text's characters). */
function stretchOf(text: string, start: number, end: number): string {
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * Whether the identifier around any match of `pattern` (global, letters and `_` only) in the
 * stretches is a signal. `test` rather than `exec`: no match array per match, and the match's end is
 * all the scan needs, since the identifier around a match of identifier characters is found from its
 * end alone. With `afterLockWord`, the scan also notes whether a lock word (LOCK_WORDS) appears, and
 * once one has, goes on with `afterLockWord` alone: `pattern` then holds the lock words beside the
 * Redis words, and a lock word always lies inside the identifier a match is widened to. Matches are
 * found in each stretch and read in the whole text (`offset` maps one to the other).
 */
function scanWords(text: string, stretches: readonly number[], pattern: RegExp, afterLockWord?: RegExp): WordScan {
  let lockWord = false;
  let current = pattern;
  for (let index = 0; index < stretches.length; index += 2) {
    const offset = stretches[index]!;
    const stretch = stretchOf(text, offset, stretches[index + 1]!);
    current.lastIndex = 0;
    while (current.test(stretch)) {
      let end = offset + current.lastIndex;
      const start = identifierStart(text, end - 1);
      end = identifierEnd(text, end);
      if (afterLockWord && !lockWord && LOCK_WORDS.test(text.slice(start, end))) {
        lockWord = true;
        current = afterLockWord;
      }
      current.lastIndex = end - offset;
      if (isSignal(text, start, end)) return wordScan(true, lockWord);
    }
  }
  return wordScan(false, lockWord);
}

/** The same for UPPER_CASE_COMMANDS, counting only matches that `\b…\b` would bound (no letter, digit or `_` on either side). */
function anyCommandIsASignal(text: string, stretches: readonly number[]): boolean {
  const pattern = UPPER_CASE_COMMANDS;
  for (let index = 0; index < stretches.length; index += 2) {
    const offset = stretches[index]!;
    const stretch = stretchOf(text, offset, stretches[index + 1]!);
    pattern.lastIndex = 0;
    for (let match = pattern.exec(stretch); match; match = pattern.exec(stretch)) {
      const matchStart = offset + match.index;
      if (!isWholeWord(text, matchStart, matchStart + match[0].length)) {
        pattern.lastIndex = match.index + 1;
        continue;
      }
      const start = identifierStart(text, matchStart);
      const end = identifierEnd(text, matchStart + match[0].length);
      pattern.lastIndex = end - offset;
      // A command in capitals is Redis only as a method (`client.SET(`): `NOT EXISTS (` and
      // `UPDATE t SET (` are SQL, common in the ORM code this screen should turn away.
      if (previousSignificantCode(text, start) === DOT && isSignal(text, start, end)) return true;
    }
  }
  return false;
}

/** The identifier at [start, end) is a Redis call, a client-like receiver of one, or part of a quoted package name. */
function isSignal(text: string, start: number, end: number): boolean {
  const before = text.charCodeAt(start - 1);
  if (end - start === 2 && isSetNxOption(text, start, end, before)) return true;
  // Package names sit in quotes, after `@` or `/` when scoped (`'@upstash/redis'`).
  if (
    (before === QUOTE || before === DOUBLE_QUOTE || before === BACKTICK || before === AT || before === SLASH) &&
    packageAround(text, start) !== undefined
  ) {
    return true;
  }
  const after = nextSignificantCode(text, end);
  if (after === OPEN_PAREN) {
    const name = text.slice(start, end);
    // `getRedis()`, `createRedisClient()`: a factory named for Redis (the model follows what it returns);
    // `getClient().set(…)`: a factory named for a client whose result is used as one right away.
    return (
      REDIS_SPECIFIC_METHODS.has(name) ||
      REDIS_FACTORY_NAME.test(name) ||
      (CLIENT_FACTORY_NAME.test(name) && callsGenericMethodOnResult(text, end))
    );
  }
  if (after === DOT || after === QUESTION) return CLIENT_LIKE_NAME.test(text.slice(start, end)) && callsGenericMethod(text, end);
  return false;
}

/**
 * `'NX'` as a string of its own, or `NX:` as an object key (node-redis's and Upstash's options),
 * among the arguments of a `.set(` call. A Lua script's `redis.call("SET", k, v, "NX")` is no such
 * call: scripts come through their own signals (`redis.call(`, the command that runs them).
 */
function isSetNxOption(text: string, start: number, end: number, before: number): boolean {
  if ((text.charCodeAt(start) | 32) !== LOWER_N || (text.charCodeAt(start + 1) | 32) !== LOWER_X) return false;
  if (before === QUOTE || before === DOUBLE_QUOTE || before === BACKTICK) {
    if (text.charCodeAt(end) !== before) return false;
  } else {
    const previous = previousSignificantCode(text, start);
    if ((previous !== OPEN_BRACE && previous !== COMMA) || nextSignificantCode(text, end) !== COLON) return false;
  }
  return opensSetCall(text, openingParenthesisBefore(text, start));
}

// How far back the `(` of the call an option sits in is looked for: a SET's arguments are short.
const MAX_ARGUMENTS_LENGTH = 300;

/** The unmatched `(` before `index`, within MAX_ARGUMENTS_LENGTH (brackets and braces between are skipped); -1 when none. */
function openingParenthesisBefore(text: string, index: number): number {
  let depth = 0;
  for (let cursor = index - 1; cursor >= 0 && index - cursor <= MAX_ARGUMENTS_LENGTH; cursor--) {
    const code = text.charCodeAt(cursor);
    if (code === CLOSE_PAREN || code === CLOSE_BRACE || code === CLOSE_BRACKET) depth++;
    else if (code === OPEN_PAREN || code === OPEN_BRACE || code === OPEN_BRACKET) {
      // An option inside `{ NX: true }`: the call is the one around the object.
      if (depth === 0) return code === OPEN_PAREN ? cursor : openingParenthesisBefore(text, cursor);
      depth--;
    }
  }
  return -1;
}

/** `.set(` (any case, spaces allowed) opens at `paren`. */
function opensSetCall(text: string, paren: number): boolean {
  if (paren < 0) return false;
  const end = skipSpacesBackward(text, paren);
  if (end < 3) return false;
  const start = identifierStart(text, end);
  return end + 1 - start === 3 && text.slice(start, end + 1).toLowerCase() === 'set' && previousSignificantCode(text, start) === DOT;
}

/** The quoted string around `index`, when it is one of the client packages. */
function packageAround(text: string, index: number): string | undefined {
  let open = index - 1;
  while (open >= 0 && index - open <= MAX_PACKAGE_LENGTH + 1) {
    const code = text.charCodeAt(open);
    if (code === QUOTE || code === DOUBLE_QUOTE || code === BACKTICK) {
      const close = text.indexOf(text[open]!, index);
      if (close === -1 || close - open - 1 > MAX_PACKAGE_LENGTH) return undefined;
      const name = text.slice(open + 1, close);
      return CLIENT_PACKAGE_NAMES.has(name) ? name : undefined;
    }
    open--;
  }
  return undefined;
}

const QUOTE = 39;
const DOUBLE_QUOTE = 34;
const BACKTICK = 96;
const AT = 64;
const SLASH = 47;
const OPEN_PAREN = 40;
const DOT = 46;
const QUESTION = 63;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const CLOSE_PAREN = 41;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;
const LOWER_N = 110;
const LOWER_X = 120;
const MAX_PACKAGE_LENGTH = Math.max(...[...CLIENT_PACKAGE_NAMES].map((name) => name.length));

const REDIS_FACTORY_NAME = /^(?:get|create|make|new|init|use|connect|build)\w*(?:redis|valkey|upstash)/iu;
const CLIENT_FACTORY_NAME = /^(?:get|create|make|use|connect)\w*(?:client|conn(?:ection)?)$/iu;

/** `().set(` / `()).del(` right after a factory's name. */
function callsGenericMethodOnResult(text: string, index: number): boolean {
  const rest = /^\s*\(\s*\)\s*\)?\s*\??\.\s*([\w$]+)\s*\(/u.exec(text.slice(index, index + 64));
  return rest !== null && GENERIC_METHOD_NAMES.has(rest[1]!);
}

/**
 * `.get(` / `?.set (` right after a client-like name. Read by hand rather than with a pattern on a
 * slice: ORM code names `connection.` and `client.` thousands of times, almost never with a command.
 */
function callsGenericMethod(text: string, index: number): boolean {
  let position = skipSpaces(text, index);
  if (text.charCodeAt(position) === QUESTION) position++;
  if (text.charCodeAt(position) !== DOT) return false;
  const start = skipSpaces(text, position + 1);
  const end = identifierEnd(text, start);
  return end > start && text.charCodeAt(skipSpaces(text, end)) === OPEN_PAREN && GENERIC_METHOD_NAMES.has(text.slice(start, end));
}
