// The lock map's text screen (lint.ts mayHoldLocks): no file whose lint maps a lock is screened out,
// over every example, fixture project and rule-doc sample, and over imported helpers under any name.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { lintText, mapLocks, mayHoldLocks, type LintInput } from '../../../extension/src/server/lint';
import { Settings } from '../../../extension/src/shared/settings';

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

  before(() => {
    samples = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-screen-docs-'));
    helpers = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-screen-helpers-'));
  });

  after(() => {
    fs.rmSync(samples, { recursive: true, force: true });
    fs.rmSync(helpers, { recursive: true, force: true });
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

  it('maps the locks of a full lint, running the rules only on files that hold one', () => {
    const files = [...scriptsUnder(path.join(repoRoot, 'examples')), ...scriptsUnder(path.join(repoRoot, 'test/fixtures/projects'))];
    let withLocks = 0;
    for (const file of files) {
      const full = lintText(inputOf(file));
      const mapped = mapLocks(inputOf(file));
      if (full.kind === 'linted' && full.locks.length > 0) {
        withLocks += 1;
        // A file with locks is linted in full: its findings are those the map attaches to its locks.
        assert.deepEqual(mapped, full, path.relative(repoRoot, file));
      } else {
        assert.equal(mapped.kind, full.kind, path.relative(repoRoot, file));
        if (mapped.kind === 'linted') assert.deepEqual(mapped.locks, [], path.relative(repoRoot, file));
      }
    }
    assert.ok(withLocks >= 30, `the samples hold locks (${withLocks} files)`);
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
