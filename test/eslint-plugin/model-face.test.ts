// The model's face: rules ask the lock model questions through model/index.ts alone, and the model
// never reaches back into the rules or their fixes. Read from the sources, so a new import that
// breaks either fails here rather than in review.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'mocha';

const SOURCES = path.join(__dirname, '..', '..', 'eslint-plugin', 'src');
const RULES = path.join(SOURCES, 'rules');
const MODEL = path.join(SOURCES, 'model');

// What a rule may import besides the face: its own helpers, its fixes, the parser's types and the Lua parser.
const RULE_IMPORTS = [
  /^\.\.\/model\/index\.js$/u,
  /^\.\.\/util\/related\.js$/u,
  /^\.\.\/rule-support\/(?:create-rule|lua-report)\.js$/u,
  /^\.\.\/fixes\/[\w-]+\.js$/u,
  /^\.\.\/lua\/[\w-]+\.js$/u,
  /^@typescript-eslint\/utils$/u,
];

/** Every module specifier a TypeScript source imports or re-exports, static or dynamic. */
function specifiersOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(
    /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/gmu,
  )) {
    found.push(match[1] ?? match[2] ?? match[3] ?? match[4]!);
  }
  return found;
}

function sourcesUnder(directory: string): string[] {
  return fs
    .readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

describe("the model's face", () => {
  const ruleFiles = sourcesUnder(RULES).filter((file) => path.basename(file) !== 'index.ts');

  it('finds the rules and their imports', () => {
    assert.ok(ruleFiles.length >= 17, `only ${ruleFiles.length} rule sources`);
    assert.ok(
      ruleFiles.every((file) => specifiersOf(file).includes('../rule-support/create-rule.js')),
      'a rule without createRule: the import reader missed it',
    );
  });

  it('rules import the model from model/index.ts only, and nothing outside the allowed helpers', () => {
    const offences = ruleFiles.flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => !RULE_IMPORTS.some((allowed) => allowed.test(specifier)))
        .map((specifier) => `${path.relative(SOURCES, file)} imports ${specifier}`),
    );
    assert.deepEqual(offences, []);
  });

  it('no model module imports a rule or a fix', () => {
    const offences = sourcesUnder(MODEL).flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => ({ specifier, target: path.relative(SOURCES, path.resolve(path.dirname(file), specifier)) }))
        .filter(({ target }) => target.startsWith(`rules${path.sep}`) || target.startsWith(`fixes${path.sep}`))
        .map(({ specifier }) => `${path.relative(SOURCES, file)} imports ${specifier}`),
    );
    assert.deepEqual(offences, []);
  });
});
