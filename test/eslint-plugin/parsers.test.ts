// The rules run the same on ESLint's default parser (espree, for plain JavaScript) as on
// @typescript-eslint/parser: the lock model must not depend on parser-specific node shapes.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import { describe, it } from 'mocha';
import plugin from '../../eslint-plugin/src/index.js';

const examplesDirectory = path.join(__dirname, '..', '..', 'examples');

function javascriptExamples(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return javascriptExamples(full);
    return /\.(?:m|c)?jsx?$/u.test(entry.name) ? [full] : [];
  });
}

function findings(code: string, filename: string, parser: Linter.Parser | undefined) {
  const linter = new Linter();
  const config: Linter.Config = {
    ...(plugin.configs.strict as unknown as Linter.Config),
    languageOptions: {
      sourceType: filename.endsWith('.cjs') || code.includes('require(') ? 'commonjs' : 'module',
      ...(parser ? { parser } : {}),
    },
  };
  return linter.verify(code, [config], filename).map((message) => ({
    rule: message.ruleId,
    line: message.line,
    column: message.column,
    suggestions: message.suggestions?.map((suggestion) => suggestion.desc) ?? [],
  }));
}

describe('parser independence', () => {
  const files = javascriptExamples(examplesDirectory);

  it('has JavaScript examples to compare', () => {
    assert.ok(files.length > 0);
  });

  for (const file of files) {
    it(`finds the same problems in ${path.relative(examplesDirectory, file)} with espree and @typescript-eslint/parser`, () => {
      const code = fs.readFileSync(file, 'utf8');
      const withEspree = findings(code, file, undefined);
      const withTypeScriptParser = findings(code, file, typescriptParser);
      assert.ok(withEspree.length > 0, 'an example must contain findings');
      assert.ok(
        withEspree.every((finding) => finding.rule?.startsWith('locksmith/')),
        JSON.stringify(withEspree),
      );
      assert.deepEqual(withEspree, withTypeScriptParser);
    });
  }
});
