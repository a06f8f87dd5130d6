// `SELECT pg_try_advisory_lock($1) AS locked`: the statement nearly every advisory lock is taken and
// released with, read without the PostgreSQL parser. The parser is the slow part of the SQL model
// (a few milliseconds for such a statement, tens for the first ones of a process), and a project's
// advisory locks are mostly these few texts. Anything beyond the narrow grammar below (a FROM, an
// operator, a nested SELECT, a comment, a quoted name) goes to the parser; facts.test.ts checks
// that what is read here equals what the parser's AST gives.
//
//   statement := SELECT column (',' column)* [';']
//   column    := advisory-call ['AS' name]
//   call      := name '(' [argument (',' argument)*] ')'
//   argument  := term ('::' name)*
//   term      := '$'digits | ['-']digits | 'string' | hash-function '(' [argument (',' argument)*] ')'

import type { NodeLocation } from 'pgsql-ast-parser';
import { isIdentifierCode, skipSpaces } from '../util/text.js';
import { advisoryLockCall, advisorySelectFacts, type AdvisoryLockCall, type SqlStatementFacts } from './facts.js';

// Functions an advisory key is derived with (`hashtext($1)`, `hashtextextended($1, 0)`): plain
// names, none of them a SQL keyword.
const KEY_FUNCTION = /^(?:hash\w*|abs)$/iu;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const DIGITS = /\d+/y;

class Reader {
  position = 0;
  constructor(readonly text: string) {}

  skipSpaces(): void {
    this.position = skipSpaces(this.text, this.position);
  }

  /** The name at the cursor (unquoted: a quoted one goes to the parser), or undefined. */
  name(): string | undefined {
    NAME.lastIndex = this.position;
    const match = NAME.exec(this.text);
    if (!match) return undefined;
    this.position = NAME.lastIndex;
    return match[0];
  }

  digits(): boolean {
    DIGITS.lastIndex = this.position;
    if (!DIGITS.test(this.text)) return false;
    this.position = DIGITS.lastIndex;
    return true;
  }

  take(char: string): boolean {
    if (this.text[this.position] !== char) return false;
    this.position++;
    return true;
  }

  /** `(argument, …)` after a function's name; false for anything else. */
  arguments(): boolean {
    this.skipSpaces();
    if (!this.take('(')) return false;
    this.skipSpaces();
    if (this.take(')')) return true;
    for (;;) {
      if (!this.argument()) return false;
      this.skipSpaces();
      if (this.take(')')) return true;
      if (!this.take(',')) return false;
      this.skipSpaces();
    }
  }

  argument(): boolean {
    if (!this.term()) return false;
    for (;;) {
      const before = this.position;
      this.skipSpaces();
      if (this.text.startsWith('::', this.position)) {
        this.position += 2;
        this.skipSpaces();
        if (this.name() === undefined) return false;
        continue;
      }
      this.position = before;
      return true;
    }
  }

  term(): boolean {
    const char = this.text[this.position];
    if (char === '$') {
      this.position++;
      return this.digits() && !isIdentifierCode(this.text.charCodeAt(this.position));
    }
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
      this.take('-');
      // A decimal or an exponent is no key; the parser reads those.
      return this.digits() && !isIdentifierCode(this.text.charCodeAt(this.position)) && this.text[this.position] !== '.';
    }
    if (char === "'") {
      const end = this.text.indexOf("'", this.position + 1);
      // `'it''s'` (an escaped quote) and an unterminated string go to the parser.
      if (end === -1 || this.text[end + 1] === "'") return false;
      this.position = end + 1;
      return true;
    }
    const name = this.name();
    return name !== undefined && KEY_FUNCTION.test(name) && this.arguments();
  }
}

/**
 * The facts of `text` when it is one SELECT of advisory-lock calls in the grammar above (the same
 * facts describeStatement gives its AST); undefined for any other text.
 */
export function readAdvisorySelect(text: string): readonly SqlStatementFacts[] | undefined {
  // Comments and quoted names are the parser's business.
  if (text.includes('--') || text.includes('/*') || text.includes('"')) return undefined;
  const reader = new Reader(text);
  reader.skipSpaces();
  const statementStart = reader.position;
  if (reader.name()?.toLowerCase() !== 'select') return undefined;
  const calls: AdvisoryLockCall[] = [];
  for (;;) {
    reader.skipSpaces();
    const callStart = reader.position;
    const functionName = reader.name()?.toLowerCase();
    const call = functionName === undefined ? undefined : advisoryLockCall(functionName, undefined, undefined);
    if (!call || !reader.arguments()) return undefined;
    const location: NodeLocation = { start: callStart, end: reader.position };
    let statementEnd = reader.position;
    reader.skipSpaces();
    let outputName = functionName;
    const afterCall = reader.position;
    const word = reader.name();
    if (word !== undefined) {
      if (word.toLowerCase() !== 'as') return undefined;
      reader.skipSpaces();
      const alias = reader.name();
      if (alias === undefined || isReservedAlias(alias)) return undefined;
      outputName = alias.toLowerCase();
      statementEnd = reader.position;
      reader.skipSpaces();
    } else reader.position = afterCall;
    calls.push({ ...call, location, outputName });
    if (reader.take(',')) continue;
    reader.take(';');
    reader.skipSpaces();
    if (reader.position !== text.length) return undefined;
    return [advisorySelectFacts(calls, { start: statementStart, end: statementEnd })];
  }
}

// `AS from`, `AS where`: keywords PostgreSQL refuses as a bare alias; left to the parser to judge.
const RESERVED = new Set([
  'from',
  'where',
  'select',
  'as',
  'and',
  'or',
  'not',
  'null',
  'true',
  'false',
  'limit',
  'order',
  'group',
  'having',
  'union',
  'for',
  'into',
  'on',
  'case',
  'end',
  'when',
  'then',
  'else',
  'with',
  'offset',
  'fetch',
  'window',
  'except',
  'intersect',
  'returning',
  'table',
  'all',
  'distinct',
]);

function isReservedAlias(alias: string): boolean {
  return RESERVED.has(alias.toLowerCase());
}
