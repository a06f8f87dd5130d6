// Where a lock's stored value comes from (questions/token-origin.ts): whether every holder ends up
// storing the same value — a literal, a constant, the host or pid, a clock read, or a token minted
// once per process — or a value that may be this holder's alone (a fresh random token, a caller's choice).

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import {
  isParameterValue,
  mintsRandomly,
  sharedTokenKind,
  type SharedTokenKind,
} from '../../../../eslint-plugin/src/model/questions/token-origin.js';
import { collectNodes } from '../../../../eslint-plugin/src/util/collect-nodes.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** What sharedTokenKind says of the argument of each `store(value)` call, in source order. */
function kinds(code: string): (SharedTokenKind | undefined)[] {
  return readAtEnd(
    code,
    (context) =>
      collectNodes(context.sourceCode)
        .calls.filter((call) => call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'store')
        .map((call) => sharedTokenKind(context.sourceCode, call.arguments[0]!)),
    { typescript: true },
  );
}

const HEAD = `import os from 'node:os';
import { randomUUID } from 'node:crypto';
declare function store(value: unknown): void;
`;

describe('token-origin: sharedTokenKind', () => {
  it('literals, constants and configuration are shared by every holder', () => {
    assert.deepEqual(
      kinds(`${HEAD}const OWNER = 'me';
const TEMPLATE = \`owner\`;
export function f() {
  store('locked');
  store(1);
  store(true);
  store(\`held\`);
  store(OWNER);
  store(TEMPLATE);
  store(process.env.LOCK_VALUE);
  store({ owner: 'me', since: 1 });
  store(null);
}`),
      ['literal', 'literal', 'literal', 'literal', 'constant', 'constant', 'constant', 'literal', undefined],
    );
  });

  it('the hostname or the pid alone is the host; both together fix a value per process', () => {
    assert.deepEqual(
      kinds(`${HEAD}export function f() {
  store(os.hostname());
  store(process.pid);
  store(String(process.pid));
  store(process.env.HOSTNAME);
  store(process.env.POD_NAME);
  store(\`\${os.hostname()}:\${process.pid}\`);
}`),
      ['host', 'host', 'host', 'host', 'host', 'process'],
    );
  });

  it('a clock read through arithmetic, rounding or conversion is a timestamp; mixed with randomness it is not', () => {
    assert.deepEqual(
      kinds(`${HEAD}export function f(ttl: number, suffix: string) {
  store(Date.now());
  store(Date.now() + ttl);
  store(Math.floor(Date.now() / 1000));
  store(new Date().toISOString());
  store(new Date(Date.now() + ttl).getTime());
  store(+new Date());
  store((Date.now() + 30000).toString());
  store(process.hrtime.bigint());
  store(performance.now());
  store(Date.now() + Math.random());
  store(Date.now() * Math.random());
  store(\`\${Date.now()}-\${randomUUID()}\`);
  store(Date.now() + suffix);
}`),
      [
        'timestamp',
        'timestamp',
        'timestamp',
        'timestamp',
        'timestamp',
        'timestamp',
        'timestamp',
        'timestamp',
        'timestamp',
        undefined,
        undefined,
        undefined,
        undefined,
      ],
    );
  });

  it('a value computed once at module scope is fixed per process; a fresh one in the function is not', () => {
    assert.deepEqual(
      kinds(`${HEAD}const WORKER_ID = randomUUID();
const STARTED = Date.now();
let current = randomUUID();
export function rotate() {
  current = randomUUID();
}
export function f() {
  const token = randomUUID();
  const stamp = Date.now();
  store(WORKER_ID);
  store(STARTED);
  store(current);
  store(token);
  store(stamp);
  store(randomUUID());
}`),
      ['process', 'process', undefined, undefined, 'timestamp', undefined],
    );
  });

  it('a module state object’s property keeps its value unless some code writes it', () => {
    assert.deepEqual(
      kinds(`${HEAD}const state = { lockValue: randomUUID(), owner: 'me' };
const moving = { lockValue: randomUUID() };
export function reset() {
  moving.lockValue = randomUUID();
}
export function f() {
  store(state.lockValue);
  store(state.owner);
  store(moving.lockValue);
}`),
      ['process', 'constant', undefined],
    );
  });

  it('this.token: once per process in a singleton, per instance otherwise, and the caller’s in a parameter property', () => {
    assert.deepEqual(
      kinds(`${HEAD}class LockManager {
  private readonly token = randomUUID();
  take() {
    store(this.token);
  }
}
export const locks = new LockManager();
export class JobLock {
  private readonly token = randomUUID();
  private readonly owner: string;
  constructor(private readonly given: string) {
    this.owner = 'worker';
  }
  take() {
    store(this.token);
    store(this.owner);
    store(this.given);
  }
}
export class Rotating {
  private token = 'a';
  rotate() {
    this.token = randomUUID();
  }
  take() {
    store(this.token);
  }
}`),
      ['process', undefined, 'literal', undefined, undefined],
    );
  });

  it('a parameter holds what every caller in the file passes; one random caller makes it unknown', () => {
    assert.deepEqual(
      kinds(`${HEAD}function take(value: string) {
  store(value);
}
function takeFresh(value: string) {
  store(value);
}
export function callers() {
  take('a');
  take(String(process.pid));
  takeFresh('a');
  takeFresh(randomUUID());
}
export function exported(value: string) {
  store(value);
}`),
      ['host', undefined, undefined],
    );
  });
});

describe('token-origin: isParameterValue and mintsRandomly', () => {
  it('a parameter is the caller’s choice; a local is not', () => {
    const answers = readAtEnd(
      `declare function store(value: unknown): void;
export function f(token: string) {
  const local = token;
  store(token);
  store(local);
  store(token as string);
}`,
      (context) =>
        collectNodes(context.sourceCode)
          .calls.filter((call) => call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'store')
          .map((call) => isParameterValue(context.sourceCode, call.arguments[0]!)),
      { typescript: true },
    );
    assert.deepEqual(answers, [true, false, true]);
  });

  it('random mints through calls, templates, concatenation and a method of the minted value', () => {
    const answers = readAtEnd(
      `${HEAD}import { nanoid } from 'nanoid';
import crypto from 'node:crypto';
export function f(id: string) {
  store(randomUUID());
  store(nanoid());
  store(crypto.randomBytes(16).toString('hex'));
  store(\`\${id}:\${Math.random()}\`);
  store(id + uuidv4());
  store(Date.now());
  store(id);
  store(os.hostname());
}`,
      (context) =>
        collectNodes(context.sourceCode)
          .calls.filter((call) => call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'store')
          .map((call) => mintsRandomly(call.arguments[0]!)),
      { typescript: true },
    );
    assert.deepEqual(answers, [true, true, true, true, true, false, false, false]);
  });
});
