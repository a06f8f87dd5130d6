// A whole-file screen run before the SQL model: most files send no SQL, and for those the model is
// empty without walking anything.

import type { TSESTree } from '@typescript-eslint/utils';
import { collectImports, type ImportTable } from '../imports.js';
import { POOL_NAMES, SQL_BUILDER_PACKAGES, SQL_PACKAGES } from './client-table.js';

// A string or template that starts like a statement the model asks about.
const SQL_STRING = /['"`]\s*(?:select\s|insert\s+into\b|update\s+["\w.]+(?:\s+(?:as\s+)?\w+)?\s+set\b|delete\s+from\b|with\s+(?:recursive\s+)?["\w]+\s+as\b)|pg_(?:try_)?advisory_/iu;

const POOL_NAME_PATTERNS: readonly RegExp[] = [...POOL_NAMES.keys()];

// An import can admit the file only if the text spells its source or its local name: a SQL package
// (`'pg'`, `pg-pool`, `@prisma/client`, `drizzle-orm/...`, ...) or a pool-like name bound from a
// relative import (POOL_NAMES: `pool`/`…Pool`, `prisma…`, `knex`, `sequelize`, `dataSource`, `sql`).
// client-table.test.ts checks that every package and pool name of the tables contains one of these.
// Building the import table walks the module's top-level statements and allocates a binding per
// import; most files name none of these, and for them the table is not built at all.
export const SQL_IMPORT_WORDS = /pool|prisma|knex|sequelize|sql|postgres|typeorm|kysely|drizzle|slonik|['"]pg['"/]|datasource/i;

const answers = new WeakMap<TSESTree.Program, boolean>();

/**
 * False only when the file can hold no query and no ORM write: no SQL-looking string, no SQL client
 * in sight. Computed once per Program (the screen and the SQL model both ask).
 */
export function mayContainSql(text: string, program: TSESTree.Program): boolean {
  const known = answers.get(program);
  if (known !== undefined) return known;
  const answer = SQL_STRING.test(text) || (SQL_IMPORT_WORDS.test(text) && importsSqlClient(collectImports(program)));
  answers.set(program, answer);
  return answer;
}

/** An import of a SQL package, or of the app's own pooled client (`import { prisma } from './db'`). */
function importsSqlClient(imports: ImportTable): boolean {
  for (const [local, binding] of imports) {
    const source = binding.source;
    if (Object.hasOwn(SQL_PACKAGES, source) || SQL_BUILDER_PACKAGES.has(source) || source.startsWith('drizzle-orm')) return true;
    if (source.startsWith('.') && POOL_NAME_PATTERNS.some((pattern) => pattern.test(local))) return true;
  }
  return false;
}
