// What ships: the npm package of eslint-plugin-locksmith and the VS Code extension's .vsix hold what
// their users run, and nothing from the repository's tests, sources or node_modules.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'mocha';

const ROOT = path.resolve(__dirname, '../..');
const PLUGIN = path.join(ROOT, 'eslint-plugin');

interface PackResult {
  name: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Runs a command and returns its standard output; a failure shows its standard error. */
function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

describe('package contents', function () {
  this.timeout(5 * 60_000);

  describe('npm pack of eslint-plugin-locksmith', () => {
    let files: string[];
    before(() => {
      // The package is its build output: build it if this run has not (npm test builds first).
      if (!fs.existsSync(path.join(PLUGIN, 'dist/index.d.ts'))) run('npx', ['tsc', '-b'], ROOT);
      const [result] = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], PLUGIN)) as PackResult[];
      assert.ok(result !== undefined);
      assert.equal(result.name, 'eslint-plugin-locksmith');
      files = result.files.map((file) => file.path).sort();
      console.log(`      eslint-plugin-locksmith: ${files.length} files, ${kb(result.size)} packed, ${kb(result.unpackedSize)} unpacked`);
    });

    it('contains the build with its type declarations, the CLI, the schema, README, LICENSE and the manifest', () => {
      for (const required of [
        'package.json',
        'README.md',
        'LICENSE',
        'bin/locksmith.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/project-config/index.d.ts',
        'dist/parsing/index.d.ts',
        'schemas/locksmith.schema.json',
      ]) {
        assert.ok(files.includes(required), `${required} is in the package`);
      }
      assert.ok(
        files.filter((file) => file.startsWith('dist/rules/') && file.endsWith('.js')).length >= 13,
        'every rule is built into dist/rules',
      );
    });

    it('contains no tests, source maps, TypeScript sources or build info', () => {
      // Type declarations (.d.ts, .d.mts) ship; any other TypeScript is a source.
      const unwanted = files.filter(
        (file) =>
          file.endsWith('.map') ||
          (/\.(?:ts|mts|cts|tsx)$/.test(file) && !/\.d\.(?:ts|mts|cts)$/.test(file)) ||
          file.endsWith('.tsbuildinfo') ||
          /(?:^|\/)(?:test|tests|__tests__|fixtures|src)\//.test(file) ||
          /\.test\./.test(file),
      );
      assert.deepEqual(unwanted, []);
    });

    it('exports only files that ship', () => {
      const manifest = JSON.parse(fs.readFileSync(path.join(PLUGIN, 'package.json'), 'utf8')) as {
        exports: Record<string, string | Record<string, string>>;
      };
      const targets = Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
      for (const target of targets) assert.ok(files.includes(target.replace(/^\.\//, '')), `${target} (an export) is in the package`);
    });
  });

  describe('vsce ls of the extension', () => {
    let files: string[];
    before(() => {
      if (!['client.js', 'server.js', 'locksmith-lsp.js'].every((bundle) => fs.existsSync(path.join(ROOT, 'extension/dist', bundle)))) {
        run('node', ['extension/scripts/build.mjs'], ROOT);
      }
      // The same options as `npm run package`.
      const listed = run('npx', ['vsce', 'ls', '--no-dependencies', '--readme-path', 'extension/README.md'], ROOT);
      files = listed
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .sort();
      const bytes = files.reduce((total, file) => total + fs.statSync(path.join(ROOT, file)).size, 0);
      console.log(`      locksmith (VS Code extension): ${files.length} files, ${kb(bytes)} before compression`);
    });

    it('contains the manifest, the bundled client and server, the Marketplace README, LICENSE and the icon', () => {
      for (const required of [
        'package.json',
        'LICENSE',
        'extension/README.md',
        'extension/media/icon.png',
        'extension/dist/client.js',
        'extension/dist/server.js',
        'extension/dist/locksmith-lsp.js',
        'eslint-plugin/schemas/locksmith.schema.json',
      ]) {
        assert.ok(files.includes(required), `${required} is in the .vsix`);
      }
    });

    it('contains no node_modules, tests, sources or source maps', () => {
      const unwanted = files.filter(
        (file) =>
          file.includes('node_modules/') ||
          /(?:^|\/)(?:test|tests|src|out|fixtures)\//.test(file) ||
          file.endsWith('.map') ||
          /\.(?:ts|mts|cts|tsx)$/.test(file),
      );
      assert.deepEqual(unwanted, []);
    });

    it('has every file the manifest points at: the entry point, the icon, the JSON schemas', () => {
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        main: string;
        icon: string;
        galleryBanner?: { color?: string };
        contributes: { jsonValidation: { url: string }[] };
      };
      for (const target of [manifest.main, manifest.icon, ...manifest.contributes.jsonValidation.map((entry) => entry.url)]) {
        assert.ok(files.includes(path.posix.normalize(target)), `${target} (in package.json) is in the .vsix`);
      }
      assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    });

    it('has a PNG icon of at least 128×128', () => {
      const png = fs.readFileSync(path.join(ROOT, 'extension/media/icon.png'));
      assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG signature');
      assert.equal(png.subarray(12, 16).toString('ascii'), 'IHDR');
      const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
      assert.ok(width >= 128 && height >= 128, `${width}×${height}`);
    });
  });

  it('both packages carry the metadata a registry shows: repository, homepage, bugs, keywords, licence', () => {
    for (const manifestPath of ['package.json', 'eslint-plugin/package.json']) {
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, manifestPath), 'utf8')) as Record<string, unknown>;
      const repository = manifest.repository as { url?: string; directory?: string } | undefined;
      assert.match(repository?.url ?? '', /github\.com\/locksmith-lint\/locksmith/, `${manifestPath} repository`);
      if (manifestPath.startsWith('eslint-plugin/')) assert.equal(repository?.directory, 'eslint-plugin');
      assert.match(String(manifest.homepage), /^https:\/\//, `${manifestPath} homepage`);
      assert.match((manifest.bugs as { url?: string } | undefined)?.url ?? '', /\/issues$/, `${manifestPath} bugs`);
      assert.ok(Array.isArray(manifest.keywords) && manifest.keywords.length >= 5, `${manifestPath} keywords`);
      assert.equal(manifest.license, 'MIT');
    }
    for (const license of ['LICENSE', 'eslint-plugin/LICENSE']) {
      assert.match(fs.readFileSync(path.join(ROOT, license), 'utf8'), /^MIT License\n\nCopyright \(c\) 2026 Locksmith contributors\n/);
    }
  });
});
