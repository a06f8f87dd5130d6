// Two whole PostgreSQL statements in the shape the fixes give them, in pg's `$n` form, for the runtime
// proofs in test/proofs to run: the fenced UPDATE and the expiry-guarded lock-table upsert. No rule
// inserts them; the rules edit the reported statement with sql-templates.ts, which re-exports these.

/**
 * The fenced write (require-fencing-token): `$1` is the fence the acquisition returned, `$2` the row.
 * A holder whose lock expired carries a smaller fence than its successor, so its write matches no row.
 */
export const FENCED_UPDATE_SQL = `UPDATE invoice_state SET last_run = 'done', fence = $1 WHERE id = $2 AND fence < $1`;

/**
 * The guarded lock-table acquisition (no-lock-takeover, require-lock-ttl): it takes a row over only
 * when the previous holder's lock has expired, and returns the owner only when it took the lock, so
 * the caller holds the lock exactly when a row comes back with its own owner. `$1` name, `$2` owner.
 */
export const GUARDED_LOCK_UPSERT_SQL = `INSERT INTO locks (name, owner, expires_at)
VALUES ($1, $2, now() + interval '30 seconds')
ON CONFLICT (name) DO UPDATE
   SET owner = $2, expires_at = now() + interval '30 seconds'
 WHERE locks.expires_at < now()
RETURNING owner`;
