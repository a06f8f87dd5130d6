// Whether a text can take a lock by itself: the call shapes every acquisition the model records is
// written with. The lock map (editor/) asks it of files on disk before parsing one: most files that
// pass the file screen (file-screen.ts: a Redis client's source, an ORM's query builder) name Redis or
// lock words everywhere but take no lock, and parsing them is what indexing a workspace costs.
//
// Each shape is the text-only widening of one way the model makes an acquisition, read from what the
// model reads (the same-file text of SET options, SQL, Lua scripts and table names; staticString and
// constInitializer follow nothing out of the file):
// - `SET … NX` (redis/commands.ts readSetOptions): `NX` quoted or as an object key inside the
//   arguments of a `set`/`SET` call or of a generic command (`call`, `sendCommand`, `exec`, a Lua
//   script's `redis.call`), or a quoted `NX` a variable is initialised with (followed by staticString);
// - `SETNX` (REDIS_METHODS): the method called, or the command named as such a call's string;
// - a script whose Lua takes the lock: inline, its `SET … NX` is the shape above; read from a `.lua`
//   file or imported from another module (redis/script-resolver.ts), the file reads it with
//   `readFileSync` or imports something, and runs a script (`eval`…, `defineCommand`, `defineScript`);
// - a lock library's acquisition (LOCK_LIBRARIES): one of its acquiring methods called; the receiver
//   must also be known as the library's, which the caller checks (callsLockLibraryMethod);
// - a PostgreSQL advisory lock: its function named (`pg_try_advisory_xact_lock`, not `…_unlock`);
// - a lock-table row (sql/sql-model.ts isLockTable): an insert (`INSERT INTO`, knex's `insert`/`upsert`) where
//   a table named for locks follows `INTO` or is a call's quoted first argument (`knex('job_locks')`),
//   or where an owner column and an expiry column are both named.
// Wherever the text cannot be read with certainty (a comment or string in the way, a call through
// brackets or type arguments), the answer is yes. Imported helpers and lock-library clients made in
// another module are the caller's part (file-screen.ts), read through the project's modules.

import {
  CHAIN_METHODS,
  CLIENT_PACKAGES,
  GENERIC_COMMAND_METHODS,
  LOCK_LIBRARIES,
  REDIS_METHODS,
  isLockLibrary,
} from '../tables/redis-clients.js';
import { EXPIRY_COLUMNS, LOCK_TABLE_WORDS, OWNER_COLUMNS } from '../tables/sql-clients.js';
import { identifierEnd, identifierStart, isIdentifierCode, skipSpaces, skipSpacesBackward } from '../../util/text.js';

/** A call in the text may take a lock by itself (a lock-library call aside: callsLockLibraryMethod). */
export function acquiresInText(text: string): boolean {
  return setsNxInText(text) || setsNxByCommand(text) || runsScriptFromFile(text) || ADVISORY_LOCK.test(text) || insertsLockRow(text);
}

/** `x.acquire(`, `redlock.using(`, `mutex.tryAcquire(`: an acquiring method of a lock library called on anything. */
export function callsLockLibraryMethod(text: string): boolean {
  return anyMethodCalled(text, LIBRARY_ACQUIRE_METHODS, LIBRARY_METHOD_WORDS);
}

/** A lock library's package named in quotes (`'redlock'`): where a receiver of the library can come from. */
export function namesLockLibrary(text: string): boolean {
  for (const name of LIBRARY_PACKAGES) {
    for (let index = text.indexOf(name); index !== -1; index = text.indexOf(name, index + name.length)) {
      const before = text.charCodeAt(index - 1);
      if (isQuote(before) && text.charCodeAt(index + name.length) === before) return true;
    }
  }
  return false;
}

const LIBRARY_ACQUIRE_METHODS: ReadonlySet<string> = new Set(
  Object.values(LOCK_LIBRARIES).flatMap((entry) =>
    Object.keys(entry.methods).filter((method) => entry.methods[method]!.acts === 'acquire'),
  ),
);
const LIBRARY_METHOD_WORDS = new RegExp([...LIBRARY_ACQUIRE_METHODS].join('|'), 'g');
const LIBRARY_PACKAGES = Object.keys(CLIENT_PACKAGES).filter((name) => isLockLibrary(CLIENT_PACKAGES[name]!.family));

const SETNX_METHODS: ReadonlySet<string> = new Set(Object.keys(REDIS_METHODS).filter((method) => REDIS_METHODS[method] === 'SETNX'));
/** Calls whose arguments can hold a SET's options: SET itself, a generic command, a Lua script's `redis.call`, a queued chain. */
const SET_CARRYING_CALLS: ReadonlySet<string> = new Set([
  ...Object.keys(REDIS_METHODS).filter((method) => REDIS_METHODS[method] === 'SET'),
  ...GENERIC_COMMAND_METHODS,
  ...CHAIN_METHODS,
  'pcall',
]);
const COMMAND_CALLS: ReadonlySet<string> = new Set([...GENERIC_COMMAND_METHODS, ...CHAIN_METHODS, 'pcall']);

const NX_WORD = /nx/gi;
const SETNX_WORD = /setnx/gi;
// No `u` flag on the whole-text scans (redis-gate.ts says why).
const SCRIPT_RUN = /eval|definecommand|definescript/i;
const ADVISORY_LOCK = /pg_(?:try_)?advisory_(?:xact_)?lock/i;
// The script a run call is given by name (`eval(ACQUIRE,`, `evalSha(RELEASE_SHA,`).
const SCRIPT_ARGUMENT = /\beval(?:sha|Sha|_ro|Ro)?\s*\(\s*([A-Za-z_$][\w$]*)\s*[,)]/g;
// An INSERT statement (PostgreSQL's needs its INTO), or knex's `insert`/`upsert` called.
const INSERT_STATEMENT = /\binsert\s+into\b/i;
const KNEX_INSERT_METHODS: ReadonlySet<string> = new Set(['insert', 'upsert']);
const KNEX_INSERT_WORDS = /insert|upsert/g;
const LOCK_TABLE_WORD = `(?<![a-z0-9])(?:${[...LOCK_TABLE_WORDS].join('|')})(?![a-z0-9_])`;
// The table an INSERT names, however quoted or qualified (`"app"."job_locks"`, `${schema}.locks`).
const INTO_LOCK_TABLE = new RegExp(`\\binto\\s+[^\\s(]{0,120}?${LOCK_TABLE_WORD}`, 'i');
// knex's table, the quoted first argument of the chain's first call (`knex('job_locks')`, `trx('public.locks')`).
const QUOTED_LOCK_TABLE = new RegExp(`\\(\\s*['"\`][^'"\`\\n]{0,120}?${LOCK_TABLE_WORD}['"\`]`, 'i');
const OWNER_COLUMN = new RegExp(`(?<![\\w$])(?:${OWNER_COLUMNS.join('|')})(?![\\w$])`, 'gi');
const EXPIRY_COLUMN = new RegExp(`(?<![\\w$])(?:${EXPIRY_COLUMNS.join('|')})(?![\\w$])`, 'gi');
// Where a column can be named in SQL text: a string the SQL model reads as statements, one that
// starts like one (sql-syntax looksLikeSql: a keyword after spaces and comments, or an interpolation,
// `${cte} UPDATE`). A keyword counts before a space or `;`: in a comment's prose it is quoted alone
// (`` `begin()` ``), and a CTE's `with` only before `name AS`.
const SQL_STATEMENT =
  /['"`](?:\s|\/\*[\s\S]*?\*\/|--[^\n]*\n|\$\{[\s\S]{0,200}?\})*(?:(?:select|insert|update|delete|begin|start\s+transaction|commit|rollback|end|savepoint|release|set|values)[\s;]|with\s+(?:recursive\s+)?["\w]+\s+as\b)/i;

/**
 * An insert into a lock table: one named for locks, or one whose columns (read from every statement
 * on it) hold an owner and an expiry. Without SQL text in the file, the columns are knex's: an
 * object's keys (`{ owner, expires_at: at }`) or quoted names (`where('owner', id)`), not a
 * variable or a member (`prop.owner`, `const expiration = …`).
 */
function insertsLockRow(text: string): boolean {
  const sql = SQL_STATEMENT.test(text);
  if (!(sql && INSERT_STATEMENT.test(text)) && !anyMethodCalled(text, KNEX_INSERT_METHODS, KNEX_INSERT_WORDS)) return false;
  if (INTO_LOCK_TABLE.test(text) || QUOTED_LOCK_TABLE.test(text)) return true;
  return namesColumn(text, OWNER_COLUMN, !sql) && namesColumn(text, EXPIRY_COLUMN, !sql);
}

/** A match of `pattern` (global); with `asKey`, only one written as a key or a quoted name. */
function namesColumn(text: string, pattern: RegExp, asKey: boolean): boolean {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (!asKey) return true;
    const start = match.index;
    const end = start + match[0].length;
    if (isQuote(text.charCodeAt(end))) return true;
    const before = text.charCodeAt(skipSpacesBackward(text, start));
    const after = skipSpaces(text, end);
    const next = text.charCodeAt(after);
    if (next === COLON && text.charCodeAt(after + 1) !== COLON) return true;
    if ((before === OPEN_BRACE || before === COMMA) && (next === COMMA || next === CLOSE_BRACE)) return true;
  }
  return false;
}

/**
 * A way to run a script whose Lua is not in this text: a `.lua` file read (script-resolver.ts reads
 * them with `readFileSync`), or a constant another module exports (`import { ACQUIRE } from './scripts'`).
 */
function runsScriptFromFile(text: string): boolean {
  return SCRIPT_RUN.test(text) && (text.includes('readFileSync') || runsImportedScript(text));
}

/** `client.eval(ACQUIRE, …)` whose first argument is a name an `import` or a destructuring `require` binds. */
function runsImportedScript(text: string): boolean {
  const pattern = SCRIPT_ARGUMENT;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const name = match[1]!.replaceAll('$', '\\$');
    const binding = new RegExp(
      `(?:import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}|\\{[^}]*\\b${name}\\b[^}]*\\}\\s*=\\s*require\\s*\\(|import\\s+${name}\\s+from)`,
      'u',
    );
    if (binding.test(text)) return true;
  }
  return false;
}

/** `NX` where a SET's options can hold it: see the header. */
function setsNxInText(text: string): boolean {
  const pattern = NX_WORD;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = match.index;
    const end = start + 2;
    if (isIdentifierCode(text.charCodeAt(start - 1)) || isIdentifierCode(text.charCodeAt(end))) continue;
    if (isQuoted(text, start, end)) {
      if (initialises(text, start - 1)) return true;
      if (isPassedOn(text, start - 1) && enclosingCallMayBe(text, start - 1, SET_CARRYING_CALLS)) return true;
    } else if (isObjectKey(text, start, end) && enclosingCallMayBe(text, start, SET_CARRYING_CALLS)) return true;
  }
  return false;
}

/** `SETNX`: the method called, the command named in a generic call (`call('SETNX', k, v)`), or a constant holding its name. */
function setsNxByCommand(text: string): boolean {
  if (anyMethodCalled(text, SETNX_METHODS, SETNX_WORD)) return true;
  const pattern = SETNX_WORD;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = match.index;
    if (!isQuoted(text, start, start + match[0].length)) continue;
    if (initialises(text, start - 1)) return true;
    if (isPassedOn(text, start - 1) && enclosingCallMayBe(text, start - 1, COMMAND_CALLS)) return true;
  }
  return false;
}

/** The word at [start, end) is a whole string literal (`'NX'`). */
function isQuoted(text: string, start: number, end: number): boolean {
  const quote = text.charCodeAt(start - 1);
  return isQuote(quote) && text.charCodeAt(end) === quote;
}

/** The string literal opening at `quote` is an argument, an element or a property value (not compared, returned, or tested with `in`). */
function isPassedOn(text: string, quote: number): boolean {
  const code = text.charCodeAt(skipSpacesBackward(text, quote));
  return code === OPEN_PAREN || code === COMMA || code === OPEN_BRACKET || code === OPEN_BRACE || code === COLON || code === QUESTION;
}

/** `NX:` or `[NX]:` as an object key (a quoted key, `'NX':`, is a string literal passed on). */
function isObjectKey(text: string, start: number, end: number): boolean {
  const before = text.charCodeAt(skipSpacesBackward(text, start));
  let after = skipSpaces(text, end);
  if (before === OPEN_BRACKET && text.charCodeAt(after) === CLOSE_BRACKET) after = skipSpaces(text, after + 1);
  else if (before !== OPEN_BRACE && before !== COMMA) return false;
  return text.charCodeAt(after) === COLON;
}

/** The string literal opening at `quote` initialises a variable (`const MODE = 'NX'`), which staticString follows. */
function initialises(text: string, quote: number): boolean {
  const before = skipSpacesBackward(text, quote);
  if (text.charCodeAt(before) !== EQUALS) return false;
  const operator = text.charCodeAt(before - 1);
  return operator !== EQUALS && operator !== EXCLAMATION && operator !== LESS && operator !== GREATER;
}

// How far back the call around an argument is looked for; farther, the answer is yes.
const MAX_ARGUMENTS_LENGTH = 4000;
// Keywords before a parenthesis that opens no call: a condition's (`if ("nx" in options)`) ends the
// search; a grouping's (`return (…)`) is looked through.
const CONDITION_KEYWORDS: ReadonlySet<string> = new Set(['if', 'while', 'for', 'switch', 'catch', 'with', 'function']);
const GROUPING_KEYWORDS: ReadonlySet<string> = new Set([
  'return',
  'await',
  'yield',
  'typeof',
  'void',
  'in',
  'of',
  'case',
  'do',
  'else',
  'delete',
  'throw',
  'new',
]);

/**
 * Whether the call whose arguments hold `index` may be one of `calls`, read backwards through
 * array literals, object literals and groupings to the first `(` that opens a call. False only when
 * that call is read with certainty and is another (`command.push("nx")`), or when no call holds it
 * (a condition, a block, a variable's object); true when a quote, a slash (a comment, a regular
 * expression) or a call through brackets or type arguments is in the way.
 */
function enclosingCallMayBe(text: string, index: number, calls: ReadonlySet<string>): boolean {
  let depth = 0;
  const stop = Math.max(0, index - MAX_ARGUMENTS_LENGTH);
  for (let cursor = index - 1; cursor >= stop; cursor--) {
    const code = text.charCodeAt(cursor);
    if (isQuote(code) || code === SLASH) return true;
    if (code === CLOSE_PAREN || code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth++;
      continue;
    }
    if (code !== OPEN_PAREN && code !== OPEN_BRACKET && code !== OPEN_BRACE) continue;
    if (depth > 0) {
      depth--;
      continue;
    }
    if (code === OPEN_BRACKET) continue;
    const before = skipSpacesBackward(text, cursor);
    const previous = text.charCodeAt(before);
    if (code === OPEN_BRACE) {
      // An object literal passed on (`set(k, v, { NX: true })`); a variable's object or a block holds no argument.
      if (previous === OPEN_PAREN || previous === COMMA || previous === OPEN_BRACKET || previous === COLON || previous === QUESTION)
        continue;
      return false;
    }
    if (!isIdentifierCode(previous)) {
      // `fn()(…)`, `obj['set'](…)`, `set<T>(…)`, `set?.(…)`: a call not read here.
      if (previous === CLOSE_PAREN || previous === CLOSE_BRACKET || previous === GREATER || previous === DOT) return true;
      continue;
    }
    const name = text.slice(identifierStart(text, before), before + 1);
    if (CONDITION_KEYWORDS.has(name)) return false;
    if (GROUPING_KEYWORDS.has(name)) continue;
    return calls.has(name);
  }
  return true;
}

/**
 * A method of `names` called: the name after `.` (or `?.`, or in `['name']`) and before `(` (or type
 * arguments). A block comment on either side counts as a call. `pattern` (global) finds the names.
 */
function anyMethodCalled(text: string, names: ReadonlySet<string>, pattern: RegExp): boolean {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = match.index;
    const end = identifierEnd(text, start + match[0].length);
    if (identifierStart(text, start) !== start || !names.has(text.slice(start, end))) continue;
    let before = skipSpacesBackward(text, start);
    let after = skipSpaces(text, end);
    if (isQuote(text.charCodeAt(before)) && text.charCodeAt(before) === text.charCodeAt(end)) {
      // obj['acquire'](…)
      before = skipSpacesBackward(text, before);
      if (text.charCodeAt(before) !== OPEN_BRACKET) continue;
      after = skipSpaces(text, end + 1);
      if (text.charCodeAt(after) !== CLOSE_BRACKET) continue;
      after = skipSpaces(text, after + 1);
    } else if (text.charCodeAt(before) !== DOT && !endsComment(text, before)) continue;
    const next = text.charCodeAt(after);
    if (next === OPEN_PAREN || next === LESS || startsComment(text, after)) return true;
  }
  return false;
}

/** A block comment ends at `index` (between a receiver and its method). */
function endsComment(text: string, index: number): boolean {
  return text.charCodeAt(index) === SLASH && text.charCodeAt(index - 1) === STAR;
}

/** A comment starts at `index`. */
function startsComment(text: string, index: number): boolean {
  const next = text.charCodeAt(index + 1);
  return text.charCodeAt(index) === SLASH && (next === SLASH || next === STAR);
}

function isQuote(code: number): boolean {
  return code === QUOTE || code === DOUBLE_QUOTE || code === BACKTICK;
}

const QUOTE = 39;
const DOUBLE_QUOTE = 34;
const BACKTICK = 96;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const STAR = 42;
const COMMA = 44;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
const LESS = 60;
const EQUALS = 61;
const GREATER = 62;
const QUESTION = 63;
const EXCLAMATION = 33;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
