// Child process for the crash scenarios: runs lock call texts against Redis one step at a time,
// reporting after each, so the parent can kill it at an exact point between two commands.

import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { compileCall, type ProvenDialect } from './fixed-code.js';

export interface CrashHolderJob {
  readonly host: string;
  readonly port: number;
  readonly dialect: ProvenDialect;
  readonly key: string;
  readonly token: string;
  readonly ttlMs: number;
  /** Call texts over `redis`, `key`, `token`, `ttl`, run in order; the parent says when to go on. */
  readonly steps: readonly string[];
}

export interface CrashHolderReport {
  readonly step: number;
  readonly reply: unknown;
}

async function connect(job: CrashHolderJob): Promise<unknown> {
  if (job.dialect === 'ioredis') {
    const client = new Redis({ host: job.host, port: job.port, lazyConnect: true, maxRetriesPerRequest: 0 });
    await client.connect();
    return client;
  }
  const client = createClient({ socket: { host: job.host, port: job.port, reconnectStrategy: false } });
  await client.connect();
  return client;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '') as CrashHolderJob;
  const client = await connect(job);
  const nextMessage = async (): Promise<void> => new Promise((resolve) => process.once('message', () => { resolve(); }));
  for (const [step, text] of job.steps.entries()) {
    const reply = await compileCall(['key', 'token', 'ttl'], `return ${text};`)(client, job.key, job.token, job.ttlMs);
    const report: CrashHolderReport = { step, reply };
    process.send?.(report);
    await nextMessage();
  }
  process.exit(0);
}

// The parent going away ends the child too: it must never outlive the proof run.
process.on('disconnect', () => { process.exit(1); });
main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
