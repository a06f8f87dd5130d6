// The plugin's peer range admits ESLint 8.57, 9 and 10: each loads it and reports the same findings,
// ESLint 8 through the legacy eslintrc config, 9 and 10 through the flat config.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import plugin from '../../eslint-plugin/src/index.js';

interface LintResultLike {
  messages: { ruleId: string | null; line: number; column: number }[];
}
interface ESLintLike {
  lintText(code: string, options: { filePath: string }): Promise<LintResultLike[]>;
}
interface ESLintModule {
  ESLint: new (options: Record<string, unknown>) => ESLintLike;
  loadESLint?: (options: { useFlatConfig: boolean }) => Promise<new (options: Record<string, unknown>) => ESLintLike>;
}

const CODE = `const Redis = require('ioredis');
const redis = new Redis();
async function run(token) {
  await redis.setnx('lock:job', token);
  await redis.expire('lock:job', 30);
  await redis.del('lock:job');
}
module.exports = { run };
`;
const filePath = path.join(__dirname, 'virtual', 'job.js');
// ESLint 8 and 9 live in their own install (see test/eslint-compat/package.json).
const compatModules = path.join(__dirname, '..', 'eslint-compat', 'node_modules');

async function findings(eslint: ESLintLike): Promise<string[]> {
  const [result] = await eslint.lintText(CODE, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal'}@${message.line}:${message.column}`);
}

const expected = ['locksmith/require-acquire-check@4:9', 'locksmith/no-split-acquire@5:9', 'locksmith/no-unsafe-release@6:9'];

describe('ESLint versions', () => {
  it('ESLint 8.57 with the legacy config', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ESLint } = require(path.join(compatModules, 'eslint8')) as ESLintModule;
    const eslint = new ESLint({
      useEslintrc: false,
      plugins: { locksmith: plugin },
      overrideConfig: { extends: ['plugin:locksmith/legacy-recommended'], parserOptions: { ecmaVersion: 2022 }, env: { node: true } },
    });
    assert.deepEqual(await findings(eslint), expected);
  });

  for (const [label, moduleName] of [
    ['ESLint 9', path.join(compatModules, 'eslint9')],
    ['ESLint 10', 'eslint'],
  ] as const) {
    it(`${label} with the flat config`, async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require(moduleName) as ESLintModule;
      const FlatESLint = await module.loadESLint!({ useFlatConfig: true });
      const eslint = new FlatESLint({
        overrideConfigFile: true,
        overrideConfig: [plugin.configs.recommended, { languageOptions: { sourceType: 'commonjs' } }],
      });
      assert.deepEqual(await findings(eslint), expected);
    });
  }
});
