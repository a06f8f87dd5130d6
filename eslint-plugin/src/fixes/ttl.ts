// TTLs as milliseconds source text (an `EXPIRE`/`PEXPIRE`'s, a `SET`'s `EX`/`PX`, a renewal script's
// argument), for fixes that write a `PX` option or a compare-and-pexpire argument, and where a `SET`'s
// own options take one.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { Expiry, RedisCommand } from '../model/nouns/redis-events.js';
import { skipTypeWrappers } from '../util/ast.js';
import { DEFAULT_TTL_MS } from './scripts.js';
import { asStringArgument, renderPositionalTtlOption, renderTtlOption } from './templates.js';

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
  if (ttl.type === AST_NODE_TYPES.Literal && typeof ttl.value === 'string' && /^\d+$/u.test(ttl.value))
    return String(Number(ttl.value) * 1000);
  const text = sourceCode.getText(ttl);
  return ttl.type === AST_NODE_TYPES.Identifier || ttl.type === AST_NODE_TYPES.MemberExpression ? `${text} * 1000` : `(${text}) * 1000`;
}

/**
 * The TTL an unchecked renewal script is called with: its only argument, or the one beside the
 * token. Any other layout is left alone rather than guessed.
 */
export function scriptTtlInMilliseconds(sourceCode: Readonly<TSESLint.SourceCode>, expiry: Expiry, tokenText: string): string | undefined {
  const script = expiry.command!.script!;
  const summary = script.script?.summary;
  if (summary?.expiries.length !== 1) return undefined;
  const others = script.args.filter((argument) => sourceCode.getText(argument) !== tokenText);
  if (others.length !== 1 || script.args.length > 2) return undefined;
  const ttl = others[0]!;
  return summary.expiries[0]!.command === 'PEXPIRE' ? sourceCode.getText(ttl) : secondsAsMilliseconds(sourceCode, ttl);
}

/** The relative expiry of a `SET … XX` in milliseconds; an absolute `PXAT`/`EXAT` has none to pass on. */
export function setTtlInMilliseconds(sourceCode: Readonly<TSESLint.SourceCode>, command: RedisCommand): string | undefined {
  const expiry = command.set?.expiry;
  if (!expiry?.value) return undefined;
  if (expiry.unit === 'PX') return sourceCode.getText(skipTypeWrappers(expiry.value));
  return expiry.unit === 'EX' ? secondsAsMilliseconds(sourceCode, expiry.value) : undefined;
}

/** Where the expiry goes in this SET's own option spelling, and its text. */
export function ttlAddition(command: RedisCommand, ttlMs: string): { after: TSESTree.Node; option: string } | undefined {
  const set = command.set!;
  // KEEPTTL cannot be combined with an expiry; rewriting the options is the author's call.
  if (set.keepTtl) return undefined;
  if (set.optionsObject) {
    const last = set.optionsObject.properties.at(-1);
    if (!last || set.spelling === undefined || set.spelling === 'positional') return undefined;
    return { after: last, option: renderTtlOption(set.spelling, ttlMs) };
  }
  const last = command.args.at(-1);
  if (!last || command.args.length < 3) return undefined;
  // `sendCommand(['SET', k, v, 'NX'])` takes strings only; every other positional form takes numbers.
  const arrayForm = last.parent?.type === AST_NODE_TYPES.ArrayExpression;
  const option = renderPositionalTtlOption(arrayForm ? asStringArgument(ttlMs) : ttlMs);
  return { after: last, option };
}
