// The SQL screen never turns away a file the SQL model would read: every SQL package and every
// pool-like name an import can bring in passes it, and so does SQL text with no import at all.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  EXPIRY_COLUMNS,
  LOCK_TABLE_WORDS,
  SQL_BUILDER_PACKAGES,
  SQL_PACKAGES,
} from '../../../../eslint-plugin/src/model/tables/sql-clients.js';
import { mayContainSql, mayHoldSqlLock } from '../../../../eslint-plugin/src/model/screen/sql-prefilter.js';
import { readAtEnd } from '../../../support/probe-rule.js';

function screen(code: string, sourceType: 'module' | 'commonjs' = 'module'): boolean {
  return readAtEnd(code, (context) => mayContainSql(context.sourceCode.text, context.sourceCode.ast), { sourceType });
}

describe('mayContainSql', () => {
  const packages = [
    ...Object.keys(SQL_PACKAGES).map((name) => (name.endsWith('/') ? `${name}node-postgres` : name)),
    ...SQL_BUILDER_PACKAGES.keys(),
  ];
  for (const name of packages) {
    it(`lets an import of '${name}' through, ES and CommonJS`, () => {
      assert.equal(screen(`import x from '${name}';\nx();`), true);
      assert.equal(screen(`const x = require("${name}");\nx();`, 'commonjs'), true);
    });
  }

  for (const local of [
    'pool',
    'pgPool',
    'writerPool',
    'prisma',
    'prismaClient',
    'knex',
    'sequelize',
    'dataSource',
    'AppDataSource',
    'sql',
  ]) {
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

describe('mayHoldSqlLock', () => {
  it('admits every lock table word and expiry column the SQL model knows, in the places SQL names them', () => {
    for (const word of LOCK_TABLE_WORDS) {
      for (const text of [
        `INSERT INTO ${word} (name) VALUES ($1)`,
        `delete from "app_${word}" where name = $1`,
        `const TABLE = '${word}';`,
        `const TABLE = 'job_${word}';`,
        `\`UPDATE \${schema}.job_${word} SET owner = $1\``,
        `\`DELETE FROM \${prefix}_${word} WHERE name = $1\``,
      ]) {
        assert.equal(mayHoldSqlLock(text), true, text);
      }
    }
    for (const column of EXPIRY_COLUMNS) assert.equal(mayHoldSqlLock(`UPDATE jobs SET ${column} = now() WHERE id = $1`), true, column);
    for (const text of [
      'INSERT INTO jobs (name, owner, expires) VALUES ($1, $2, $3)',
      'DELETE FROM jobs WHERE "expiry" < now()',
      "const TABLE = 'app.job_locks';",
    ])
      assert.equal(mayHoldSqlLock(text), true, text);
    for (const text of [
      'SELECT pg_advisory_xact_lock($1)',
      'select pg_try_advisory_lock(hashtext($1))',
      "sequelize.define('Lock', attributes)",
      '`INSERT INTO ${this.lockTable} (name) VALUES ($1)`',
    ]) {
      assert.equal(mayHoldSqlLock(text), true, text);
    }
  });

  it('turns away an ORM that only names row locks', () => {
    for (const text of [
      "if (lockMode === LockMode.PESSIMISTIC_WRITE) sql += ' FOR UPDATE';",
      'qb.setLock(mode); this.lockTables = [];',
      "return this.knex.client.formatter(this.builder).columnize(columns) + ' for share';",
      "const options = ['lockMode', 'lockTables', 'shouldLock']; if (mode) sql += \" LOCK\"; set('lock_timeout', 1);",
      'const sql = `select ${distinct} from ${tableSql}${joinsSql}${whereSql}${lockingClausesSql}`;',
      'this.cacheExpirationTime = options.lockedAt;',
      '// Renew before the lock expires.\nconst name = "bullmq.worker.jobs.to.extend.locks";',
    ])
      assert.equal(mayHoldSqlLock(text), false, text);
  });
});
