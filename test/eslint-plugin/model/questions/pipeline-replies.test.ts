import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, it } from 'mocha';
import { getLockModel } from '../../../../eslint-plugin/src/model/index.js';
import { pipelineReplyOf } from '../../../../eslint-plugin/src/model/questions/pipeline-replies.js';
import { lintWithProbe } from '../../../support/probe-rule.js';

/** For each `x === y` in `code`, the queued command `x` is the reply of (`NAME key`), or null. */
function repliesCompared(code: string): (string | null)[] {
  const answers: (string | null)[] = [];
  lintWithProbe(
    code,
    (context) => {
      const comparisons: TSESTree.BinaryExpression[] = [];
      return {
        BinaryExpression(node) {
          if (node.operator === '===') comparisons.push(node);
        },
        'Program:exit'() {
          const model = getLockModel(context).redis;
          for (const comparison of comparisons) {
            const reply = pipelineReplyOf(context.sourceCode, model, comparison.left);
            const key = reply?.command.key;
            answers.push(reply ? `${reply.command.name} ${key?.type === AST_NODE_TYPES.Identifier ? key.name : '?'}` : null);
          }
        },
      };
    },
    { typescript: true, filename: 'pipeline.ts' },
  );
  return answers;
}

describe('pipelineReplyOf', () => {
  it('maps an ioredis [error, reply] pair to its place in the queue', () => {
    assert.deepEqual(
      repliesCompared(`import Redis from 'ioredis'; const redis = new Redis();
      export async function f(a: string, b: string, t: string) {
        const results = await redis.pipeline().pttl(a).get(b).exec();
        if (results?.[1]?.[1] === t) return 1;
        if (results?.[0]?.[1] === t) return 2;
        if (results?.[1]?.[0] === t) return 3;
        if (results?.[2]?.[1] === t) return 4;
      }`),
      ['GET b', 'PTTL a', null, null],
    );
  });

  it('follows a transaction held in a variable and a destructured reply', () => {
    assert.deepEqual(
      repliesCompared(`import { createClient } from 'redis'; const client = createClient();
      export async function f(key: string, t: string) {
        const transaction = client.multi();
        transaction.exists(key);
        transaction.get(key);
        const [, owner] = await transaction.exec();
        if (owner === t) return 1;
      }`),
      ['GET key'],
    );
  });

  it('gives no command for a place when the queue is filled conditionally', () => {
    assert.deepEqual(
      repliesCompared(`import { createClient } from 'redis'; const client = createClient();
      export async function f(key: string, other: string, t: string) {
        const transaction = client.multi();
        if (other) transaction.get(other);
        transaction.get(key);
        const replies = await transaction.exec();
        if (replies[0] === t) return 1;
      }`),
      [null],
    );
  });

  it('maps a computed index only in a pipeline one call site fills', () => {
    assert.deepEqual(
      repliesCompared(`import Redis from 'ioredis'; const redis = new Redis();
      export async function f(keys: string[], t: string) {
        const reads = redis.pipeline();
        for (const key of keys) reads.get(key);
        const owners = await reads.exec();
        const mixed = redis.pipeline();
        for (const key of keys) { mixed.get(key); mixed.pttl(key); }
        const both = await mixed.exec();
        keys.forEach((key, index) => { if (owners?.[index]?.[1] === t) return; if (both?.[index]?.[1] === t) return; });
      }`),
      ['GET key', null],
    );
  });

  it('gives no command for a place when a queued call is not one the model reads, or the pipeline escapes', () => {
    assert.deepEqual(
      repliesCompared(`import Redis from 'ioredis'; const redis = new Redis();
      export async function f(key: string, t: string) {
        const first = await redis.pipeline().fooBar(key).get(key).exec();
        if (first?.[0]?.[1] === t) return 1;
        const held = redis.pipeline();
        held.get(key);
        fill(held);
        const second = await held.exec();
        if (second?.[0]?.[1] === t) return 2;
        const plain = redis.pipeline().get(key)!;
        const third = await plain.exec();
        if (third?.[0]?.[1] === t) return 3;
      }`),
      [null, null, 'GET key'],
    );
  });

  it('leaves alone arrays that are no exec() result', () => {
    assert.deepEqual(
      repliesCompared(`import Redis from 'ioredis'; const redis = new Redis();
      export async function f(rows: string[][], t: string) {
        await redis.get('x');
        if (rows[0][1] === t) return 1;
      }`),
      [null],
    );
  });
});
