// A nightly job runner: each job must run on one worker at a time.
const Redis = require('ioredis');

const redis = new Redis(process.env.REDIS_URL);
const LOCK_TTL_SECONDS = 60;

async function runJob(job) {
  const lockKey = `lock:job:${job.name}`;
  const token = `${process.pid}:${Date.now()}`;

  // Take the lock, then give it a lifetime.
  const acquired = await redis.setnx(lockKey, token);
  if (!acquired) {
    console.log(`${job.name} already running elsewhere`);
    return;
  }
  await redis.expire(lockKey, LOCK_TTL_SECONDS);

  // Keep the lock alive while the job runs long.
  const renew = setInterval(() => {
    redis.pexpire(lockKey, LOCK_TTL_SECONDS * 1000);
  }, 10_000);

  try {
    await job.run();
  } finally {
    clearInterval(renew);
    await redis.del(lockKey);
  }
}

module.exports = { runJob };
