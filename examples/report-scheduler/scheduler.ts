// Builds the daily report once per day, on whichever serverless instance gets there first.
import { Redis } from '@upstash/redis';

const redis = Redis.fromEnv();
const LOCK_KEY = 'lock:daily-report';

export async function maybeBuildReport(day: string): Promise<void> {
  // Nobody holds the lock? Then take it.
  const holder = await redis.get(LOCK_KEY);
  if (holder) return;
  await redis.set(LOCK_KEY, 'locked');

  try {
    await buildReport(day);
  } finally {
    await redis.del(LOCK_KEY);
  }
}

export async function markRunning(instanceId: string): Promise<boolean> {
  // A second entry point that takes the same lock with no expiry at all.
  const taken = await redis.setnx('lock:report-rebuild', instanceId);
  return taken === 1;
}

async function buildReport(day: string): Promise<void> {
  await fetch(`https://reports.internal/build?day=${day}`, { method: 'POST' });
}
