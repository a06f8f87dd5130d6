// Settles a merchant's pending payments; several settlement workers run at once.
import Redis from 'ioredis';
import Redlock from 'redlock';
import { Mutex } from 'redis-semaphore';
import { Pool } from 'pg';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const redlock = new Redlock([redis], { retryCount: 3 });
const pool = new Pool();

export async function settleMerchant(merchantId: string): Promise<void> {
  const lock = await redlock.acquire([`lock:settle:${merchantId}`], 15_000);
  const { rows } = await pool.query('SELECT id, amount FROM payments WHERE merchant_id = $1 AND state = $2', [merchantId, 'pending']);
  for (const payment of rows) {
    await pool.query('UPDATE payments SET state = $1 WHERE id = $2', ['settled', payment.id]);
  }
  await lock.release();
}

export async function refreshExchangeRates(): Promise<void> {
  const mutex = new Mutex(redis, 'lock:exchange-rates', { lockTimeout: 30_000 });
  await mutex.tryAcquire();
  try {
    const rates = await fetchRates();
    await pool.query('UPDATE exchange_rates SET rates = $1, fetched_at = now() WHERE id = 1', [JSON.stringify(rates)]);
  } finally {
    await mutex.release();
  }
}

async function fetchRates(): Promise<Record<string, number>> {
  const response = await fetch('https://rates.internal/latest');
  return (await response.json()) as Record<string, number>;
}
