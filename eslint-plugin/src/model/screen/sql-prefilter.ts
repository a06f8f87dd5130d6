// A whole-file screen run before the SQL model: most files send no SQL, and for those the model is
// empty without walking anything.

import type { TSESTree } from '@typescript-eslint/utils';
import { collectImports } from '../facts/imports.js';
import type { ImportTable } from '../nouns/vocabulary.js';
import { POOL_NAMES, SQL_PACKAGES, sqlBuilderLibraryOf } from '../tables/sql-clients.js';

// A string or template that starts like a statement the model asks about. No `u` flag: under `i`
// it folds Unicode cases (`ſ` for `s`), which no SQL text needs and which makes this whole-text scan
// a fifth slower.
const SQL_STRING =
  /['"`]\s*(?:select\s|insert\s+into\b|update\s+["\w.]+(?:\s+(?:as\s+)?\w+)?\s+set\b|delete\s+from\b|with\s+(?:recursive\s+)?["\w]+\s+as\b)|pg_(?:try_)?advisory_/i;

const POOL_NAME_PATTERNS: readonly RegExp[] = [...POOL_NAMES.keys()];
// A project module that makes the app's knex instance, by its file or binding name: `require('./loaders/knex')`,
// `import { createKnex } from './db'`. The file may then call it (`this.knex = createKnex(config)`)
// and send builder chains through it without naming knex's package or a pool.
const KNEX_MODULE = /knex/i;

// What a file (or module) that takes a PostgreSQL lock always names: an advisory-lock function, a
// lock table (LOCK_TABLE_WORDS) right after INTO/FROM/UPDATE/TABLE/JOIN/USING (`job_locks`,
// `${prefix}_locks`, `${this.lockTable}`) or as a quoted name that ends in one (`'job_locks'`,
// `"shedlock"`, `'Lock'`), or an expiry column (EXPIRY_COLUMNS: the mark of a table locked by owner
// and expiry). An ORM's own source names row locks everywhere (`lockMode`, `'lockTables'`,
// `"LOCK"`, `FOR UPDATE`) but none of these. prefilter.test.ts holds the vocabularies to them.
// No `u` flag, as for SQL_STRING: whole-text scans.
const ADVISORY_OR_LOCK_TABLE =
  /advisory|(?:into|from|update|table|join|using)\s+[`"'[]?(?:\$\{[^}]*?(?:lock|mutex|lease)|(?:\$\{[^}]*\})?[\w.]*?(?:lock|mutex|lease))/i;
// Case-sensitive: a camelCase hump (`'shouldLock'`) or SQL's keyword in capitals (`"LOCK"`) is no table name.
// At most a schema before it: a dotted name of four parts (`'bullmq.worker.extend.locks'`) is a metric, not a table.
const QUOTED_LOCK_TABLE = /['"`](?:\w+\.)?(?:\w*_)?(?:[lL]ocks?|[mM]utex(?:es)?|[lL]eases?|shedlock)['"`]/;
// A bare `expires`/`expiry`/`expiration` counts where SQL puts a column (compared, listed, set), not in a
// sentence ("the lock expires.").
const EXPIRY_COLUMN = /\b(?:expires_at|expire_at)\b|_until\b|\b(?:expires|expiry|expiration)["'`]?\s*(?:[=<>,)]|is\b)/i;

/** False only when the text names no PostgreSQL lock: then no SQL rule has anything to report in it. */
export function mayHoldSqlLock(text: string): boolean {
  return ADVISORY_OR_LOCK_TABLE.test(text) || QUOTED_LOCK_TABLE.test(text) || EXPIRY_COLUMN.test(text);
}

const answers = new WeakMap<TSESTree.Program, boolean>();

/**
 * False only when the file can hold no query and no ORM write: no SQL-looking string, no SQL client
 * in sight. Computed once per Program (the screen and the SQL model both ask).
 */
export function mayContainSql(text: string, program: TSESTree.Program): boolean {
  const known = answers.get(program);
  if (known !== undefined) return known;
  // The import table first: it reads only the top-level statements (and both models use it, memoised),
  // while the string test scans the whole text.
  const answer = importsSqlClient(collectImports(program)) || SQL_STRING.test(text);
  answers.set(program, answer);
  return answer;
}

/** An import of a SQL package, or of the app's own pooled client (`import { prisma } from './db'`). */
function importsSqlClient(imports: ImportTable): boolean {
  for (const [local, binding] of imports) {
    const source = binding.source;
    if (Object.hasOwn(SQL_PACKAGES, source) || sqlBuilderLibraryOf(source) !== undefined) return true;
    if (
      source.startsWith('.') &&
      (POOL_NAME_PATTERNS.some((pattern) => pattern.test(local)) ||
        KNEX_MODULE.test(local) ||
        KNEX_MODULE.test(source.slice(source.lastIndexOf('/') + 1)))
    )
      return true;
  }
  return false;
}
