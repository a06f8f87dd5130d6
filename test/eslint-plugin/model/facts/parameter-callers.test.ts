import * as assert from 'node:assert/strict';
import * as typescriptParser from '@typescript-eslint/parser';
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { Linter, type Rule } from 'eslint';
import { describe, it } from 'mocha';
import { callerArguments, MAX_FOLLOWED_CALLERS } from '../../../../eslint-plugin/src/model/facts/parameter-callers.js';
import { sharedTokenKind } from '../../../../eslint-plugin/src/model/questions/token-origin.js';

interface Probe {
  /** The texts passed for the parameter named `value` (its first read), or undefined. */
  readonly passed: string[] | undefined;
  readonly kind: string | undefined;
}

/** Asks the model about the first read of the identifier `value` in `code`. */
function probe(code: string): Probe {
  let result: Probe | undefined;
  const rule: Rule.RuleModule = {
    meta: { type: 'problem', schema: [], messages: { never: 'never' } },
    create(context) {
      const sourceCode = context.sourceCode as unknown as Readonly<TSESLint.SourceCode>;
      let read: TSESTree.Identifier | undefined;
      return {
        'Identifier[name="value"]'(node: TSESTree.Identifier) {
          if (!read && node.parent.type === AST_NODE_TYPES.CallExpression) read = node;
        },
        'Program:exit'() {
          assert.ok(read, 'the code reads `value` as an argument');
          const passed = callerArguments(sourceCode, read);
          result = { passed: passed?.map((argument) => sourceCode.getText(argument)), kind: sharedTokenKind(sourceCode, read) };
        },
      } as unknown as Rule.RuleListener;
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: typescriptParser as unknown as Linter.Parser },
        plugins: { test: { rules: { probe: rule } } },
        rules: { 'test/probe': 'error' },
      },
    ],
    'file.ts',
  );
  assert.deepEqual(messages, []);
  assert.ok(result);
  return result;
}

describe('callerArguments', () => {
  it('follows a private method to its calls on `this`, also from an arrow inside a method', () => {
    const result = probe(`class Lock {
      private applyLock(key: string, value: string) { return store(key, value); }
      a() { return this.applyLock('k', String(Date.now())); }
      b() { return [1].map(() => this.applyLock('k', new Date().toISOString())); }
    }`);
    assert.deepEqual(result.passed, ['String(Date.now())', 'new Date().toISOString()']);
    assert.equal(result.kind, 'timestamp');
  });

  it('follows a `#private` method and a module-private function or const arrow', () => {
    assert.deepEqual(probe(`class Lock { #take(value) { return store(value); } a() { return this.#take('1'); } }`).passed, [`'1'`]);
    assert.deepEqual(probe(`function take(value) { return store(value); } take(HOST); take('x');`).passed, ['HOST', `'x'`]);
    assert.deepEqual(probe(`const take = (value) => store(value); take(process.pid);`).passed, ['process.pid']);
    assert.equal(probe(`const take = (value) => store(value); take(process.pid);`).kind, 'host');
  });

  it('is shared only when every caller passes a shared value', () => {
    const result = probe(`import { randomUUID } from 'node:crypto';
      function take(value) { return store(value); } take('1'); take(randomUUID());`);
    assert.deepEqual(result.passed, [`'1'`, 'randomUUID()']);
    assert.equal(result.kind, undefined);
  });

  it('follows a chain of private helpers to the outer callers', () => {
    const result = probe(`function inner(value) { return store(value); }
      function outer(token) { return inner(token); }
      outer('locked'); outer('held');`);
    assert.equal(result.kind, 'literal');
  });

  it('stays silent on recursion instead of looping, and follows each parameter once', () => {
    assert.equal(probe(`function take(value) { store(value); return take(value); } take('1');`).kind, undefined);
    // Eight recursive calls at each of eight levels would be 8^8 walks if each were followed anew.
    const started = process.hrtime.bigint();
    const recursive = Array.from({ length: 7 }, () => 'take(value);').join(' ');
    assert.equal(probe(`function take(value) { store(value); ${recursive} } take('1');`).kind, undefined);
    assert.ok(process.hrtime.bigint() - started < 2_000_000_000n);
  });

  it('does not follow a function that may be called from elsewhere', () => {
    for (const code of [
      // Exported, by declaration or by name, or handed out.
      `export function take(value) { return store(value); } take('1');`,
      `function take(value) { return store(value); } take('1'); export { take };`,
      `function take(value) { return store(value); } take('1'); module.exports = { take };`,
      `function take(value) { return store(value); } take('1'); queue.on('job', take);`,
      // A public or protected method, a static one, one bound or called on another receiver.
      `class L { take(value: string) { return store(value); } a() { return this.take('1'); } }`,
      `class L { protected take(value: string) { return store(value); } a() { return this.take('1'); } }`,
      `class L { private static take(value: string) { return store(value); } a() { return L.take('1'); } }`,
      `class L { private take(value: string) { return store(value); } a() { return this.take('1'); } b() { return this.take.bind(this); } }`,
      `class L { private take(value: string) { return store(value); } a() { const self = this; return self.take('1'); } }`,
      // A method called through a computed name the class reads at run time.
      `class L { private take(value: string) { return store(value); } a() { return this.take('1'); } b(name: string) { return this[name]('2'); } }`,
      // \`this\` of a nested function is not the instance.
      `class L { private take(value: string) { return store(value); } a() { return function () { return this.take('1'); }; } }`,
    ]) {
      assert.equal(probe(code).passed, undefined, code);
    }
  });

  it('still follows a private method in a class that indexes other values by a computed key', () => {
    assert.deepEqual(
      probe(
        `class L { private take(value: string) { return store(value); } a(items: string[], i: number) { return this.take(items[i] ?? '1'); } }`,
      ).passed,
      [`items[i] ?? '1'`],
    );
  });

  it("skips TypeScript's `this` parameter when matching arguments to parameters", () => {
    assert.deepEqual(probe(`function take(this: void, key: string, value: string) { return store(value); } take('k', '1');`).passed, [
      `'1'`,
    ]);
  });

  it('does not follow a reassigned parameter, a spread argument or a missing one', () => {
    assert.equal(probe(`function take(value) { value = value + 1; return store(value); } take('1');`).passed, undefined);
    assert.equal(probe(`function take(key, value) { return store(value); } take(...args);`).passed, undefined);
    assert.equal(probe(`function take(key, value) { return store(value); } take('k');`).passed, undefined);
  });

  it(`follows at most ${MAX_FOLLOWED_CALLERS} callers`, () => {
    const calls = (count: number) => Array.from({ length: count }, (_, index) => `take('${index}');`).join(' ');
    assert.equal(
      probe(`function take(value) { return store(value); } ${calls(MAX_FOLLOWED_CALLERS)}`).passed?.length,
      MAX_FOLLOWED_CALLERS,
    );
    assert.equal(probe(`function take(value) { return store(value); } ${calls(MAX_FOLLOWED_CALLERS + 1)}`).passed, undefined);
  });
});
