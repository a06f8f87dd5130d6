// fixes/edits.ts: removing a statement or a chain link cleanly, picking a free name, and whether an
// expression can be written at another place.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import {
  expiryRemoval,
  freeLocalName,
  freeName,
  isExpressionAvailableAt,
  removeStatement,
} from '../../../eslint-plugin/src/fixes/edits.js';
import { applyEdit, applyFix, probe } from '../support/fix-probe.js';

const removing = (code: string, statement: string) =>
  applyFix(code, (file) => (fixer) => removeStatement(fixer, file.sourceCode, file.node(statement)));

describe('fixes/edits', () => {
  describe('removeStatement', () => {
    it('takes a statement alone on its line with its indentation and line break', () => {
      assert.equal(removing('function f() {\n  a();\n  b();\n  c();\n}', 'b();'), 'function f() {\n  a();\n  c();\n}');
      assert.equal(removing('a();\r\nb();\r\nc();', 'b();'), 'a();\r\nc();');
      assert.equal(removing('a();\nb();', 'b();'), 'a();\n');
    });

    it('takes only the statement when it shares its line', () => {
      assert.equal(removing('a(); b();\nc();', 'b();'), 'a(); \nc();');
      assert.equal(removing('a(); b(); // why\nc();', 'a();'), ' b(); // why\nc();');
    });
  });

  describe('freeName', () => {
    it('keeps the preferred name unless some scope of the file declares or reads it', () => {
      assert.equal(
        probe('const a = 1;', (file) => freeName(file.sourceCode, 'client')),
        'client',
      );
      assert.equal(
        probe('function f() { const client = 1; }', (file) => freeName(file.sourceCode, 'client')),
        'client2',
      );
      assert.equal(
        probe('use(client, client2);', (file) => freeName(file.sourceCode, 'client')),
        'client3',
      );
    });
  });

  describe('freeLocalName', () => {
    const nameIn = (code: string) =>
      probe(code, (file) => freeLocalName(file.sourceCode, file.node('run', AST_NODE_TYPES.Identifier).parent, 'token'));

    it('avoids names inside the function and around it, but not in a sibling function', () => {
      assert.equal(nameIn('function other() { const token = 1; }\nfunction run() { work(); }'), 'token');
      assert.equal(nameIn('function run() { const inner = () => { const token = 1; }; }'), 'token2');
      assert.equal(nameIn('const token = 1;\nfunction run() { work(); }'), 'token2');
      assert.equal(nameIn('function run() { use(token, token2); }'), 'token3');
    });
  });

  describe('isExpressionAvailableAt', () => {
    const code = `const client = make();
function run(key) {
  const token = mint();
  late();
  const after = 1;
  work(token, client, key, config.ttl, after, hoisted());
}
function other() {
  target();
}
function hoisted() {}`;
    // `expression` as `work(...)` reads it, asked at the call `at`.
    const available = (expression: string, at: string) =>
      probe(code, (file) => {
        const read = file
          .node('work(token, client, key, config.ttl, after, hoisted())', AST_NODE_TYPES.CallExpression)
          .arguments.find((argument) => file.sourceCode.getText(argument) === expression);
        assert.ok(read);
        return isExpressionAvailableAt(file.sourceCode, read, file.node(at, AST_NODE_TYPES.CallExpression));
      });

    it('is true for bindings declared before the place and in scope there, and for globals', () => {
      assert.equal(available('token', 'late()'), true);
      assert.equal(available('client', 'target()'), true);
      assert.equal(available('config.ttl', 'target()'), true);
      assert.equal(available('hoisted()', 'late()'), true);
    });

    it('is false for a binding declared after the place, or in another function', () => {
      assert.equal(available('after', 'late()'), false);
      assert.equal(available('key', 'target()'), false);
    });
  });

  describe('expiryRemoval', () => {
    const ioredis = (body: string) => `import Redis from 'ioredis';
const redis = new Redis();
export async function run(key: string, token: string) {
  ${body}
}`;
    const removed = (code: string) =>
      probe(code, (file) => {
        const expire = file.model.redis.commands.find((command) => command.name === 'EXPIRE');
        assert.ok(expire);
        const removal = expiryRemoval(expire);
        if (removal?.kind === 'chain-link') return applyEdit(code, { range: [removal.from, removal.to], text: '' });
        return removal && file.sourceCode.getText(removal.node);
      });

    it('removes the whole statement of a separate EXPIRE', () => {
      assert.equal(removed(ioredis(`await redis.setnx(key, token);\n  await redis.expire(key, 30);`)), 'await redis.expire(key, 30);');
    });

    it('removes only its link from a MULTI chain, last or in the middle', () => {
      assert.equal(
        removed(ioredis('await redis.multi().setnx(key, token).expire(key, 30).exec();')),
        ioredis('await redis.multi().setnx(key, token).exec();'),
      );
      assert.equal(removed(ioredis('redis.multi().setnx(key, token).expire(key, 30);')), ioredis('redis.multi().setnx(key, token);'));
    });

    it('keeps an EXPIRE whose reply is read', () => {
      assert.equal(removed(ioredis(`await redis.setnx(key, token);\n  const ok = await redis.expire(key, 30);`)), undefined);
    });
  });
});
