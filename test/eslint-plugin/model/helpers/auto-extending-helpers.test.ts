// Auto-extending lock helpers (model/auto-extension.ts, the summaries of model/helpers/): a
// helper module's Redlock `using` wrapper and redis-semaphore `Mutex` factory, reached through a
// static getter or a class field, as Outline's `MutexLock` and OneUptime's `Semaphore` write them
// (the code is our own). The summaries carry the library and whether the lock auto-extends; the
// callers in another module are linted with the `strict` preset, untyped, and the rules agree.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { loadModule } from '../../../../eslint-plugin/src/model/project/modules.js';
import { buildRedisModel } from '../../../../eslint-plugin/src/model/redis/redis-model.js';
import { moduleHelperSummaries } from '../../../../eslint-plugin/src/model/lock-model.js';
import { readSharedSettings } from '../../../../eslint-plugin/src/model/facts/settings.js';
import { TempProject } from '../project/temp-project.js';

let project: TempProject;

/** name → library, autoExtending, lossHandled of the module's helpers. */
function summaries(relative: string): Map<string, string> {
  const module = loadModule(path.join(project.root, relative), 'helper');
  assert.ok(module, relative);
  const settings = readSharedSettings({ settings: {} });
  const model = buildRedisModel(module.sourceCode, module.filePath, null, settings, moduleHelperSummaries);
  return new Map(
    [...model.lockHelpers.values()].map((summary) => [
      summary.name ?? '',
      `${summary.role} ${summary.library} ${summary.autoExtending ? 'auto' : 'fixed'}${summary.lossHandled ? ' handled' : ''}`,
    ]),
  );
}

describe('project lock helpers: auto-extending locks', () => {
  before(() => {
    project = new TempProject('locksmith-auto-extending-');
    project.write('package.json', [JSON.stringify({ name: 'app', type: 'module' })]);
    project.write('src/db.ts', ["import { Pool } from 'pg';", 'export const pool = new Pool();']);
    // Redlock in a static getter's lazy singleton; one helper hands its callback to `using`, one wraps it.
    project.write('src/mutex-lock.ts', [
      "import Redis from 'ioredis';",
      "import Redlock, { type Lock, type RedlockAbortSignal } from 'redlock';",
      'export class MutexLock {',
      '  private static redlock: Redlock | undefined;',
      '  static get lock(): Redlock {',
      '    if (!this.redlock) this.redlock = new Redlock([new Redis()], { retryCount: 10 });',
      '    return this.redlock;',
      '  }',
      '  static async acquire(resource: string, ttl: number): Promise<Lock> {',
      '    return this.lock.acquire([resource], ttl);',
      '  }',
      '  static async using<T>(resource: string, ttl: number, routine: (signal: RedlockAbortSignal) => Promise<T>): Promise<T> {',
      '    return this.lock.using([resource], ttl, routine);',
      '  }',
      '  static async wrapped<T>(resource: string, ttl: number, work: () => Promise<T>): Promise<T> {',
      '    return this.lock.using([resource], ttl, async () => work());',
      '  }',
      '}',
    ]);
    // redis-semaphore Mutexes in a class field's client: refreshing, refreshing with onLockLost, not refreshing.
    project.write('src/semaphore.ts', [
      "import Redis from 'ioredis';",
      "import { Mutex, type LockOptions } from 'redis-semaphore';",
      'export default class Semaphore {',
      '  private static client = new Redis();',
      '  static async lock(key: string): Promise<Mutex> {',
      '    const options: LockOptions = { lockTimeout: 5000 };',
      '    const mutex = new Mutex(this.client, `lock-${key}`, options);',
      '    await mutex.acquire();',
      '    return mutex;',
      '  }',
      '  static async lockWatched(key: string): Promise<Mutex> {',
      '    const mutex = new Mutex(this.client, `watched-${key}`, { onLockLost: (error) => console.error(error) });',
      '    await mutex.acquire();',
      '    return mutex;',
      '  }',
      '  static async lockFixed(key: string): Promise<Mutex> {',
      '    const mutex = new Mutex(this.client, `fixed-${key}`, { refreshInterval: 0, lockTimeout: 60000 });',
      '    await mutex.acquire();',
      '    return mutex;',
      '  }',
      '  static async release(mutex: Mutex): Promise<void> {',
      '    await mutex.release();',
      '  }',
      '}',
    ]);
  });

  after(() => {
    project.remove();
  });

  it('summarises the library and the auto-extension of each helper', () => {
    assert.deepEqual(
      summaries('src/mutex-lock.ts'),
      new Map([
        ['acquire', 'acquire redlock fixed'],
        ['using', 'with-lock redlock auto'],
        // The caller's callback never sees the signal: not the caller's to handle.
        ['wrapped', 'acquire redlock fixed'],
      ]),
    );
    assert.deepEqual(
      summaries('src/semaphore.ts'),
      new Map([
        ['lock', 'acquire redis-semaphore auto'],
        ['lockWatched', 'acquire redis-semaphore auto handled'],
        ['lockFixed', 'acquire redis-semaphore fixed'],
        ['release', 'release redis-semaphore fixed'],
      ]),
    );
  });

  it("reports work under a helper's Redlock routine that never reads the signal, and its unfenced write", () => {
    assert.deepEqual(
      project.lint('src/update.ts', [
        "import { MutexLock } from './mutex-lock';",
        "import { pool } from './db';",
        'export async function update(id: string): Promise<void> {',
        '  await MutexLock.using(`doc:${id}`, 10000, async () => {',
        "    const { rows } = await pool.query('SELECT state FROM documents WHERE id = $1', [id]); if (rows[0]?.state !== 'done') await pool.query('UPDATE documents SET state = $1 WHERE id = $2', ['done', id]);",
        '  });',
        '}',
      ]),
      ['4 locksmith/require-lock-loss-handling', '5 locksmith/require-fencing-token'],
    );
  });

  it('stays silent on loss when the routine checks the signal, or when the helper wraps the routine', () => {
    assert.deepEqual(
      project.lint('src/checked.ts', [
        "import { MutexLock } from './mutex-lock';",
        "import { pool } from './db';",
        'export async function checked(id: string): Promise<void> {',
        '  await MutexLock.using(`doc:${id}`, 10000, async (signal) => {',
        '    if (signal.aborted) return;',
        "    const { rows } = await pool.query('SELECT state FROM documents WHERE id = $1', [id]); if (rows[0]?.state !== 'done') await pool.query('UPDATE documents SET state = $1 WHERE id = $2', ['done', id]);",
        '  });',
        '  await MutexLock.wrapped(`doc:${id}`, 10000, async () => {',
        "    const { rows } = await pool.query('SELECT state FROM documents WHERE id = $1', [id]); if (rows[0]?.state !== 'done') await pool.query('UPDATE documents SET state = $1 WHERE id = $2', ['again', id]);",
        '  });',
        '}',
      ]),
      ['6 locksmith/require-fencing-token', '9 locksmith/require-fencing-token'],
    );
  });

  it('reports a refreshing helper Mutex whose loss nobody handles, and still wants its release in finally', () => {
    assert.deepEqual(
      project.lint('src/probe.ts', [
        "import Semaphore from './semaphore';",
        "import { pool } from './db';",
        'export async function probe(id: string): Promise<void> {',
        '  const mutex = await Semaphore.lock(id);',
        "  const { rows } = await pool.query('SELECT id FROM probes WHERE id = $1', [id]); if (rows.length === 0) await pool.query('INSERT INTO probes (id) VALUES ($1)', [id]);",
        '  await Semaphore.release(mutex);',
        '}',
      ]),
      ['4 locksmith/require-lock-loss-handling', '4 locksmith/require-release-in-finally', '5 locksmith/require-fencing-token'],
    );
  });

  it('stays silent on loss for a helper with onLockLost, one that does not refresh, and work that checks isAcquired', () => {
    assert.deepEqual(
      project.lint('src/quiet.ts', [
        "import Semaphore from './semaphore';",
        "import { pool } from './db';",
        'export async function watched(id: string): Promise<void> {',
        '  const mutex = await Semaphore.lockWatched(id);',
        '  try {',
        "    const { rows } = await pool.query('SELECT id FROM probes WHERE id = $1', [id]); if (rows.length === 0) await pool.query('INSERT INTO probes (id) VALUES ($1)', [id]);",
        '  } finally {',
        '    await Semaphore.release(mutex);',
        '  }',
        '}',
        'export async function fixed(id: string): Promise<void> {',
        '  const mutex = await Semaphore.lockFixed(id);',
        '  try {',
        "    const { rows } = await pool.query('SELECT id FROM probes WHERE id = $1', [id]); if (rows.length === 0) await pool.query('INSERT INTO probes (id) VALUES ($1)', [id]);",
        '  } finally {',
        '    await Semaphore.release(mutex);',
        '  }',
        '}',
        'export async function asked(id: string): Promise<void> {',
        '  const mutex = await Semaphore.lock(id);',
        '  try {',
        '    if (!mutex.isAcquired) return;',
        "    const { rows } = await pool.query('SELECT id FROM probes WHERE id = $1', [id]); if (rows.length === 0) await pool.query('INSERT INTO probes (id) VALUES ($1)', [id]);",
        '  } finally {',
        '    await Semaphore.release(mutex);',
        '  }',
        '}',
      ]),
      ['14 locksmith/require-fencing-token', '23 locksmith/require-fencing-token', '6 locksmith/require-fencing-token'],
    );
  });
});
