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

// Takes the archive lock in one script. `SETNX` replies 0 or 1, and 0 is true in Lua: the script
// "takes" a lock another instance holds, and sets its TTL too.
const TAKE_ARCHIVE_LOCK = `
if redis.call("SETNX", KEYS[1], ARGV[1]) then
    redis.call("PEXPIRE", KEYS[1], ARGV[2])
    return 1
end
return 0
`;

export async function takeArchiveLock(instanceId: string): Promise<boolean> {
  return (await redis.eval(TAKE_ARCHIVE_LOCK, ['lock:report-archive'], [instanceId, '60000'])) === 1;
}

export async function publishReport(day: string, instanceId: string): Promise<void> {
  const taken = await redis.set('lock:report-publish', instanceId, { nx: true, px: 60_000 });
  if (!taken) return;
  try {
    await fetch(`https://reports.internal/publish?day=${day}`, { method: 'POST' });
    // Progress written to the lock's own key: it drops the TTL and the holder's token.
    await redis.set('lock:report-publish', 'published');
  } finally {
    await redis.eval(
      'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end',
      ['lock:report-publish'], [instanceId],
    );
  }
}
