// Which local names a module binds to which package exports (collectImports): ES imports, `import x =
// require()`, CommonJS `require` (whole, a member, destructured) and `await import()`; top level only.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { collectImports } from '../../../../eslint-plugin/src/model/facts/imports.js';
import { readAtEnd } from '../../../support/probe-rule.js';

function imports(code: string, typescript = true): Record<string, string> {
  return readAtEnd(
    code,
    (context) =>
      Object.fromEntries(
        [...collectImports(context.sourceCode.ast)].map(([local, binding]) => [local, `${binding.source}#${binding.imported}`]),
      ),
    { typescript },
  );
}

describe('collectImports', () => {
  it('ES imports: default, namespace, named (renamed and string-named)', () => {
    assert.deepEqual(
      imports(`import Redis, * as all from 'ioredis';
import { createClient as make, 'Cluster' as Cluster } from 'redis';
import type { RedisOptions } from 'ioredis';
import pg = require('pg');`),
      {
        Redis: 'ioredis#default',
        all: 'ioredis#*',
        make: 'redis#createClient',
        Cluster: 'redis#Cluster',
        RedisOptions: 'ioredis#RedisOptions',
        pg: 'pg#*',
      },
    );
  });

  it('CommonJS: a whole module, a member of it, a destructured name, and await import()', () => {
    assert.deepEqual(
      imports(
        `const Redis = require('ioredis');
const Redlock = require('redlock').default;
const { createClient, commandOptions: options } = require('redis');
const { Pool } = require('pg').native;
const deep = require('redis').commands.set;
async function later() { const inner = require('postgres'); return inner; }
const lazy = (async () => { const mod = await import('redis-semaphore'); return mod; })();`,
        false,
      ),
      {
        Redis: 'ioredis#*',
        Redlock: 'redlock#default',
        createClient: 'redis#createClient',
        options: 'redis#commandOptions',
      },
    );
    // Not bound: a pattern destructured from a member (`require('pg').native`), a member of a member, requires inside
    // functions, and the `await import()` inside an async arrow; a top-level one binds the namespace.
    assert.deepEqual(imports(`const mod = await import('ioredis');`), { mod: 'ioredis#*' });
  });

  it('a Map named like a client, or a computed require, binds nothing', () => {
    assert.deepEqual(
      imports(
        `const redis = new Map();
const name = 'ioredis';
const Dynamic = require(name);`,
        false,
      ),
      {},
    );
  });
});
