// knex builder chains read into the statement facts of raw SQL: lock tables decided by the same rule
// (named for locks, or owner and expiry columns), ordinary tables left as writes.

import * as assert from 'node:assert/strict';
import * as typescriptParser from '@typescript-eslint/parser';
import { Linter, type Rule } from 'eslint';
import { describe, it } from 'mocha';
import { getSqlModel } from '../../../../eslint-plugin/src/model/sql/sql-model.js';
import type { SqlModel } from '../../../../eslint-plugin/src/model/nouns/sql-items.js';

function modelOf(code: string): { model: SqlModel; text: (node: { range: [number, number] } | undefined) => string } {
  let captured: SqlModel | undefined;
  const probe: Rule.RuleModule = {
    meta: { type: 'problem', schema: [], messages: { never: 'never' } },
    create(context) {
      return {
        'Program:exit'() {
          captured = getSqlModel(context as never);
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: typescriptParser as unknown as Linter.Parser },
        plugins: { test: { rules: { probe } } },
        rules: { 'test/probe': 'error' },
      },
    ],
    'file.ts',
  );
  assert.deepEqual(messages, []);
  assert.ok(captured, 'the probe rule ran');
  return { model: captured, text: (node) => (node ? code.slice(node.range[0], node.range[1]) : '') };
}

const header = `import knex from 'knex';\nconst db = knex({ client: 'pg' });\n`;

describe('knex builder statements', () => {
  it('an insert into a lock table is an acquisition, with its columns and bound values', () => {
    const { model, text } = modelOf(`${header}async function lock(name: string, token: string, until: Date) {
      await db('locks').insert({ name, owner: token, expires_at: until });
    }`);
    const [acquisition] = model.lockTableAcquisitions;
    assert.ok(acquisition?.builder);
    assert.equal(acquisition.query, undefined);
    assert.equal(acquisition.table, 'locks');
    assert.deepEqual(acquisition.statement.insertColumns, ['name', 'owner', 'expires_at']);
    assert.deepEqual(acquisition.builder.parameters.map(text), ['name', 'token', 'until']);
    assert.equal(acquisition.statement.insertParameters.get('owner'), 2);
    assert.equal(model.writes.length, 0);
  });

  it('deletes and updates: owner compared or not, where before or after the write, owner cleared, heartbeat', () => {
    const { model } = modelOf(`${header}async function f(name: string, owner: string, until: Date) {
      await db('locks').where({ name, owner }).del();
      await db('locks').where('name', name).delete();
      await db('locks').del().where('name', '=', name);
      await db('locks').update({ owner: null }).where('name', name);
      await db('locks').update({ expires_at: until }).where({ name });
      await db('locks').where({ name, owner }).update('owner', null);
    }`);
    assert.deepEqual(
      model.lockTableReleases.map((release) => [
        release.kind,
        release.ownerCompared,
        release.statement.where.map((comparison) => `${comparison.column} ${comparison.operator}`).join(' and '),
      ]),
      [
        ['delete', true, 'name = and owner ='],
        ['delete', false, 'name ='],
        ['delete', false, 'name ='],
        ['update', false, 'name ='],
        ['update', true, 'name = and owner ='],
      ],
    );
    assert.deepEqual(model.lockTableReleases[4]!.statement.setNullColumns, ['owner']);
    assert.deepEqual(model.lockTableReleases[3]!.statement.setNullColumns, ['owner']);
    assert.deepEqual(
      model.lockTableRenewals.map((renewal) => renewal.statement.setColumns),
      [['expires_at']],
    );
  });

  it('on conflict: ignore, merge, and merge guarded by a where on the expiry', () => {
    const { model } = modelOf(`${header}async function f(row: { name: string }) {
      await db('locks').insert({ name: 'a', owner: 'me' }).onConflict('name').ignore();
      await db('locks').insert({ name: 'a', owner: 'me' }).onConflict('name').merge();
      await db('locks').insert({ name: 'a', owner: 'me' }).onConflict('name').merge(['owner']).where('locks.expires_at', '<', db.fn.now());
    }`);
    const conflicts = model.lockTableAcquisitions.map((acquisition) => acquisition.statement.onConflict);
    assert.deepEqual(
      conflicts.map((conflict) => [conflict?.action, conflict?.targetColumns, conflict?.setColumns]),
      [
        ['nothing', ['name'], []],
        ['update', ['name'], ['name', 'owner']],
        ['update', ['name'], ['owner']],
      ],
    );
    assert.deepEqual(
      model.lockTableAcquisitions.map((acquisition) => acquisition.upsert),
      [false, true, true],
    );
    assert.equal(conflicts[1]?.where, undefined);
    assert.deepEqual(
      conflicts[2]?.where?.map((comparison) => [comparison.column, comparison.operator, comparison.comparedWithClock]),
      [['expires_at', '<', true]],
    );
  });

  it('a const row is read; a row from elsewhere, a whereRaw or a where callback is not, and the chain is neither event nor write', () => {
    const { model } = modelOf(`${header}async function f(name: string, row: object, owner: string) {
      const lock = { name, expires_at: new Date() };
      await db('locks').insert(lock);
      await db('locks').insert(row);
      await db('locks').whereRaw('name = ? and owner = ?', [name, owner]).del();
      await db('locks').where((builder) => builder.where({ name })).del();
    }`);
    assert.deepEqual(
      model.lockTableAcquisitions.map((acquisition) => [acquisition.statement.insertColumns, acquisition.builder?.columnsKnown]),
      [
        [['name', 'expires_at'], true],
        [[], false],
      ],
    );
    assert.equal(model.lockTableReleases.length, 0);
    assert.equal(model.writes.length, 0);
    assert.deepEqual([...model.tablesWrittenUnread], ['locks']);
  });

  it('a schema-qualified table is named as the SQL path names it', () => {
    const { model } = modelOf(`${header}async function f(name: string) {
      await db('public.job_locks').insert({ name });
      await db('public.job_locks').where({ name }).del();
    }`);
    assert.deepEqual(
      model.lockTableAcquisitions.map((acquisition) => acquisition.table),
      ['job_locks'],
    );
    assert.deepEqual(
      model.lockTableReleases.map((release) => release.table),
      ['job_locks'],
    );
  });

  it('a table not named for locks is one when its statements show an owner and an expiry column', () => {
    const { model } = modelOf(`${header}async function claim(jobId: string, worker: string, until: Date) {
      await db('job_claims').insert({ job_id: jobId, locked_by: worker, locked_until: until });
      await db('job_claims').where({ job_id: jobId }).del();
    }`);
    assert.deepEqual(
      model.lockTableAcquisitions.map((acquisition) => acquisition.table),
      ['job_claims'],
    );
    assert.deepEqual(
      model.lockTableReleases.map((release) => release.table),
      ['job_claims'],
    );
  });

  it('lookalikes stay writes: sessions with an expiry but no owner, a cache, a queue', () => {
    const { model } = modelOf(`${header}async function f(id: string, key: string, value: string, until: Date) {
      await db('sessions').insert({ id, user_id: 1, expires_at: until });
      await db('sessions').where({ id }).del();
      await db('cache').insert({ key, value, expires_at: until }).onConflict('key').merge();
      await db('cache').where('expires_at', '<', db.fn.now()).del();
      await db('queue').insert({ id, status: 'pending', run_at: until });
      await db('queue').where({ id, status: 'pending' }).update({ status: 'running' });
    }`);
    assert.equal(model.lockTableAcquisitions.length + model.lockTableReleases.length + model.lockTableRenewals.length, 0);
    assert.deepEqual(
      model.writes.map((write) => `${write.orm?.method} ${write.table}`),
      ['insert sessions', 'del sessions', 'insert cache', 'del cache', 'insert queue', 'update queue'],
    );
  });

  it('the knex instance held in a class field (`this.knex = knex(config)`) sends the chain', () => {
    const { model } = modelOf(`import createKnex from 'knex';
      class Locks {
        knex: ReturnType<typeof createKnex>;
        constructor(config: object) { this.knex = createKnex(config); }
        async take(name: string) { await this.knex('locks').insert({ name }); }
        async free(name: string) { await this.knex('locks').where({ name }).del(); }
      }`);
    assert.equal(model.lockTableAcquisitions.length, 1);
    assert.equal(model.lockTableReleases.length, 1);
  });
});
