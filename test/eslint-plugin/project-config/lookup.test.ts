// Which configuration applies to a file: the nearest folder with one wins, with no merging, and a
// tree is looked up with each folder read once.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'mocha';
import {
  ProjectConfigError,
  ProjectConfigLookup,
  loadProjectConfigFile,
  toEslintRules,
} from '../../../eslint-plugin/src/project-config/index.js';

function makeTree(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-config-')));
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  return root;
}

const rulesOf = (lookup: ProjectConfigLookup, file: string) => {
  const config = lookup.forFile(file);
  return config === undefined ? undefined : toEslintRules(config);
};

describe('project config: lookup', () => {
  let root = '';
  afterEach(() => {
    if (root !== '') fs.rmSync(root, { recursive: true, force: true });
  });

  it('finds the nearest configuration and never merges its ancestors', () => {
    root = makeTree({
      'locksmith.json': JSON.stringify({ rules: { 'no-unsafe-release': 'off', 'require-lock-ttl': 'warn' } }),
      'packages/api/locksmith.json': JSON.stringify({ rules: { 'no-lock-takeover': 'off' } }),
      'packages/api/src/deep/x.js': '',
      'src/x.js': '',
    });
    const lookup = new ProjectConfigLookup();
    assert.deepEqual(rulesOf(lookup, path.join(root, 'src/x.js')), {
      'locksmith/no-unsafe-release': 'off',
      'locksmith/require-lock-ttl': 'warn',
    });
    assert.deepEqual(rulesOf(lookup, path.join(root, 'packages/api/src/deep/x.js')), { 'locksmith/no-lock-takeover': 'off' });
  });

  it('walks past a package.json without a "locksmith" key; one with the key stops the walk', () => {
    root = makeTree({
      'locksmith.json': JSON.stringify({ rules: { 'no-unsafe-release': 'off' } }),
      'a/package.json': JSON.stringify({ name: 'a' }),
      'b/package.json': JSON.stringify({ name: 'b', locksmith: { rules: { 'no-unsafe-release': 'warn' } } }),
    });
    const lookup = new ProjectConfigLookup();
    assert.equal(lookup.forFile(path.join(root, 'a/x.js'))?.filePath, path.join(root, 'locksmith.json'));
    assert.equal(lookup.forFile(path.join(root, 'b/x.js'))?.filePath, path.join(root, 'b/package.json'));
  });

  it('prefers locksmith.json over package.json in the same folder, without reading package.json', () => {
    root = makeTree({
      'locksmith.json': JSON.stringify({ rules: { 'no-unsafe-release': 'off' } }),
      'package.json': '{ "locksmith": broken',
    });
    const lookup = new ProjectConfigLookup();
    assert.equal(lookup.forFile(path.join(root, 'x.js'))?.filePath, path.join(root, 'locksmith.json'));
  });

  it("throws the nearest file's error, naming it, for every file it governs", () => {
    root = makeTree({
      'locksmith.json': JSON.stringify({ rules: {} }),
      'sub/locksmith.json': JSON.stringify({ rules: { 'no-unsafe-releas': 'off' } }),
    });
    const lookup = new ProjectConfigLookup();
    for (const file of ['sub/x.js', 'sub/y/z.js']) {
      assert.throws(
        () => lookup.forFile(path.join(root, file)),
        (error: unknown) =>
          error instanceof ProjectConfigError &&
          error.describe(root) === path.join('sub', 'locksmith.json') + ': rules.no-unsafe-releas: unknown rule',
      );
    }
    assert.ok(lookup.forFile(path.join(root, 'x.js')));
  });

  it('reads each folder at most once for a whole tree (linear), until cleared', () => {
    root = makeTree({ 'locksmith.json': '{}' });
    const reads: string[] = [];
    const lookup = new ProjectConfigLookup({
      readFile: (file) => {
        reads.push(file);
        return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      },
    });
    const depth = 30;
    const segments = Array.from({ length: depth }, (_, index) => `d${index}`);
    for (let level = depth; level >= 1; level -= 1) {
      for (let sibling = 0; sibling < 5; sibling += 1) lookup.forFile(path.join(root, ...segments.slice(0, level), `f${sibling}.js`));
    }
    // Each of the 30 folders without a config costs two reads (locksmith.json, package.json); the root one.
    assert.equal(reads.length, depth * 2 + 1);
    assert.equal(new Set(reads).size, reads.length, 'no file read twice');
    lookup.clear();
    lookup.forFile(path.join(root, 'x.js'));
    assert.equal(reads.length, depth * 2 + 2);
  });

  it("answers from text given by the caller (an editor's unsaved buffer)", () => {
    const lookup = new ProjectConfigLookup({
      readFile: (file) => (file === path.resolve('/virtual/locksmith.json') ? '{"rules":{"no-unsafe-release":"off"}}' : undefined),
    });
    assert.deepEqual(rulesOf(lookup, '/virtual/src/x.ts'), { 'locksmith/no-unsafe-release': 'off' });
  });

  it('loads a file named explicitly, and says so when it is missing or has no key', () => {
    root = makeTree({ 'custom.json': JSON.stringify({ rules: { 'no-unsafe-release': 'warn' } }), 'package.json': '{"name":"x"}' });
    assert.deepEqual(toEslintRules(loadProjectConfigFile(path.join(root, 'custom.json'))), { 'locksmith/no-unsafe-release': 'warn' });
    assert.throws(() => loadProjectConfigFile(path.join(root, 'missing.json')), /missing\.json: no such file$/);
    assert.throws(() => loadProjectConfigFile(path.join(root, 'package.json')), /package\.json: has no "locksmith" key$/);
  });
});
