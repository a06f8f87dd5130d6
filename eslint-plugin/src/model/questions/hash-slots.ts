// Which cluster slot a script call's keys land in, as far as the source shows: a cluster runs a
// script only when all its keys hash to one slot, which in practice means one common hash tag.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { skipTypeWrappers, staticString } from '../../util/ast.js';
import type { RedisCommand } from '../nouns/redis-events.js';
import type { SharedSettings } from '../nouns/vocabulary.js';

// A private-use character marks where a runtime value sits in a key's text.
const PLACEHOLDER = '\uE000';
const RUNTIME_PART = /\uE000[^\uE000]*\uE000/gu;

/**
 * What the slot of a key is computed from, or undefined when the source cannot say: the hash tag
 * (text between the first `{` and the next `}`) or the whole key; `static` when no part is runtime.
 * An interpolated value is taken to hold no brace, except one that opens the key (`${prefix}:x`),
 * which may carry the tag itself.
 */
export function slotInput(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.Node,
): { readonly text: string; readonly static: boolean } | undefined {
  const shape = keyShapeText(sourceCode, skipTypeWrappers(node), 0);
  if (shape === undefined) return undefined;
  if (shape.startsWith(PLACEHOLDER)) return undefined;
  const open = shape.indexOf('{');
  const close = open >= 0 ? shape.indexOf('}', open + 1) : -1;
  const text = open >= 0 && close > open + 1 ? shape.slice(open + 1, close) : shape;
  return { text, static: !text.includes(PLACEHOLDER) };
}

function keyShapeText(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, depth: number): string | undefined {
  const known = staticString(sourceCode, node);
  if (known !== undefined) return known;
  if (depth > 4) return undefined;
  if (node.type === AST_NODE_TYPES.TemplateLiteral) {
    let text = node.quasis[0]?.value.cooked ?? '';
    node.expressions.forEach((expression, index) => {
      text += placeholderOf(sourceCode, expression) + (node.quasis[index + 1]?.value.cooked ?? '');
    });
    return text;
  }
  if (node.type === AST_NODE_TYPES.BinaryExpression && node.operator === '+') {
    const left = keyShapeText(sourceCode, node.left, depth + 1) ?? placeholderOf(sourceCode, node.left);
    const right = keyShapeText(sourceCode, node.right, depth + 1) ?? placeholderOf(sourceCode, node.right);
    // A sum of two unknowns is a number or an unknown string: nothing to go on.
    return left.replaceAll(RUNTIME_PART, '').length + right.replaceAll(RUNTIME_PART, '').length === 0 ? undefined : left + right;
  }
  return undefined;
}

function placeholderOf(sourceCode: Readonly<TSESLint.SourceCode>, expression: TSESTree.Node): string {
  const known = staticString(sourceCode, expression);
  return known ?? `${PLACEHOLDER}${sourceCode.getText(expression)}${PLACEHOLDER}`;
}

/** Redis Cluster's key slot: CRC16 (XMODEM) of the hash input, modulo 16384. */
export function keySlot(input: string): number {
  let crc = 0;
  for (const byte of Buffer.from(input, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/**
 * Script calls on a cluster client (or under `settings.locksmith.redis.cluster`) whose keys
 * certainly hash to more than one slot; a key the source cannot read keeps the call silent.
 */
export function crossSlotScriptCalls(
  sourceCode: Readonly<TSESLint.SourceCode>,
  commands: readonly RedisCommand[],
  settings: SharedSettings,
): RedisCommand[] {
  const result: RedisCommand[] = [];
  for (const command of commands) {
    const keys = command.script?.keys ?? [];
    if (keys.length < 2 || !(settings.redisCluster || command.client.cluster === true)) continue;
    const groups = new Set<string>();
    let unknown = false;
    for (const key of keys) {
      const input = slotInput(sourceCode, key);
      if (!input) {
        unknown = true;
        break;
      }
      groups.add(input.static ? `slot:${keySlot(input.text)}` : `shape:${input.text}`);
    }
    // A runtime key beside a literal one may or may not share its slot: only all-literal or all-runtime keys decide.
    const kinds = new Set([...groups].map((group) => group.slice(0, group.indexOf(':'))));
    if (!unknown && groups.size > 1 && kinds.size === 1) result.push(command);
  }
  return result;
}
