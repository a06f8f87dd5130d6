// The lock tables of a file: its lock-table acquisitions grouped by table, with the columns they
// return, so that a release can be paired with the rows the acquisitions took.

import type { LockTableAcquisition, SqlModel } from '../nouns/sql-items.js';

export interface LockTable {
  readonly acquisitions: LockTableAcquisition[];
  /** The columns the acquisitions return (`RETURNING id`), the lock's own name aside: a handle naming this holder's row. */
  readonly returned: Set<string>;
}

const lockTablesByModel = new WeakMap<SqlModel, ReadonlyMap<string, LockTable>>();

/** The file's lock-table acquisitions by table, gathered once per file (locks.ts pairs releases through it). */
export function lockTables(model: SqlModel): ReadonlyMap<string, LockTable> {
  const cached = lockTablesByModel.get(model);
  if (cached) return cached;
  const tables = new Map<string, LockTable>();
  for (const acquisition of model.lockTableAcquisitions) {
    let table = tables.get(acquisition.table);
    if (!table) {
      table = { acquisitions: [], returned: new Set() };
      tables.set(acquisition.table, table);
    }
    table.acquisitions.push(acquisition);
    // The conflict target (`ON CONFLICT (name)`) names the lock, the same for every holder: returning
    // it hands back no handle of this holder's row.
    const lockName = acquisition.statement.onConflict?.targetColumns ?? [];
    for (const column of acquisition.statement.returning) if (!lockName.includes(column)) table.returned.add(column);
  }
  lockTablesByModel.set(model, tables);
  return tables;
}
