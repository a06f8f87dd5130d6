// Test harness: throwaway project directories and the real `locksmith` binary run in them.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const REPOSITORY_ROOT = path.resolve(__dirname, '../../..');
export const LOCKSMITH_BIN = path.join(REPOSITORY_ROOT, 'eslint-plugin/bin/locksmith.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node eslint-plugin/bin/locksmith.js ...args` in `cwd`, as a user's shell would. */
export function runLocksmith(cwd: string, args: readonly string[], env: Readonly<Record<string, string>> = { FORCE_COLOR: '0' }): CliRun {
  const child = spawnSync(process.execPath, [LOCKSMITH_BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (child.error) throw child.error;
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** A fresh directory holding `files` (relative path → content); removed by the returned cleanup. */
export function makeProject(files: Readonly<Record<string, string>>): { root: string; cleanup: () => void } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-cli-')));
  writeFiles(root, files);
  return {
    root,
    cleanup: () => {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
}

/** The lines a user sees on stderr, without the trailing empty one. */
export function stderrLines(run: CliRun): string[] {
  return run.stderr.split('\n').filter((line) => line !== '');
}

export interface JsonMessage {
  ruleId: string | null;
  severity: number;
  fatal?: boolean;
  message: string;
  line: number;
}

export interface JsonResult {
  filePath: string;
  messages: JsonMessage[];
  suppressedMessages: JsonMessage[];
  errorCount: number;
  warningCount: number;
}

export function parseJsonReport(run: CliRun): JsonResult[] {
  return JSON.parse(run.stdout) as JsonResult[];
}

/** Linted files named relative to `root`, with forward slashes, sorted. */
export function lintedFiles(run: CliRun, root: string): string[] {
  return parseJsonReport(run)
    .map((result) => path.relative(root, result.filePath).split(path.sep).join('/'))
    .sort();
}

// Correct lock code except for one bug: a split acquisition (`SETNX` then `EXPIRE`, line 17),
// a `no-split-acquire` error in `recommended`.
export const SPLIT_ACQUIRE_SOURCE = `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';

const RELEASE_LOCK_SCRIPT = \`
if redis.call("GET", KEYS[1]) == ARGV[1] then
    return redis.call("DEL", KEYS[1])
else
    return 0
end
\`;
const redis = new Redis();

export async function runNightlyJob(work) {
  const token = randomUUID();
  const acquired = await redis.setnx('lock:nightly-job', token);
  if (!acquired) return;
  await redis.expire('lock:nightly-job', 30);
  try {
    await work();
  } finally {
    await redis.eval(RELEASE_LOCK_SCRIPT, 1, 'lock:nightly-job', token);
  }
}
`;

/** Line of the `EXPIRE` call in SPLIT_ACQUIRE_SOURCE. */
export const SPLIT_ACQUIRE_EXPIRY_LINE = 17;

// Correct lock code except for a plain `DEL` release (line 13): a `no-unsafe-release` error in `recommended`.
export const UNSAFE_RELEASE_SOURCE = `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';

const redis = new Redis();

export async function chargeInvoice(invoiceId, charge) {
  const token = randomUUID();
  const acquired = await redis.set('lock:x', token, 'NX', 'PX', 30000);
  if (acquired !== 'OK') return;
  try {
    await charge(invoiceId);
  } finally {
    await redis.del('lock:x');
  }
}
`;

// A CommonJS package's lock helper, as shipped in node_modules: correct except for a plain `DEL`
// release (line 10), a `no-unsafe-release` error in `recommended`.
export const UNSAFE_RELEASE_CJS_SOURCE = `'use strict';
const Redis = require('ioredis');
const redis = new Redis();
module.exports = async function withLock(token, work) {
  const acquired = await redis.set('lock:x', token, 'NX', 'PX', 30000);
  if (acquired !== 'OK') return;
  try {
    await work();
  } finally {
    await redis.del('lock:x');
  }
};
`;

/** Line of the plain `DEL` in UNSAFE_RELEASE_CJS_SOURCE. */
export const UNSAFE_RELEASE_CJS_DEL_LINE = 10;

/** Mocha timeout for suites that spawn the CLI: generous, as it bounds a hang, not a speed. */
export const CLI_SUITE_TIMEOUT_MS = 120_000;
