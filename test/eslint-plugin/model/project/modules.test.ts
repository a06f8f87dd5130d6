// What the project's other modules export (project/modules.ts): a module is parsed only when its text
// passes the screen for what is asked (a client package, or a lock word with Redis or SQL), once per
// version; an import is followed to the node that makes the value — a named or default export, a
// re-export, a barrel's `export *`, CommonJS `module.exports` and `exports.x` — and a function export to
// its function. Packages, builtins, missing, unparsable and oversized modules answer nothing.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { after, before, describe, it } from 'mocha';
import type { ImportBinding } from '../../../../eslint-plugin/src/model/nouns/vocabulary.js';
import {
  clearModules,
  exportedFunction,
  forgetModule,
  importedValue,
  loadModule,
  type ExportedValue,
} from '../../../../eslint-plugin/src/model/project/modules.js';
import { TempProject } from './temp-project.js';

let project: TempProject;
let app = '';

/** Where the value is made: `file:line type` (the file relative to the project). */
function where(value: ExportedValue | undefined): string | undefined {
  if (!value) return undefined;
  const node = value.node;
  return `${path.relative(project.root, value.module.filePath)}:${node.loc.start.line} ${node.type}`;
}

function follow(source: string, imported: string, member?: string, purpose: 'client' | 'helper' = 'client'): string | undefined {
  const binding: ImportBinding = { source, imported };
  return where(importedValue(app, binding, purpose, member));
}

describe('modules', () => {
  before(() => {
    project = new TempProject('locksmith-modules-');
    project.write('src/redis.ts', [
      "import Redis from 'ioredis';",
      'export const redis = new Redis();',
      'export function getRedis() {',
      '  return redis;',
      '}',
      'export default redis;',
    ]);
    project.write('src/index.ts', ["export * from './redis.js';", "export { redis as client } from './redis.js';"]);
    project.write('src/cjs.cjs', [
      "const Redis = require('ioredis');",
      'const client = new Redis();',
      'const withLock = async (key, fn) => fn();',
      'module.exports = { client, withLock };',
    ]);
    project.write('src/exports.cjs', ["const Redis = require('ioredis');", 'exports.redis = new Redis();']);
    project.write('src/plain.ts', ['export const answer = 42;']);
    project.write('src/lock.ts', [
      "import { redis } from './redis.js';",
      'export async function acquireLock(key: string) {',
      "  return redis.set(key, 'x', 'NX');",
      '}',
    ]);
    project.write('src/broken.ts', ["import Redis from 'ioredis';", 'export const = ;']);
    project.write('src/big.ts', ["import Redis from 'ioredis';", `export const filler = '${'x'.repeat(400_001)}';`]);
    app = path.join(project.root, 'src', 'app.ts');
  });

  after(() => {
    project.remove();
  });

  it('follows named and default exports, re-exports and barrels to the node that makes the value', () => {
    assert.equal(follow('./redis.js', 'redis'), 'src/redis.ts:2 Identifier');
    assert.equal(follow('./redis.js', 'default'), 'src/redis.ts:2 Identifier');
    assert.equal(follow('./index.js', 'redis'), 'src/redis.ts:2 Identifier');
    assert.equal(follow('./index.js', 'client'), 'src/redis.ts:2 Identifier');
    assert.equal(follow('./redis.js', '*', 'redis'), 'src/redis.ts:2 Identifier');
    assert.equal(follow('./redis.js', 'missing'), undefined);
  });

  it('follows CommonJS module.exports objects and exports.x assignments', () => {
    assert.equal(follow('./cjs.cjs', '*'), 'src/cjs.cjs:4 ObjectExpression');
    assert.equal(follow('./cjs.cjs', '*', 'client'), 'src/cjs.cjs:2 Identifier');
    assert.equal(follow('./cjs.cjs', 'client'), 'src/cjs.cjs:2 Identifier');
    assert.equal(follow('./cjs.cjs', 'default', 'withLock'), 'src/cjs.cjs:3 Identifier');
    assert.equal(follow('./exports.cjs', 'redis'), 'src/exports.cjs:2 NewExpression');
  });

  it('exportedFunction: a declaration or a const holding a function; a client is none', () => {
    const functionOf = (source: string, imported: string, member?: string) => {
      const value = importedValue(app, { source, imported }, 'client', member);
      return value && exportedFunction(value)?.type;
    };
    assert.equal(functionOf('./redis.js', 'getRedis'), AST_NODE_TYPES.FunctionDeclaration);
    assert.equal(functionOf('./cjs.cjs', '*', 'withLock'), AST_NODE_TYPES.ArrowFunctionExpression);
    assert.equal(functionOf('./redis.js', 'redis'), undefined);
  });

  it('packages, builtins and modules that do not exist are never read', () => {
    assert.equal(follow('ioredis', 'default'), undefined);
    assert.equal(follow('node:fs', 'readFileSync'), undefined);
    assert.equal(follow('pg', 'Pool'), undefined);
    assert.equal(follow('./nope.js', 'redis'), undefined);
  });

  it('parses a module only when its text can hold what is asked', () => {
    const file = (name: string) => path.join(project.root, 'src', name);
    // A client is made from a client package; a helper takes a lock through Redis or SQL.
    assert.equal(loadModule(file('plain.ts'), 'client'), undefined);
    assert.equal(loadModule(file('plain.ts'), 'helper'), undefined);
    assert.equal(loadModule(file('lock.ts'), 'client'), undefined);
    assert.equal(loadModule(file('lock.ts'), 'helper')?.filePath, file('lock.ts'));
    // A barrel passes on whatever it re-exports.
    assert.equal(loadModule(file('index.ts'), 'helper')?.filePath, file('index.ts'));
    // Unparsable or oversized: nothing, and no throw.
    assert.equal(loadModule(file('broken.ts'), 'client'), undefined);
    assert.equal(loadModule(file('big.ts'), 'client'), undefined);
    assert.equal(loadModule(file('missing.ts'), 'client'), undefined);
  });

  it('keeps a parsed module per version; forgetModule and clearModules drop it', () => {
    const file = path.join(project.root, 'src', 'redis.ts');
    const first = loadModule(file, 'client');
    assert.ok(first);
    assert.equal(loadModule(file, 'client'), first);
    first.memo.set('probe', 1);
    forgetModule(file);
    const second = loadModule(file, 'client');
    assert.notEqual(second, first);
    assert.equal(second?.memo.has('probe'), false);
    clearModules();
    assert.notEqual(loadModule(file, 'client'), second);
    // A new text (another size, so another version) is parsed again without being told.
    const third = loadModule(file, 'client');
    project.write('src/redis.ts', ["import Redis from 'ioredis';", 'export const redis = new Redis({ lazyConnect: true });']);
    const fourth = loadModule(file, 'client');
    assert.notEqual(fourth, third);
    assert.equal(follow('./redis.js', 'getRedis'), undefined);
  });
});
