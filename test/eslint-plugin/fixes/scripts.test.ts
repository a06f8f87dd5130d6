// fixes/scripts.ts: the Lua the fixes write. What the scripts do against Redis is proven in test/proofs
// and how they are classified in lua/analyze-script.test.ts; here, that each parses and reads only
// the keys and arguments its callers pass.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  DEFAULT_TTL_MS,
  EXTEND_SCRIPT,
  FENCED_ACQUIRE_SCRIPT,
  RELEASE_SCRIPT,
  SCRIPT_TEXTS,
} from '../../../eslint-plugin/src/fixes/scripts.js';
import { parseRedisLua } from '../../../eslint-plugin/src/lua/parse-script.js';

/** The `KEYS[n]` and `ARGV[n]` a script reads, sorted. */
function inputsOf(script: string): string[] {
  return [...new Set([...script.matchAll(/\b(?:KEYS|ARGV)\[\d+\]/gu)].map((match) => match[0]))].sort();
}

describe('fixes/scripts', () => {
  it('every script parses as Redis Lua', () => {
    for (const script of [RELEASE_SCRIPT, EXTEND_SCRIPT, FENCED_ACQUIRE_SCRIPT]) assert.ok(parseRedisLua(script), script);
  });

  it('each script reads exactly the keys and arguments its call passes', () => {
    // renderEvalCall passes one key and the token (release), plus the TTL (extend); the fenced
    // acquisition passes the lock key and the fence counter, the token and the TTL.
    assert.deepEqual(inputsOf(RELEASE_SCRIPT), ['ARGV[1]', 'KEYS[1]']);
    assert.deepEqual(inputsOf(EXTEND_SCRIPT), ['ARGV[1]', 'ARGV[2]', 'KEYS[1]']);
    assert.deepEqual(inputsOf(FENCED_ACQUIRE_SCRIPT), ['ARGV[1]', 'ARGV[2]', 'KEYS[1]', 'KEYS[2]']);
  });

  it('SCRIPT_TEXTS names each script by the kind of call it replaces', () => {
    assert.deepEqual(SCRIPT_TEXTS, { release: RELEASE_SCRIPT, extend: EXTEND_SCRIPT, fencedAcquire: FENCED_ACQUIRE_SCRIPT });
  });

  it('the default TTL is 30 seconds, in milliseconds', () => {
    assert.equal(DEFAULT_TTL_MS, 30_000);
  });
});
