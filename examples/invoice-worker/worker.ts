// Issues each customer's invoice for a period exactly once, even with several workers running.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { Pool } from 'pg';

const redis = createClient({ url: process.env.REDIS_URL });
const pool = new Pool({ connectionString: process.env.DATABASE_URL });

export async function issueInvoice(customerId: string, period: string): Promise<void> {
  const lockKey = `lock:invoice:${customerId}:${period}`;
  const token = randomUUID();

  const acquired = await redis.set(lockKey, token, { NX: true, PX: 30_000 });
  if (!acquired) return;

  const totals = await computeTotals(customerId, period);
  await pool.query('UPDATE invoice_state SET last_run = $1, total = $2 WHERE customer_id = $3', [period, totals, customerId]);

  // Release only our own lock.
  if ((await redis.get(lockKey)) === token) {
    await redis.del(lockKey);
  }
}

export async function closePeriod(period: string): Promise<void> {
  // One closing run at a time, across all workers.
  await pool.query('SELECT pg_advisory_lock(834721)');
  await pool.query('UPDATE periods SET closed = true WHERE id = $1', [period]);
  await pool.query('SELECT pg_advisory_unlock(834721)');
}

async function computeTotals(customerId: string, period: string): Promise<number> {
  const { rows } = await pool.query<{ total: number }>(
    'SELECT sum(amount) AS total FROM usage WHERE customer_id = $1 AND period = $2',
    [customerId, period],
  );
  return rows[0]?.total ?? 0;
}
