// The CLI's JavaScript parser: each file parsed as the module system Node runs it in.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { parseForESLint } from '../../../eslint-plugin/src/cli/cli-parser.js';
import { makeProject } from './run-cli';

interface ScopeManagerLike {
  scopes: { type: string }[];
}

describe('CLI JavaScript parser', () => {
  let root = '';
  let cleanup = (): void => undefined;
  before(() => {
    ({ root, cleanup } = makeProject({
      'plain/package.json': '{ "name": "plain" }',
      'esm/package.json': '{ "type": "module" }',
      'cjs/package.json': '{ "type": "commonjs" }',
      'esm/node_modules/dep/package.json': '{ "name": "dep" }',
      'esm/vendor/bad/package.json': '{ "type": ',
    }));
  });
  after(() => {
    cleanup();
  });

  // What ESLint passes a parser for the CLI's JavaScript config.
  function parse(relative: string, code: string) {
    const { ast, scopeManager } = parseForESLint(code, {
      ecmaVersion: 2026,
      sourceType: 'module',
      ecmaFeatures: { jsx: true },
      range: true,
      loc: true,
      tokens: true,
      comment: true,
      filePath: path.join(root, relative),
    });
    return { sourceType: ast.sourceType, scopes: (scopeManager as ScopeManagerLike).scopes.map((scope) => scope.type) };
  }

  const TOP_LEVEL_RETURN = 'if (!module.parent) return;\nmodule.exports = 0644;\n';
  const MODULE_SYNTAX = 'export const url = import.meta.url;\nexport default await Promise.resolve(1);\n';

  it('parses a file of a package without "type" as CommonJS, with Node\'s function scope around it', () => {
    assert.deepEqual(parse('plain/lib/a.js', TOP_LEVEL_RETURN), { sourceType: 'commonjs', scopes: ['global', 'function'] });
    assert.deepEqual(parse('plain/lib/with.js', 'with (scope) { run(); }\n'), {
      sourceType: 'commonjs',
      scopes: ['global', 'function', 'with', 'block'],
    });
  });

  it('detects module syntax in a package without "type", as Node does', () => {
    assert.deepEqual(parse('plain/lib/b.js', MODULE_SYNTAX), { sourceType: 'module', scopes: ['global', 'module'] });
    assert.equal(parse('plain/lib/c.js', "import x from 'y';\nexport const C = () => <div>{x}</div>;\n").sourceType, 'module');
    assert.equal(parse('plain/lib/d.js', "const React = require('react');\nmodule.exports = () => <div />;\n").sourceType, 'commonjs');
    // No package.json above at all: the same detection.
    assert.equal(parse('loose.js', MODULE_SYNTAX).sourceType, 'module');
  });

  it('follows the nearest package.json "type", and the file extension before it', () => {
    assert.equal(parse('esm/src/a.js', 'export const a = 1;\n').sourceType, 'module');
    assert.throws(() => parse('esm/src/b.js', TOP_LEVEL_RETURN), /'return' outside of function/);
    assert.equal(parse('esm/src/c.cjs', TOP_LEVEL_RETURN).sourceType, 'commonjs');
    assert.equal(parse('cjs/src/a.js', TOP_LEVEL_RETURN).sourceType, 'commonjs');
    assert.throws(() => parse('cjs/src/b.js', 'export const b = 1;\n'), /'import' and 'export' may appear only with 'sourceType: module'/);
    assert.equal(parse('cjs/src/c.mjs', 'export const c = 1;\n').sourceType, 'module');
  });

  it('stops looking for package.json at a node_modules folder, and reads a broken one as no "type"', () => {
    // dep's package.json has no "type": detection, not the enclosing "type": "module"; and a
    // package without any package.json is not governed by the one above its node_modules either.
    assert.equal(parse('esm/node_modules/dep/index.js', TOP_LEVEL_RETURN).sourceType, 'commonjs');
    assert.equal(parse('esm/node_modules/no-manifest/index.js', TOP_LEVEL_RETURN).sourceType, 'commonjs');
    assert.equal(parse('esm/vendor/bad/index.js', TOP_LEVEL_RETURN).sourceType, 'commonjs');
  });

  it('throws one error for a file broken in both module systems, from the reading that got further', () => {
    assert.throws(() => parse('plain/lib/e.js', "import x from 'y';\nexport function f( {\n  return x;\n}\n"), { lineNumber: 3 });
    assert.throws(() => parse('plain/lib/f.js', 'module.exports = function () {\n  return (;\n};\n'), { lineNumber: 2 });
  });
});
