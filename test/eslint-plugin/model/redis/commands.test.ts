// One Redis command out of a call in any client dialect (readCommandShape): name, arguments, trailing
// callback, SET options and compare condition, and the dialect the call's own shape shows. The shape
// alone: whether the receiver is a Redis client is client-resolver's question, not this one's.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { calledMethod, readCommandShape } from '../../../../eslint-plugin/src/model/redis/commands.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** Each top-level statement's call read as a command: `NAME args=… [cb] [dialect] [set …] [compare …]`, or undefined. */
function shapes(code: string): (string | undefined)[] {
  return readAtEnd(
    `declare const redis: any, client: any, map: Map<string, string>, pattern: RegExp, token: string, cb: () => void, rest: string[];\ndeclare function name(): string;\n${code}`,
    (context) => {
      const sourceCode = context.sourceCode;
      return sourceCode.ast.body.slice(2).map((statement) => {
        if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.CallExpression)
          throw new Error('each line is a call');
        const shape = readCommandShape(sourceCode, statement.expression);
        if (!shape) return undefined;
        const parts = [`${shape.name} ${shape.form} args=${shape.args.map((argument) => sourceCode.getText(argument)).join(',')}`];
        if (shape.callback) parts.push('cb');
        if (shape.shapeDialect) parts.push(shape.shapeDialect);
        if (shape.set) {
          const { nx, xx, get, keepTtl, expiry } = shape.set;
          const flags = Object.entries({ nx, xx, get, keepTtl })
            .filter(([, on]) => on)
            .map(([flag]) => flag);
          parts.push(
            `set[${[...flags, ...(expiry ? [`${expiry.unit}=${expiry.value && sourceCode.getText(expiry.value)}`] : [])].join(' ')}]`,
          );
        }
        if (shape.compare)
          parts.push(`compare ${shape.compare.condition} ${shape.compare.value && sourceCode.getText(shape.compare.value)}`);
        return parts.join(' ');
      });
    },
    { typescript: true },
  );
}

describe('readCommandShape', () => {
  it('reads the method form and the generic forms of each dialect', () => {
    assert.deepEqual(
      shapes(`redis.set('lock:a', token, 'NX', 'PX', 30000);
redis.call('SET', 'lock:a', token, 'NX', 'EX', 30);
client.sendCommand(['SET', 'lock:a', token, 'NX']);
redis.exec(['DEL', 'lock:a']);
client.send_command('del', ['lock:a'], cb);
client.pExpire('lock:a', 1000);`),
      [
        "SET method args='lock:a',token,'NX','PX',30000 set[nx PX=30000]",
        "SET generic args='lock:a',token,'NX','EX',30 ioredis set[nx EX=30]",
        "SET generic args='lock:a',token,'NX' node-redis set[nx]",
        "DEL generic args='lock:a' upstash",
        "DEL generic args='lock:a' cb node-redis-v3",
        "PEXPIRE method args='lock:a',1000 node-redis",
      ],
    );
  });

  it('reads SET options in node-redis spellings, and a trailing callback', () => {
    assert.deepEqual(
      shapes(`client.set('lock:a', token, { NX: true, PX: 1000 });
client.set('lock:a', token, { condition: 'NX', expiration: { type: 'EX', value: 30 } });
client.set('lock:a', token, 'NX', 'PX', 1000, (error: unknown) => {});
redis.set('lock:a', token, 'XX', 'KEEPTTL', 'GET');`),
      [
        "SET method args='lock:a',token,{ NX: true, PX: 1000 } node-redis set[nx PX=1000]",
        "SET method args='lock:a',token,{ condition: 'NX', expiration: { type: 'EX', value: 30 } } node-redis-v5 set[nx EX=30]",
        "SET method args='lock:a',token,'NX','PX',1000 cb node-redis-v3 set[nx PX=1000]",
        "SET method args='lock:a',token,'XX','KEEPTTL','GET' set[xx get keepTtl]",
      ],
    );
  });

  it('reads the compare condition of SET IFEQ, DELEX and DELIFEQ', () => {
    assert.deepEqual(
      shapes(`redis.set('lock:a', token, 'IFEQ', token, 'PX', 1000);
redis.call('DELEX', 'lock:a', 'IFEQ', token);
client.delEx('lock:a', { condition: 'IFDEQ', matchValue: token });
redis.call('DELIFEQ', 'lock:a', token);
redis.call('DELEX', 'lock:a', 'SOMETIMES', token);`).map((shape) => shape?.split(' compare ')[1]),
      // An unreadable condition reads as none: the call is then judged as the plain delete it may be.
      ['IFEQ token', 'IFEQ token', 'IFDEQ token', 'IFEQ token', undefined],
    );
  });

  it('reads nothing from calls that name no Redis command, or whose command it cannot read', () => {
    assert.deepEqual(
      shapes(`map.has('lock:a');
pattern.exec('lock:a');
redis.call(name());
client.sendCommand(['SET', ...rest]);
redis.exec();`),
      [undefined, undefined, undefined, undefined, undefined],
    );
    // A Map's `get` has a Redis command's shape: only the client resolver tells them apart.
    assert.deepEqual(shapes(`map.get('lock:a');`), ["GET method args='lock:a'"]);
  });
});

describe('calledMethod', () => {
  it('names the method a call invokes', () => {
    assert.deepEqual(
      readAtEnd(
        `declare const redis: any; redis.set('k', 'v'); redis['del']('k'); del('k'); declare function del(k: string): void;`,
        (context) =>
          context.sourceCode.ast.body
            .filter((statement) => statement.type === AST_NODE_TYPES.ExpressionStatement)
            .map((statement) =>
              statement.expression.type === AST_NODE_TYPES.CallExpression ? calledMethod(statement.expression) : 'not a call',
            ),
        { typescript: true },
      ),
      ['set', 'del', undefined],
    );
  });
});
