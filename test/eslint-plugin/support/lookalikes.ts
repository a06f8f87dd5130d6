// Lookalikes of a lock that several rules must leave silent, written once: a debounce latch and two
// idempotency records (a key claimed with SET NX, then overwritten with the result).

/** A debounce latch: SET NX PX wins the first crossing, and the DEL on the branch that returns before it re-arms the latch. */
export const DEBOUNCE_LATCH = `import Redis from 'ioredis';
const redis = new Redis();
export async function maybeSummarize(sessionId: string, total: number, limit: number) {
  const latch = \`ctx:summarize-latch:\${sessionId}\`;
  if (total < limit) {
    await redis.del(latch);
    return;
  }
  const won = await redis.set(latch, String(Date.now()), 'PX', 60000, 'NX');
  if (won !== 'OK') return;
  emitThreshold(sessionId);
}`;

/** An idempotency record in one function: claimed with SETNX, overwritten with the response, deleted when the work failed. */
export const IDEMPOTENCY_INTERCEPTOR = `import Redis from 'ioredis';
const redis = new Redis();
export async function handleOnce(idempotencyKey, handler) {
  const key = \`idempotent:\${idempotencyKey}\`;
  const cached = await redis.get(key);
  if (cached) return JSON.parse(cached);
  const claimed = await redis.setnx(key, 'PROCESSING');
  if (!claimed) throw new Error('in progress');
  const response = await handler();
  if (response.success) await redis.set(key, JSON.stringify(response), 'EX', 86400);
  else await redis.del(key);
  return response;
}`;

/** An idempotency record across a service's methods: claim (SET NX), confirm (SET 'done'), release (DEL). */
export const IDEMPOTENCY_SERVICE = `import Redis from 'ioredis';
export class ActionIdempotency {
  constructor(private readonly redis: Redis) {}
  buildKey(run: { id: string; step: string }) { return \`automation:idem:\${run.id}:\${run.step}\`; }
  async claim(run: { id: string; step: string }) { return (await this.redis.set(this.buildKey(run), 'in-flight', 'EX', 86400, 'NX')) === 'OK'; }
  async confirm(run: { id: string; step: string }) { await this.redis.set(this.buildKey(run), 'done', 'EX', 86400); }
  async release(run: { id: string; step: string }) { await this.redis.del(this.buildKey(run)); }
}`;
