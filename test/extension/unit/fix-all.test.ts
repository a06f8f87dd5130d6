// Fix-all: passes of non-overlapping fixes, never keeping a text that does not parse.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { applyEdits, fixAll, minimalEdit } from '../../../extension/src/server/fix-all';
import type { Problem } from '../../../extension/src/server/problems';

function problem(ruleId: string, fix: { range: [number, number]; text: string }, kind: 'fix' | 'suggestion' = 'suggestion'): Problem {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return kind === 'fix'
    ? { ruleId, message: 'm', severity: 2, range, fix, suggestions: [], related: [] }
    : { ruleId, message: 'm', severity: 2, range, suggestions: [{ desc: 'd', fix }, { desc: 'other', fix: { range: fix.range, text: 'WRONG' } }], related: [] };
}

/** A toy linter: every `del` is a problem whose fix turns it into `release`; `!` makes the text unparsable. */
function toyLint(text: string): Problem[] | null {
  if (text.includes('!')) return null;
  const problems: Problem[] = [];
  for (const match of text.matchAll(/del/g)) problems.push(problem('no-unsafe-release', { range: [match.index, match.index + 3], text: 'release' }));
  for (const match of text.matchAll(/setnx/g)) problems.push(problem('no-split-acquire', { range: [match.index, match.index + 5], text: 'set' }, 'fix'));
  return problems;
}

describe('fix-all', () => {
  it('applies sorted, non-overlapping edits and skips overlapping ones and a second insertion at one point', () => {
    const result = applyEdits('abcdef', [
      { range: [4, 5], text: 'E' },
      { range: [0, 2], text: 'AB' },
      { range: [1, 3], text: 'overlaps' },
      { range: [3, 3], text: '+' },
      { range: [3, 3], text: '+again' },
    ]);
    assert.deepEqual(result, { text: 'ABc+dEf', applied: 3 });
  });

  it('applies the preferred suggestion (or the autofix) of every problem of one rule', () => {
    const { text, fixed } = fixAll('del(a); setnx(b); del(c);', toyLint, (ruleId) => ruleId === 'no-unsafe-release');
    assert.equal(text, 'release(a); setnx(b); release(c);');
    assert.equal(fixed, 2);
    assert.equal(fixAll('del(a); setnx(b);', toyLint, () => true).text, 'release(a); set(b);');
  });

  it('keeps the last text that parsed when a fix breaks the parse', () => {
    const breaking = (text: string): Problem[] | null => (text.includes('!') ? null : text.includes('del') ? [problem('r', { range: [0, 3], text: '!!!' })] : []);
    assert.deepEqual(fixAll('del(a);', breaking, () => true), { text: 'del(a);', fixed: 0 });
  });

  it('does nothing on a text that does not parse', () => {
    assert.deepEqual(fixAll('del(a)!', toyLint, () => true), { text: 'del(a)!', fixed: 0 });
  });

  it('computes the single smallest replacement between two texts', () => {
    assert.equal(minimalEdit('same', 'same'), undefined);
    assert.deepEqual(minimalEdit('await redis.del(key);', 'await redis.eval(script, key);'), { range: [12, 16], text: 'eval(script, ' });
    assert.deepEqual(minimalEdit('aaa', 'aaaa'), { range: [3, 3], text: 'a' });
  });
});
