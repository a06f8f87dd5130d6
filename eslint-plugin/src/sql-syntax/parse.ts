// The one place that runs the PostgreSQL parser: each distinct SQL text is parsed once per process.

import { parse, type Statement } from 'pgsql-ast-parser';

// Bounded so a long editor session cannot grow it without end; SQL texts repeat across files, so a
// process-wide cache also serves "once per file".
const MAX_CACHED_TEXTS = 4000;
const cache = new Map<string, readonly Statement[] | null>();

// Texts the parser rejects, found without it (a rejection is its slowest path: an exception thrown
// out of the grammar). A write whose table is an interpolation (`INSERT INTO ${table}` reads
// `INSERT INTO $1`: PostgreSQL binds no identifiers), and `ROLLBACK TO [SAVEPOINT]`, which the
// parser lacks (and which, unlike `ROLLBACK`, leaves the transaction open).
const REJECTED = /\b(?:insert\s+into|delete\s+from|update)\s+\$\d|^\s*rollback\s+(?:(?:work|transaction)\s+)?to\b/iu;

/** The statements of `text`, with locations relative to it; `undefined` when it does not parse. */
export function parseSql(text: string): readonly Statement[] | undefined {
  const cached = cache.get(text);
  if (cached !== undefined) return cached ?? undefined;
  if (REJECTED.test(text)) return undefined;
  let statements: readonly Statement[] | null;
  try {
    statements = parse(text, { locationTracking: true });
  } catch {
    // Unparseable SQL (a dialect extension, a fragment, a syntax the parser lacks) is no finding.
    statements = null;
  }
  if (cache.size >= MAX_CACHED_TEXTS) cache.clear();
  cache.set(text, statements);
  return statements ?? undefined;
}

/** Cheap screen run before the parser: does the text start like a statement we can ask about? */
export function looksLikeSql(text: string): boolean {
  return /^\s*(?:\/\*[\s\S]*?\*\/\s*|--[^\n]*\n\s*)*(?:select|insert|update|delete|with|begin|start\s+transaction|commit|rollback|end|savepoint|release|set|values)\b/iu.test(
    text,
  );
}
