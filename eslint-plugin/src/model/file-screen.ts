// Whether a file can hold anything any rule reports: a sign of Redis (redis-gate.ts) or of SQL
// (screen/sql-prefilter.ts). Most files of a project hold neither, and for them no rule needs to run.

import type { TSESTree } from '@typescript-eslint/utils';
import { collectImports } from './facts/imports.js';
import { callsImportedHelper } from './helpers/imported-helpers.js';
import { moduleHelperSummaries } from './lock-model.js';
import { calledInText, callsLockNamedMethod, LOCK_TEXT } from './project/lock-names.js';
import { LOCK_WORDS, mayNameLock, mayUseRedis, textMayUseRedis } from './screen/redis-gate.js';
import { readSharedSettings } from './facts/settings.js';
import type { SharedSettings } from './nouns/vocabulary.js';
import { mayContainSql, mayHoldSqlLock } from './screen/sql-prefilter.js';
import { acquiresInText, callsLockLibraryMethod, namesLockLibrary } from './screen/acquisition-gate.js';
import { createReachMemo, importsReach, type ReachMemo, type ReachQuestion } from './project/import-reach.js';
import { getTypeOracle } from './facts/type-oracle.js';
import { importsProjectClient } from './redis/client-resolver.js';
import type { LocksmithRuleContext } from '../util/rule-context.js';
import { identifierEnd, identifierStart, isIdentifierCode, skipSpaces, skipSpacesBackward } from '../util/text.js';

// The answer for the file being linted: every rule and the lock map ask it while ESLint lints that
// one file, so the last Program and its answer are all there is to remember (one tree is held until
// the next file). A WeakMap entry per file, here and for the word scan (redis-gate.ts), was a quarter
// of Locksmith's rule time on a small lock-free file (15.9 µs a file with them, 11.9 without); a
// Program asked about again after another is screened anew.
let screenedProgram: TSESTree.Program | undefined;
let screenedAnswer = false;

// LOCK_WORDS (redis-gate.ts): what a file without Redis must name to hold a lock; the same scan of
// the text looks for both.
export { LOCK_WORDS } from './screen/redis-gate.js';

interface HelperScreen {
  readonly names: ReadonlySet<string>;
  /** A helper given as a `/pattern/` may be named anything: no text can rule it out. */
  readonly anyNameMatches: boolean;
  /** The lock map's question about imported modules: may one export a helper that takes a lock (textMayTakeLocks)? */
  readonly takesLock: ReachQuestion;
}

// Settings objects are shared by every file of a configuration (settings.ts caches them), so their
// helper names are gathered once per configuration rather than once per file.
const helperScreens = new WeakMap<SharedSettings['lockWrappers'], HelperScreen>();

function helperScreenOf(lockWrappers: SharedSettings['lockWrappers']): HelperScreen {
  let screen = helperScreens.get(lockWrappers);
  if (!screen) {
    const names = new Set([...lockWrappers.acquire, ...lockWrappers.release, ...lockWrappers.withLock]);
    screen = {
      names,
      anyNameMatches: [...names].some((name) => name.startsWith('/')),
      takesLock: {
        purpose: 'helper',
        holds: (text, filePath, memo) => namesAny(text, names) || takesLockItself(text, filePath, memo),
      },
    };
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
  const answer =
    helpers.anyNameMatches ||
    // With types any receiver may turn out to be a Redis client, whatever the text says.
    getTypeOracle(context) !== null ||
    mayUseRedis(sourceCode, helpers.names) ||
    (mayNameLock(sourceCode) &&
      // A file that sends SQL holds a PostgreSQL lock only where it names one (mayHoldSqlLock); the
      // writes a Redis or helper lock protects are seen through the other branches.
      ((mayContainSql(sourceCode.text, program) && mayHoldSqlLock(sourceCode.text)) ||
        // A file whose only lock is a call to a helper another module exports (its summary says so);
        // its own text screen (LOCK_TEXT) comes first, memoised with the candidates.
        callsImportedHelper(sourceCode, context.filename, collectImports(program), settings, moduleHelperSummaries) ||
        // A lock taken through a Redlock or client another module of the project makes.
        importsProjectClient(sourceCode, collectImports(program), context.filename)));
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
  if (typed || helpers.anyNameMatches || namesAny(text, helpers.names)) return true;
  if (textMayUseRedis(text)) return true;
  if (!LOCK_WORDS.test(text)) return false;
  return mayHoldSqlLock(text) || mayCallImportedHelper(text);
}

function namesAny(text: string, names: ReadonlySet<string>): boolean {
  for (const name of names) {
    if (text.includes(name)) return true;
  }
  return false;
}

/**
 * textMayHoldLocks narrowed to what the lock map shows, for a text on disk (at `filePath`): false
 * only when a lint of the file maps no lock. Past textMayHoldLocks, the text must write a call that
 * takes a lock (screen/acquisition-gate.ts), or call a helper another module exports (as
 * mayCallImportedHelper reads it) while one of the modules it imports, read through their own
 * imports (project/import-reach.ts), can hold such a helper. Most files the file screen lets
 * through (a Redis client's source, an ORM's query builder) take no lock, and no parse is needed to
 * say so. `memo` keeps what was read of the imported modules for the next file of the same pass.
 */
export function textMayTakeLocks(
  text: string,
  settings: LocksmithRuleContext['settings'],
  typed: boolean,
  filePath: string,
  memo: ReachMemo = createReachMemo(),
): boolean {
  const helpers = helperScreenOf(readSharedSettings({ settings }).lockWrappers);
  if (typed || helpers.anyNameMatches || namesAny(text, helpers.names)) return true;
  if (!textMayHoldLocks(text, settings, typed)) return false;
  if (takesLockItself(text, filePath, memo)) return true;
  return mayCallImportedHelper(text) && importsReach(filePath, text, helpers.takesLock, memo);
}

/** A lock-library client may come from a module the file imports: one that names the library's package. */
const LIBRARY_CLIENT: ReachQuestion = { purpose: 'client', holds: (text) => namesLockLibrary(text) };

/**
 * A call in the text takes a lock: one of the call shapes of an acquisition, or a lock library's
 * acquiring method where the library's client can come from (its package named here or in a module
 * the file imports, which the client resolver follows).
 */
function takesLockItself(text: string, filePath: string, memo: ReachMemo): boolean {
  return (
    acquiresInText(text) || (callsLockLibraryMethod(text) && (namesLockLibrary(text) || importsReach(filePath, text, LIBRARY_CLIENT, memo)))
  );
}

const LOCK_TEXT_ALL = new RegExp(LOCK_TEXT.source, 'gu');

/**
 * Whether importedHelperCandidates (project/imported-helpers.ts) can find a candidate in the text,
 * read without its import table: a class reached through a lock-named method (`.acquireLock(`), or
 * a name that could be lock-named (local or imported) where an import binds one, whose local is
 * called as calledInText reads it (`withLock(`, `locks.redis.using(`). An import binds names in an
 * `import` declaration (between the keyword and the module's quote), before a `require(` or
 * `import(` in the same statement, and right after one (`require('…').name`, whose local is not
 * read here: it lets the file through). Renamed imports are followed (`acquire as take`,
 * `{ acquire: take }`); a comment or a non-ASCII letter where a name is read lets the file through.
 */
function mayCallImportedHelper(text: string): boolean {
  if (callsLockNamedMethod(text)) return true;
  const imports = importSpans(text);
  const loads = positionsOf(text, LOAD_CALL);
  let load = 0;
  let semicolon = -1;
  // calledInText reads the whole text: each name is asked once, however often it appears.
  const called = new Map<string, boolean>();
  const isCalled = (name: string): boolean => {
    let answer = called.get(name);
    if (answer === undefined) {
      answer = calledInText(text, name);
      called.set(name, answer);
    }
    return answer;
  };
  const pattern = LOCK_TEXT_ALL;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = identifierStart(text, match.index);
    const end = identifierEnd(text, match.index + match[0].length);
    pattern.lastIndex = end;
    if (text.charCodeAt(start - 1) > 127 || text.charCodeAt(end) > 127) return true;
    const dot = skipSpacesBackward(text, start);
    if (text.charCodeAt(dot) === DOT && text.charCodeAt(skipSpacesBackward(text, dot)) === CLOSE_PAREN) return true;
    // The statement's first `require(`/`import(` after the name, with no `;` before it.
    while (load < loads.length && loads[load]! < end) load++;
    if (semicolon !== -1 && semicolon < end) semicolon = -1;
    if (semicolon === -1) semicolon = text.indexOf(';', end);
    if (semicolon === -1) semicolon = text.length;
    const beforeLoad = load < loads.length && loads[load]! < semicolon;
    if (!beforeLoad && !imports.some(([from, to]) => from < start && start < to)) continue;
    const local = localNameAfter(text, end);
    if (local === undefined || isCalled(local ?? text.slice(start, end))) return true;
  }
  return false;
}

const LOAD_CALL = /\b(?:require|import)\s*\(/gu;
const IMPORT_KEYWORD = /(?<![\w$.])import(?![\w$])/gu;

function positionsOf(text: string, pattern: RegExp): number[] {
  const positions: number[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) positions.push(match.index);
  return positions;
}

/**
 * The stretches an `import` keyword may bind names in: up to the module's quote (or a `;`), or, when
 * a comment in between may hide the quote, up to the statement's end.
 */
function importSpans(text: string): (readonly [number, number])[] {
  const spans: (readonly [number, number])[] = [];
  for (const from of positionsOf(text, IMPORT_KEYWORD)) {
    const quote = text.slice(from).search(/['"`;]/u);
    const to = quote === -1 ? text.length : from + quote;
    if (!text.slice(from, to).includes('/')) {
      spans.push([from, to]);
      continue;
    }
    const statementEnd = text.indexOf(';', from);
    spans.push([from, statementEnd === -1 ? text.length : statementEnd]);
  }
  return spans;
}

/**
 * The local a name is bound to when it is renamed (`name as local`, `name: local`), undefined when
 * that cannot be read (a comment in between); null when it is not renamed (it is its own local).
 */
function localNameAfter(text: string, end: number): string | null | undefined {
  const next = skipSpaces(text, end);
  const code = text.charCodeAt(next);
  if (code === SLASH) return undefined;
  let localStart: number;
  if (code === COLON) localStart = skipSpaces(text, next + 1);
  else if (next > end && text.startsWith('as', next) && !isIdentifierCode(text.charCodeAt(next + 2)))
    localStart = skipSpaces(text, next + 2);
  else return null;
  if (text.charCodeAt(localStart) === SLASH || text.charCodeAt(localStart) > 127) return undefined;
  const localEnd = identifierEnd(text, localStart);
  return localEnd === localStart ? undefined : text.slice(localStart, localEnd);
}

const CLOSE_PAREN = 41;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
