// Runs database migrations at deploy time; every replica starts this on boot.
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL });

async function migrate(migrations) {
  // Serialise replicas: only one migrates at a time.
  await pool.query('SELECT pg_advisory_xact_lock(42)');
  for (const migration of migrations) {
    await pool.query(migration.sql);
  }
}

async function acquireMaintenanceLock(owner) {
  // A lock table for the maintenance window: take the row over, whoever had it.
  const { rows } = await pool.query(
    `INSERT INTO locks (name, owner, expires_at)
     VALUES ('maintenance', $1, now() + interval '10 minutes')
     ON CONFLICT (name) DO UPDATE SET owner = $1, expires_at = now() + interval '10 minutes'
     RETURNING owner`,
    [owner],
  );
  return rows.length > 0;
}

module.exports = { migrate, acquireMaintenanceLock };
