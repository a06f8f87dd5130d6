// The rule wrapper every rule is made with (util/create-rule.ts): a file the screen turns away gets
// no listeners from any rule, and remembering the last such file must never silence the next one.

import * as assert from 'node:assert/strict';
import { Linter } from 'eslint';
import plugin from '../../../eslint-plugin/src/index.js';

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
  const messages = linter.verify(code, [{
    files: ['**/*.js'],
    plugins: { locksmith: plugin as never },
    rules: strictRules,
  }], { filename: 'file.js' });
  assert.deepEqual(messages.filter((message) => message.fatal), []);
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
});
