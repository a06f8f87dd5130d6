import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  identifierEnd,
  identifierStart,
  isIdentifierCode,
  isWholeWord,
  nextSignificantCode,
  previousSignificantCode,
  skipSpaces,
  wordAlternation,
} from '../../../eslint-plugin/src/util/text.js';

const code = (character: string) => character.charCodeAt(0);

describe("util/text (the text screens' character readers)", () => {
  it('reads identifier characters, with `$` but not `-` or non-ASCII', () => {
    for (const character of ['a', 'Z', '0', '_', '$']) assert.equal(isIdentifierCode(code(character)), true, character);
    for (const character of ['-', '.', ' ', '(', 'é']) assert.equal(isIdentifierCode(code(character)), false, character);
    assert.equal(isIdentifierCode(Number.NaN), false);
  });

  it("widens a position to the identifier around it, stopping at the text's ends", () => {
    const text = 'await redis.setNx$2(key)';
    const inside = text.indexOf('Nx');
    assert.equal(text.slice(identifierStart(text, inside), identifierEnd(text, inside)), 'setNx$2');
    assert.equal(identifierStart('lock', 3), 0);
    assert.equal(identifierEnd('lock', 1), 4);
  });

  it('bounds whole words as `\\b` does (`$` is no word character)', () => {
    assert.equal(isWholeWord('a SET b', 2, 5), true);
    assert.equal(isWholeWord('RESET', 2, 5), false);
    assert.equal(isWholeWord('$SET$', 1, 4), true);
    assert.equal(isWholeWord('SET', 0, 3), true);
  });

  it('skips spaces and line breaks both ways, answering -1 past the ends', () => {
    const text = 'client \n\t. get (';
    assert.equal(skipSpaces(text, 6), text.indexOf('.'));
    assert.equal(nextSignificantCode(text, 6), code('.'));
    assert.equal(previousSignificantCode(text, text.indexOf('.')), code('t'));
    assert.equal(nextSignificantCode('x  ', 1), -1);
    assert.equal(previousSignificantCode('  x', 2), -1);
    assert.equal(skipSpaces('x  ', 1), 3);
  });

  it('groups an alternation by first letter without changing any match (same word, same place)', () => {
    const words = [
      'redis',
      'redlock',
      'release',
      'expire',
      'expir',
      'eval',
      'lock',
      'lease',
      'leader',
      'conn',
      'client',
      'claim',
      'send_command',
      'until',
      'unlink',
    ];
    assert.equal(wordAlternation(['redis', 'redlock', 'lock']), 'r(?:edis|edlock)|lock');
    // Prefixes of each other (`expire`/`expir`), shared letters, every case, words inside words.
    const text =
      'Redlock redis REDISClient expire EXPIR expiration xeval clientConn leaseLeader release_lock unlinkUntil send_command claims sendCommand';
    const matchesOf = (pattern: RegExp) => [...text.matchAll(pattern)].map((match) => `${match.index}:${match[0]}`);
    const grouped = matchesOf(new RegExp(wordAlternation(words), 'gi'));
    assert.deepEqual(grouped, matchesOf(new RegExp(words.join('|'), 'gi')));
    assert.ok(grouped.length >= 18, String(grouped.length));
    // The first of two words sharing a start still wins, as in the plain alternation.
    assert.deepEqual(matchesOf(new RegExp(wordAlternation(['expir', 'expire']), 'gi')).slice(0, 1), ['26:expir']);
  });
});
