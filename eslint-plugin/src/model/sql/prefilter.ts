// A whole-file screen run before the SQL model: most files send no SQL, and for those the model is
// empty without walking anything.

import type { ImportTable } from '../imports.js';
import { POOL_NAMES, SQL_BUILDER_PACKAGES, SQL_PACKAGES } from './client-table.js';

// A string or template that starts like a statement the model asks about.
const SQL_STRING = /['"`]\s*(?:select\s|insert\s+into\b|update\s+["\w.]+(?:\s+(?:as\s+)?\w+)?\s+set\b|delete\s+from\b|with\s+(?:recursive\s+)?["\w]+\s+as\b)|pg_(?:try_)?advisory_/iu;

const POOL_NAME_PATTERNS: readonly RegExp[] = [...POOL_NAMES.keys()];

/** False only when the file can hold no query and no ORM write: no SQL-looking string, no SQL client in sight. */
export function mayContainSql(text: string, imports: ImportTable): boolean {
  for (const [local, binding] of imports) {
    const source = binding.source;
    if (source in SQL_PACKAGES || SQL_BUILDER_PACKAGES.has(source) || source.startsWith('drizzle-orm')) return true;
    // `import { prisma } from './db'`: the app's own pooled client.
    if (source.startsWith('.') && POOL_NAME_PATTERNS.some((pattern) => pattern.test(local))) return true;
  }
  return SQL_STRING.test(text);
}
