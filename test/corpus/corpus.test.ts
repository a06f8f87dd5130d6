// The real-package corpus: its manifest and lock file pin exactly the shared list plus the packages added for issue 32,
// and its checks fail when they should.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'mocha';

interface Finding {
  rule: string;
  file: string;
  anchor: string;
}
interface Entry extends Finding {
  verdict: string;
  reason: string;
  count?: number;
  expectedByReading?: boolean;
}
interface KnownMiss {
  rule: string;
  file: string;
  anchors: string[];
  reason: string;
}
interface Issue32List {
  packages: Record<string, { version: string; lockCode?: string }>;
}
interface ExpectationsModule {
  anchorOf(text: string, line: number): string;
  compareWithExpected(findings: Finding[], expected: Entry[]): { unrecorded: Finding[]; missing: { entry: Entry; left: number }[] };
  manifestProblems(
    manifest: { dependencies?: Record<string, string> },
    sharedList: Record<string, unknown> | null,
    issue32List: Issue32List,
  ): string[];
  checkKnownMisses(findings: Finding[], knownMisses: KnownMiss[]): { nowFound: KnownMiss[]; stillMissed: KnownMiss[] };
  recallOf(
    expected: Entry[],
    missing: { entry: Entry; left: number }[],
    knownMisses: KnownMiss[],
    nowFound: KnownMiss[],
  ): { found: number; total: number };
}
interface SyntaxCheckModule {
  checkAcceptedByNode(file: string): { accepted: boolean; by?: string };
}
interface Manifest {
  dependencies: Record<string, string>;
}
interface LockFile {
  packages: Record<string, { name?: string; version?: string; dependencies?: Record<string, string> }>;
}

const repositoryRoot = path.resolve(__dirname, '../..');
const corpusDirectory = path.join(repositoryRoot, 'corpus');
const sharedList = path.join(repositoryRoot, '../shared/corpus/packages.json');
const issue32List = path.join(corpusDirectory, 'issue-32-packages.json');

// The corpus scripts are plain ESM run by node; a computed specifier keeps tsc from asking for their types.
async function load<Module>(name: string): Promise<Module> {
  return (await import(pathToFileURL(path.join(corpusDirectory, name)).href)) as Module;
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

describe('real-package corpus', () => {
  let expectations: ExpectationsModule;
  let syntax: SyntaxCheckModule;
  before(async () => {
    expectations = await load<ExpectationsModule>('expectations.mjs');
    syntax = await load<SyntaxCheckModule>('syntax-check.mjs');
  });

  describe('corpus/package.json and its lock file', () => {
    const manifest = readJson(path.join(corpusDirectory, 'package.json')) as Manifest;
    const lock = readJson(path.join(corpusDirectory, 'package-lock.json')) as LockFile;

    it('lists exactly the packages and versions of shared/corpus/packages.json and corpus/issue-32-packages.json', function () {
      // The shared list sits beside the repository in CI; a clone elsewhere has only the committed manifest.
      if (!fs.existsSync(sharedList)) this.skip();
      assert.deepEqual(
        expectations.manifestProblems(manifest, readJson(sharedList) as Record<string, unknown>, readJson(issue32List) as Issue32List),
        [],
      );
    });

    it('lists the issue 32 packages at their versions even without the shared list', () => {
      assert.deepEqual(expectations.manifestProblems(manifest, null, readJson(issue32List) as Issue32List), []);
    });

    it('is locked at exactly those versions, aliases included', () => {
      assert.deepEqual(lock.packages['']?.dependencies, manifest.dependencies);
      for (const [name, spec] of Object.entries(manifest.dependencies)) {
        const alias = /^npm:((?:@[^/]+\/)?[^@]+)@(.+)$/.exec(spec);
        const locked = lock.packages[`node_modules/${name}`];
        assert.equal(locked?.version, alias ? alias[2] : spec, name);
        if (alias) assert.equal(locked?.name, alias[1], name);
      }
    });

    it('finds a wrong version, a missing package and an extra one', () => {
      const differences = expectations.manifestProblems(
        { dependencies: { ioredis: '5.0.0', extra: '1.0.0', added: '2.0.0' } },
        { about: 'x', redis: { ioredis: '6.0.0', redlock5: 'npm:redlock@5.0.0-beta.2' } },
        { packages: { added: { version: '2.0.0' } } },
      );
      assert.equal(differences.length, 3);
      assert.match(differences.join('\n'), /ioredis@5\.0\.0.*lists 6\.0\.0/);
      assert.match(differences.join('\n'), /redlock5@\(missing\)/);
      assert.match(differences.join('\n'), /has extra, which neither/);
    });

    it('finds an issue 32 package missing, at another version, or already in the shared list', () => {
      const differences = expectations.manifestProblems(
        { dependencies: { ioredis: '6.0.0', added: '1.0.0' } },
        { about: 'x', redis: { ioredis: '6.0.0' } },
        { packages: { added: { version: '2.0.0' }, gone: { version: '1.0.0' }, ioredis: { version: '6.0.0' } } },
      );
      assert.equal(differences.length, 3);
      assert.match(differences.join('\n'), /added@1\.0\.0, corpus\/issue-32-packages\.json lists 2\.0\.0/);
      assert.match(differences.join('\n'), /gone@\(missing\)/);
      assert.match(differences.join('\n'), /lists ioredis, which shared\/corpus\/packages\.json already lists/);
    });
  });

  describe('matching findings against expected.json', () => {
    const entry = (anchor: string, count?: number): Entry => ({
      rule: 'no-unsafe-release',
      file: 'pkg/a.js',
      anchor,
      verdict: 'true-positive',
      reason: 'plain DEL',
      ...(count === undefined ? {} : { count }),
    });
    const finding = (anchor: string, rule = 'no-unsafe-release'): Finding => ({ rule, file: 'pkg/a.js', anchor });

    it('anchors a finding on its line, trimmed', () => {
      assert.equal(expectations.anchorOf('a\n    await redis.del(key);  \r\nb', 2), 'await redis.del(key);');
    });

    it('accepts recorded findings, and reports an unrecorded one and a vanished one', () => {
      const { unrecorded, missing } = expectations.compareWithExpected(
        [finding('await redis.del(key);'), finding('await redis.del(key);', 'require-lock-ttl')],
        [entry('await redis.del(key);'), entry('await redis.del(other);')],
      );
      assert.deepEqual(unrecorded, [finding('await redis.del(key);', 'require-lock-ttl')]);
      assert.deepEqual(
        missing.map(({ entry: { anchor }, left }) => [anchor, left]),
        [['await redis.del(other);', 1]],
      );
    });

    it('reports a known miss that starts being found, and computes recall', () => {
      const miss: KnownMiss = { rule: 'no-unsafe-release', file: 'pkg/a.js', anchors: ['del(a);', 'del(b);'], reason: 'plain DEL' };
      const other: KnownMiss = { ...miss, anchors: ['del(c);'] };
      const { nowFound, stillMissed } = expectations.checkKnownMisses([finding('del(b);')], [miss, other]);
      assert.deepEqual([nowFound, stillMissed], [[miss], [other]]);
      const expected = [
        { ...entry('del(x);', 2), expectedByReading: true },
        { ...entry('del(y);'), expectedByReading: true },
        entry('del(z);'),
      ];
      const { missing } = expectations.compareWithExpected([finding('del(x);'), finding('del(x);'), finding('del(z);')], expected);
      assert.deepEqual(expectations.recallOf(expected, missing, [miss, other], nowFound), { found: 3, total: 5 });
    });

    it('counts findings on lines of the same text against the entry count', () => {
      const twice = [finding('await redis.del(key);'), finding('await redis.del(key);')];
      assert.deepEqual(expectations.compareWithExpected(twice, [entry('await redis.del(key);', 2)]), { unrecorded: [], missing: [] });
      assert.equal(expectations.compareWithExpected(twice, [entry('await redis.del(key);')]).unrecorded.length, 1);
      assert.equal(expectations.compareWithExpected(twice, [entry('await redis.del(key);', 3)]).missing[0]?.left, 1);
    });
  });

  describe('whether Node or TypeScript accepts a file', () => {
    let directory: string;
    before(() => {
      directory = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-corpus-'));
      const files: Record<string, string> = {
        'cjs/package.json': '{"type":"commonjs"}',
        'cjs/return.js': 'if (process.env.X) return;\nwith (Math) module.exports = PI;\n',
        'cjs/export.js': 'export const x = 1;\n',
        'esm/package.json': '{"type":"module"}',
        'esm/top-level-await.js': 'export const x = await Promise.resolve(1);\n',
        'esm/return.js': 'return;\n',
        // No "type": Node detects module syntax, as bullmq's dist/esm relies on.
        'typeless/package.json': '{}',
        'typeless/detected.js': 'import * as fs from "node:fs";\nexport const read = fs.readFileSync;\n',
        'typeless/broken.js': 'const = 1;\n',
        'ts/valid.ts': 'export const x: number = 1 as const;\nexport enum E { A }\n',
        'ts/broken.ts': 'export const x: = 1;\n',
      };
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
        fs.writeFileSync(path.join(directory, name), text);
      }
    });
    after(() => {
      fs.rmSync(directory, { recursive: true, force: true });
    });

    for (const [name, accepted] of [
      ['cjs/return.js', true],
      ['cjs/export.js', false],
      ['esm/top-level-await.js', true],
      ['esm/return.js', false],
      ['typeless/detected.js', true],
      ['typeless/broken.js', false],
      ['ts/valid.ts', true],
      ['ts/broken.ts', false],
    ] as const) {
      it(`${accepted ? 'accepts' : 'rejects'} ${name}`, () => {
        assert.equal(syntax.checkAcceptedByNode(path.join(directory, name)).accepted, accepted);
      });
    }
  });
});
