// How each SQL library hands back a query's rows: the shape in which result-flow.ts follows the
// boolean of a `pg_try_advisory_lock` (or a `pg_advisory_unlock`) to where the code reads it.

import type { ResultShape, SqlLibrary } from '../nouns/vocabulary.js';

export function resultShapeOf(library: SqlLibrary, method: string): ResultShape {
  switch (library) {
    case 'pg':
    case 'kysely':
      return 'result';
    case 'knex':
      return method === 'raw' ? 'result' : 'unknown';
    case 'postgres':
    case 'typeorm':
      return 'rows';
    case 'prisma':
      return method === '$queryRaw' || method === '$queryRawUnsafe' ? 'rows' : 'unknown';
    default:
      return 'unknown';
  }
}
