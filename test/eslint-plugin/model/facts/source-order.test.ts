// Source order as the pairings read it: `within` (which events sit inside a function), `runsBefore`
// (a chain link and a node_redis v3 callback run after the call they are written around) and
// `precedesInScope`, on the model's own events.

import * as assert from 'node:assert/strict';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import {
  commandNode,
  eventNode,
  precedesInScope,
  runsBefore,
  sortedBySource,
  within,
} from '../../../../eslint-plugin/src/model/facts/source-order.js';
import type { RedisModel } from '../../../../eslint-plugin/src/model/nouns/redis-events.js';
import { readAtEnd } from '../../../support/probe-rule.js';

function redisModelOf(code: string): RedisModel {
  return readAtEnd(code, (context) => getLockModel(context).redis, { typescript: true });
}

const line = (node: TSESTree.Node): number => node.loc.start.line;

describe('source-order', () => {
  it('runsBefore: later text runs later; a chain link and a v3 callback run after the call around them', () => {
    const model = redisModelOf(`import Redis from 'ioredis';
const redis = new Redis();
export async function chained(token: string) {
  await redis.multi().setnx('lock:a', token).expire('lock:a', 30).exec();
}
export function callback(token: string) {
  redis.setnx('lock:b', token, () => redis.expire('lock:b', 30));
}
export async function plain(token: string) {
  await redis.expire('lock:c', 30);
  await redis.setnx('lock:c', token);
}`);
    const acquisition = (key: string) => model.acquisitions.find((event) => event.keySignature?.includes(key))!;
    const expiry = (key: string) => model.expiries.find((event) => event.keySignature?.includes(key))!;
    // In the chain the SETNX call is inside the EXPIRE's callee: it runs first.
    assert.equal(runsBefore(acquisition('lock:a').node, expiry('lock:a').node), true);
    assert.equal(runsBefore(expiry('lock:a').node, acquisition('lock:a').node), false);
    // The EXPIRE inside SETNX's callback runs after it, though the text encloses it.
    assert.equal(runsBefore(acquisition('lock:b').node, expiry('lock:b').node), true);
    assert.equal(runsBefore(expiry('lock:b').node, acquisition('lock:b').node), false);
    // An EXPIRE written before the SETNX runs before it.
    assert.equal(runsBefore(acquisition('lock:c').node, expiry('lock:c').node), false);
    assert.equal(runsBefore(expiry('lock:c').node, acquisition('lock:c').node), true);
  });

  it('precedesInScope: only when the later event is in the same function or one nested in it', () => {
    const model = redisModelOf(`import Redis from 'ioredis';
const redis = new Redis();
export async function take(token: string) {
  await redis.set('lock:a', token, 'NX', 'PX', 1000);
  setTimeout(() => redis.del('lock:a'), 500);
}
export async function elsewhere() {
  await redis.del('lock:a');
}`);
    const [acquisition] = model.acquisitions;
    const [inTimer, inOtherFunction] = model.releases;
    assert.equal(line(inTimer!.node), 5);
    assert.equal(precedesInScope(acquisition!, inTimer!), true);
    assert.equal(line(inOtherFunction!.node), 8);
    assert.equal(precedesInScope(acquisition!, inOtherFunction!), false);
  });

  it('within: the items inside a range, in source order, for short and long lists', () => {
    const calls = Array.from({ length: 12 }, (_, index) => `  await redis.del('lock:${index}');`).join('\n');
    const model = redisModelOf(`import Redis from 'ioredis';
const redis = new Redis();
export async function many() {
${calls}
}
export async function after() {
  await redis.del('lock:after');
}`);
    const [many, after] = model.releases.map((release) => release.owner).filter((owner, index, all) => all.indexOf(owner) === index);
    // Twelve releases: the binary search over the copied offsets.
    assert.deepEqual(
      within(model.releases, many!.range, eventNode).map((release) => line(release.node)),
      [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    );
    // The same list in reverse is put in order first; the answer is the same.
    const reversed = [...model.releases].reverse();
    assert.deepEqual(
      within(reversed, many!.range, eventNode).map((release) => line(release.node)),
      [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    );
    // A short list (at most eight) is read in place.
    assert.deepEqual(
      within(model.releases.slice(10), after!.range, eventNode).map((release) => line(release.node)),
      [18],
    );
    assert.deepEqual(within(undefined, after!.range, eventNode), []);
    // A node that only starts inside the range is not within it.
    const call = model.releases[0]!.node;
    assert.deepEqual(within(model.releases, [call.range[0], call.range[1] - 1], eventNode), []);
    // Commands are placed by their call.
    assert.equal(within(model.commands, after!.range, commandNode).length, 1);
  });

  it('sortedBySource: the list itself when already in order, else a sorted copy', () => {
    const model = redisModelOf(`import Redis from 'ioredis';
const redis = new Redis();
export async function f() {
  await redis.del('lock:a');
  await redis.del('lock:b');
  await redis.del('lock:c');
}`);
    const releases = model.releases;
    assert.equal(sortedBySource(releases, eventNode), releases);
    const shuffled = [releases[2]!, releases[0]!, releases[1]!];
    const sorted = sortedBySource(shuffled, eventNode);
    assert.notEqual(sorted, shuffled);
    assert.deepEqual(sorted, releases);
  });
});
