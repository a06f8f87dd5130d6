// Character-level readers of source text for the text screens, which decide before any parse
// whether a file is worth reading. On the hot path of every linted file: char codes, no slices.

/** A character of a JavaScript identifier (ASCII): what the text screens expand a match to. */
export function isIdentifierCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
}

/** A word character of a pattern's `\w` (letter, digit, `_`): an identifier's, without `$`. */
export function isWordCode(code: number): boolean {
  return isIdentifierCode(code) && code !== 36;
}

/** No word character (`\\w`: letter, digit, `_`) right before `start` or right at `end`. */
export function isWholeWord(text: string, start: number, end: number): boolean {
  return !isWordCode(text.charCodeAt(start - 1)) && !isWordCode(text.charCodeAt(end));
}

/** Where the identifier around `index` starts: `index` moved back over identifier characters. */
export function identifierStart(text: string, index: number): number {
  let start = index;
  while (start > 0 && isIdentifierCode(text.charCodeAt(start - 1))) start--;
  return start;
}

/** Where the identifier around `index` ends: `index` moved on over identifier characters. */
export function identifierEnd(text: string, index: number): number {
  let end = index;
  while (end < text.length && isIdentifierCode(text.charCodeAt(end))) end++;
  return end;
}

/** The first position from `index` on that is not a space or line break (`text.length` at the end). */
export function skipSpaces(text: string, index: number): number {
  let position = index;
  while (position < text.length) {
    const code = text.charCodeAt(position);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return position;
    position++;
  }
  return position;
}

/** The position of the last character before `index` that is not a space or line break; -1 when none. */
export function skipSpacesBackward(text: string, index: number): number {
  let position = index - 1;
  while (position >= 0) {
    const code = text.charCodeAt(position);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return position;
    position--;
  }
  return -1;
}

/** The code of the last character before `index` that is not a space or line break; -1 at the start. */
export function previousSignificantCode(text: string, index: number): number {
  const position = skipSpacesBackward(text, index);
  return position < 0 ? -1 : text.charCodeAt(position);
}

/** The code of the first character from `index` on that is not a space or line break; -1 at the end. */
export function nextSignificantCode(text: string, index: number): number {
  const position = skipSpaces(text, index);
  return position < text.length ? text.charCodeAt(position) : -1;
}

/**
 * The pattern source of `words.join('|')` for a case-insensitive scan, grouped by first letter
 * (`redis|redlock|lock` → `r(?:edis|edlock)|lock`). It matches the same word at the same place
 * (at any position only one group's letter can match, and inside a group the words keep their
 * order), but V8's engine then tests each position's letter once instead of once per word: a
 * whole-text scan with some forty words takes two-thirds of the time. Words are plain letters.
 */
export function wordAlternation(words: readonly string[]): string {
  const byFirstLetter = new Map<string, string[]>();
  for (const word of words) {
    const first = word[0]!.toLowerCase();
    const rests = byFirstLetter.get(first) ?? [];
    rests.push(word.slice(1));
    byFirstLetter.set(first, rests);
  }
  return [...byFirstLetter]
    .map(([first, rests]) => (rests.length === 1 ? `${first}${rests[0]!}` : `${first}(?:${rests.join('|')})`))
    .join('|');
}
