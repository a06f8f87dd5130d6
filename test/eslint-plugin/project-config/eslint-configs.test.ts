// locksmith.configs.project() through ESLint's own API and CLI: locksmith.json changes the
// findings, nested folders replace their ancestors, eslint.config.js still wins, and editing
// locksmith.json makes `eslint --cache` lint again.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { afterEach, describe, it } from 'mocha';
import locksmith from '../../../eslint-plugin/src/index.js';
import { planCliProjectConfig } from '../../../eslint-plugin/src/project-config/index.js';

const REPOSITORY_ROOT = path.resolve(__dirname, '../../..');
const BUILT_PLUGIN = path.join(REPOSITORY_ROOT, 'eslint-plugin/dist/index.js');
const ESLINT_BIN = path.join(REPOSITORY_ROOT, 'node_modules/eslint/bin/eslint.js');

// A plain DEL of a key is an unsafe release only when the key looks like a lock (lockKeyPattern).
const RELEASES = [
  "import Redis from 'ioredis';",
  'const redis = new Redis();',
  "export async function releaseLock() { await redis.del('lock:a'); }",
  "export async function releaseMutex() { await redis.del('mutex:b'); }",
  '',
].join('\n');

function makeTree(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-project-')));
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  return root;
}

type Finding = string;

function findings(results: readonly ESLint.LintResult[], root: string): Finding[] {
  return results
    .flatMap((result) =>
      result.messages.map(
        (message) => `${path.relative(root, result.filePath)}:${message.line} ${message.ruleId ?? 'fatal'} ${message.severity}`,
      ),
    )
    .sort();
}

async function lintWithProject(root: string, after: Linter.Config[] = []): Promise<Finding[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [...locksmith.configs.project({ cwd: root }), ...after] as Linter.Config[],
  });
  return findings(await eslint.lintFiles(['.']), root);
}

describe('project config: locksmith.configs.project() in ESLint', function () {
  this.timeout(60_000);
  let root = '';
  afterEach(() => {
    if (root !== '') fs.rmSync(root, { recursive: true, force: true });
  });

  it('is a function beside the configs, not one of them', () => {
    assert.equal(typeof locksmith.configs.project, 'function');
    assert.ok(!Object.keys(locksmith.configs).includes('project'));
  });

  it('changes the findings with locksmith.json: a rule off, a lock key pattern, a severity', async () => {
    root = makeTree({ 'src/a.js': RELEASES });
    assert.deepEqual(await lintWithProject(root), ['src/a.js:3 locksmith/no-unsafe-release 2']);
    fs.writeFileSync(path.join(root, 'locksmith.json'), JSON.stringify({ rules: { 'no-unsafe-release': 'off' } }));
    assert.deepEqual(await lintWithProject(root), []);
    fs.writeFileSync(
      path.join(root, 'locksmith.json'),
      JSON.stringify({ rules: { 'locksmith/no-unsafe-release': 1 }, settings: { lockKeyPattern: '^mutex:' } }),
    );
    assert.deepEqual(await lintWithProject(root), ['src/a.js:4 locksmith/no-unsafe-release 1']);
  });

  it("gives a nested folder its own configuration in full, never merged with its ancestor's", async () => {
    root = makeTree({
      'locksmith.json': JSON.stringify({ rules: { 'no-unsafe-release': 'warn' }, settings: { lockKeyPattern: '^mutex:' } }),
      'app.js': RELEASES,
      'packages/api/locksmith.json': JSON.stringify({ rules: {} }),
      'packages/api/src/api.js': RELEASES,
      'packages/web/package.json': JSON.stringify({ name: 'web', locksmith: { rules: { 'no-unsafe-release': 'off' } } }),
      'packages/web/web.js': RELEASES,
      'packages/plain/package.json': JSON.stringify({ name: 'plain' }),
      'packages/plain/plain.js': RELEASES,
    });
    assert.deepEqual(await lintWithProject(root), [
      'app.js:4 locksmith/no-unsafe-release 1',
      // Its own empty file: recommended, and the default lock key pattern, not the root's.
      'packages/api/src/api.js:3 locksmith/no-unsafe-release 2',
      // No "locksmith" key: the walk goes on to the root's file.
      'packages/plain/plain.js:4 locksmith/no-unsafe-release 1',
    ]);
  });

  it('turns Locksmith off for the files its ignores name, relative to its folder', async () => {
    root = makeTree({
      'pkg/locksmith.json': JSON.stringify({ ignores: ['generated/', '*.gen.js'] }),
      'pkg/generated/a.js': RELEASES,
      'pkg/b.gen.js': RELEASES,
      'pkg/src/c.gen.js': RELEASES,
      'generated/d.js': RELEASES,
    });
    assert.deepEqual(await lintWithProject(root), [
      'generated/d.js:3 locksmith/no-unsafe-release 2',
      'pkg/src/c.gen.js:3 locksmith/no-unsafe-release 2',
    ]);
  });

  it("lets the user's own objects, placed after it, win", async () => {
    root = makeTree({
      'locksmith.json': JSON.stringify({ rules: { 'no-unsafe-release': 'off' }, settings: { lockKeyPattern: '^mutex:' } }),
      'a.js': RELEASES,
    });
    assert.deepEqual(await lintWithProject(root, [{ rules: { 'locksmith/no-unsafe-release': 'warn' } }]), [
      'a.js:4 locksmith/no-unsafe-release 1',
    ]);
    assert.deepEqual(
      await lintWithProject(root, [
        { rules: { 'locksmith/no-unsafe-release': 'warn' }, settings: { locksmith: { lockKeyPattern: '^lock:' } } },
      ]),
      ['a.js:3 locksmith/no-unsafe-release 1'],
    );
  });

  it('uses the nearest configuration above the working directory too', async () => {
    root = makeTree({ 'locksmith.json': JSON.stringify({ rules: { 'no-unsafe-release': 'off' } }), 'sub/a.js': RELEASES });
    const eslint = new ESLint({
      cwd: path.join(root, 'sub'),
      overrideConfigFile: true,
      overrideConfig: locksmith.configs.project({ cwd: path.join(root, 'sub') }) as Linter.Config[],
    });
    assert.deepEqual(findings(await eslint.lintFiles(['.']), root), []);
  });

  it('does not make ESLint lint files its own configuration would not', async () => {
    root = makeTree({ 'locksmith.json': '{}', 'a.ts': 'const x: number = 1;\n', 'b.js': RELEASES });
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: locksmith.configs.project({ cwd: root }) as Linter.Config[],
    });
    assert.deepEqual(
      (await eslint.lintFiles(['.'])).map((result) => path.basename(result.filePath)),
      ['b.js'],
    );
  });

  it('fails at config-load time with one line naming the bad file and key', () => {
    root = makeTree({ 'sub/locksmith.json': JSON.stringify({ rules: { 'no-unsafe-releas': 'off' } }) });
    assert.throws(
      () => locksmith.configs.project({ cwd: root }),
      (error: Error) => error.message === `${path.join(root, 'sub/locksmith.json')}: rules.no-unsafe-releas: unknown rule`,
    );
  });

  it("gives the CLI's plan the same findings as configs.project()", async () => {
    root = makeTree({
      'locksmith.json': JSON.stringify({
        rules: { 'no-unsafe-release': 'warn' },
        settings: { lockKeyPattern: '^mutex:' },
        ignores: ['skip/'],
      }),
      'a.js': RELEASES,
      'skip/b.js': RELEASES,
      'nested/locksmith.json': JSON.stringify({ rules: { 'no-unsafe-release': 'error' } }),
      'nested/c.js': RELEASES,
    });
    const files = ['a.js', 'skip/b.js', 'nested/c.js'].map((file) => path.join(root, file));
    const plan = planCliProjectConfig(locksmith, files, { cwd: root });
    assert.deepEqual(plan.ignored, [path.join(root, 'skip/b.js')]);
    assert.deepEqual(plan.sources, [path.join(root, 'locksmith.json'), path.join(root, 'nested/locksmith.json')]);
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [locksmith.configs.recommended, ...plan.configs] as Linter.Config[],
    });
    const viaPlan = findings(await eslint.lintFiles(plan.files), root);
    assert.deepEqual(viaPlan, ['a.js:4 locksmith/no-unsafe-release 1', 'nested/c.js:3 locksmith/no-unsafe-release 2']);
    assert.deepEqual(await lintWithProject(root), viaPlan);

    const named = planCliProjectConfig(locksmith, files, { cwd: root, configFile: 'nested/locksmith.json' });
    assert.deepEqual(named.sources, [path.join(root, 'nested/locksmith.json')]);
    const none = planCliProjectConfig(locksmith, files, { cwd: root, lookup: false });
    assert.deepEqual([none.configs, none.ignored, none.files.length], [[], [], 3]);
  });
});

describe('project config: configs.project() in every ESLint of the peer range', function () {
  this.timeout(60_000);
  let root = '';
  afterEach(() => {
    if (root !== '') fs.rmSync(root, { recursive: true, force: true });
  });

  // Installed by scripts/install-eslint-compat.sh (npm run test:unit runs it), as for eslint-versions.test.ts.
  const compatModules = path.join(REPOSITORY_ROOT, 'test/eslint-compat/node_modules');
  interface FlatESLintLike {
    lintFiles(patterns: string[]): Promise<ESLint.LintResult[]>;
  }
  type FlatESLintClass = new (options: Record<string, unknown>) => FlatESLintLike;
  for (const [label, moduleName] of [
    ['ESLint 8.57', path.join(compatModules, 'eslint8')],
    ['ESLint 9', path.join(compatModules, 'eslint9')],
    ['ESLint 10', 'eslint'],
  ] as const) {
    it(`${label}: nearest configuration, settings and ignores alike`, async () => {
      root = makeTree({
        'locksmith.json': JSON.stringify({
          rules: { 'no-unsafe-release': 'warn' },
          settings: { lockKeyPattern: '^mutex:' },
          ignores: ['ignored/'],
        }),
        'a.js': RELEASES,
        'sub/locksmith.json': JSON.stringify({ rules: {} }),
        'sub/b.js': RELEASES,
        'ignored/c.js': RELEASES,
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require(moduleName) as {
        loadESLint?: (options: { useFlatConfig: true }) => Promise<FlatESLintClass>;
        FlatESLint?: FlatESLintClass;
      };
      const FlatESLint = module.loadESLint === undefined ? module.FlatESLint! : await module.loadESLint({ useFlatConfig: true });
      const eslint = new FlatESLint({ cwd: root, overrideConfigFile: true, overrideConfig: locksmith.configs.project({ cwd: root }) });
      assert.deepEqual(findings(await eslint.lintFiles(['.']), root), [
        'a.js:4 locksmith/no-unsafe-release 1',
        'sub/b.js:3 locksmith/no-unsafe-release 2',
      ]);
    });
  }
});

describe('project config: eslint --cache sees locksmith.json', function () {
  // Real `eslint` processes, as a user runs them; each loads the config afresh.
  this.timeout(120_000);
  let root = '';
  afterEach(() => {
    if (root !== '') fs.rmSync(root, { recursive: true, force: true });
  });

  function runEslint(): { linted: string[]; skipped: string[]; output: string } {
    const child = spawnSync(process.execPath, [ESLINT_BIN, '--cache', '--cache-location', '.eslintcache', '--format', 'json', 'a', 'b'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, DEBUG: 'eslint:eslint-helpers', FORCE_COLOR: '0' },
    });
    if (child.error) throw child.error;
    assert.ok(child.status === 0 || child.status === 1, child.stderr);
    const names = (pattern: RegExp) => [...child.stderr.matchAll(pattern)].map((match) => path.basename(match[1]!)).sort();
    return {
      linted: names(/File "([^"]+)" linted in/g),
      skipped: names(/Skipping file since it hasn't changed: (\S+)/g),
      output: findings(JSON.parse(child.stdout) as ESLint.LintResult[], root).join('\n'),
    };
  }

  it('lints again every file whose locksmith.json changed, and only those', () => {
    root = makeTree({
      'eslint.config.mjs': `import locksmith from ${JSON.stringify(BUILT_PLUGIN)};\nexport default [...locksmith.configs.project()];\n`,
      'a/locksmith.json': JSON.stringify({ rules: {} }),
      'a/a.js': RELEASES,
      'b/locksmith.json': JSON.stringify({ rules: {} }),
      'b/b.js': RELEASES,
    });
    const first = runEslint();
    assert.deepEqual(first.linted, ['a.js', 'b.js']);
    assert.equal(first.output, 'a/a.js:3 locksmith/no-unsafe-release 2\nb/b.js:3 locksmith/no-unsafe-release 2');

    const unchanged = runEslint();
    assert.deepEqual([unchanged.linted, unchanged.skipped], [[], ['a.js', 'b.js']], 'nothing changed: all from the cache');

    fs.writeFileSync(path.join(root, 'a/locksmith.json'), JSON.stringify({ rules: { 'no-unsafe-release': 'off' } }));
    const edited = runEslint();
    assert.deepEqual([edited.linted, edited.skipped], [['a.js'], ['b.js']]);
    assert.equal(edited.output, 'b/b.js:3 locksmith/no-unsafe-release 2', 'the cached finding of a.js is gone');
  });
});
