// The command's linting with each ESLint major the peer range admits (8.57, 9, 10): CommonJS and
// detected modules parse, directive comments for other tools stay silent, node_modules files named
// explicitly are linted, and only Locksmith's messages come out, with or without ESLint's ruleFilter.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ESLint } from 'eslint';
import { after, before, describe, it } from 'mocha';
import { lintWithESLintClass } from '../../../eslint-plugin/src/cli/lint.js';
import { relatedOf } from '../../../eslint-plugin/src/cli/related-capture.js';
import { CLI_SUITE_TIMEOUT_MS, makeProject, UNSAFE_RELEASE_CJS_DEL_LINE, UNSAFE_RELEASE_CJS_SOURCE } from './run-cli';

interface ESLintModule {
  loadESLint: (options: { useFlatConfig: true }) => Promise<typeof ESLint>;
}

// ESLint 8 and 9 live in their own install (see test/eslint-compat/package.json).
const compatModules = path.join(__dirname, '..', '..', 'eslint-compat', 'node_modules');

const FILES: Record<string, string> = {
  'cjs/shams.js':
    "'use strict';\nif (typeof Symbol !== 'function') {\n  return;\n}\nmodule.exports = 0644 === 420 ? Symbol : null;\n".replace(
      "'use strict';\n",
      '',
    ),
  'esm/detected.js': "export const here = import.meta.url;\nexport const config = await import('./config.js');\n",
  'inline/console.js':
    '/* eslint-env node */\n/* eslint no-console: "error" */\n/* eslint other-plugin/rule: "error" */\n// eslint-disable-next-line no-debugger\nconsole.log(process.pid);\n',
  'ts/index.ts': "import fs = require('node:fs');\nconst exists: (file: string) => boolean = fs.existsSync;\nexport = { exists };\n",
  'ts/legacy.cts':
    "import path = require('node:path');\nif (!module.parent) process.exitCode = 0;\nexport = path.join(__dirname, 'data');\n",
  'node_modules/lock-helper/index.js': UNSAFE_RELEASE_CJS_SOURCE,
};

describe("the command's linting on each ESLint major", function () {
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;
  before(() => {
    ({ root, cleanup } = makeProject(FILES));
  });
  after(() => {
    cleanup();
  });

  for (const [label, moduleName] of [
    ['ESLint 8.57', path.join(compatModules, 'eslint8')],
    ['ESLint 9', path.join(compatModules, 'eslint9')],
    ['ESLint 10', 'eslint'],
  ] as const) {
    it(label, async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const FlatESLint = await (require(moduleName) as ESLintModule).loadESLint({ useFlatConfig: true });
      const files = Object.keys(FILES).map((file) => path.join(root, file));
      const run = await lintWithESLintClass(FlatESLint, {
        files,
        stdin: undefined,
        cwd: root,
        config: { preset: 'recommended', ruleOverrides: {}, projectConfig: undefined },
        typeAware: false,
        cache: undefined,
        concurrency: 'off',
      });
      assert.deepEqual(run.notices, []);
      const seen = run.results
        .map((result) => ({
          file: path.relative(root, result.filePath),
          messages: result.messages.map((message) => `${message.ruleId ?? 'fatal'}@${message.line}`),
          suppressed: result.suppressedMessages.length,
        }))
        .sort((left, right) => left.file.localeCompare(right.file));
      assert.deepEqual(seen, [
        { file: 'cjs/shams.js', messages: [], suppressed: 0 },
        { file: 'esm/detected.js', messages: [], suppressed: 0 },
        { file: 'inline/console.js', messages: [], suppressed: 0 },
        {
          file: 'node_modules/lock-helper/index.js',
          messages: [`locksmith/no-unsafe-release@${UNSAFE_RELEASE_CJS_DEL_LINE}`],
          suppressed: 0,
        },
        { file: 'ts/index.ts', messages: [], suppressed: 0 },
        { file: 'ts/legacy.cts', messages: [], suppressed: 0 },
      ]);
      // The processor that carries related locations to the SARIF output runs in every major.
      const release = run.results.flatMap((result) => result.messages).find((message) => message.ruleId === 'locksmith/no-unsafe-release');
      assert.deepEqual(
        release && relatedOf(release).map((entry) => ({ message: entry.message, role: entry.role, line: entry.start.line })),
        [{ message: 'The lock is acquired here', role: 'acquisition', line: 5 }],
      );
    });
  }
});
