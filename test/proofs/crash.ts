// Runs a lock holder in a child process and SIGKILLs it right after a given step: a crash between
// two commands, at a point chosen by the test rather than by luck.

import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { ProvenDialect } from './fixed-code.js';
import type { ProofContext } from './harness.js';

/** What crash-holder.cjs runs: call texts over `redis`, `key`, `token`, `ttl`, one step at a time. */
export interface CrashHolderJob {
  readonly host: string;
  readonly port: number;
  readonly dialect: ProvenDialect;
  readonly key: string;
  readonly token: string;
  readonly ttlMs: number;
  readonly steps: readonly string[];
}

export interface CrashHolderReport {
  readonly step: number;
  readonly reply: unknown;
}

/** Starting a Node child on a loaded CI machine can take seconds; this bounds it, not the proof. */
const CHILD_STARTUP_TIMEOUT_MS = 60_000;

/** Starts the holder, lets it run `steps[0..killAfterStep]`, then kills it; resolves once it is dead. */
export async function crashHolderAfterStep(
  context: ProofContext,
  job: Omit<CrashHolderJob, 'host' | 'port'>,
  killAfterStep: number,
): Promise<readonly CrashHolderReport[]> {
  const fullJob: CrashHolderJob = { ...job, host: context.servers.redis.host, port: context.servers.redis.port };
  const child = fork(join(__dirname, 'crash-holder.cjs'), [JSON.stringify(fullJob)], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  context.defer(() => {
    child.kill('SIGKILL');
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const reports: CrashHolderReport[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => {
        reject(new Error('the crash holder never reached its kill point'));
      }, CHILD_STARTUP_TIMEOUT_MS);
      child.on('message', (message: CrashHolderReport) => {
        reports.push(message);
        if (message.step === killAfterStep) {
          child.kill('SIGKILL');
          resolve();
        } else {
          child.send('continue');
        }
      });
      child.once('exit', (code) => {
        reject(new Error(`the crash holder exited (${String(code)}) before its kill point`));
      });
    });
  } finally {
    clearTimeout(timer);
  }
  await exited;
  return reports;
}
