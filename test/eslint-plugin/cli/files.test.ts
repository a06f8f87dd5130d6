// Which files the command lints: the eight JS/TS extensions, minus dependencies, build output and .gitignored paths.

import * as assert from 'node:assert/strict';
import { afterEach, describe, it } from 'mocha';
import { CLI_SUITE_TIMEOUT_MS, lintedFiles, makeProject, parseJsonReport, runLocksmith, UNSAFE_RELEASE_CJS_SOURCE } from './run-cli';

const CODE = 'export const value = 1;\n';

describe('locksmith file selection', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let cleanup = (): void => undefined;
  afterEach(() => {
    cleanup();
  });

  function project(files: Record<string, string>): string {
    const made = makeProject(files);
    cleanup = made.cleanup;
    return made.root;
  }

  it('lints every JS and TS extension, Lua scripts, and nothing else', () => {
    const root = project({
      'src/a.js': CODE,
      'src/b.mjs': CODE,
      'src/c.cjs': 'module.exports = 1;\n',
      'src/d.jsx': 'export const D = () => <div />;\n',
      'src/e.ts': CODE,
      'src/f.mts': CODE,
      'src/g.cts': CODE,
      'src/h.tsx': 'export const H = () => <div />;\n',
      'src/i.d.ts': 'export declare const i: number;\n',
      'src/j.min.js': CODE,
      'src/k.json': '{}',
      'src/l.md': '# notes',
      'src/m.vue': '<template />',
      'src/n.lua': "return redis.call('GET', KEYS[1])\n",
    });
    const run = runLocksmith(root, ['--format', 'json']);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.deepEqual(lintedFiles(run, root), [
      'src/a.js',
      'src/b.mjs',
      'src/c.cjs',
      'src/d.jsx',
      'src/e.ts',
      'src/f.mts',
      'src/g.cts',
      'src/h.tsx',
      'src/n.lua',
    ]);
  });

  it('skips node_modules and build output at any depth', () => {
    const root = project({
      'index.js': CODE,
      'node_modules/ioredis/index.js': CODE,
      'packages/api/node_modules/pg/index.js': CODE,
      'packages/api/src/server.ts': CODE,
      'dist/index.js': CODE,
      'build/app.js': CODE,
      'out/main.js': CODE,
      'coverage/lcov.js': CODE,
      '.next/server/page.js': CODE,
      'packages/api/dist/server.js': CODE,
    });
    const run = runLocksmith(root, ['--format', 'json', '.']);
    assert.deepEqual(lintedFiles(run, root), ['index.js', 'packages/api/src/server.ts']);
  });

  it('honours .gitignore files, nested ones and negations included', () => {
    const root = project({
      '.gitignore': '# generated code\ngenerated/\n*.gen.ts\n!keep.gen.ts\n',
      'src/app.ts': CODE,
      'src/schema.gen.ts': CODE,
      'src/keep.gen.ts': CODE,
      'generated/client.js': CODE,
      'src/generated/client.js': CODE,
      'tools/.gitignore': 'scratch.js\n/local/\n',
      'tools/scratch.js': CODE,
      'tools/build.js': CODE,
      'tools/local/x.js': CODE,
      'tools/nested/local/y.js': CODE,
    });
    const run = runLocksmith(root, ['--format', 'json']);
    assert.deepEqual(lintedFiles(run, root), ['src/app.ts', 'src/keep.gen.ts', 'tools/build.js', 'tools/nested/local/y.js']);
  });

  it('applies the repository root .gitignore when linting a subdirectory', () => {
    const root = project({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': 'legacy/\n',
      'packages/web/src/app.js': CODE,
      'packages/web/legacy/old.js': CODE,
    });
    const run = runLocksmith(`${root}/packages/web`, ['--format', 'json', 'src', '.']);
    assert.deepEqual(lintedFiles(run, root), ['packages/web/src/app.js']);
  });

  it('walks a directory named on the command line even when a walk from above would skip it', () => {
    const root = project({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': 'legacy/\n*.gen.js\n',
      'legacy/old.js': CODE,
      'legacy/.gitignore': 'scratch/\n',
      'legacy/scratch/tmp.js': CODE,
      'legacy/dist/old.js': CODE,
      'node_modules/pkg/package.json': '{}',
      'node_modules/pkg/lib/index.js': CODE,
      'node_modules/pkg/lib/schema.gen.js': CODE,
      'node_modules/pkg/node_modules/dep/index.js': CODE,
    });
    const run = runLocksmith(root, ['--format', 'json', 'legacy', 'node_modules/pkg']);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    // Below the named directory the usual skipping holds: its own .gitignore, node_modules and dist.
    // The .gitignore above it is not read, since it ignores the named directory itself.
    assert.deepEqual(lintedFiles(run, root), ['legacy/old.js', 'node_modules/pkg/lib/index.js', 'node_modules/pkg/lib/schema.gen.js']);
    assert.equal(run.stderr, '');
  });

  it('lints a file named on the command line even where a directory walk would skip it', () => {
    const root = project({ 'dist/bundle.js': CODE, 'src/app.js': CODE });
    const run = runLocksmith(root, ['--format', 'json', 'dist/bundle.js', 'src']);
    assert.equal(run.status, 0);
    assert.deepEqual(lintedFiles(run, root), ['dist/bundle.js', 'src/app.js']);
  });

  it('says in one line which directory named contributed nothing, and still lints the others', () => {
    const root = project({
      'src/app.js': CODE,
      'src/lib/util.js': CODE,
      'node_modules/redlock/package.json': '{ "main": "dist/index.js" }\n',
      'node_modules/redlock/dist/index.js': CODE,
    });
    const run = runLocksmith(root, ['--format', 'json', 'src', 'src/lib', 'node_modules/redlock']);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.deepEqual(lintedFiles(run, root), ['src/app.js', 'src/lib/util.js']);
    // `src/lib` overlaps `src` and is linted; only the package whose code sits in dist/ gave nothing.
    assert.equal(
      run.stderr,
      'locksmith: nothing to lint in node_modules/redlock: no JavaScript, TypeScript or Lua files outside skipped folders\n',
    );
  });

  it('lints a file named inside node_modules, and reports its findings', () => {
    const root = project({
      'node_modules/lock-helper/package.json': '{ "name": "lock-helper", "main": "index.js" }\n',
      'node_modules/lock-helper/index.js': UNSAFE_RELEASE_CJS_SOURCE,
      'src/app.js': CODE,
    });
    const run = runLocksmith(root, ['--format', 'json', 'node_modules/lock-helper/index.js', 'src/app.js']);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.equal(run.stderr, '');
    assert.deepEqual(lintedFiles(run, root), ['node_modules/lock-helper/index.js', 'src/app.js']);
    const messages = parseJsonReport(run).flatMap((result) => result.messages.map((message) => message.ruleId));
    assert.deepEqual(messages, ['locksmith/no-unsafe-release']);
  });

  it('lints declaration files and minified bundles named explicitly, with the other files named', () => {
    const declarations = {
      'types/index.d.ts': 'export declare function run(): Promise<void>;\n',
      'types/index.d.mts': 'export declare const ready: boolean;\n',
      'types/index.d.cts': 'declare const ready: boolean;\nexport = ready;\n',
    };
    const bundles = {
      'public/app.min.js': UNSAFE_RELEASE_CJS_SOURCE.replace(/\n\s*/g, ' '),
      'public/app.min.mjs': CODE,
      'public/app.min.cjs': 'module.exports=1;\n',
    };
    const root = project({ ...declarations, ...bundles, 'src/app.js': CODE });
    const named = [...Object.keys(declarations), ...Object.keys(bundles), 'src/app.js'];
    const run = runLocksmith(root, ['--format', 'json', ...named]);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.equal(run.stderr, '');
    assert.deepEqual(lintedFiles(run, root), [...named].sort());
    const findings = parseJsonReport(run).flatMap((result) =>
      result.messages.map((message) => `${message.ruleId ?? 'fatal'} ${result.filePath.slice(root.length + 1)}`),
    );
    assert.deepEqual(findings, ['locksmith/no-unsafe-release public/app.min.js']);
    // A directory walk still leaves them out.
    assert.deepEqual(lintedFiles(runLocksmith(root, ['--format', 'json', '.']), root), ['src/app.js']);
  });

  it('lints each file once when paths overlap', () => {
    const root = project({ 'src/app.js': CODE });
    const run = runLocksmith(root, ['--format', 'json', 'src', '.', 'src/app.js']);
    assert.deepEqual(lintedFiles(run, root), ['src/app.js']);
  });
});
