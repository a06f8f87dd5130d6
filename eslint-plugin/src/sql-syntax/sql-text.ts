// Builds the SQL text the parser sees from what users write: literal pieces plus interpolations and
// driver placeholders (`?`, `:name`) turned into `$n` parameters, with a map back to source offsets.

/** A piece of SQL as written in the source file. */
export type SqlSourcePart =
  | {
      readonly kind: 'text';
      /** The text as the database receives it (escapes resolved). */
      readonly text: string;
      /** File offset where the raw text of this piece starts, and whether raw and cooked coincide. */
      readonly sourceStart: number;
      readonly sourceEnd: number;
      readonly verbatim: boolean;
    }
  | {
      /** An interpolation (`${expr}`): a bound parameter in tagged templates. */
      readonly kind: 'parameter';
      readonly sourceStart: number;
      readonly sourceEnd: number;
    };

interface Piece {
  readonly start: number;
  readonly end: number;
  readonly sourceStart: number;
  readonly sourceEnd: number;
  /** Each character maps one to one onto the source. */
  readonly linear: boolean;
}

export interface SqlText {
  /** Normalised SQL: every parameter spelled `$n`. */
  readonly text: string;
  /** For each interpolation part, in order, the `$n` number it became. */
  readonly interpolationNumbers: readonly number[];
  /** Highest parameter number used. */
  readonly parameterCount: number;
  /** Named placeholders (`:me`) and the number each became. */
  readonly namedParameters: ReadonlyMap<string, number>;
  /** Whether the text used `?` placeholders (knex, Sequelize replacements). */
  readonly questionMarks: boolean;
  /** File offset of a position in `text`, or `undefined` when it falls inside rewritten text. */
  toSourceOffset(offset: number): number | undefined;
}

const PLACEHOLDER = /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|\$(\d+)|::|\?\?|\?|:([A-Za-z_]\w*)/gu;

/** Joins `parts` into one SQL text with `$n` parameters. */
export function buildSqlText(parts: readonly SqlSourcePart[], options: { readonly driverPlaceholders: boolean }): SqlText {
  let highest = 0;
  for (const part of parts) {
    if (part.kind !== 'text') continue;
    for (const match of part.text.matchAll(PLACEHOLDER)) {
      if (match[1] !== undefined) highest = Math.max(highest, Number(match[1]));
    }
  }
  let next = highest;
  const namedParameters = new Map<string, number>();
  const interpolationNumbers: number[] = [];
  const pieces: Piece[] = [];
  let text = '';
  let questionMarks = false;

  const append = (chunk: string, sourceStart: number, sourceEnd: number, linear: boolean) => {
    pieces.push({ start: text.length, end: text.length + chunk.length, sourceStart, sourceEnd, linear });
    text += chunk;
  };

  for (const part of parts) {
    if (part.kind === 'parameter') {
      next += 1;
      interpolationNumbers.push(next);
      append(`$${next}`, part.sourceStart, part.sourceEnd, false);
      continue;
    }
    if (!options.driverPlaceholders) {
      append(part.text, part.sourceStart, part.sourceEnd, part.verbatim);
      continue;
    }
    let last = 0;
    for (const match of part.text.matchAll(PLACEHOLDER)) {
      const token = match[0];
      let replacement: string | undefined;
      if (token === '??') replacement = '"identifier"';
      else if (token === '?') {
        questionMarks = true;
        next += 1;
        replacement = `$${next}`;
      } else if (match[2] !== undefined) {
        let number = namedParameters.get(match[2]);
        if (number === undefined) {
          next += 1;
          number = next;
          namedParameters.set(match[2], number);
        }
        replacement = `$${number}`;
      }
      if (replacement === undefined) continue;
      const index = match.index;
      appendText(part, last, index);
      const rawStart = part.verbatim ? part.sourceStart + index : part.sourceStart;
      const rawEnd = part.verbatim ? rawStart + token.length : part.sourceEnd;
      append(replacement, rawStart, rawEnd, false);
      last = index + token.length;
    }
    appendText(part, last, part.text.length);
  }

  function appendText(part: Extract<SqlSourcePart, { kind: 'text' }>, from: number, to: number) {
    if (to <= from) return;
    const start = part.verbatim ? part.sourceStart + from : part.sourceStart;
    const end = part.verbatim ? part.sourceStart + to : part.sourceEnd;
    append(part.text.slice(from, to), start, end, part.verbatim);
  }

  return {
    text,
    interpolationNumbers,
    parameterCount: next,
    namedParameters,
    questionMarks,
    toSourceOffset(offset) {
      for (const piece of pieces) {
        if (offset < piece.start || offset > piece.end) continue;
        if (piece.linear) return piece.sourceStart + (offset - piece.start);
        if (offset === piece.start) return piece.sourceStart;
        if (offset === piece.end) return piece.sourceEnd;
      }
      return undefined;
    },
  };
}
