// Where a file's test code is (testCodeOf): the callbacks of test cases and of setup and teardown
// hooks, in each framework's spelling, and the lookalikes that are not the framework's (lodash's
// `after`, a local `function test()`).

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { testCodeOf } from '../../../../eslint-plugin/src/model/facts/test-code.js';
import { lintWithProbe } from '../../../support/probe-rule.js';

/** For each `mark('label')` call in `code`: its label and the kind of test callback around it, or `-`. */
function marks(code: string, typescript = true): Record<string, string> {
  const calls: TSESTree.CallExpression[] = [];
  const answer: Record<string, string> = {};
  lintWithProbe(
    code,
    (context) => ({
      CallExpression(call) {
        if (call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'mark') calls.push(call);
      },
      'Program:exit'() {
        const testCode = testCodeOf(context.sourceCode);
        for (const call of calls) {
          const first = call.arguments[0];
          const label = first?.type === AST_NODE_TYPES.Literal ? String(first.value) : '?';
          answer[label] = testCode.callbackAround(call)?.kind ?? '-';
        }
      },
    }),
    { typescript },
  );
  return answer;
}

const DECLARE = 'declare function mark(label: string): void;\n';

describe('testCodeOf', () => {
  it('mocha and jest globals: hooks and cases, nested describe callbacks are neither', () => {
    assert.deepEqual(
      marks(`${DECLARE}describe('suite', () => {
  mark('describe');
  beforeEach(() => mark('beforeEach'));
  afterAll(async () => { mark('afterAll'); });
  it('works', async () => { mark('it'); });
  it.only('only', () => mark('it.only'));
  test.each([1, 2])('each %d', () => mark('test.each'));
});
mark('top');`),
      { describe: '-', beforeEach: 'hook', afterAll: 'hook', it: 'case', 'it.only': 'case', 'test.each': 'case', top: '-' },
    );
  });

  it('imports from test modules by their imported name, and a require of node:test', () => {
    assert.deepEqual(
      marks(`${DECLARE}import { after as afterAll } from 'mocha';
import test from 'ava';
afterAll(() => mark('mocha after'));
test.before(() => mark('ava before'));
test.serial.afterEach(() => mark('ava serial afterEach'));
test('ava case', (t) => { t.teardown(() => mark('t.teardown')); mark('ava case'); });`),
      {
        'mocha after': 'hook',
        'ava before': 'hook',
        'ava serial afterEach': 'hook',
        't.teardown': 'hook',
        'ava case': 'case',
      },
    );
    assert.deepEqual(
      marks(
        `const { test, after } = require('node:test');
after(() => mark('after'));
test('case', () => mark('case'));`,
        false,
      ),
      { after: 'hook', case: 'case' },
    );
  });

  it('a function passed by name runs as the hook it is passed to', () => {
    assert.deepEqual(
      marks(`${DECLARE}function clearKeys() { mark('declared'); }
const reset = () => mark('const arrow');
before(clearKeys);
afterEach(reset);`),
      { declared: 'hook', 'const arrow': 'hook' },
    );
  });

  it('a helper only test code calls runs as that test code: a hook when only hooks call it', () => {
    assert.deepEqual(
      marks(`${DECLARE}async function stall(id: string) { mark('from hook and case'); }
async function seed() { mark('from hooks'); await nested(); }
async function nested() { mark('helper of a helper'); }
function shared() { mark('also from production'); }
export function exported() { mark('exported'); }
describe('suite', () => {
  beforeEach(async () => { await stall('1'); await seed(); shared(); exported(); });
  afterAll(() => seed());
  it('works', async () => { await stall('2'); });
});
export const run = () => shared();`),
      {
        'from hook and case': 'case',
        'from hooks': 'hook',
        'helper of a helper': 'hook',
        'also from production': '-',
        exported: '-',
      },
    );
  });

  it('names the file binds itself, or imports from elsewhere, are not the framework’s', () => {
    assert.deepEqual(
      marks(`${DECLARE}import { after } from 'lodash';
function test(name: string, fn: () => void) { fn(); }
const done = after(2, () => mark('lodash after'));
test('local', () => mark('local test'));
const t = { teardown(fn: () => void) { fn(); } };
t.teardown(() => mark('object teardown'));`),
      { 'lodash after': '-', 'local test': '-', 'object teardown': '-' },
    );
  });
});
