// The Redis Lua scripts a JavaScript file holds: string and template literals (and `+`/`join`
// chains of them) whose text calls `redis.call`/`redis.pcall`, and `.lua` files it reads with
// `readFileSync`. Each comes with a way to map an offset in the script back to the file.

import { AST_NODE_TYPES, AST_TOKEN_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { collectNodes } from '../../util/collect-nodes.js';
import { methodCallParts, staticString } from '../../util/ast.js';
import { ScriptResolver } from '../redis/script-resolver.js';
import { LUA_REDIS_GLOBAL } from '../../lua/parse-script.js';

export interface LuaText {
  readonly text: string;
  /** The literal (or chain) holding the script, or the `readFileSync` call that reads it. */
  readonly node: TSESTree.Node;
  /** The script's file, when it is read from one. */
  readonly file: string | undefined;
  /**
   * Script offset → source offset, when each character of the script is written as itself in the
   * source (no escapes, no interpolation); undefined otherwise (then the whole node is reported).
   */
  readonly sourceOffset: ((offset: number) => number) | undefined;
}

const REDIS_CALL = /\bredis\s*\.\s*p?call\b/u;
const cache = new WeakMap<TSESTree.Program, readonly LuaText[]>();

export function luaTextsOf(sourceCode: Readonly<TSESLint.SourceCode>, filename: string): readonly LuaText[] {
  const cached = cache.get(sourceCode.ast);
  if (cached) return cached;
  const texts: LuaText[] = [];
  const seen = new Set<TSESTree.Node>();
  // `includes` first: a plain substring search skips most texts faster than the pattern can.
  if (sourceCode.text.includes(LUA_REDIS_GLOBAL) && REDIS_CALL.test(sourceCode.text)) {
    for (const token of sourceCode.ast.tokens) {
      if ((token.type !== AST_TOKEN_TYPES.String && token.type !== AST_TOKEN_TYPES.Template) || !REDIS_CALL.test(token.value)) continue;
      const literal = sourceCode.getNodeByRangeIndex(token.range[0]);
      if (
        !literal ||
        (literal.type !== AST_NODE_TYPES.Literal &&
          literal.type !== AST_NODE_TYPES.TemplateLiteral &&
          literal.type !== AST_NODE_TYPES.TemplateElement)
      )
        continue;
      const holder = scriptHolder(literal.type === AST_NODE_TYPES.TemplateElement ? literal.parent : literal);
      if (seen.has(holder)) continue;
      seen.add(holder);
      const text = staticString(sourceCode, holder);
      if (text === undefined || !REDIS_CALL.test(text)) continue;
      texts.push({ text, node: holder, file: undefined, sourceOffset: offsetMap(sourceCode, holder) });
    }
  }
  // Scripts read from `.lua` files come through `readFileSync`: a file that never names it reads none.
  if (sourceCode.text.includes('readFileSync')) texts.push(...scriptsReadFromFiles(sourceCode, filename));
  cache.set(sourceCode.ast, texts);
  return texts;
}

function scriptsReadFromFiles(sourceCode: Readonly<TSESLint.SourceCode>, filename: string): LuaText[] {
  const texts: LuaText[] = [];
  const scripts = new ScriptResolver(sourceCode, filename);
  for (const call of collectNodes(sourceCode).calls) {
    const callee = call.callee;
    const name = callee.type === AST_NODE_TYPES.Identifier ? callee.name : methodCallParts(call)?.method;
    const file = call.arguments[0];
    if (name !== 'readFileSync' || !file) continue;
    const source = scripts.resolve(call)?.source;
    const path = staticPath(sourceCode, file);
    if (source === undefined || !REDIS_CALL.test(source)) continue;
    texts.push({ text: source, node: call, file: path, sourceOffset: undefined });
  }
  return texts;
}

/** The outermost `+` chain or `[...].join(...)` a literal is part of: the script is the whole. */
function scriptHolder(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    const parent = current.parent;
    if (parent?.type === AST_NODE_TYPES.BinaryExpression && parent.operator === '+') current = parent;
    else if (
      parent?.type === AST_NODE_TYPES.ArrayExpression &&
      parent.parent.type === AST_NODE_TYPES.MemberExpression &&
      parent.parent.parent.type === AST_NODE_TYPES.CallExpression &&
      methodCallParts(parent.parent.parent)?.method === 'join'
    )
      current = parent.parent.parent;
    else return current;
  }
}

/** Piecewise map for a literal or a `+` chain of literals, each written without escapes. */
function offsetMap(sourceCode: Readonly<TSESLint.SourceCode>, holder: TSESTree.Node): LuaText['sourceOffset'] {
  const pieces: { start: number; length: number }[] = [];
  const flatten = (node: TSESTree.Node): boolean => {
    if (node.type === AST_NODE_TYPES.BinaryExpression && node.operator === '+') return flatten(node.left) && flatten(node.right);
    let cooked: string | undefined;
    if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') cooked = node.value;
    else if (node.type === AST_NODE_TYPES.TemplateLiteral && node.expressions.length === 0)
      cooked = node.quasis[0]?.value.cooked ?? undefined;
    if (cooked === undefined) return false;
    const inner = sourceCode.text.slice(node.range[0] + 1, node.range[1] - 1);
    if (inner !== cooked) return false;
    pieces.push({ start: node.range[0] + 1, length: inner.length });
    return true;
  };
  if (!flatten(holder)) return undefined;
  return (offset) => {
    let remaining = offset;
    for (const piece of pieces) {
      if (remaining < piece.length) return piece.start + remaining;
      remaining -= piece.length;
    }
    const last = pieces.at(-1);
    return last ? last.start + last.length : holder.range[0];
  };
}

function staticPath(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.CallExpression) {
    const segment = node.arguments.at(-1);
    return segment ? staticString(sourceCode, segment) : undefined;
  }
  if (node.type === AST_NODE_TYPES.NewExpression && node.arguments[0]) return staticString(sourceCode, node.arguments[0]);
  return staticString(sourceCode, node);
}
