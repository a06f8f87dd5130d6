// The lock map's text screen (lint.ts mayHoldLocks): no file whose lint maps a lock is screened out,
// over every example, fixture project and rule-doc sample, over imported helpers under any name,
// over locks that reach a file through other modules, and over the real-package corpus, indexed
// with the screen and without it; and a file the file screen lets through but that writes no
// acquisition (a Redis client's own source, an ORM's) is not parsed.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { lintText, mayHoldLocks, type LintInput } from '../../../extension/src/server/lint';
import { Settings, toSharedSettings } from '../../../extension/src/shared/settings';
import { textMayHoldLocks } from '../../../eslint-plugin/src/model/file-screen';
import { createReachMemo } from '../../../eslint-plugin/src/model/project/import-reach';

const repoRoot = path.resolve(__dirname, '../../..');
const SCRIPT = /\.(?:[cm]?[jt]s|[jt]sx)$/u;
const settings = Settings.from(undefined);

function scriptsUnder(folder: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...scriptsUnder(full));
    else if (SCRIPT.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

/** The js/ts code blocks of the rule docs, each as a file of its own in `folder`. */
function docSamples(folder: string): string[] {
  const files: string[] = [];
  for (const name of fs.readdirSync(path.join(repoRoot, 'rules-docs')).sort()) {
    const markdown = fs.readFileSync(path.join(repoRoot, 'rules-docs', name), 'utf8');
    let index = 0;
    for (const match of markdown.matchAll(/```(js|ts|javascript|typescript)\n([\s\S]*?)```/gu)) {
      const file = path.join(folder, `${path.basename(name, '.md')}-${index++}.${match[1]!.startsWith('t') ? 'ts' : 'js'}`);
      fs.writeFileSync(file, match[2]!);
      files.push(file);
    }
  }
  return files;
}

function inputOf(filePath: string): LintInput {
  return { text: fs.readFileSync(filePath, 'utf8'), filePath, settings };
}

/** The files whose lint maps at least one lock, and whether the screen let each through. */
function screenOf(files: readonly string[]): { withLocks: string[]; screenedOut: string[] } {
  const withLocks: string[] = [];
  const screenedOut: string[] = [];
  for (const file of files) {
    const outcome = lintText(inputOf(file));
    if (outcome.kind !== 'linted' || outcome.locks.length === 0) continue;
    withLocks.push(file);
    if (!mayHoldLocks(inputOf(file))) screenedOut.push(path.relative(repoRoot, file));
  }
  return { withLocks, screenedOut };
}

describe('lock map text screen', function () {
  this.timeout(120_000);
  let samples: string;
  let helpers: string;
  let modules: string;

  before(() => {
    samples = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-screen-docs-'));
    helpers = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-screen-helpers-'));
    modules = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-screen-modules-'));
  });

  after(() => {
    fs.rmSync(samples, { recursive: true, force: true });
    fs.rmSync(helpers, { recursive: true, force: true });
    fs.rmSync(modules, { recursive: true, force: true });
  });

  it('lets through every example and fixture project file that holds a lock', () => {
    const files = [...scriptsUnder(path.join(repoRoot, 'examples')), ...scriptsUnder(path.join(repoRoot, 'test/fixtures/projects'))];
    const { withLocks, screenedOut } = screenOf(files);
    assert.ok(withLocks.length >= 30, `the samples hold locks (${withLocks.length} files)`);
    assert.deepEqual(screenedOut, []);
  });

  it('lets through every rule-doc sample that holds a lock', () => {
    const { withLocks, screenedOut } = screenOf(docSamples(samples));
    assert.ok(withLocks.length >= 30, `the samples hold locks (${withLocks.length} files)`);
    assert.deepEqual(screenedOut, []);
  });

  it('lets through a file whose only lock is an imported helper, under its own name or another', () => {
    fs.writeFileSync(
      path.join(helpers, 'locks.ts'),
      `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function withLock<T>(key: string, work: () => Promise<T>): Promise<T | undefined> {
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', 30000, 'NX')) !== 'OK') return undefined;
  try {
    return await work();
  } finally {
    await redis.eval('if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0', 1, key, token);
  }
}
`,
    );
    const callers = {
      'named.ts': `import { withLock } from './locks';\nexport function nightly(): Promise<unknown> {\n  return withLock('nightly', async () => 1);\n}\n`,
      'renamed.ts': `import { withLock as guarded } from './locks';\nexport function nightly(): Promise<unknown> {\n  return guarded('nightly', async () => 1);\n}\n`,
      'required.js': `const { withLock: guarded } = require('./locks');\nexports.nightly = () => guarded('nightly', async () => 1);\n`,
      'namespace.ts': `import * as guard from './locks';\nexport function nightly(): Promise<unknown> {\n  return guard.withLock('nightly', async () => 1);\n}\n`,
      'member.js': `const guarded = require('./locks').withLock;\nexports.nightly = () => guarded('nightly', async () => 1);\n`,
      'equals.ts': `import locks = require('./locks');\nexport const nightly = (): Promise<unknown> => locks.withLock('nightly', async () => 1);\n`,
      'commented.ts': `import { /* the lock's helper */ withLock as guarded } from './locks';\nexport const nightly = (): Promise<unknown> => guarded('nightly', async () => 1);\n`,
      'listed.js': `const {\n  withLock,\n${Array.from({ length: 40 }, (_, index) => `  helper${index},\n`).join('')}} = require('./locks');\nexports.nightly = () => withLock('nightly', async () => 1);\n`,
    };
    for (const [name, text] of Object.entries(callers)) fs.writeFileSync(path.join(helpers, name), text);
    const files = Object.keys(callers).map((name) => path.join(helpers, name));
    const { withLocks, screenedOut } = screenOf(files);
    // Each caller holds the helper's lock (else this test proves nothing), and none is screened out.
    assert.ok(withLocks.length >= 4, `callers hold the helper's lock: ${withLocks.map((file) => path.basename(file)).join(', ')}`);
    assert.deepEqual(screenedOut, []);
  });

  it('lets through a file whose lock comes through another module: a helper behind a barrel, a client, a script file', () => {
    const write = (name: string, text: string): string => {
      const file = path.join(modules, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    };
    write('locks/with-lock.ts', fs.readFileSync(path.join(helpers, 'locks.ts'), 'utf8'));
    write('locks/index.ts', "export * from './with-lock';\n");
    write(
      'redlock-client.ts',
      "import Redlock from 'redlock';\nimport Redis from 'ioredis';\nexport const redlock = new Redlock([new Redis()]);\n",
    );
    write('scripts/take.lua', "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\n");
    const files = [
      write(
        'barrel.ts',
        "import { withLock } from './locks';\nexport const nightly = (): Promise<unknown> => withLock('nightly', async () => 1);\n",
      ),
      // The client is the other module's: this file names no lock library.
      write(
        'settle.ts',
        `import Redis from 'ioredis';
import { redlock } from './redlock-client';
const cache = new Redis();
export async function settle(work: () => Promise<void>): Promise<void> {
  const lock = await redlock.acquire(['invoice:1'], 5000);
  try {
    await work();
    await cache.incr('settled');
  } finally {
    await lock.release();
  }
}
`,
      ),
      // The script's SET NX is in the .lua file the module reads.
      write(
        'nightly.js',
        `const Redis = require('ioredis');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const TAKE = readFileSync(path.join(__dirname, 'scripts/take.lua'), 'utf8');
const redis = new Redis();
exports.nightly = async function nightly(token, work) {
  if (!(await redis.eval(TAKE, 1, 'lock:nightly', token, 30000))) return;
  try {
    await work();
  } finally {
    await redis.del('lock:nightly');
  }
};
`,
      ),
      // A lock table known by its owner and expiry columns, written through knex.
      write(
        'claim.js',
        "const knex = require('knex');\nconst db = knex({ client: 'pg' });\nexports.claim = async (name, owner) => {\n  await db('jobs').insert({ name, owner, expires_at: new Date(Date.now() + 30000) });\n  await db('jobs').where({ name, owner }).del();\n};\n",
      ),
    ];
    const { withLocks, screenedOut } = screenOf(files);
    assert.deepEqual(
      withLocks.map((file) => path.basename(file)),
      files.map((file) => path.basename(file)),
      'each file holds a lock (else this test proves nothing)',
    );
    assert.deepEqual(screenedOut, []);
  });

  it('screens out what the file screen lets through but takes no lock: a Redis client, an ORM, a lock-named class', () => {
    const write = (name: string, text: string): string => {
      const file = path.join(modules, 'lookalikes', name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    };
    write(
      'queue-lock.ts',
      "import Redis from 'ioredis';\nexport class QueueLock { constructor(private readonly redis: Redis) {} lock(): void {} }\n",
    );
    const files = [
      // A Redis client's own commands: option names and command names, no acquisition.
      write(
        'client.js',
        `const { createClient, Command } = require('redis');
class SetCommand extends Command { constructor(cmd, opts) { super(["set", ...cmd], opts); } }
class SetNxCommand extends Command { constructor(cmd, opts) { super(["setnx", ...cmd], opts); } }
function setOptions(command, opts) {
  if ("nx" in opts && opts.nx) command.push("nx");
  if (opts.expiration) command.push("px", opts.expiration);
}
exports.client = createClient();
`,
      ),
      // An ORM's entity manager: an insert method, a member and a variable named like lock columns.
      write(
        'entity-manager.js',
        `const { Pool } = require('pg');
const pool = new Pool();
class EntityManager {
  async insert(entity) {
    const expiration = this.config.get('lockTimeout');
    if (!this.meta.owner) await this.driver.nativeInsert(entity, { expiration });
  }
  async lock(entity, mode) { await pool.query('SELECT 1 FROM entities WHERE id = $1 FOR UPDATE', [entity.id]); }
}
exports.EntityManager = EntityManager;
`,
      ),
      // A lock-named method of a class another module exports, whose module takes no lock.
      write(
        'worker.ts',
        "import Redis from 'ioredis';\nimport { QueueLock } from './queue-lock';\nconst redis = new Redis();\nexport async function run(): Promise<void> {\n  const queueLock = new QueueLock(redis);\n  queueLock.lock();\n  await redis.get('jobs');\n}\n",
      ),
    ];
    for (const file of files) {
      const input = inputOf(file);
      assert.equal(
        textMayHoldLocks(input.text, toSharedSettings(settings), false),
        true,
        `the file screen lets ${path.basename(file)} through`,
      );
      const outcome = lintText(input);
      assert.ok(outcome.kind === 'linted' && outcome.locks.length === 0, `${path.basename(file)} holds no lock`);
      assert.equal(mayHoldLocks(input), false, path.basename(file));
    }
  });

  it('maps the same locks of the real-package corpus with the screen as without it', async function () {
    // About 300 files pass the file screen and are linted; the machine is shared.
    this.timeout(900_000);
    const corpus = (await import(path.join(repoRoot, 'corpus/files.mjs'))) as {
      collectCorpusFiles(): string[];
      ensureCorpusInstalled(): boolean;
      corpusModules: string;
    };
    corpus.ensureCorpusInstalled();
    // ESLint ignores what lies under node_modules/: the packages are read through a link named otherwise.
    const link = path.join(modules, 'corpus');
    fs.symlinkSync(corpus.corpusModules, link);
    const memo = createReachMemo();
    const withoutScreen: string[] = [];
    const withScreen: string[] = [];
    let admitted = 0;
    let linted = 0;
    for (const original of corpus.collectCorpusFiles()) {
      const input = inputOf(path.join(link, path.relative(corpus.corpusModules, original)));
      const screened = mayHoldLocks(input, memo);
      if (screened) admitted += 1;
      // Without the screen, a file the file screen turns away holds no lock (its own test shows so): not linted.
      if (!textMayHoldLocks(input.text, toSharedSettings(settings), false)) continue;
      linted += 1;
      const outcome = lintText(input);
      if (outcome.kind !== 'linted') continue;
      const locks = outcome.locks.map(
        (lock) => `${path.relative(link, input.filePath)}:${lock.acquired.start.line} ${lock.kind} ${lock.name}`,
      );
      withoutScreen.push(...locks);
      if (screened) withScreen.push(...locks);
    }
    assert.ok(withoutScreen.length >= 40, `the corpus holds locks (${withoutScreen.length})`);
    assert.deepEqual(withScreen, withoutScreen);
    // The screen is worth its keep: most files the file screen lets through are not parsed.
    assert.ok(admitted * 3 < linted, `${admitted} files admitted of ${linted} the file screen lets through`);
  });

  it('screens out files that hold no lock without parsing them', () => {
    assert.equal(mayHoldLocks({ text: 'export const cache = new Map();\n', filePath: '/work/cache.js', settings }), false);
    assert.equal(
      mayHoldLocks({
        text: 'export function release(pool) { return pool.end(); }\n',
        filePath: '/work/pool.ts',
        settings: { ...settings, typeAware: true },
      }),
      true,
      'type-aware lints are never screened',
    );
  });
});
