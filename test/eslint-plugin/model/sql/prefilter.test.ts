// The SQL screen never turns away a file the SQL model would read: every SQL package and every
// pool-like name an import can bring in passes it, and so does SQL text with no import at all.

import * as assert from 'node:assert/strict';
import { Linter } from 'eslint';
import type { TSESLint } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { SQL_BUILDER_PACKAGES, SQL_PACKAGES } from '../../../../eslint-plugin/src/model/sql/client-table.js';
import { mayContainSql } from '../../../../eslint-plugin/src/model/sql/prefilter.js';

function screen(code: string, sourceType: 'module' | 'commonjs' = 'module'): boolean {
  let answer: boolean | undefined;
  const probe: TSESLint.RuleModule<string> = {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the RuleModule type still requires it
    defaultOptions: [],
    meta: { type: 'problem', messages: {}, schema: [] },
    create(context) {
      return { Program() { answer = mayContainSql(context.sourceCode.text, context.sourceCode.ast); } };
    },
  };
  new Linter().verify(code, [{
    languageOptions: { sourceType },
    plugins: { probe: { rules: { screen: probe } } } as never,
    rules: { 'probe/screen': 'error' },
  }]);
  assert.notEqual(answer, undefined);
  return answer!;
}

describe('mayContainSql', () => {
  const packages = [...Object.keys(SQL_PACKAGES).map((name) => (name.endsWith('/') ? `${name}node-postgres` : name)), ...SQL_BUILDER_PACKAGES.keys()];
  for (const name of packages) {
    it(`lets an import of '${name}' through, ES and CommonJS`, () => {
      assert.equal(screen(`import x from '${name}';\nx();`), true);
      assert.equal(screen(`const x = require("${name}");\nx();`, 'commonjs'), true);
    });
  }

  for (const local of ['pool', 'pgPool', 'writerPool', 'prisma', 'prismaClient', 'knex', 'sequelize', 'dataSource', 'AppDataSource', 'sql']) {
    it(`lets \`${local}\` from a relative import through and stops it from a package`, () => {
      assert.equal(screen(`import { ${local} } from './db';\n${local}.run();`), true);
      assert.equal(screen(`import { ${local} } from 'some-cache';\n${local}.run();`), false);
    });
  }

  it('lets a SQL string through without any import', () => {
    assert.equal(screen(`client.run('SELECT pg_advisory_lock(1)');`), true);
    assert.equal(screen(`run("delete from jobs where id = 1");`), true);
  });

  it('lets a project module that makes the knex instance through, by its file or binding name', () => {
    assert.equal(screen(`const createKnex = require('./loaders/knex');\nthis.knex = createKnex(config);`, 'commonjs'), true);
    assert.equal(screen(`import { makeKnex } from '../db';\nconst db = makeKnex();`), true);
    assert.equal(screen(`import build from '../database/knex.js';\nconst db = build();`), true);
    // A package named for knex that is none of the SQL packages sends no SQL of its own.
    assert.equal(screen(`import { createKnex } from 'knex-cache-helpers';\ncreateKnex();`), false);
  });

  it('stops a file with neither', () => {
    assert.equal(screen(`import { cache } from './cache';\nconst value = cache.get('key');\nexport default value;`), false);
    // SQL words outside a statement's start and outside an import are not SQL.
    assert.equal(screen(`const { select } = require('./menu');\nselect('update the pool');`, 'commonjs'), false);
  });
});
