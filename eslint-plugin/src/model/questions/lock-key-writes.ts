// Writes of a held lock's own key: the key doubling as a data key inside the lock's critical
// section, so that the value the release or renewal compares with the token is gone.

import { AST_NODE_TYPES, AST_TOKEN_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, skipTypeWrappers, staticString } from '../../util/ast.js';
import { redisCriticalSections, redisIndex } from '../pairing/indexes.js';
import { commandNode, within } from '../facts/source-order.js';
import type { Acquisition, RedisCommand, RedisModel } from '../nouns/redis-events.js';
import { resultDeclarator } from '../facts/result-flow.js';

export interface LockKeyWrite {
  readonly call: TSESTree.CallExpression;
  /** The Redis command, upper case (`SET`, `HSET`, `INCR`). */
  readonly command: string;
  /** The acquisition whose section the write runs in (the latest one before it). */
  readonly acquisition: Acquisition;
}

/**
 * Commands that store, move or change a key's value or TTL. Left out on purpose, as other rules
 * judge them and one call gets one finding: `DEL`/`UNLINK` (no-unsafe-release), `EXPIRE`/`PEXPIRE`
 * and their `AT` forms (no-unsafe-extend, no-split-acquire), `SET NX` (an acquisition), `SET XX`
 * and a `SET` with options this analysis cannot read (a renewal, `IFEQ`), and scripts.
 */
const KEY_WRITES: ReadonlySet<string> = new Set([
  'SET',
  'SETEX',
  'PSETEX',
  'GETSET',
  'APPEND',
  'SETRANGE',
  'INCR',
  'INCRBY',
  'INCRBYFLOAT',
  'DECR',
  'DECRBY',
  'HSET',
  'HMSET',
  'HDEL',
  'HINCRBY',
  'LPUSH',
  'RPUSH',
  'SADD',
  'ZADD',
  'RENAME',
  'RENAMENX',
  'PERSIST',
  'GETDEL',
  'GETEX',
]);

/** Writes that replace the value the lock compares with: the holder rewriting its own token is a renewal, not data. */
const VALUE_WRITES: ReadonlySet<string> = new Set(['SET', 'SETEX', 'PSETEX', 'GETSET']);

const cache = new WeakMap<RedisModel, readonly LockKeyWrite[]>();

/** The writes of a lock's own key inside its critical section, once per model, in source order. */
export function lockKeyWrites(sourceCode: Readonly<TSESLint.SourceCode>, model: RedisModel): readonly LockKeyWrite[] {
  const cached = cache.get(model);
  if (cached) return cached;
  const index = redisIndex(model);
  const found: LockKeyWrite[] = [];
  const seen = new Set<TSESTree.Node>();
  for (const section of redisCriticalSections(model)) {
    const range: [number, number] = [section.from, section.to];
    const candidates: { call: TSESTree.CallExpression; command: string; write: RedisCommand | undefined }[] = [
      ...within(index.commandsByKey.get(section.keySignature), range, commandNode).map((write) => ({
        call: write.call,
        command: write.name,
        write,
      })),
      ...within(index.hashWritesByKey.get(section.keySignature), range, (write) => write.call).map((write) => ({
        call: write.call,
        command: 'HSET',
        write: undefined,
      })),
    ].sort((left, right) => left.call.range[0] - right.call.range[0]);
    // Both lists are in source order: the latest acquisition before each write advances with it.
    let latest = 0;
    for (const candidate of candidates) {
      while (latest + 1 < section.acquisitions.length && section.acquisitions[latest + 1]!.node.range[1] <= candidate.call.range[0])
        latest++;
      const acquisition = section.acquisitions[latest]!;
      if (seen.has(candidate.call) || !contains(section.owner, candidate.call)) continue;
      if (candidate.write && !overwritesLock(sourceCode, candidate.write, acquisition)) continue;
      if (!runsWhileHeld(sourceCode, acquisition, candidate.call)) continue;
      seen.add(candidate.call);
      found.push({ call: candidate.call, command: candidate.command, acquisition });
    }
  }
  found.sort((left, right) => left.call.range[0] - right.call.range[0]);
  cache.set(model, found);
  return found;
}

function overwritesLock(sourceCode: Readonly<TSESLint.SourceCode>, write: RedisCommand, acquisition: Acquisition): boolean {
  if (!KEY_WRITES.has(write.name)) return false;
  if (write.name === 'SET' && write.set && (write.set.nx || write.set.xx || write.set.opaque)) return false;
  // `GETEX key` alone reads; with `EX`/`PX` it renews without a check; only `PERSIST` takes the TTL away.
  if (write.name === 'GETEX' && !write.args.slice(1).some((argument) => mentionsPersist(sourceCode, argument))) return false;
  if (VALUE_WRITES.has(write.name) && acquisition.value && write.value) {
    const value = write.name === 'SET' || write.name === 'GETSET' ? write.value : write.args[2];
    if (value && sourceCode.getText(value) === sourceCode.getText(acquisition.value)) return false;
  }
  return true;
}

function mentionsPersist(sourceCode: Readonly<TSESLint.SourceCode>, argument: TSESTree.Node): boolean {
  const node = skipTypeWrappers(argument);
  if (node.type === AST_NODE_TYPES.ObjectExpression) {
    return node.properties.some(
      (property) =>
        property.type === AST_NODE_TYPES.Property &&
        property.key.type === AST_NODE_TYPES.Identifier &&
        property.key.name.toUpperCase() === 'PERSIST',
    );
  }
  return staticString(sourceCode, node)?.toUpperCase() === 'PERSIST';
}

/**
 * The write runs only once the acquisition succeeded: not in the other branch of an `if` around the
 * acquisition, nor in the branch its own failed result takes (the `GETSET` takeover of an expired
 * `SETNX` lock in the Redis documentation's old pattern runs when `SETNX` failed).
 */
function runsWhileHeld(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: Acquisition, write: TSESTree.Node): boolean {
  const resultName = resultDeclarator(acquisition.node)?.id.name;
  for (let node: TSESTree.Node = write; node.parent && node !== acquisition.owner; node = node.parent) {
    const parent = node.parent;
    if (parent.type !== AST_NODE_TYPES.IfStatement && parent.type !== AST_NODE_TYPES.ConditionalExpression) continue;
    if (node === parent.test) continue;
    const other = node === parent.consequent ? parent.alternate : parent.consequent;
    if (other && contains(other, acquisition.node)) return false;
    if (!decidedBy(sourceCode, parent.test, acquisition.node, resultName)) continue;
    if (node !== parent.consequent || isNegated(parent.test)) return false;
  }
  return true;
}

function decidedBy(
  sourceCode: Readonly<TSESLint.SourceCode>,
  test: TSESTree.Node,
  acquisition: TSESTree.Node,
  resultName: string | undefined,
): boolean {
  if (contains(test, acquisition)) return true;
  return (
    resultName !== undefined &&
    sourceCode.getTokens(test).some((token) => token.type === AST_TOKEN_TYPES.Identifier && token.value === resultName)
  );
}

/** `!ok`, `ok === null`, `ok !== 'OK'`: the branch taken when the lock was not taken. */
function isNegated(test: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(test);
  if (expression.type === AST_NODE_TYPES.UnaryExpression) return expression.operator === '!';
  if (expression.type !== AST_NODE_TYPES.BinaryExpression) return false;
  const sides = [skipTypeWrappers(expression.left), skipTypeWrappers(expression.right)];
  const failure = sides.some(
    (side) =>
      (side.type === AST_NODE_TYPES.Literal && (side.value === null || side.value === false || side.value === 0)) ||
      (side.type === AST_NODE_TYPES.Identifier && side.name === 'undefined'),
  );
  const success = sides.some(
    (side) => side.type === AST_NODE_TYPES.Literal && (side.value === 'OK' || side.value === true || side.value === 1),
  );
  if (expression.operator === '===' || expression.operator === '==') return failure;
  if (expression.operator === '!==' || expression.operator === '!=') return success;
  return false;
}
