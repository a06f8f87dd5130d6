// Rewrites a `SETNX` (any dialect, any form) into the atomic `SET key value NX PX ttl` the article's
// attempt 4 takes, keeping a node_redis v3 callback and the numeric reply code may compare.

import type { TSESLint } from '@typescript-eslint/utils';
import type { RedisCommand } from '../model/nouns/redis-events.js';
import { isUsedOnlyAsCondition } from '../model/facts/result-flow.js';
import { renderAtomicSet } from './templates.js';

export interface TextReplacement {
  readonly range: readonly [number, number];
  readonly text: string;
}

/** The edit that turns `setnx` into one `SET ... NX PX ttlMs`, or undefined without a key and value. */
export function setnxToAtomicSet(
  sourceCode: Readonly<TSESLint.SourceCode>,
  setnx: RedisCommand,
  ttlMs: string,
): TextReplacement | undefined {
  if (!setnx.key || !setnx.value) return undefined;
  const rendered = renderAtomicSet(setnx.dialect, {
    client: sourceCode.getText(setnx.receiver),
    key: sourceCode.getText(setnx.key),
    value: sourceCode.getText(setnx.value),
    ttlMs,
  });
  // With a callback, rewrite only the text before it so the callback stays as written.
  if (setnx.callback) return { range: [setnx.call.range[0], setnx.callback.range[0]], text: `${rendered.slice(0, -1)}, ` };
  // SETNX replies 1/0, SET NX 'OK'/null: keep the reply's meaning for code that compares it.
  // Queued (MULTI) replies are only ever tested for truthiness in practice.
  const keepsNumericReply = !setnx.client.chain && !isUsedOnlyAsCondition(sourceCode, setnx.call);
  return { range: setnx.call.range, text: keepsNumericReply ? `${rendered}.then((reply) => (reply === 'OK' ? 1 : 0))` : rendered };
}
