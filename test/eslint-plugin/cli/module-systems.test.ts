// Ordinary projects: CommonJS and ES modules decided as Node decides them, and directive comments
// meant for other ESLint versions or plugins, none of which may make the command fail or talk.

import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { CLI_SUITE_TIMEOUT_MS, UNSAFE_RELEASE_SOURCE, lintedFiles, makeProject, parseJsonReport, runLocksmith } from './run-cli';

// Shapes copied from real npm packages (has-symbols' tests, @azu/style-format, debug, lodash's
// template output, React components), none with lock code. Each parses only as what Node runs it as.
const VALID_PROJECT: Record<string, string> = {
  // No "type": Node detects each file's syntax.
  'cjs-pkg/package.json': '{ "name": "cjs-pkg", "version": "1.0.0", "main": "lib/index.js" }\n',
  'cjs-pkg/lib/shams.js': `'use strict';

var test = require('tape');

if (typeof Symbol === 'function' && typeof Symbol() === 'symbol') {
  test('has native Symbol support', function (t) {
    t.equal(typeof Symbol(), 'symbol');
    t.end();
  });
  return;
}

module.exports = require('../shams');
`,
  'cjs-pkg/lib/ansi-codes.js': `// LICENSE : MIT
module.exports = {
  reset: "\\033[0m",
  bold: "\\033[1m",
  mode: 0644,
};
`,
  'cjs-pkg/lib/template.js': `module.exports = function (obj) {
  var __p = '';
  with (obj) {
    __p += '<p>' + name + '</p>';
  }
  return arguments.callee.length ? __p : '';
};
`,
  'cjs-pkg/lib/browser.js': `/* eslint-env browser */
/* global chrome */

exports.storage = localstorage();

function localstorage() {
  try {
    return localStorage;
  } catch (error) {
    return chrome.storage;
  }
}
`,
  'cjs-pkg/lib/inline-config.js': `/* eslint no-console: "error", eqeqeq: ["error", "always"] */
/* eslint other-plugin/some-rule: "error" */
/* eslint no-alert: "bogus" */
/* eslint-disable-next-line other-plugin/another-rule */
const value = require('./ansi-codes');
// eslint-disable-next-line no-console -- a core rule's disable comment, as the project's own ESLint wants it
console.log(value == null);
console.log(value.reset);
`,
  'cjs-pkg/lib/component.js': `const React = require('react');

module.exports = function Greeting(props) {
  return <p className="greeting">Hello, {props.name}</p>;
};
`,
  // No "type", but module syntax: Node runs these as ES modules.
  'cjs-pkg/lib/detected-esm.js': `import { readFile } from 'node:fs/promises';

const config = JSON.parse(await readFile(new URL('./config.json', import.meta.url), 'utf8'));
export default config;
`,
  'cjs-pkg/lib/view.js': `/* eslint-env browser */
import { createRoot } from 'react-dom/client';

export function App() {
  return <main>{document.title}</main>;
}
createRoot(document.body).render(<App />);
`,
  'cjs-pkg/bin/cli.js': `#!/usr/bin/env node
/* eslint-env node */
if (require.main !== module) return;
process.exitCode = require('../lib/shams') ? 0 : 1;
`,
  // An explicit "type" wins over the syntax.
  'typed-cjs/package.json': '{ "name": "typed-cjs", "type": "commonjs" }\n',
  'typed-cjs/index.js': `var fs = require('fs');
if (!fs.existsSync) return;
fs.chmodSync(__filename, 0755);
`,
  'esm-pkg/package.json': '{ "name": "esm-pkg", "type": "module" }\n',
  'esm-pkg/src/index.js': `/* eslint-env node, es2022 */
/* eslint no-restricted-syntax: ["error", "AwaitExpression"] */
const { default: config } = await import('./config.js');
export const root = new URL('.', import.meta.url);
export { config };
`,
  'esm-pkg/src/config.js': 'export default { retries: 3 };\n',
  'esm-pkg/src/legacy.cjs': `if (module.parent) return;
module.exports = 010;
`,
  'esm-pkg/src/view.jsx': 'export const View = () => <section />;\n',
  'ts-pkg/package.json': '{ "name": "ts-pkg" }\n',
  'ts-pkg/src/index.ts': `import fs = require('node:fs');

const exists: (path: string) => boolean = fs.existsSync;
export = { exists };
`,
  'ts-pkg/src/legacy.cts': `import path = require('node:path');
/* eslint-env node */
export = path.join(__dirname, 'data');
`,
  'ts-pkg/src/start.mts': `const { setTimeout } = await import('node:timers/promises');
await setTimeout(1);
export {};
`,
};

const LINTED = Object.keys(VALID_PROJECT)
  .filter((file) => !file.endsWith('package.json'))
  .sort();

describe('locksmith on ordinary CommonJS and ESM packages', function () {
  // Each test starts real `node` processes that load ESLint; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;
  before(() => {
    ({ root, cleanup } = makeProject(VALID_PROJECT));
  });
  after(() => {
    cleanup();
  });

  it('exits 0 with no output on valid code with no lock code', () => {
    const run = runLocksmith(root, []);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, '');
    assert.equal(run.status, 0);
  });

  it("lints every file, and reports and suppresses nothing from rules that are not Locksmith's", () => {
    const run = runLocksmith(root, ['--format', 'json']);
    assert.equal(run.status, 0, run.stdout);
    assert.deepEqual(lintedFiles(run, root), LINTED);
    for (const result of parseJsonReport(run)) {
      assert.deepEqual(result.messages, [], result.filePath);
      assert.deepEqual(result.suppressedMessages, [], result.filePath);
    }
  });
});

describe('locksmith on files that do not parse', function () {
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  const cases: { title: string; files: Record<string, string>; line: number }[] = [
    {
      title: 'a module with a real syntax error, in a package without "type"',
      // The module reading gets further than the CommonJS one (which stops at `import`), so its error is the one shown.
      files: { 'package.json': '{}', 'src/job.js': "import Redis from 'ioredis';\n\nexport function run( {\n  return new Redis();\n}\n" },
      line: 4,
    },
    {
      title: 'a CommonJS file broken in both module systems',
      files: { 'src/job.js': "const Redis = require('ioredis');\nmodule.exports = function () {\n  return new Redis(;\n};\n" },
      line: 3,
    },
    {
      title: 'a top-level return in a "type": "module" package, which Node rejects',
      files: { 'package.json': '{ "type": "module" }', 'src/job.js': 'if (process.env.CI) return;\nexport const ready = true;\n' },
      line: 1,
    },
    {
      title: 'module syntax in a "type": "commonjs" package, which Node rejects',
      files: { 'package.json': '{ "type": "commonjs" }', 'src/job.js': 'const ready = true;\nexport { ready };\n' },
      line: 2,
    },
    {
      title: 'a legacy octal literal in a .mjs file',
      files: { 'src/job.mjs': 'export const mode = 0644;\n' },
      line: 1,
    },
  ];
  for (const { title, files, line } of cases) {
    it(`reports one parse error and exits 1 for ${title}`, () => {
      const project = makeProject(files);
      try {
        const run = runLocksmith(project.root, ['--format', 'json', 'src']);
        assert.equal(run.status, 1, run.stdout + run.stderr);
        const messages = parseJsonReport(run).flatMap((result) => result.messages);
        assert.equal(messages.length, 1, JSON.stringify(messages));
        assert.equal(messages[0]?.fatal, true);
        assert.match(messages[0].message, /^Parsing error/);
        assert.equal(messages[0].line, line);
        assert.equal(run.stderr, '');
      } finally {
        project.cleanup();
      }
    });
  }
});

describe('locksmith beside directive comments for other tools', function () {
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;
  before(() => {
    ({ root, cleanup } = makeProject({
      'esm/release.js': `/* eslint-env node */\n/* eslint no-console: "error" */\nconsole.log('starting');\n${UNSAFE_RELEASE_SOURCE}`,
      'cjs/release.js': `/* eslint-env node */
const Redis = require('ioredis');
const { randomUUID } = require('node:crypto');

const redis = new Redis();

module.exports = async function chargeInvoice(invoiceId, charge) {
  const token = randomUUID();
  const acquired = await redis.set('lock:x', token, 'NX', 'PX', 30000);
  if (acquired !== 'OK') return;
  try {
    await charge(invoiceId);
  } finally {
    // eslint-disable-next-line no-console
    console.log('release');
    await redis.del('lock:x');
  }
};
`,
      'suppressed/release.js': UNSAFE_RELEASE_SOURCE.replace(
        "    await redis.del('lock:x');",
        "    // eslint-disable-next-line locksmith/no-unsafe-release -- the key is per-invoice and short-lived\n    await redis.del('lock:x');",
      ),
    }));
  });
  after(() => {
    cleanup();
  });

  for (const directory of ['esm', 'cjs']) {
    it(`still reports a plain DEL release under /* eslint-env node */ (${directory})`, () => {
      const run = runLocksmith(root, ['--format', 'json', directory]);
      assert.equal(run.status, 1, run.stdout + run.stderr);
      const [result] = parseJsonReport(run);
      assert.deepEqual(
        result?.messages.map((message) => message.ruleId),
        ['locksmith/no-unsafe-release'],
      );
      assert.deepEqual(result.suppressedMessages, []);
    });
  }

  it('honours a locksmith disable comment, keeping the finding among the suppressed ones', () => {
    const run = runLocksmith(root, ['--format', 'json', 'suppressed']);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const [result] = parseJsonReport(run);
    assert.deepEqual(result?.messages, []);
    assert.deepEqual(
      result.suppressedMessages.map((message) => message.ruleId),
      ['locksmith/no-unsafe-release'],
    );
  });
});
