// Calls through clients, pools and lock helpers that other modules of the project export
// (model/project/): the modules are written to a temporary directory, as a project keeps them
// (`src/redis.ts` exporting the client, `src/lock.ts` the helpers, a NodeNext `./x.js` import,
// a tsconfig path alias, a package `#db` import, CommonJS `module.exports`), and the caller is
// linted through ESLint with the plugin, with no type information.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import { after, before, describe, it } from 'mocha';
import plugin from '../../../../eslint-plugin/src/index.js';
import { clearModules } from '../../../../eslint-plugin/src/model/project/modules.js';
import { clearResolutions, resolveImport } from '../../../../eslint-plugin/src/model/project/resolve.js';

let root = '';

function write(relative: string, text: string): string {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

function lint(relative: string, text: string): string[] {
  const file = write(relative, text);
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [
    plugin.configs.strict as unknown as Linter.Config,
    { files: ['**/*.ts'], languageOptions: { parser: typescriptParser as unknown as Linter.Parser } },
    { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' as const } },
  ];
  const messages = linter.verify(text, config, { filename: file });
  for (const message of messages) assert.notEqual(message.fatal, true, message.message);
  return messages.map((message) => `${message.line} ${message.ruleId ?? ''}`).sort();
}

describe('project modules: imported clients, pools and lock helpers', () => {
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-project-'));
    write('package.json', JSON.stringify({ name: 'app', type: 'module', imports: { '#db': './src/db/pool.ts' } }));
    write(
      'tsconfig.json',
      '{\n  // comments are allowed\n  "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["src/lib/*"] }, },\n}\n',
    );
    write('src/redis.ts', "import Redis from 'ioredis';\nexport const redis = new Redis();\n");
    write('src/lib/cache.ts', "import { createClient } from 'redis';\nconst client = createClient();\nexport default client;\n");
    write('src/lib/index.ts', "export * from '../redis.js';\n");
    write('src/db/pool.ts', "import { Pool } from 'pg';\nexport const pool = new Pool();\n");
    write(
      'src/lock.ts',
      [
        "import { redis } from './redis.js';",
        'export async function acquireLock(key: string, ttl = 5000) {',
        "  return redis.set(key, crypto.randomUUID(), 'PX', ttl, 'NX');",
        '}',
        'export async function releaseLock(key: string) {',
        '  await redis.del(key);',
        '}',
        '',
      ].join('\n'),
    );
    write('src/legacy/client.cjs', "'use strict';\nconst Redis = require('ioredis');\nmodule.exports = new Redis();\n");
  });

  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
    clearModules();
    clearResolutions();
  });

  it('resolves NodeNext `.js` to `.ts`, index files, tsconfig paths and package imports', () => {
    const from = path.join(root, 'src/app.ts');
    assert.equal(resolveImport(from, './redis.js'), path.join(root, 'src/redis.ts'));
    assert.equal(resolveImport(from, './lib'), path.join(root, 'src/lib/index.ts'));
    assert.equal(resolveImport(from, '@lib/cache'), path.join(root, 'src/lib/cache.ts'));
    assert.equal(resolveImport(from, '#db'), path.join(root, 'src/db/pool.ts'));
    assert.equal(resolveImport(from, 'ioredis'), undefined);
    assert.equal(resolveImport(from, './missing'), undefined);
  });

  it('resolves a workspace package from any depth of a sibling package, and no package the workspace lacks', () => {
    const monorepo = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-workspace-'));
    const put = (relative: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(monorepo, relative)), { recursive: true });
      fs.writeFileSync(path.join(monorepo, relative), text);
    };
    try {
      put('package.json', JSON.stringify({ private: true, workspaces: ['packages/*', 'apps/api'] }));
      put('packages/db/package.json', JSON.stringify({ name: '@acme/db', main: 'src/index.ts' }));
      put('packages/db/src/index.ts', 'export const redis = 1;\n');
      put('packages/db/src/locks.ts', 'export const locks = 1;\n');
      put('apps/api/package.json', '{ "name": "api" }');
      // The deeper file first: the directories it walks through answer the shallower one.
      assert.equal(
        resolveImport(path.join(monorepo, 'apps/api/src/jobs/sweep.ts'), '@acme/db'),
        path.join(monorepo, 'packages/db/src/index.ts'),
      );
      assert.equal(
        resolveImport(path.join(monorepo, 'apps/api/src/main.ts'), '@acme/db/locks'),
        path.join(monorepo, 'packages/db/src/locks.ts'),
      );
      assert.equal(resolveImport(path.join(monorepo, 'apps/api/src/main.ts'), '@acme/cache'), undefined);
    } finally {
      fs.rmSync(monorepo, { recursive: true, force: true });
      clearResolutions();
    }
  });

  it('a pnpm workspace (pnpm-workspace.yaml) and a Prisma client generated into the project are followed', () => {
    const monorepo = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-pnpm-'));
    const put = (relative: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(monorepo, relative)), { recursive: true });
      fs.writeFileSync(path.join(monorepo, relative), text);
    };
    try {
      put('package.json', JSON.stringify({ private: true }));
      put(
        'pnpm-workspace.yaml',
        "packages:\n  - 'packages/*'\n  - apps/web # the site\n  - '!**/fixtures/**'\nonlyBuiltDependencies:\n  - prisma\n",
      );
      put('packages/db/package.json', JSON.stringify({ name: '@acme/db', exports: { '.': './src/index.ts' } }));
      put(
        'packages/db/src/index.ts',
        "import { PrismaClient } from '../generated/client/client';\nexport const prisma = new PrismaClient();\n",
      );
      put('apps/web/package.json', '{ "name": "web" }');
      const text = [
        "import { prisma as db } from '@acme/db';",
        'export async function refresh(id: number) {',
        '  await db.$queryRaw`SELECT pg_advisory_lock(${id})`;',
        '  await work();',
        '  await db.$executeRaw`SELECT pg_advisory_unlock(${id})`;',
        '}',
        'declare function work(): Promise<void>;',
        '',
      ].join('\n');
      const file = path.join(monorepo, 'apps/web/src/refresh.ts');
      put('apps/web/src/refresh.ts', text);
      assert.equal(resolveImport(file, '@acme/db'), path.join(monorepo, 'packages/db/src/index.ts'));
      const linter = new Linter({ configType: 'flat', cwd: monorepo });
      const messages = linter.verify(
        text,
        [
          plugin.configs.strict as unknown as Linter.Config,
          { files: ['**/*.ts'], languageOptions: { parser: typescriptParser as unknown as Linter.Parser } },
        ],
        { filename: file },
      );
      const found = messages.map((message) => `${message.line} ${message.ruleId ?? ''}`);
      assert.ok(found.includes('3 locksmith/no-pooled-advisory-lock'), found.join('\n'));
    } finally {
      fs.rmSync(monorepo, { recursive: true, force: true });
      clearResolutions();
      clearModules();
    }
  });

  it('a file that only calls imported lock helpers gets their meaning (acquire check, release in finally)', () => {
    const found = lint(
      'src/jobs/report.ts',
      [
        "import { acquireLock, releaseLock } from '../lock.js';",
        'export async function run(id: string) {',
        '  await acquireLock(`lock:report:${id}`);',
        '  await work(id);',
        '  await releaseLock(`lock:report:${id}`);',
        '}',
        'declare function work(id: string): Promise<void>;',
        '',
      ].join('\n'),
    );
    assert.ok(found.includes('3 locksmith/require-acquire-check'), found.join('\n'));
    assert.ok(found.includes('3 locksmith/require-release-in-finally'), found.join('\n'));
  });

  it('a plain DEL through a client imported from a barrel, an alias or module.exports is a Redis release', () => {
    for (const [source, local] of [
      ['../lib', '{ redis }'],
      ['@lib/cache', 'redis'],
      ['../legacy/client.cjs', 'redis'],
    ] as const) {
      const found = lint(
        'src/jobs/unlock.ts',
        [
          `import ${local} from '${source}';`,
          'export async function unlock(name: string) {',
          '  await redis.del(`lock:${name}`);',
          '}',
          '',
        ].join('\n'),
      );
      assert.deepEqual(found, ['3 locksmith/no-unsafe-release'], `${source}: ${found.join(', ')}`);
    }
  });

  it('a client imported under a neutral name is followed when the file takes a lock with SET NX', () => {
    write('src/db/store.ts', "import Redis from 'ioredis';\nexport const store = new Redis(process.env.REDIS_URL);\n");
    const found = lint(
      'src/jobs/nightly.ts',
      [
        "import { store } from '../db/store.js';",
        'export async function runNightly(token: string) {',
        "  await store.set('lock:nightly', token, 'PX', 30000, 'NX');",
        '  await work();',
        "  await store.del('lock:nightly');",
        '}',
        'declare function work(): Promise<void>;',
        '',
      ].join('\n'),
    );
    assert.deepEqual(found, [
      '3 locksmith/require-acquire-check',
      '3 locksmith/require-release-in-finally',
      '5 locksmith/no-unsafe-release',
    ]);
    // The same calls on a Map imported under that name stay silent.
    write('src/db/memory.ts', 'export const store = new Map<string, string>();\n');
    assert.deepEqual(
      lint(
        'src/jobs/memory.ts',
        [
          "import { store } from '../db/memory.js';",
          "export function mark(token: string) { store.set('lock:nightly', token); store.delete('lock:nightly'); }",
          '',
        ].join('\n'),
      ),
      [],
    );
  });

  it('a Redlock instance another module makes is a Redlock where it is imported (ES import and require)', () => {
    write(
      'src/locks/redlock.ts',
      "import Redlock from 'redlock';\nimport { redis } from '../redis.js';\nexport const redlock = new Redlock([redis], { retryCount: 3 });\n",
    );
    write(
      'src/locks/redlock.cjs',
      "const Redlock = require('redlock');\nconst Redis = require('ioredis');\nconst redlock = new Redlock([new Redis()]);\nmodule.exports = { redlock };\n",
    );
    const body = [
      'export async function restock(db: Db, id: string) {',
      '  const lock = await redlock.acquire([`lock:stock:${id}`], 5000);',
      "  const qty = await db.query('SELECT qty FROM stock WHERE id = $1', [id]);",
      "  await db.query('UPDATE stock SET qty = $2 WHERE id = $1', [id, qty]);",
      '  await lock.release();',
      '}',
      'interface Db { query(sql: string, values: unknown[]): Promise<unknown> }',
      '',
    ];
    const expected = ['3 locksmith/require-release-in-finally', '5 locksmith/require-fencing-token'];
    assert.deepEqual(lint('src/jobs/restock.ts', ["import { redlock } from '../locks/redlock.js';", ...body].join('\n')), expected);
    assert.deepEqual(
      lint('src/jobs/restock-cjs.ts', ["const { redlock } = require('../locks/redlock.cjs');", ...body].join('\n')),
      expected,
    );
    // A resource pool another module makes has `acquire` and `release` too, and is no lock.
    write('src/pools.ts', "import { createPool } from 'generic-pool';\nexport const browsers = createPool({ create, destroy });\n");
    assert.deepEqual(
      lint(
        'src/jobs/render.ts',
        [
          "import { browsers } from '../pools.js';",
          ...body.map((line) => line.replace('redlock.acquire([`lock:stock:${id}`], 5000)', 'browsers.acquire()')),
        ].join('\n'),
      ),
      [],
    );
  });

  it('a client a method of an injected service hands out is a client (declared return type, getter, factory)', () => {
    write(
      'src/infra/redis.service.ts',
      [
        "import Redis from 'ioredis';",
        'export class RedisService {',
        '  private static shared: Redis | null = null;',
        '  getClient(): Redis {',
        "    if (!RedisService.shared) throw new Error('not connected');",
        '    return RedisService.shared;',
        '  }',
        '  async connection() {',
        '    return new Redis();',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const found = lint(
      'src/infra/lock.service.ts',
      [
        "import { RedisService } from './redis.service.js';",
        'export class LockService {',
        '  constructor(private readonly redisService: RedisService) {}',
        '  async acquire(key: string, ttl: number) {',
        "    return this.redisService.getClient().set(`lock:${key}`, String(Date.now()), 'PX', ttl, 'NX');",
        '  }',
        '  async release(key: string) {',
        '    await (await this.redisService.connection()).del(`lock:${key}`);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    assert.deepEqual(found, ['5 locksmith/require-unique-token', '8 locksmith/no-unsafe-release']);
    // A service of the same shape whose method hands out a Map is no client.
    write('src/infra/memo.service.ts', 'export class MemoService {\n  getClient() {\n    return new Map<string, string>();\n  }\n}\n');
    assert.deepEqual(
      lint(
        'src/infra/memo-user.ts',
        [
          "import { MemoService } from './memo.service.js';",
          'export class Marks {',
          '  constructor(private readonly memo: MemoService) {}',
          "  mark(key: string) { this.memo.getClient().set(`lock:${key}`, 'x'); this.memo.getClient().delete(`lock:${key}`); }",
          '}',
          '',
        ].join('\n'),
      ),
      [],
    );
  });

  it('a lock service over pass-through command wrappers, with its script in another module and bare tsconfig-path imports', () => {
    const app = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-wrappers-'));
    const put = (relative: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(app, relative)), { recursive: true });
      fs.writeFileSync(path.join(app, relative), text);
    };
    try {
      put('tsconfig.json', JSON.stringify({ compilerOptions: { paths: { 'infra/*': ['./src/infra/*'], 'locks/*': ['./src/locks/*'] } } }));
      put(
        'src/infra/store.ts',
        [
          "import Redis from 'ioredis';",
          'export class Store {',
          '  private readonly client: Redis = new Redis();',
          '  private timed<T>(label: string, run: () => Promise<T>): Promise<T> { console.time(label); return run(); }',
          '  async eval(script: string, numberOfKeys: number, ...args: string[]) {',
          "    return this.timed('eval', async () => this.client.eval(script, numberOfKeys, ...args));",
          '  }',
          '  async get(key: string) { return this.client.get(key); }',
          '  async del(key: string, extra: string) { return this.client.del(key, extra); }',
          '}',
          '',
        ].join('\n'),
      );
      put(
        'src/infra/store-service.ts',
        "import { Store } from 'infra/store';\nexport class StoreService {\n  constructor(private readonly store: Store) {}\n  eval(script: string, keys: number, ...args: string[]) {\n    return this.store.eval(script, keys, ...args);\n  }\n}\n",
      );
      put(
        'src/locks/scripts.ts',
        "export const RELEASE = `\nif redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0\n`;\n",
      );
      put(
        'src/locks/lock-service.ts',
        [
          "import { StoreService } from 'infra/store-service';",
          "import { RELEASE } from 'locks/scripts';",
          'export class LockService {',
          '  constructor(private readonly storeService: StoreService) {}',
          '  async releaseLock(id: string, token: string): Promise<boolean> {',
          '    const released = await this.storeService.eval(RELEASE, 1, `lock:${id}`, token);',
          '    return released === 1;',
          '  }',
          '}',
          '',
        ].join('\n'),
      );
      const text = [
        "import { LockService } from 'locks/lock-service';",
        'export class Worker {',
        '  constructor(private readonly lockService: LockService) {}',
        '  async finish(id: string, token: string) {',
        '    await this.lockService.releaseLock(id, token);',
        '  }',
        '}',
        '',
      ].join('\n');
      put('src/worker.ts', text);
      const linter = new Linter({ configType: 'flat', cwd: app });
      const config = [
        plugin.configs.strict as unknown as Linter.Config,
        { files: ['**/*.ts'], languageOptions: { parser: typescriptParser as unknown as Linter.Parser } },
      ];
      const messages = linter.verify(text, config, { filename: path.join(app, 'src/worker.ts') });
      assert.deepEqual(
        messages.map((message) => `${message.line} ${message.ruleId ?? ''}`),
        ['5 locksmith/require-release-check'],
      );
    } finally {
      fs.rmSync(app, { recursive: true, force: true });
      clearResolutions();
      clearModules();
    }
  });

  it('a session advisory lock through a pool imported by a package import is on a pool', () => {
    const found = lint(
      'src/jobs/advisory.ts',
      [
        "import { pool } from '#db';",
        'export async function tryLock(id: number) {',
        "  const { rows } = await pool.query('SELECT pg_try_advisory_lock($1) AS locked', [id]);",
        '  return rows[0].locked === true;',
        '}',
        '',
      ].join('\n'),
    );
    assert.ok(found.includes('3 locksmith/no-pooled-advisory-lock'), found.join('\n'));
  });

  it('lookalikes stay silent: a Map and a non-helper imported by a lock-like name, a missing module', () => {
    write('src/blocks.ts', 'export const blockCache = new Map<string, string>();\nexport function releaseNotes() { return []; }\n');
    const found = lint(
      'src/jobs/quiet.ts',
      [
        "import { blockCache, releaseNotes } from '../blocks.js';",
        "import { lockThing } from '../nowhere.js';",
        'export async function quiet(k: string) {',
        '  blockCache.delete(k);',
        '  releaseNotes();',
        '  await lockThing(k);',
        '}',
        '',
      ].join('\n'),
    );
    assert.deepEqual(found, []);
  });
});
