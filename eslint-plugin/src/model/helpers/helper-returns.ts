// What an acquire helper hands back to its callers — a handle that releases the lock, the token it
// stored, the try's answer, or nothing — and whether it reports a failed try: read off the body the
// summary (helper-summaries.ts) has gathered.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type FunctionLike, isFunctionLike, methodCallParts, skipTypeWrappers, findVariableOf, pushChildren } from '../../util/ast.js';
import { eventNode, within } from '../facts/source-order.js';
import { resultDeclarator, valueFlow } from '../facts/result-flow.js';
import type { Acquisition, Release, HelperReturn } from '../nouns/redis-events.js';
import { LOCK_LIBRARIES, isLockLibrary, lockLibraryMethod, releaseMethodsOf } from '../tables/redis-clients.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** What the helper's own body (nested functions aside) does: its calls, returns and throws. */
export interface Body {
  readonly calls: readonly TSESTree.CallExpression[];
  readonly news: readonly TSESTree.NewExpression[];
  readonly returns: readonly (TSESTree.Expression | null)[];
  readonly nested: readonly FunctionLike[];
  /** Parameters the body calls (`await fn()`): the work of a with-lock helper. */
  readonly calledParameters: readonly number[];
}

/**
 * What the acquire helper returns: a function or object that releases the lock (a handle), the
 * token it stored, the try's answer, or nothing.
 */
export function returnKind(
  sourceCode: SourceCode,
  fn: FunctionLike,
  body: Body,
  acquisition: Acquisition,
  releases: readonly Release[],
): { kind: HelperReturn; handleRelease: readonly string[] } {
  // A binary search in the module's releases, not a scan per returned function.
  const releasesIn = (node: TSESTree.Node) => within(releases, node.range, eventNode).length > 0;
  const returned = body.returns
    .filter((argument): argument is TSESTree.Expression => argument !== null)
    .map((argument) => unwrapReturned(sourceCode, argument));
  for (const argument of returned) {
    if (isFunctionLike(argument) && releasesIn(argument)) return { kind: 'handle', handleRelease: ['call'] };
    if (argument.type === AST_NODE_TYPES.ObjectExpression) {
      const members = argument.properties.flatMap((property) => {
        if (property.type !== AST_NODE_TYPES.Property || property.computed || property.key.type !== AST_NODE_TYPES.Identifier) return [];
        const value = unwrapReturned(sourceCode, property.value as TSESTree.Expression);
        return isFunctionLike(value) && releasesIn(value) ? [property.key.name] : [];
      });
      if (members.length > 0) return { kind: 'handle', handleRelease: members };
    }
  }
  const library = libraryHandleReturned(sourceCode, body, acquisition);
  if (library) return { kind: 'handle', handleRelease: library };
  const token = acquisition.value ? skipTypeWrappers(acquisition.value) : undefined;
  const tokenName = token?.type === AST_NODE_TYPES.Identifier && token.range[0] >= fn.range[0] ? token.name : undefined;
  if (tokenName !== undefined && body.returns.some((argument) => argument !== null && mentions(sourceCode, argument, tokenName)))
    return { kind: 'token', handleRelease: [] };
  return { kind: returned.length > 0 ? 'result' : 'nothing', handleRelease: [] };
}

/**
 * The lock object of a library acquisition handed back to the caller, who releases it: Redlock's
 * `return redlock.acquire([k], ttl)` (or the local holding it), redis-semaphore's
 * `await mutex.acquire(); return mutex`. The members that release it on the caller's side.
 */
export function libraryHandleReturned(sourceCode: SourceCode, body: Body, acquisition: Acquisition): readonly string[] | undefined {
  const library = acquisition.library;
  if (!isLockLibrary(library)) return undefined;
  const heldBy = LOCK_LIBRARIES[library].heldBy;
  const holder = resultDeclarator(acquisition.node)?.id;
  const receiver = methodCallParts(acquisition.node)?.receiver;
  const semaphore =
    heldBy === 'maker' && receiver && skipTypeWrappers(receiver).type === AST_NODE_TYPES.Identifier
      ? (skipTypeWrappers(receiver) as TSESTree.Identifier)
      : undefined;
  for (const argument of body.returns) {
    if (!argument) continue;
    let expression = skipTypeWrappers(argument);
    if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = skipTypeWrappers(expression.argument);
    if (
      heldBy === 'handle' &&
      !lockLibraryMethod(library, method(acquisition.node))?.runsRoutine &&
      (expression === acquisition.node ||
        (holder && expression.type === AST_NODE_TYPES.Identifier && sameBinding(sourceCode, expression, holder)))
    )
      return releaseMethodsOf(library);
    if (semaphore && expression.type === AST_NODE_TYPES.Identifier && sameBinding(sourceCode, expression, semaphore))
      return releaseMethodsOf(library);
  }
  return undefined;
}

export function method(call: TSESTree.CallExpression): string | undefined {
  return methodCallParts(call)?.method;
}

export function sameBinding(sourceCode: SourceCode, left: TSESTree.Identifier, right: TSESTree.Identifier): boolean {
  if (left.name !== right.name) return false;
  const variable = findVariableOf(sourceCode, left);
  return variable !== undefined && variable === findVariableOf(sourceCode, right);
}

/** A returned local (`return lock` after `const lock = { release }`) is its initialiser. */
export function unwrapReturned(sourceCode: SourceCode, node: TSESTree.Expression): TSESTree.Node {
  let expression = skipTypeWrappers(node);
  if (expression.type === AST_NODE_TYPES.Identifier) {
    const definition = findVariableOf(sourceCode, expression)?.defs[0];
    if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init)
      expression = skipTypeWrappers(definition.node.init);
  }
  return expression;
}

export function mentions(sourceCode: SourceCode, node: TSESTree.Node, name: string): boolean {
  const stack: TSESTree.Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.type === AST_NODE_TYPES.Identifier && current.name === name) return true;
    if (isFunctionLike(current)) continue;
    pushChildren(sourceCode, current, stack);
  }
  return false;
}

/**
 * The helper can answer "not taken": a return reads the try's reply (directly or through the
 * variable holding it), or some return hands back a falsy value (`return false`, `return null`).
 */
export function reportsFailure(sourceCode: SourceCode, body: Body, acquisition: Acquisition): boolean {
  const flow = valueFlow(acquisition.node);
  const holders = flow.kind === 'declared' ? boundNames(flow.declarator.id) : [];
  return body.returns.some((argument) => {
    if (argument === null) return true;
    const expression = skipTypeWrappers(argument);
    if (expression.range[0] <= acquisition.node.range[0] && acquisition.node.range[1] <= expression.range[1]) return true;
    if (holders.some((holder) => mentions(sourceCode, expression, holder))) return true;
    if (expression.type === AST_NODE_TYPES.Literal) return !expression.value;
    return expression.type === AST_NODE_TYPES.Identifier && expression.name === 'undefined';
  });
}

/** The names a declarator binds: `reply`, or `rows` of `const { rows } = await pool.query(...)` (a query's rows hold the answer). */
export function boundNames(id: TSESTree.Node): string[] {
  if (id.type === AST_NODE_TYPES.Identifier) return [id.name];
  if (id.type === AST_NODE_TYPES.ObjectPattern) {
    return id.properties.flatMap((property) =>
      property.type === AST_NODE_TYPES.Property && property.value.type === AST_NODE_TYPES.Identifier ? [property.value.name] : [],
    );
  }
  if (id.type === AST_NODE_TYPES.ArrayPattern)
    return id.elements.flatMap((element) => (element?.type === AST_NODE_TYPES.Identifier ? [element.name] : []));
  return [];
}
