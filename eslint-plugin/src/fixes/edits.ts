// Text edits the rules' suggestions share: removing a statement or a chain link cleanly, picking a
// free name, and telling whether an expression can be written at another place.
// None inserts a module-level declaration: that edit would merge with the edit at the lock into one
// replacement spanning the file between them.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { RedisCommand } from '../model/nouns/redis-events.js';
import { contains, expressionStatementOf, forEachChild, isFunctionLike, skipTypeWrappers } from '../util/ast.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Removes a statement together with its indentation and line break when it sits alone on its line. */
export function removeStatement(fixer: TSESLint.RuleFixer, sourceCode: SourceCode, statement: TSESTree.Node): TSESLint.RuleFix {
  const text = sourceCode.text;
  let start = statement.range[0];
  let end = statement.range[1];
  let lineStart = start;
  while (lineStart > 0 && (text[lineStart - 1] === ' ' || text[lineStart - 1] === '\t')) lineStart--;
  let lineEnd = end;
  while (lineEnd < text.length && (text[lineEnd] === ' ' || text[lineEnd] === '\t')) lineEnd++;
  const aloneOnLine =
    (lineStart === 0 || text[lineStart - 1] === '\n') && (lineEnd === text.length || text[lineEnd] === '\n' || text[lineEnd] === '\r');
  if (aloneOnLine) {
    start = lineStart;
    end = text[lineEnd] === '\r' ? lineEnd + 2 : lineEnd + 1;
  }
  return fixer.removeRange([start, Math.min(end, text.length)]);
}

/** `preferred`, or `preferred2`, `preferred3`... whichever no scope in the file declares or reads. */
export function freeName(sourceCode: SourceCode, preferred: string): string {
  const taken = namesInFile(sourceCode);
  if (!taken.has(preferred)) return preferred;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${preferred}${suffix}`)) return `${preferred}${suffix}`;
}

/** `preferred`, or `preferred2`..., a name no scope inside `owner` or around it declares or reads. */
export function freeLocalName(sourceCode: SourceCode, owner: TSESTree.Node, preferred: string): string {
  const taken = new Set<string>();
  // The scopes inside `owner` are the subtrees of its own scopes (the scope tree follows the AST).
  const ownScope = sourceCode.scopeManager?.acquire(owner) ?? null;
  const pending = ownScope ? [ownScope] : [...(sourceCode.scopeManager?.scopes ?? [])];
  const seen = new Set<TSESLint.Scope.Scope>();
  while (pending.length > 0) {
    const scope = pending.pop()!;
    if (seen.has(scope)) continue;
    seen.add(scope);
    if (!contains(owner, scope.block)) continue;
    for (const variable of scope.variables) taken.add(variable.name);
    for (const reference of scope.through) taken.add(reference.identifier.name);
    pending.push(...scope.childScopes);
  }
  let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(owner);
  while (scope) {
    for (const variable of scope.variables) taken.add(variable.name);
    scope = scope.upper;
  }
  if (!taken.has(preferred)) return preferred;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${preferred}${suffix}`)) return `${preferred}${suffix}`;
}

// Every suggestion of a file asks for a free name: the file's names are gathered once, not per suggestion.
// Keyed by the Program, the one object each file has its own of in every linter: oxlint's JS plugins
// reuse one scope manager (and at times one SourceCode) for every file a thread lints.
const fileNames = new WeakMap<object, ReadonlySet<string>>();

export function namesInFile(sourceCode: SourceCode): ReadonlySet<string> {
  const key = sourceCode.ast;
  const cached = fileNames.get(key);
  if (cached) return cached;
  const taken = new Set<string>();
  for (const scope of sourceCode.scopeManager?.scopes ?? []) {
    for (const variable of scope.variables) taken.add(variable.name);
    for (const reference of scope.through) taken.add(reference.identifier.name);
  }
  fileNames.set(key, taken);
  return taken;
}

/** True when every identifier in `expression` resolves to a binding visible at `position`'s scope. */
export function isExpressionAvailableAt(sourceCode: SourceCode, expression: TSESTree.Node, position: TSESTree.Node): boolean {
  let available = true;
  const visit = (node: TSESTree.Node): void => {
    if (!available) return;
    if (node.type === AST_NODE_TYPES.Identifier) {
      const scope = sourceCode.getScope(node);
      const reference = scope.references.find((candidate) => candidate.identifier === node);
      const variable = reference?.resolved;
      if (variable) {
        const definition = variable.defs[0];
        const declaredBefore = definition ? definition.name.range[0] < position.range[0] || isFunctionLike(definition.node) : true;
        const definitionScope = variable.scope.block;
        const inScope = definitionScope.range[0] <= position.range[0] && position.range[1] <= definitionScope.range[1];
        if (!declaredBefore || !inScope) available = false;
      }
      return;
    }
    if (node.type === AST_NODE_TYPES.MemberExpression) {
      visit(node.object);
      if (node.computed) visit(node.property);
      return;
    }
    forEachChild(node, sourceCode.visitorKeys, visit);
  };
  visit(expression);
  return available;
}

export type Removal = { kind: 'statement'; node: TSESTree.Node } | { kind: 'chain-link'; from: number; to: number };

/** How the separate expiry can be deleted: its whole statement, or its link in a MULTI chain. */
export function expiryRemoval(expire: RedisCommand): Removal | undefined {
  if (expire.resultUsed) {
    // `.expire(k, 30)` in the middle of a chain: its value is the chain itself, so drop the link.
    const callee = skipTypeWrappers(expire.call.callee);
    const parent = expire.call.parent;
    if (
      callee.type === AST_NODE_TYPES.MemberExpression &&
      parent.type === AST_NODE_TYPES.MemberExpression &&
      parent.object === expire.call &&
      expire.client.chain
    ) {
      return { kind: 'chain-link', from: callee.object.range[1], to: expire.call.range[1] };
    }
    return undefined;
  }
  if (expire.client.chain && expire.call.callee.type === AST_NODE_TYPES.MemberExpression) {
    const receiver = skipTypeWrappers(expire.call.callee.object);
    // `redis.multi().setnx(k, v).expire(k, 30)` as the last link of a statement
    if (receiver.type === AST_NODE_TYPES.CallExpression) return { kind: 'chain-link', from: receiver.range[1], to: expire.call.range[1] };
  }
  const statement = expressionStatementOf(expire.call);
  return statement ? { kind: 'statement', node: statement } : undefined;
}
