// Starts a throwaway redis-server and a throwaway PostgreSQL on free loopback ports for the runtime
// proofs, and stops both (and deletes their data) however the run ends: normally, on an error, on
// SIGINT/SIGTERM, or at process exit.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServerInfo {
  readonly host: string;
  readonly port: number;
  readonly version: string;
}

export interface PostgresServerInfo {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  readonly version: string;
}

export interface ProofServers {
  readonly redis: RedisServerInfo;
  readonly postgres: PostgresServerInfo;
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const STARTUP_TIMEOUT_MS = 30_000;
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** The system user PostgreSQL runs as when the harness runs as root (postgres refuses root). */
const POSTGRES_RUN_USERS = ['nobody', 'locksmith-test'] as const;

/** LOCKSMITH_PG_BIN, else Debian's PostgreSQL 15 (what install-system-deps.sh installs), else pg_config's. */
function postgresBinDir(): string {
  if (process.env.LOCKSMITH_PG_BIN) return process.env.LOCKSMITH_PG_BIN;
  const debian15 = '/usr/lib/postgresql/15/bin';
  if (existsSync(join(debian15, 'initdb'))) return debian15;
  const fromPgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  return fromPgConfig.status === 0 ? fromPgConfig.stdout.trim() : debian15;
}

interface ManagedProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly folder: string;
  /** Signal for an orderly shutdown: SIGINT is PostgreSQL's "fast" mode, SIGTERM Redis's. */
  readonly stopSignal: NodeJS.Signals;
}

// Every process started and not yet stopped, so the emergency handlers can reach them.
const live = new Set<ManagedProcess>();

function killEverythingSync(): void {
  for (const managed of live) {
    if (managed.child.exitCode === null && managed.child.signalCode === null) {
      // SIGQUIT is PostgreSQL's immediate shutdown; Redis exits on it too.
      managed.child.kill('SIGQUIT');
    }
  }
  const deadline = Date.now() + 3_000;
  const waitCell = new Int32Array(new SharedArrayBuffer(4));
  for (const managed of live) {
    const pid = managed.child.pid;
    while (pid !== undefined && isAlive(pid) && Date.now() < deadline) Atomics.wait(waitCell, 0, 0, 20);
    if (pid !== undefined && isAlive(pid)) managed.child.kill('SIGKILL');
    rmSync(managed.folder, { recursive: true, force: true });
  }
  live.clear();
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A child that exited but that the event loop has not reaped yet is a zombie: it is gone.
  try {
    return !/^\d+ \(.*\) Z/u.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

function onFatalSignal(signal: NodeJS.Signals): void {
  killEverythingSync();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

let handlersInstalled = false;
function installEmergencyHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killEverythingSync);
  process.on('SIGINT', onFatalSignal);
  process.on('SIGTERM', onFatalSignal);
}

function uninstallEmergencyHandlersIfIdle(): void {
  if (!handlersInstalled || live.size > 0) return;
  handlersInstalled = false;
  process.off('exit', killEverythingSync);
  process.off('SIGINT', onFatalSignal);
  process.off('SIGTERM', onFatalSignal);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** Resolves once `pattern` appears in the child's output; rejects if it exits or times out first. */
async function waitForOutput(name: string, child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      finish(new Error(`${name} did not become ready within ${STARTUP_TIMEOUT_MS} ms:\n${output}`));
    }, STARTUP_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (pattern.test(output)) finish();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      finish(new Error(`${name} exited (${String(code ?? signal)}) before it was ready:\n${output}`));
    };
    function finish(error?: Error): void {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      // Keep draining the pipes so a chatty server never blocks on a full buffer.
      child.stdout?.resume();
      child.stderr?.resume();
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

async function stopProcess(managed: ManagedProcess): Promise<void> {
  const { child } = managed;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        resolve();
      }),
    );
    child.kill(managed.stopSignal);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        resolve('timeout');
      }, SHUTDOWN_TIMEOUT_MS);
    });
    const result = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    if (result === 'timeout') {
      child.kill('SIGKILL');
      await exited;
    }
  }
  rmSync(managed.folder, { recursive: true, force: true });
  live.delete(managed);
}

function commandPath(command: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (found.status !== 0 || path === '') {
    throw new Error(`${command} is not installed; run scripts/install-system-deps.sh`);
  }
  return path;
}

async function startRedis(): Promise<{ info: RedisServerInfo; managed: ManagedProcess }> {
  const binary = commandPath('redis-server');
  const version = /v=(\S+)/u.exec(spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout)?.[1] ?? 'unknown';
  const folder = mkdtempSync(join(tmpdir(), 'locksmith-proof-redis-'));
  const port = await freePort();
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      HOST,
      '--dir',
      folder,
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--logfile',
      '',
      '--loglevel',
      'notice',
    ],
    { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const managed: ManagedProcess = { name: 'redis-server', child, folder, stopSignal: 'SIGTERM' };
  live.add(managed);
  installEmergencyHandlers();
  try {
    await waitForOutput('redis-server', child, /Ready to accept connections/u);
  } catch (error) {
    await stopProcess(managed);
    throw error;
  }
  return { info: { host: HOST, port, version }, managed };
}

interface RunAs {
  readonly uid: number;
  readonly gid: number;
}

function findSystemUser(name: string): RunAs | undefined {
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const fields = line.split(':');
    if (fields[0] === name && fields[2] !== undefined && fields[3] !== undefined) {
      return { uid: Number(fields[2]), gid: Number(fields[3]) };
    }
  }
  return undefined;
}

/** PostgreSQL refuses to run as root: as root, pick (or create) an unprivileged system user. */
function postgresRunAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of POSTGRES_RUN_USERS) {
    const user = findSystemUser(name);
    if (user) return user;
  }
  const created = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'locksmith-test'], {
    encoding: 'utf8',
  });
  const user = findSystemUser('locksmith-test');
  if (created.status !== 0 || !user) throw new Error(`cannot create a user to run PostgreSQL as: ${created.stderr}`);
  return user;
}

async function startPostgres(): Promise<{ info: PostgresServerInfo; managed: ManagedProcess }> {
  const binDir = postgresBinDir();
  if (!existsSync(join(binDir, 'initdb'))) {
    throw new Error(`PostgreSQL binaries not found in ${binDir}; run scripts/install-system-deps.sh or set LOCKSMITH_PG_BIN`);
  }
  const runAs = postgresRunAs();
  const folder = mkdtempSync(join(tmpdir(), 'locksmith-proof-pg-'));
  const dataDir = join(folder, 'data');
  const ownership = runAs ? { uid: runAs.uid, gid: runAs.gid } : {};
  if (runAs) chownSync(folder, runAs.uid, runAs.gid);
  const initdb = spawnSync(
    join(binDir, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
    { cwd: folder, encoding: 'utf8', ...ownership },
  );
  if (initdb.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`initdb failed:\n${initdb.stdout}\n${initdb.stderr}`);
  }
  const version = /\d+(\.\d+)*/u.exec(spawnSync(join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout)?.[0] ?? 'unknown';
  const port = await freePort();
  const child = spawn(
    join(binDir, 'postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      folder,
      '-c',
      `listen_addresses=${HOST}`,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
      '-c',
      'log_min_messages=warning',
    ],
    { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'], ...ownership },
  );
  const managed: ManagedProcess = { name: 'postgres', child, folder, stopSignal: 'SIGINT' };
  live.add(managed);
  installEmergencyHandlers();
  try {
    await waitForOutput('postgres', child, /ready to accept connections/u);
  } catch (error) {
    await stopProcess(managed);
    throw error;
  }
  return { info: { host: HOST, port, user: 'postgres', database: 'postgres', version }, managed };
}

/** Starts both servers; if the second fails to start, the first is stopped before the error surfaces. */
export async function startServers(): Promise<ProofServers> {
  const redis = await startRedis();
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  try {
    postgres = await startPostgres();
  } catch (error) {
    await stopProcess(redis.managed);
    uninstallEmergencyHandlersIfIdle();
    throw error;
  }
  let stopped = false;
  return {
    redis: redis.info,
    postgres: postgres.info,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all([stopProcess(redis.managed), stopProcess(postgres.managed)]);
      uninstallEmergencyHandlersIfIdle();
    },
  };
}
