import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import type { LockModel } from '../../../../eslint-plugin/src/model/nouns/lock-types.js';
import { inEnclosingFunctions, redisIndex } from '../../../../eslint-plugin/src/model/pairing/indexes.js';
import { eventNode, within } from '../../../../eslint-plugin/src/model/facts/source-order.js';
import { readAtEnd } from '../../../support/probe-rule.js';

/** The lock model of `code` and its source text, as a rule sees them. */
function modelOf(code: string): { model: LockModel; text: string } {
  return { model: readAtEnd(code, getLockModel), text: code };
}

const CODE = `import Redis from 'ioredis';
const redis = new Redis();
export async function first(token) {
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  await redis.del('lock:a');
  setTimeout(() => redis.del('lock:a'), 10);
}
export async function second(token) {
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  await redis.del('lock:b');
}
await redis.del('lock:a');
`;

function lineOf(text: string, node: TSESTree.Node): number {
  return text.slice(0, node.range[0]).split('\n').length;
}

describe('model indexes', () => {
  it('finds the releases inside a function, nested callbacks included, in source order', () => {
    const { model, text } = modelOf(CODE);
    const first = model.redis.acquisitions[0]!.owner;
    const inFirst = within(model.redis.releases, first.range, eventNode).map((release) => lineOf(text, release.node));
    assert.deepEqual(inFirst, [5, 6]);
    const second = model.redis.acquisitions[1]!.owner;
    assert.deepEqual(
      within(model.redis.releases, second.range, eventNode).map((release) => lineOf(text, release.node)),
      [10],
    );
  });

  it('groups the releases by key signature', () => {
    const { model, text } = modelOf(CODE);
    const groups = redisIndex(model.redis).releasesByKey;
    assert.deepEqual([...groups.keys()].sort(), ['s:lock:a', 's:lock:b']);
    assert.deepEqual(
      groups.get('s:lock:a')!.map((release) => lineOf(text, release.node)),
      [5, 6, 12],
    );
  });

  it('pairs an event only with the acquisitions of its key in the functions around it', () => {
    const { model, text } = modelOf(CODE);
    const index = redisIndex(model.redis);
    // The release in the timer callback of `first`: `first`'s acquisition, not `second`'s.
    const nested = model.redis.releases.find((release) => lineOf(text, release.node) === 6)!;
    const around = inEnclosingFunctions(index.acquisitionsByOwnerAndKey, index.acquisitionOrder, nested.owner, nested.keySignature);
    assert.deepEqual(
      around.map((acquisition) => lineOf(text, acquisition.node)),
      [4],
    );
    // The module-level release has no acquisition of its key around it.
    const topLevel = model.redis.releases.find((release) => lineOf(text, release.node) === 12)!;
    assert.deepEqual(
      inEnclosingFunctions(index.acquisitionsByOwnerAndKey, index.acquisitionOrder, topLevel.owner, topLevel.keySignature),
      [],
    );
  });

  // Lists of up to 8 items are read in place, longer ones through a copy of their offsets.
  for (const length of [4, 20]) {
    it(`searches an unsorted ${length}-item list in source order, and a list that grew since its first search`, () => {
      const at = (start: number) => ({ node: { range: [start, start + 5] } as TSESTree.Node });
      const starts = Array.from({ length }, (_, n) => 10 * (length - n));
      const unsorted = starts.map(at);
      const inside = starts.filter((start) => start >= 20 && start + 5 <= 45).sort((left, right) => left - right);
      assert.deepEqual(
        within(unsorted, [20, 45], eventNode).map((item) => item.node.range[0]),
        inside,
      );
      const growing = Array.from({ length }, (_, n) => at(10 * n));
      assert.equal(within(growing, [0, 10 * length + 100], eventNode).length, length);
      growing.push(at(10 * length + 50));
      assert.equal(within(growing, [0, 10 * length + 100], eventNode).length, length + 1);
    });
  }
});
