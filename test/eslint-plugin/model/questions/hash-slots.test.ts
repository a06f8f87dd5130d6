// Which cluster slot a script call's keys land in: the key's hash input as the source shows it,
// Redis Cluster's CRC16, and the script calls whose keys certainly span slots.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { crossSlotScriptCalls, keySlot, slotInput } from '../../../../eslint-plugin/src/model/questions/hash-slots.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** The lines of the script calls `crossSlotScriptCalls` answers for `code`. */
function crossSlotLines(code: string, settings: Record<string, unknown> = {}): number[] {
  return readAtEnd(
    code,
    (context) => {
      const model = getLockModel(context);
      return crossSlotScriptCalls(context.sourceCode, model.redis.commands, model.settings).map((command) => command.call.loc.start.line);
    },
    { typescript: true, settings },
  );
}

/** What `slotInput` reads of each key expression `keys(...)` is called with. */
function slotInputs(keys: string): ({ text: string; static: boolean } | undefined)[] {
  return readAtEnd(
    `const prefix = 'p'; const id = '1'; declare const runtime: string; declare const other: string;
declare function keys(...k: unknown[]): void; keys(${keys});`,
    (context) => {
      const program = context.sourceCode.ast;
      const statement = program.body.at(-1)!;
      if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.CallExpression)
        throw new Error('no call');
      return statement.expression.arguments.map((argument) => {
        const input = slotInput(context.sourceCode, argument);
        // The placeholder marking a runtime part is a private-use character: shown as `?` here.
        return input && { text: input.text.replace(/\uE000[^\uE000]*\uE000/gu, '?'), static: input.static };
      });
    },
    { typescript: true },
  );
}

const CLUSTER_HEAD = `import { Cluster } from 'ioredis';
const cluster = new Cluster([{ host: 'localhost', port: 7000 }]);
const SCRIPT = "return redis.call('DEL', KEYS[1], KEYS[2])";
`;

describe('hash-slots', () => {
  it("keySlot is Redis Cluster's CRC16 modulo 16384", () => {
    // The values CLUSTER KEYSLOT answers, and the CRC16/XMODEM check value of "123456789" (0x31C3).
    assert.equal(keySlot('123456789'), 0x31c3);
    assert.equal(keySlot('foo'), 12182);
    assert.equal(keySlot('somekey'), 11058);
    assert.equal(keySlot(''), 0);
  });

  it('slotInput reads the hash tag, or the whole key, and marks runtime parts', () => {
    assert.deepEqual(slotInputs(`'{job}:lock', 'lock:a', '{}x', \`{\${runtime}}:lock\`, \`lock:\${runtime}\``), [
      { text: 'job', static: true },
      { text: 'lock:a', static: true },
      // An empty tag `{}` is no tag: the whole key is hashed.
      { text: '{}x', static: true },
      { text: '?', static: false },
      { text: 'lock:?', static: false },
    ]);
    // Constants are read through; a key that opens with a runtime value may carry the tag itself,
    // and a sum of two unknowns says nothing.
    assert.deepEqual(slotInputs(`\`\${prefix}:lock\`, prefix + id, \`\${runtime}:lock\`, runtime + other, 'lock:' + runtime`), [
      { text: 'p:lock', static: true },
      { text: 'p1', static: true },
      undefined,
      undefined,
      { text: 'lock:?', static: false },
    ]);
  });

  it('answers a cluster script call whose literal keys hash to two slots', () => {
    assert.deepEqual(
      crossSlotLines(`${CLUSTER_HEAD}export async function f() {
  await cluster.eval(SCRIPT, 2, 'lock:a', 'lock:b');
  await cluster.eval(SCRIPT, 2, '{job}:lock', '{job}:fence');
}`),
      [5],
    );
  });

  it('answers runtime keys with two different tags, and stays silent on a literal beside a runtime key', () => {
    assert.deepEqual(
      crossSlotLines(`${CLUSTER_HEAD}export async function f(id: string, other: string) {
  await cluster.eval(SCRIPT, 2, \`{\${id}}:lock\`, \`{\${other}}:fence\`);
  await cluster.eval(SCRIPT, 2, \`{\${id}}:lock\`, \`{\${id}}:fence\`);
  await cluster.eval(SCRIPT, 2, 'lock:a', \`lock:\${id}\`);
}`),
      [5],
    );
  });

  it('stays silent on a plain client unless settings say every client is a cluster', () => {
    const code = `import Redis from 'ioredis';
const redis = new Redis();
const SCRIPT = "return redis.call('DEL', KEYS[1], KEYS[2])";
export async function f() {
  await redis.eval(SCRIPT, 2, 'lock:a', 'lock:b');
}`;
    assert.deepEqual(crossSlotLines(code), []);
    assert.deepEqual(crossSlotLines(code, { locksmith: { redis: { cluster: true } } }), [5]);
  });
});
