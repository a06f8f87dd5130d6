// The rule wrapper every rule is made with (util/create-rule.ts): a file the screen turns away gets
// no listeners from any rule, and remembering the last such file must never silence the next one;
// a rule is handed a plain copy of ESLint's context (util/rule-context.ts).

import * as assert from 'node:assert/strict';
import { Linter } from 'eslint';
import plugin from '../../../eslint-plugin/src/index.js';
import { createRule, type LocksmithRuleContext } from '../../../eslint-plugin/src/rule-support/create-rule.js';

const LOCK_FREE = `const cache = new Map();
export function remember(key, value) { cache.set(key, value); return cache.get(key); }
`;

// A plain DEL of a lock key (no-unsafe-release) and a SET NX without expiry (require-lock-ttl).
const LOCK_CODE = `import Redis from 'ioredis';
const redis = new Redis();
export async function run(job) {
  const taken = await redis.set('lock:job', 'token', 'NX');
  if (!taken) return;
  try { await job(); } finally { await redis.del('lock:job'); }
}
`;

// The strict preset's rule entries, as the Linter's own config type spells them.
const strictRules = plugin.configs.strict.rules as Linter.RulesRecord;

function findingsOf(linter: Linter, code: string): string[] {
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.js'],
        plugins: { locksmith: plugin as never },
        rules: strictRules,
      },
    ],
    { filename: 'file.js' },
  );
  assert.deepEqual(
    messages.filter((message) => message.fatal),
    [],
  );
  return messages.map((message) => message.ruleId ?? '').sort();
}

describe('createRule', () => {
  it('reports on a lock file linted right after a lock-free one, as it does on its own', () => {
    const alone = findingsOf(new Linter(), LOCK_CODE);
    assert.ok(alone.includes('locksmith/no-unsafe-release'), alone.join(', '));
    assert.ok(alone.includes('locksmith/require-lock-ttl'), alone.join(', '));
    const linter = new Linter();
    const sequence = [LOCK_FREE, LOCK_CODE, LOCK_FREE, LOCK_FREE, LOCK_CODE, LOCK_CODE].map((code) => findingsOf(linter, code));
    assert.deepEqual(sequence, [[], alone, [], [], alone, alone]);
  });

  it('hands a rule a plain object, the same shape for every file, that reports through ESLint', () => {
    // ESLint's own context has a new prototype per file (Object.create(fileContext)); V8 then keeps
    // the previous file's tree alive through two more full collections (rule-context.ts).
    const seen: LocksmithRuleContext<'seen', []>[] = [];
    const probe = createRule<[], 'seen'>({
      name: 'probe',
      meta: {
        type: 'problem',
        docs: { description: 'probe', recommended: false },
        messages: { seen: 'seen {{file}}' },
        schema: [],
        defaultOptions: [],
      },
      create(context) {
        seen.push(context);
        return {
          Program(node) {
            context.report({ node, messageId: 'seen', data: { file: context.filename } });
          },
        };
      },
    });
    const linter = new Linter();
    const config = [{ files: ['**/*.js'], plugins: { test: { rules: { probe } } as never }, rules: { 'test/probe': 'error' as const } }];
    const first = linter.verify(LOCK_CODE, config, { filename: 'first.js' });
    const second = linter.verify(LOCK_CODE.replace('lock:job', 'lock:other'), config, { filename: 'second.js' });
    assert.deepEqual(
      [...first, ...second].map((message) => message.message),
      ['seen first.js', 'seen second.js'],
    );
    assert.equal(seen.length, 2);
    for (const context of seen) {
      assert.equal(Object.getPrototypeOf(context), Object.prototype);
      assert.deepEqual(Object.keys(context), ['id', 'sourceCode', 'filename', 'settings', 'options', 'report']);
      assert.equal(context.id, 'test/probe');
    }
    assert.notEqual(seen[0]!.sourceCode, seen[1]!.sourceCode);
    assert.match(seen[1]!.sourceCode.text, /lock:other/u);
  });
});
