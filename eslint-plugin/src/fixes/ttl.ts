// The TTL of an `EXPIRE`/`PEXPIRE` as milliseconds source text, for fixes that turn the expiry into
// a `PX` option or a compare-and-pexpire argument.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { RedisCommand } from '../model/redis-model.js';
import { skipTypeWrappers } from '../util/ast.js';
import { DEFAULT_TTL_MS } from './scripts.js';

/** The expiry's TTL as milliseconds source text, or undefined for absolute (`*AT`) expiries. */
export function ttlInMilliseconds(sourceCode: Readonly<TSESLint.SourceCode>, expire: RedisCommand): string | undefined {
  const ttlNode = expire.args[1];
  if (!ttlNode) return String(DEFAULT_TTL_MS);
  const ttl = skipTypeWrappers(ttlNode);
  if (expire.name === 'PEXPIRE') return sourceCode.getText(ttl);
  if (expire.name !== 'EXPIRE') return undefined;
  return secondsAsMilliseconds(sourceCode, ttl);
}

/** Source text of a TTL given in seconds, converted to milliseconds (`30` → `30000`, `ttl` → `ttl * 1000`). */
export function secondsAsMilliseconds(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string {
  const ttl = skipTypeWrappers(node);
  if (ttl.type === AST_NODE_TYPES.Literal && typeof ttl.value === 'number') return String(ttl.value * 1000);
  if (ttl.type === AST_NODE_TYPES.Literal && typeof ttl.value === 'string' && /^\d+$/u.test(ttl.value)) return String(Number(ttl.value) * 1000);
  const text = sourceCode.getText(ttl);
  return ttl.type === AST_NODE_TYPES.Identifier || ttl.type === AST_NODE_TYPES.MemberExpression ? `${text} * 1000` : `(${text}) * 1000`;
}
