// Whether a file can hold anything any rule reports: a sign of Redis (redis-gate.ts) or of SQL
// (sql/prefilter.ts). Most files of a project hold neither, and for them no rule needs to run.

import type { TSESTree } from '@typescript-eslint/utils';
import { collectImports } from './imports.js';
import { callsImportedHelper } from './project/imported-helpers.js';
import { callsLockNamedMethod, LOCK_TEXT } from './project/lock-names.js';
import { LOCK_WORDS, mayNameLock, mayUseRedis, textMayUseRedis } from './redis-gate.js';
import { readSharedSettings, type SharedSettings } from './settings.js';
import { mayContainSql, mayHoldSqlLock } from './sql/prefilter.js';
import { getTypeOracle } from './type-oracle.js';
import type { LocksmithRuleContext } from '../util/rule-context.js';
import { identifierEnd, identifierStart, isIdentifierCode, nextSignificantCode, skipSpaces, skipSpacesBackward } from '../util/text.js';

// The answer for the file being linted: every rule and the lock map ask it while ESLint lints that
// one file, so the last Program and its answer are all there is to remember (one tree is held until
// the next file). A WeakMap entry per file, here and for the word scan (redis-gate.ts), was a quarter
// of Locksmith's rule time on a small lock-free file (15.9 µs a file with them, 11.9 without); a
// Program asked about again after another is screened anew.
let screenedProgram: TSESTree.Program | undefined;
let screenedAnswer = false;

// LOCK_WORDS (redis-gate.ts): what a file without Redis must name to hold a lock; the same scan of
// the text looks for both.
export { LOCK_WORDS } from './redis-gate.js';

interface HelperScreen {
  readonly names: ReadonlySet<string>;
  /** A helper given as a `/pattern/` may be named anything: no text can rule it out. */
  readonly anyNameMatches: boolean;
}

// Settings objects are shared by every file of a configuration (settings.ts caches them), so their
// helper names are gathered once per configuration rather than once per file.
const helperScreens = new WeakMap<SharedSettings['lockWrappers'], HelperScreen>();

function helperScreenOf(lockWrappers: SharedSettings['lockWrappers']): HelperScreen {
  let screen = helperScreens.get(lockWrappers);
  if (!screen) {
    const names = [...lockWrappers.acquire, ...lockWrappers.release, ...lockWrappers.withLock];
    screen = { names: new Set(names), anyNameMatches: names.some((name) => name.startsWith('/')) };
    helperScreens.set(lockWrappers, screen);
  }
  return screen;
}

export function fileMayHoldLocks(context: LocksmithRuleContext): boolean {
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast;
  if (program === screenedProgram) return screenedAnswer;
  const settings = readSharedSettings(context);
  const helpers = helperScreenOf(settings.lockWrappers);
  const answer = helpers.anyNameMatches
    // With types any receiver may turn out to be a Redis client, whatever the text says.
    || getTypeOracle(context) !== null
    || mayUseRedis(sourceCode, helpers.names)
    || (mayNameLock(sourceCode) && (
      // A file that sends SQL holds a PostgreSQL lock only where it names one (mayHoldSqlLock); the
      // writes a Redis or helper lock protects are seen through the other branches.
      (mayContainSql(sourceCode.text, program) && mayHoldSqlLock(sourceCode.text))
      // A file whose only lock is a call to a helper another module exports (its summary says so);
      // its own text screen (LOCK_TEXT) comes first, memoised with the candidates.
      || callsImportedHelper(sourceCode, context.filename, collectImports(program), settings)));
  screenedProgram = program;
  screenedAnswer = answer;
  return answer;
}

/**
 * fileMayHoldLocks asked of a text not parsed (the editor's lock map over files on disk): false only
 * when fileMayHoldLocks is false for the file whatever its parse. Each branch is the text-only
 * widening of one of its branches: the scans read the whole text (long comments too), the SQL branch
 * drops its import-table test, and the imported-helper branch asks only whether a name that could be
 * a helper's is called or renamed. `typed`: the file is linted with type information.
 */
export function textMayHoldLocks(text: string, settings: LocksmithRuleContext['settings'], typed: boolean): boolean {
  const helpers = helperScreenOf(readSharedSettings({ settings }).lockWrappers);
  if (typed || helpers.anyNameMatches) return true;
  for (const name of helpers.names) {
    if (text.includes(name)) return true;
  }
  if (textMayUseRedis(text)) return true;
  if (!LOCK_WORDS.test(text)) return false;
  return mayHoldSqlLock(text) || mayCallImportedHelper(text);
}

const LOCK_TEXT_ALL = new RegExp(LOCK_TEXT.source, 'gu');

/**
 * Whether importedHelperCandidates (project/imported-helpers.ts) can find a candidate in the text,
 * without its import table: a class reached through a lock-named method (`.acquireLock(`); a
 * lock-named import called (`withLock(`, `locks.redis.using(`, as calledInText reads it); or a
 * lock-named export imported under another name (`acquire as take`, `{ acquire: take }`,
 * `require('…').acquire`). A comment or a non-ASCII letter next to a name admits the file.
 */
function mayCallImportedHelper(text: string): boolean {
  if (callsLockNamedMethod(text)) return true;
  const pattern = LOCK_TEXT_ALL;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = identifierStart(text, match.index);
    const end = identifierEnd(text, match.index + match[0].length);
    pattern.lastIndex = end;
    if (text.charCodeAt(start - 1) > 127 || text.charCodeAt(end) > 127 || callFollows(text, end)) return true;
    const next = nextSignificantCode(text, end);
    if (next === COLON || next === SLASH || (text.startsWith('as', skipSpaces(text, end)) && !isIdentifierCode(text.charCodeAt(skipSpaces(text, end) + 2)))) return true;
    const dot = skipSpacesBackward(text, start);
    if (text.charCodeAt(dot) === DOT) {
      const beforeDot = text.charCodeAt(skipSpacesBackward(text, dot));
      if (beforeDot === CLOSE_PAREN || beforeDot === SLASH) return true;
    }
  }
  return false;
}

/** `(`, or `.member(` through any chain of members, right at `position` (project/lock-names.ts calledInText). */
function callFollows(text: string, position: number): boolean {
  let cursor = position;
  while (text.charCodeAt(cursor) === DOT) {
    const start = cursor + 1;
    cursor = identifierEnd(text, start);
    if (cursor === start) return false;
  }
  return text.charCodeAt(cursor) === OPEN_PAREN || text.charCodeAt(cursor) > 127;
}

const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
