// Runs a lock holder in a child process and SIGKILLs it right after a given step: a crash between
// two commands, at a point chosen by the test rather than by luck.

import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { CrashHolderJob, CrashHolderReport } from './crash-holder.js';
import type { ProofContext } from './harness.js';

/** Starts the holder, lets it run `steps[0..killAfterStep]`, then kills it; resolves once it is dead. */
export async function crashHolderAfterStep(
  context: ProofContext,
  job: Omit<CrashHolderJob, 'host' | 'port'>,
  killAfterStep: number,
): Promise<readonly CrashHolderReport[]> {
  const fullJob: CrashHolderJob = { ...job, host: context.servers.redis.host, port: context.servers.redis.port };
  const child = fork(join(__dirname, 'crash-holder.ts'), [JSON.stringify(fullJob)], {
    execArgv: ['--require', require.resolve('tsx/cjs')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  context.defer(() => { child.kill('SIGKILL'); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve(); }));
  const reports: CrashHolderReport[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => { reject(new Error('the crash holder never reached its kill point')); }, context.options.waitTimeoutMs);
      child.on('message', (message: CrashHolderReport) => {
        reports.push(message);
        if (message.step === killAfterStep) {
          child.kill('SIGKILL');
          resolve();
        } else {
          child.send('continue');
        }
      });
      child.once('exit', (code) => { reject(new Error(`the crash holder exited (${String(code)}) before its kill point`)); });
    });
  } finally {
    clearTimeout(timer);
  }
  await exited;
  return reports;
}
