// Linting with the bundled plugin: every dialect is linted, bad input is reported as such, settings apply.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
// The instance the server imports (the package's build), so its cache is the one cleared.
import { clearPackageTypes } from 'eslint-plugin-locksmith/parsing';
import {
  dialectExtension,
  lintText,
  ruleDocsUrl,
  ruleIds,
  ruleInfo,
  ruleLevels,
  type LintOutcome,
} from '../../../extension/src/server/lint';
import { Settings } from '../../../extension/src/shared/settings';

const UNSAFE_RELEASE = `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function run(id: string): Promise<void> {
  const lockKey = \`lock:job:\${id}\`;
  const token = randomUUID();
  if ((await redis.set(lockKey, token, 'PX', 30000, 'NX')) !== 'OK') return;
  try {
    await work();
  } finally {
    await redis.del(lockKey);
  }
}
async function work(): Promise<void> {}
`;

function rulesOf(outcome: LintOutcome): string[] {
  if (outcome.kind !== 'linted') assert.fail(`expected findings, got ${JSON.stringify(outcome)}`);
  return outcome.messages.map((message) => message.ruleId ?? '');
}

describe('linting with the bundled plugin', () => {
  it('picks the dialect from the file name, else from the language id', () => {
    assert.equal(dialectExtension('/a/b.mts', 'typescript'), '.mts');
    assert.equal(dialectExtension('Untitled-1', 'typescriptreact'), '.tsx');
    assert.equal(dialectExtension('Untitled-1', undefined), '.js');
  });

  it('finds no-unsafe-release in every script dialect, TypeScript included', function () {
    if (!ruleIds().includes('no-unsafe-release')) this.skip();
    const javascript = UNSAFE_RELEASE.replace(/: (string|Promise<void>)/g, '');
    for (const [filePath, text] of [
      ['/w/a.ts', UNSAFE_RELEASE],
      ['/w/a.mts', UNSAFE_RELEASE],
      ['/w/a.cts', UNSAFE_RELEASE],
      ['/w/a.tsx', UNSAFE_RELEASE],
      ['/w/a.js', javascript],
      ['/w/a.mjs', javascript],
      ['/w/a.jsx', javascript],
      ['untitled:Untitled-1', javascript],
    ] as const) {
      assert.deepEqual(
        rulesOf(lintText({ text, filePath, languageId: 'javascript', settings: Settings.from({}) })),
        ['locksmith/no-unsafe-release'],
        filePath,
      );
    }
  });

  it('turns a rule off from locksmith.rules, and ignores unknown rule ids', function () {
    if (!ruleIds().includes('no-unsafe-release')) this.skip();
    const settings = Settings.from({ rules: { 'no-unsafe-release': 'off', 'not-a-rule': 'error' } });
    assert.deepEqual(rulesOf(lintText({ text: UNSAFE_RELEASE, filePath: '/w/a.ts', settings })), []);
    assert.equal(ruleLevels(settings)['locksmith/not-a-rule'], undefined);
    assert.equal(ruleLevels(Settings.from({ rules: { 'no-unsafe-release': 'warn' } }))['locksmith/no-unsafe-release'], 'warn');
  });

  it('reports a syntax error as such, in JavaScript and in TypeScript (whose parser recovers)', () => {
    for (const [filePath, text] of [
      ['/w/a.js', 'const x = ;'],
      ['/w/a.ts', "await redis.set(key, 'x', 'NX';\n"],
    ] as const) {
      const outcome = lintText({ text, filePath, settings: Settings.from({}) });
      assert.equal(outcome.kind, 'parseError', filePath);
    }
  });

  it("tells the client each rule's doc link, whether the recommended config turns it on, and whether it has suggestions", () => {
    assert.deepEqual(ruleInfo('no-unsafe-release'), {
      id: 'no-unsafe-release',
      docsUrl: ruleDocsUrl('no-unsafe-release'),
      recommended: true,
      hasSuggestions: true,
    });
    assert.equal(ruleInfo('no-unneeded-lock').recommended, false);
    assert.deepEqual(ruleInfo('not-a-rule'), { id: 'not-a-rule', docsUrl: null, recommended: false, hasSuggestions: false });
    assert.ok(ruleIds().filter((id) => ruleInfo(id).recommended).length >= 10);
  });

  it('skips a file over maxFileSizeKb without parsing it', () => {
    const outcome = lintText({ text: `${'x'.repeat(2048)}(`, filePath: '/w/big.js', settings: Settings.from({ maxFileSizeKb: 1 }) });
    if (outcome.kind !== 'skipped') assert.fail(`expected a skip, got ${outcome.kind}`);
    assert.match(outcome.reason, /3 KB is over locksmith.maxFileSizeKb \(1 KB\)/);
  });

  it('lints nothing from the workspace: a disable comment is the only in-file configuration honoured', function () {
    if (!ruleIds().includes('no-unsafe-release')) this.skip();
    const text = UNSAFE_RELEASE.replace(
      '    await redis.del(lockKey);',
      '    // eslint-disable-next-line locksmith/no-unsafe-release\n    await redis.del(lockKey);',
    );
    assert.deepEqual(rulesOf(lintText({ text, filePath: '/w/a.ts', settings: Settings.from({}) })), []);
  });
});

describe('type-aware linting (locksmith.typeAware)', () => {
  it("lints a TypeScript file with the workspace's own tsconfig, still finding what the shape-based run finds", function () {
    this.timeout(60_000);
    if (!ruleIds().includes('no-unsafe-release')) this.skip();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-type-aware-'));
    try {
      fs.writeFileSync(
        path.join(folder, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022' }, include: ['*.ts'] }),
      );
      const filePath = path.join(folder, 'job.ts');
      fs.writeFileSync(filePath, UNSAFE_RELEASE);
      const settings = Settings.from({ typeAware: true });
      assert.deepEqual(rulesOf(lintText({ text: UNSAFE_RELEASE, filePath, settings })), ['locksmith/no-unsafe-release']);
      // Outside every tsconfig there is no program: the file is still linted, by shape.
      const outside = path.join(folder, 'nested', 'loose.mts');
      fs.mkdirSync(path.dirname(outside));
      fs.writeFileSync(path.join(path.dirname(outside), 'tsconfig.json'), JSON.stringify({ files: [] }));
      fs.writeFileSync(outside, UNSAFE_RELEASE);
      assert.deepEqual(rulesOf(lintText({ text: UNSAFE_RELEASE, filePath: outside, settings })), ['locksmith/no-unsafe-release']);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

// A CommonJS lock helper with a top-level `return` (valid only as CommonJS), as packages ship them.
const COMMONJS_RELEASE = `'use strict';
const Redis = require('ioredis');
const redis = new Redis();
if (process.env.LOCKS_DISABLED === '1') return;
module.exports = async function withLock(token, work) {
  if ((await redis.set('lock:x', token, 'NX', 'PX', 30000)) !== 'OK') return;
  try {
    await work();
  } finally {
    await redis.del('lock:x');
  }
};
`;
const MODULE_RELEASE = COMMONJS_RELEASE.replace("'use strict';\nconst Redis = require('ioredis');", "import Redis from 'ioredis';")
  .replace("if (process.env.LOCKS_DISABLED === '1') return;\n", '')
  .replace('module.exports = async function', 'export default async function')
  .replace(/};\n$/, '}\n');

describe('the server parses JavaScript as Node runs it, as the CLI does', () => {
  let root = '';
  before(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-server-parse-')));
    fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "typeless" }\n');
    fs.mkdirSync(path.join(root, 'esm'));
    fs.writeFileSync(path.join(root, 'esm', 'package.json'), '{ "type": "module" }\n');
  });
  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
    clearPackageTypes();
  });

  const lint = (filePath: string, text: string, languageId = 'javascript'): LintOutcome =>
    lintText({ text, filePath, languageId, settings: Settings.from({}) });

  it('lints a CommonJS file with a top-level return in a package without "type", and finds its plain DEL', function () {
    if (!ruleIds().includes('no-unsafe-release')) this.skip();
    assert.deepEqual(rulesOf(lint(path.join(root, 'lib', 'with-lock.js'), COMMONJS_RELEASE)), ['locksmith/no-unsafe-release']);
    // Node's syntax detection: module syntax in the same package is a module.
    assert.deepEqual(rulesOf(lint(path.join(root, 'lib', 'with-lock-esm.js'), MODULE_RELEASE)), ['locksmith/no-unsafe-release']);
    // JSX in .js still parses.
    assert.equal(lint(path.join(root, 'lib', 'view.js'), 'const View = () => <div />;\nmodule.exports = View;\n').kind, 'linted');
  });

  it('reports the top-level return as a parse error where Node would: a "type": "module" package, and .mjs', () => {
    for (const filePath of [path.join(root, 'esm', 'with-lock.js'), path.join(root, 'lib', 'with-lock.mjs')]) {
      const outcome = lint(filePath, COMMONJS_RELEASE);
      if (outcome.kind !== 'parseError') assert.fail(`${filePath}: expected a parse error, got ${outcome.kind}`);
      assert.equal(outcome.line, 4, filePath);
    }
  });

  it('decides untitled and virtual documents by their text alone, reading no package.json', function () {
    if (!ruleIds().includes('no-unsafe-release')) this.skip();
    // The server's working directory is inside esm/ ("type": "module"): a name without a file on disk must not be looked up there.
    const cwd = process.cwd();
    process.chdir(path.join(root, 'esm'));
    try {
      for (const name of ['untitled:Untitled-1', 'with-lock.js']) {
        assert.deepEqual(rulesOf(lint(name, COMMONJS_RELEASE)), ['locksmith/no-unsafe-release'], name);
        assert.deepEqual(rulesOf(lint(name, MODULE_RELEASE)), ['locksmith/no-unsafe-release'], name);
        assert.equal(lint(name, 'const x = ;\n').kind, 'parseError', name);
      }
    } finally {
      process.chdir(cwd);
    }
  });

  it('reads a package.json "type" again once told it may have changed', () => {
    const filePath = path.join(root, 'flip', 'with-lock.js');
    fs.mkdirSync(path.dirname(filePath));
    fs.writeFileSync(path.join(root, 'flip', 'package.json'), '{ "type": "commonjs" }\n');
    assert.equal(lint(filePath, COMMONJS_RELEASE).kind, 'linted');
    fs.writeFileSync(path.join(root, 'flip', 'package.json'), '{ "type": "module" }\n');
    clearPackageTypes();
    assert.equal(lint(filePath, COMMONJS_RELEASE).kind, 'parseError');
  });
});
