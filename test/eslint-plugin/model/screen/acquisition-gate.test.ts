// The lock map's acquisition screen: every call shape the model makes an acquisition from passes it
// (each spelling of SET NX, SETNX, a script read from a file, a lock library's acquiring methods, an
// advisory lock, a lock-table insert), and the lookalikes a Redis client's or an ORM's own source is
// full of do not. The lock map's own test (test/extension/unit/lock-map-screen.test.ts) holds it to
// full lints of the samples and of the corpus.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { LOCK_LIBRARIES, REDIS_METHODS } from '../../../../eslint-plugin/src/model/tables/redis-clients.js';
import { EXPIRY_COLUMNS, LOCK_TABLE_WORDS, OWNER_COLUMNS } from '../../../../eslint-plugin/src/model/tables/sql-clients.js';
import { acquiresInText, callsLockLibraryMethod, namesLockLibrary } from '../../../../eslint-plugin/src/model/screen/acquisition-gate.js';

describe('acquisition gate', () => {
  it('lets a SET with NX through in every spelling of its options', () => {
    for (const code of [
      `await store.set('lock:a', token, 'PX', 30000, 'NX');`,
      `await store.set(key, token, { NX: true, PX: ttl });`,
      `await store.set(key, token, { px: ttl, nx: true });`,
      `await store.set(key, token, { 'NX': true });`,
      'await store.set(key, token, { condition: `NX`, expiration: { type: "PX", value: ttl } });',
      `await store.SET(key, token, { [NX]: true });`,
      `await client.sendCommand(['SET', key, token, 'NX', 'PX', '30000']);`,
      `await client.call('set', key, token, 'nx', 'px', 30000);`,
      `await client.multi().set(key, token, 'NX').expire(key, 30).exec();`,
      `await store.set(key, token, ...(exclusive ? ['NX'] : []));`,
      // Followed by staticString from a variable.
      `const ONLY_IF_ABSENT = 'NX';\nawait store.set(key, token, ONLY_IF_ABSENT);`,
      // A Lua script's own SET.
      'await redis.eval(`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`, 1, key, token, ttl);',
      `redis.defineCommand('take', { numberOfKeys: 1, lua: "return redis.pcall('set', KEYS[1], ARGV[1], 'nx')" });`,
    ]) {
      assert.equal(acquiresInText(code), true, code);
    }
  });

  it('turns away NX that no SET can read: another call, a test, a name, a type, a longer word', () => {
    for (const code of [
      `command.push("nx");`,
      `if ("nx" in opts && opts.nx) command.push(opts.nx);`,
      `const nx = normal.nx + 1; const label = 'NX-01'; onx(1); nginx();`,
      `super(["set", ...cmd], opts);`,
      `if (mode === 'NX') flags.add(mode);`,
      `function set(key, value, opts: { nx?: boolean }) {}`,
    ]) {
      assert.equal(acquiresInText(code), false, code);
    }
  });

  it('lets SETNX through in every method spelling, as a generic command and as a constant', () => {
    const methods = Object.keys(REDIS_METHODS).filter((method) => REDIS_METHODS[method] === 'SETNX');
    assert.ok(methods.length >= 3, methods.join(', '));
    for (const method of methods) {
      assert.equal(acquiresInText(`await store.${method}('lock:a', token);`), true, method);
      assert.equal(acquiresInText(`await store?.${method} ('lock:a', token);`), true, method);
      assert.equal(acquiresInText(`await store['${method}']('lock:a', token);`), true, method);
    }
    assert.equal(acquiresInText(`await client.sendCommand(['SETNX', key, token]);`), true);
    assert.equal(acquiresInText(`const COMMAND = 'setnx';\nawait client.call(COMMAND, key, token);`), true);
    // A command class's own name list and a link to the command's page take no lock.
    assert.equal(acquiresInText(`super(["setnx", ...cmd], opts);\n// https://redis.io/commands/setnx/\nhsetnx(k, f, v);`), false);
  });

  it('lets a script read from a .lua file through only where the file runs scripts', () => {
    assert.equal(
      acquiresInText(`const script = readFileSync(path.join(__dirname, 'take.lua'), 'utf8');\nawait redis.evalsha(sha, 1, k);`),
      true,
    );
    assert.equal(acquiresInText(`redis.defineCommand('take', { lua: fs.readFileSync('take.lua', 'utf8') });`), true);
    assert.equal(acquiresInText(`const config = JSON.parse(readFileSync('config.json', 'utf8'));`), false);
    assert.equal(acquiresInText(`await redis.eval(RELEASE, 1, key, token);`), false);
  });

  it('lets a script another module exports through where it is run by name, and no other run', () => {
    assert.equal(acquiresInText(`import { ACQUIRE } from './scripts';\nawait client.eval(ACQUIRE, { keys: [k], arguments: [t] });`), true);
    assert.equal(acquiresInText(`const { INSERT, REMOVE } = require('./lua');\nawait redis.evalsha(INSERT, 1, k);`), true);
    assert.equal(acquiresInText(`import { format } from './text';\nconst SCRIPT = 'return 1';\nawait redis.eval(SCRIPT, 0);`), false);
  });

  it('lets an advisory lock through, and turns away its unlock alone', () => {
    assert.equal(acquiresInText(`await client.query('SELECT pg_try_advisory_xact_lock($1)', [id]);`), true);
    assert.equal(acquiresInText(`await client.query('select PG_ADVISORY_LOCK_SHARED(1)');`), true);
    assert.equal(acquiresInText(`await client.query('SELECT pg_advisory_unlock($1)', [id]);`), false);
  });

  it('lets an insert into a table named for locks through, however it is named', () => {
    for (const word of LOCK_TABLE_WORDS) {
      assert.equal(acquiresInText(`await pool.query('INSERT INTO app_${word} (name) VALUES ($1)', [n]);`), true, word);
      assert.equal(acquiresInText(`await pool.query(\`INSERT INTO "public"."${word}" (name) VALUES ($1)\`, [n]);`), true, word);
      assert.equal(acquiresInText(`await db('app_${word}').insert({ name });`), true, word);
      assert.equal(acquiresInText(`await trx("public.${word.toUpperCase()}").upsert({ name });`), true, word);
    }
    // A table whose name only contains the word, or has a word after it, is no lock table.
    assert.equal(acquiresInText(`await pool.query('INSERT INTO clocks (name) VALUES ($1)', [n]);`), false);
    assert.equal(acquiresInText(`await db('lock_events').insert({ name });`), false);
  });

  it('lets an insert into a table with an owner and an expiry column through', () => {
    for (const owner of OWNER_COLUMNS) {
      for (const expiry of EXPIRY_COLUMNS) {
        const sql = `await pool.query('INSERT INTO jobs (name, ${owner}, ${expiry}) VALUES ($1, $2, $3)', [n, o, e]);`;
        assert.equal(acquiresInText(sql), true, sql);
        const knex = `await db('jobs').insert({ name, ${owner}, ${expiry}: at });`;
        assert.equal(acquiresInText(knex), true, knex);
      }
    }
    // The columns named by another statement on the table.
    assert.equal(
      acquiresInText(`await db('jobs').insert(row);\nawait pool.query('UPDATE jobs SET owner = NULL WHERE expires_at < now()');`),
      true,
    );
    assert.equal(
      acquiresInText(`await db('jobs').insert(row);\nawait db('jobs').where('owner', me).where("expires_at", '<', now).del();`),
      true,
    );
    // An ORM's own source: an insert method, a member and a variable named like the columns.
    assert.equal(
      acquiresInText(`const expiration = ttl(config);\nif (!prop.owner) await em.insert(entity);\n// Lock tables are not supported here`),
      false,
    );
  });

  it("knows every lock library's acquiring methods as calls, and each library's package by name", () => {
    for (const [library, entry] of Object.entries(LOCK_LIBRARIES)) {
      for (const [method, meaning] of Object.entries(entry.methods)) {
        if (meaning.acts !== 'acquire') continue;
        assert.equal(callsLockLibraryMethod(`const handle = await locks.${method}(['a'], 1000);`), true, `${library} ${method}`);
        assert.equal(
          callsLockLibraryMethod(`const handle = await this.locks\n  .${method}<Lock>(['a'], 1000);`),
          true,
          `${library} ${method}`,
        );
      }
    }
    assert.equal(callsLockLibraryMethod(`await this.unlock(); const using = 1; tryAcquireLater(); const lock = {};`), false);
    assert.equal(namesLockLibrary(`import Redlock from 'redlock';`), true);
    assert.equal(namesLockLibrary(`const { Mutex } = require("redis-semaphore");`), true);
    assert.equal(namesLockLibrary(`import Redlock from '@sesamecare-oss/redlock';`), true);
    assert.equal(namesLockLibrary(`// a redlock-like lock\nimport { lock } from './redlock-like';`), false);
  });
});
