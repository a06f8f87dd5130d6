// Fix-all: passes of non-overlapping fixes, never keeping a text that does not parse.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { applyEdits, fixAll, minimalEdit } from '../../../extension/src/server/fix-all';
import type { Problem } from '../../../extension/src/server/problems';

function problem(ruleId: string, fix: { range: [number, number]; text: string }, kind: 'fix' | 'suggestion' = 'suggestion'): Problem {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return kind === 'fix'
    ? { ruleId, message: 'm', severity: 2, range, fix, suggestions: [], related: [] }
    : {
        ruleId,
        message: 'm',
        severity: 2,
        range,
        suggestions: [
          { desc: 'd', fix },
          { desc: 'other', fix: { range: fix.range, text: 'WRONG' } },
        ],
        related: [],
      };
}

/** A toy linter: every `del` is a problem whose fix turns it into `release`; `!` makes the text unparsable. */
function toyLint(text: string): Problem[] | null {
  if (text.includes('!')) return null;
  const problems: Problem[] = [];
  for (const match of text.matchAll(/del/g))
    problems.push(problem('no-unsafe-release', { range: [match.index, match.index + 3], text: 'release' }));
  for (const match of text.matchAll(/setnx/g))
    problems.push(problem('no-split-acquire', { range: [match.index, match.index + 5], text: 'set' }, 'fix'));
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
    assert.deepEqual({ text: result.text, applied: result.applied }, { text: 'ABc+dEf', applied: 3 });
    assert.deepEqual(
      result.appliedEdits.map((edit) => edit.text),
      ['AB', '+', 'E'],
    );
  });

  it('in preferred mode, applies the preferred suggestion (or the autofix) of every problem of one rule', () => {
    const { text, fixed, rules } = fixAll('del(a); setnx(b); del(c);', toyLint, (ruleId) => ruleId === 'no-unsafe-release', 'preferred');
    assert.equal(text, 'release(a); setnx(b); release(c);');
    assert.equal(fixed, 2);
    assert.deepEqual(rules, ['no-unsafe-release']);
    assert.deepEqual(
      fixAll('del(a); del(c);', toyLint, () => true, 'preferred').fixes,
      [
        { range: [0, 3], text: 'release', ruleId: 'no-unsafe-release', desc: 'd' },
        { range: [8, 11], text: 'release', ruleId: 'no-unsafe-release', desc: 'd' },
      ],
      'each fix of a one-pass fix-all, in offsets of the original text',
    );
    assert.equal(fixAll('del(a); setnx(b);', toyLint, () => true, 'preferred').text, 'release(a); set(b);');
  });

  it('in autofix mode (fix on save), applies autofixes only and never a suggestion', () => {
    assert.deepEqual(
      fixAll('del(a); setnx(b);', toyLint, () => true, 'autofix'),
      {
        text: 'del(a); set(b);',
        fixed: 1,
        rules: ['no-split-acquire'],
        fixes: [{ range: [8, 13], text: 'set', ruleId: 'no-split-acquire', desc: undefined }],
      },
    );
    assert.deepEqual(
      fixAll('del(a); del(c);', toyLint, () => true, 'autofix'),
      { text: 'del(a); del(c);', fixed: 0, rules: [], fixes: [] },
    );
  });

  it('gives no per-fix list when a later pass builds on an earlier one', () => {
    // Two insertions at one point: the second waits for the next pass.
    const twice = (text: string): Problem[] =>
      text.length < 3 ? [problem('r', { range: [0, 0], text: 'x' }), problem('r', { range: [0, 0], text: 'y' })] : [];
    const result = fixAll('a', twice, () => true, 'preferred');
    assert.equal(result.text, 'xxa');
    assert.equal(result.fixes, undefined);
  });

  it('keeps the last text that parsed when a fix breaks the parse', () => {
    const breaking = (text: string): Problem[] | null =>
      text.includes('!') ? null : text.includes('del') ? [problem('r', { range: [0, 3], text: '!!!' })] : [];
    assert.deepEqual(
      fixAll('del(a);', breaking, () => true, 'preferred'),
      { text: 'del(a);', fixed: 0, rules: [], fixes: [] },
    );
  });

  it('does nothing on a text that does not parse', () => {
    assert.deepEqual(
      fixAll('del(a)!', toyLint, () => true, 'preferred'),
      { text: 'del(a)!', fixed: 0, rules: [], fixes: [] },
    );
  });

  it('computes the single smallest replacement between two texts', () => {
    assert.equal(minimalEdit('same', 'same'), undefined);
    assert.deepEqual(minimalEdit('await redis.del(key);', 'await redis.eval(script, key);'), { range: [12, 16], text: 'eval(script, ' });
    assert.deepEqual(minimalEdit('aaa', 'aaaa'), { range: [3, 3], text: 'a' });
  });
});
