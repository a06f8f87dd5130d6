// The names lock helpers go by, and text-only questions about them: shared by the imported-helper
// lookup (imported-helpers.ts) and the screen that decides whether a module is worth parsing
// (modules.ts), which must not parse a module to learn it imports no helper.

import { eitherInitialCase, LOCK_ACTS, LOCK_NOUNS } from '../tables/lock-words.js';
import { identifierEnd, identifierStart, isIdentifierCode, nextSignificantCode, previousSignificantCode } from '../../util/text.js';

// Names a helper (or the object holding helpers) is imported by. `block`/`clock` are no locks, nor
// a token's claims (`getClaims`); `claimJob`/`tryClaim` take a lock row.
const NAME_PATTERNS: Readonly<Record<string, string>> = { lock: '(?:^|[^bBcC])[lL]ock', claim: '^claim|[a-z]Claim(?!s)' };
export const LOCK_NAME = new RegExp(
  [...LOCK_NOUNS, ...LOCK_ACTS].map((word) => NAME_PATTERNS[word] ?? eitherInitialCase(word)).join('|'),
  'u',
);
// Cheaper than the import table: a file whose text has none of these imports no helper by name.
export const LOCK_TEXT = new RegExp([...LOCK_NOUNS, ...LOCK_ACTS].map(eitherInitialCase).join('|'), 'u');

// Errors and exceptions are constructed or thrown, never a lock helper (`LockTimeoutError`).
export const NOT_A_HELPER = /(?:Error|Exception|Options|Config|Type|Props)$/u;

/**
 * The name is called (`withLock(`) or a member of it is (`locks.acquire(`, `locks.redis.using(`), not
 * only constructed, passed on or read (`LockMode.PESSIMISTIC_WRITE` names an enum member: reading it
 * would have every ORM file that imports the enum parse the module declaring it).
 */
export function calledInText(text: string, name: string): boolean {
  for (let index = text.indexOf(name); index !== -1; index = text.indexOf(name, index + name.length)) {
    if (isIdentifierCode(text.charCodeAt(index - 1)) || text.startsWith('new ', index - 4)) continue;
    if (callFollows(text, index + name.length)) return true;
  }
  return false;
}

/** `(`, or `.member(` through any chain of members, right at `position`. */
function callFollows(text: string, position: number): boolean {
  let cursor = position;
  while (text.charCodeAt(cursor) === 46) {
    const start = cursor + 1;
    cursor = start;
    while (cursor < text.length && isIdentifierCode(text.charCodeAt(cursor))) cursor++;
    if (cursor === start) return false;
  }
  return text.charCodeAt(cursor) === 40;
}

// A word that makes a method name one of taking a lock (`acquireLock`, `tryLock`, `acquire`,
// `lease`), not `getBlock`, `release` nor `clock`.
const LOCK_METHOD_WORD = /(?<![bBcC])[lL]ock|[mM]utex|[aA]cquire|(?<![rR]e)[lL]ease/gu;

/**
 * A method named for taking a lock is called somewhere in the text (`.acquireLock(`, `. tryLock (`):
 * only then can a class imported by any name (`RedisService`) hold a helper it reaches. Anchored on
 * the lock words, which are rarer than the dots a pattern starting at `.` would try at.
 */
export function callsLockNamedMethod(text: string): boolean {
  const pattern = LOCK_METHOD_WORD;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = identifierStart(text, match.index);
    const end = identifierEnd(text, match.index + match[0].length);
    pattern.lastIndex = end;
    if (previousSignificantCode(text, start) === DOT && nextSignificantCode(text, end) === OPEN_PAREN) return true;
  }
  return false;
}

/**
 * The ways a lock-named method of an imported class is reached (helper-calls.ts `receiverClassOf`),
 * read from the text: an instance made here (`new Name`), a value typed as the class (`: Name`, a
 * NestJS constructor parameter), or a lock-named static method called on it (`Name.acquire(`). An
 * enum or a class whose members are only read (`LockMode.PESSIMISTIC_WRITE`) is none of these.
 */
export function usedAsClassInText(text: string, name: string): boolean {
  for (let index = text.indexOf(name); index !== -1; index = text.indexOf(name, index + name.length)) {
    const end = index + name.length;
    if (isIdentifierCode(text.charCodeAt(index - 1)) || isIdentifierCode(text.charCodeAt(end))) continue;
    const before = previousSignificantCode(text, index);
    const after = nextSignificantCode(text, end);
    // `: Name` as a type, not the value after a ternary's or a property's colon (`: Utils.merge(…)`).
    if (
      (before === COLON && after !== DOT && after !== OPEN_PAREN) ||
      (before === LOWER_W && /\bnew\s*$/u.test(text.slice(Math.max(0, index - 8), index)))
    )
      return true;
    if (after === DOT && staticLockCallFollows(text, end)) return true;
  }
  return false;
}

/** `.acquire(` / `. tryLock (` right after a class name. */
function staticLockCallFollows(text: string, position: number): boolean {
  const member = /^\s*\.\s*([\w$]+)\s*\(/u.exec(text.slice(position, position + 80));
  return member !== null && LOCK_NAME.test(member[1]!);
}

const DOT = 46;
const OPEN_PAREN = 40;
const COLON = 58;
const LOWER_W = 119;

// The import clauses of a text, without parsing it: `import a, { b as c } from '…'`, `import * as d
// from '…'`, `const { e, f: g } = require('…')`, `const h = require('…')`. A missed spelling only
// makes the answer below more often false for a module that also has no Redis or SQL of its own.
const IMPORT_CLAUSE = /\bimport\s+(?!type\s)([^'"`;]*?)\s*from\s*['"]|\b(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*require\s*\(/gu;
const RENAMED = /[\w$]+\s*(?:\bas\b|:)\s*/gu;
const IDENTIFIER = /[\w$]+/gu;

/**
 * Whether the text imports a lock-named binding and calls it (`import { withLock } from './locks'`
 * then `withLock(…)`): the one way a module with no Redis and no SQL of its own can still export a
 * lock helper (a wrapper around another module's).
 */
export function callsImportedLockName(text: string): boolean {
  IMPORT_CLAUSE.lastIndex = 0;
  for (let match = IMPORT_CLAUSE.exec(text); match; match = IMPORT_CLAUSE.exec(text)) {
    const clause = (match[1] ?? match[2] ?? '').replace(RENAMED, '');
    for (const [name] of clause.matchAll(IDENTIFIER)) {
      if (name !== 'type' && LOCK_NAME.test(name) && !NOT_A_HELPER.test(name) && calledInText(text, name)) return true;
    }
  }
  return false;
}
