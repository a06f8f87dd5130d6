// Where a call's value goes, and whether the answer in it is read: dropped, bound, assigned, tested,
// returned or passed on. The one result-flow reading of the model: a Redis acquire's reply, a
// `pg_try_advisory_lock` row, a release script's 0/1 and a lock-table DELETE's count all ask it.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, forEachChild, isFunctionLike, propertyName, skipTypeWrappers, valueCarrier } from '../../util/ast.js';
import type { ResultShape } from '../nouns/vocabulary.js';

/**
 * The one step from a call to what receives its value, through `await`, type wrappers and `?.`
 * (`carrier`, util/ast's valueCarrier):
 * - `dropped`: a bare statement (`await tryLock();`, `statement` set) or `void tryLock()`;
 * - `declared`: the initialiser of a declarator (`const ok = await tryLock()`, any pattern);
 * - `assigned`: the right side of `ok = await tryLock()` with an identifier on the left;
 * - `used`: anything else: tested, compared, returned, passed as an argument, a member read;
 * - `detached`: no parent (a node outside a Program).
 */
export type ValueFlow =
  | { readonly kind: 'dropped'; readonly carrier: TSESTree.Node; readonly statement: TSESTree.ExpressionStatement | undefined }
  | { readonly kind: 'declared'; readonly carrier: TSESTree.Node; readonly declarator: TSESTree.VariableDeclarator }
  | { readonly kind: 'assigned'; readonly carrier: TSESTree.Node; readonly target: TSESTree.Identifier }
  | { readonly kind: 'used'; readonly carrier: TSESTree.Node; readonly parent: TSESTree.Node }
  | { readonly kind: 'detached'; readonly carrier: TSESTree.Node };

export function valueFlow(node: TSESTree.Node): ValueFlow {
  const carrier = valueCarrier(node);
  const parent = carrier.parent;
  if (!parent) return { kind: 'detached', carrier };
  // `unlock().catch(() => {})`, `.finally(cleanup)`: the promise settles to the same value (or the
  // handler's, on an error), which flows on from that call: swallowing errors reads no answer.
  if (
    parent.type === AST_NODE_TYPES.MemberExpression &&
    parent.object === carrier &&
    !parent.computed &&
    (propertyName(parent) === 'catch' || propertyName(parent) === 'finally') &&
    parent.parent.type === AST_NODE_TYPES.CallExpression &&
    parent.parent.callee === parent
  )
    return valueFlow(parent.parent);
  if (parent.type === AST_NODE_TYPES.ExpressionStatement) return { kind: 'dropped', carrier, statement: parent };
  if (parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void')
    return { kind: 'dropped', carrier, statement: undefined };
  // The carrier of a call is never a declarator's id, so it is the init here.
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === carrier)
    return { kind: 'declared', carrier, declarator: parent };
  if (
    parent.type === AST_NODE_TYPES.AssignmentExpression &&
    parent.operator === '=' &&
    parent.right === carrier &&
    parent.left.type === AST_NODE_TYPES.Identifier
  ) {
    return { kind: 'assigned', carrier, target: parent.left };
  }
  return { kind: 'used', carrier, parent };
}

/** `const ok = await redis.set(...)`: the declarator that keeps the call's value under one name. */
export function resultDeclarator(node: TSESTree.Node): (TSESTree.VariableDeclarator & { id: TSESTree.Identifier }) | undefined {
  const flow = valueFlow(node);
  return flow.kind === 'declared' && flow.declarator.id.type === AST_NODE_TYPES.Identifier
    ? (flow.declarator as TSESTree.VariableDeclarator & { id: TSESTree.Identifier })
    : undefined;
}

/** Whether the call's value reaches anything (not a bare statement, not `void`). */
export function isResultUsed(node: TSESTree.Node): boolean {
  const kind = valueFlow(node).kind;
  return kind !== 'dropped' && kind !== 'detached';
}

/**
 * Where the answer sits in a call's value:
 * - `reply`: the value itself, read through one name (a Redis reply, an acquire helper's answer):
 *   any read of the variable holding it counts, a destructured value counts as read, and a later
 *   `ok = await tryLock()` is followed to its variable;
 * - `whole`: the value itself, followed through copies and destructuring (a release script's 0/1,
 *   an affected-row count that the libraries spell `rowCount`, `count` or a plain number);
 * - a `ResultShape`: the boolean `column` of the rows, in that library's shape.
 */
export type AnswerShape = ResultShape | 'whole' | 'reply';

export interface Answer {
  readonly shape: AnswerShape;
  /** The rows' column that holds the answer; unused for `whole` and `reply`. */
  readonly column: string;
}

export const REPLY: Answer = { shape: 'reply', column: '' };
export const WHOLE: Answer = { shape: 'whole', column: '' };

export type ResultFate =
  | { readonly kind: 'checked' }
  | { readonly kind: 'ignored'; readonly statement: TSESTree.ExpressionStatement | undefined }
  /** Bound, but nothing reads the answer; `guard` is an expression for it from the binding, when one binding leads there. */
  | {
      readonly kind: 'unread';
      readonly name: string;
      readonly declaration: TSESTree.VariableDeclaration | undefined;
      readonly guard: string | undefined;
    };

/**
 * What happens to the answer in `node`'s value. Checked: any read of the answer (a test, a
 * comparison, returning or passing it), or the rows leaving the analysis whole (returned, passed to
 * a function, iterated, a method called on them). Unchecked: the value dropped, or bound and then
 * never read, or read only for something else (`rowCount`, `rows.length`).
 */
export function resultFate(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, answer: Answer): ResultFate {
  // A callback receives a query's result (pg's `query(text, values, cb)`): not followed. A Redis
  // acquire's v3 callback is read by callbackIgnoresReply instead.
  if (
    answer.shape !== 'reply' &&
    node.type === AST_NODE_TYPES.CallExpression &&
    node.arguments.some((argument) => isFunctionLike(argument))
  )
    return { kind: 'checked' };
  const flow = valueFlow(node);
  switch (flow.kind) {
    case 'dropped':
      return { kind: 'ignored', statement: flow.statement };
    case 'declared':
      return declaredFate(sourceCode, flow.declarator, answer);
    case 'assigned': {
      if (answer.shape !== 'reply') return { kind: 'checked' };
      const variable = sourceCode.getScope(flow.target).references.find((candidate) => candidate.identifier === flow.target)?.resolved;
      if (!variable || variable.references.some((candidate) => candidate.isRead())) return { kind: 'checked' };
      return { kind: 'unread', name: flow.target.name, declaration: undefined, guard: flow.target.name };
    }
    default:
      return { kind: 'checked' };
  }
}

function declaredFate(sourceCode: Readonly<TSESLint.SourceCode>, declarator: TSESTree.VariableDeclarator, answer: Answer): ResultFate {
  const declaration = declarator.parent;
  // An exported binding is read by the modules that import it.
  if (declaration.parent.type === AST_NODE_TYPES.ExportNamedDeclaration) return { kind: 'checked' };
  const single = declaration.declarations.length === 1 ? declaration : undefined;
  if (answer.shape === 'reply') {
    if (declarator.id.type !== AST_NODE_TYPES.Identifier) return { kind: 'checked' };
    const variable = sourceCode.getDeclaredVariables(declarator)[0];
    if (!variable || variable.references.some((reference) => reference.isRead())) return { kind: 'checked' };
    return { kind: 'unread', name: declarator.id.name, declaration: single, guard: declarator.id.name };
  }
  const top: Level = answer.shape === 'unknown' ? 'opaque' : answer.shape === 'whole' ? 'value' : answer.shape;
  const bindings: Binding[] = [];
  if (declarator.id.type === AST_NODE_TYPES.Identifier) bindings.push({ identifier: declarator.id, level: top });
  else if (top === 'opaque' || !collectBindings(declarator.id, top, answer.column, bindings)) return { kind: 'checked' };
  const tracker = new ReadTracker(sourceCode, answer.column);
  const relevant = bindings.filter((binding) => binding.level !== 'other');
  if (relevant.some((binding) => tracker.bindingReadsValue(binding.identifier, binding.level))) return { kind: 'checked' };
  const first = relevant[0] ?? bindings[0];
  if (!first) return { kind: 'checked' };
  const guard = relevant.length === 1 ? guardExpression(first.identifier.name, first.level, answer.column) : undefined;
  return { kind: 'unread', name: first.identifier.name, declaration: single, guard };
}

/** The suffix that reads the boolean from the awaited result itself (`.rows[0]?.locked`). */
export function resultAccess(shape: ResultShape, column: string): string | undefined {
  if (shape === 'unknown') return undefined;
  return guardExpression('', shape, column);
}

/**
 * The value's readers, when it is bound and not reassigned later: the identifiers reading it (or,
 * when it is not bound, the carrier itself), the declaration when it declares that name alone, and
 * whether the call is awaited. `undefined` when a later assignment makes the reads ambiguous.
 */
export function valueReaders(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.Node,
): { uses: TSESTree.Node[]; declaration: TSESTree.VariableDeclaration | undefined; awaited: boolean } | undefined {
  const carrier = valueCarrier(call);
  const awaited = carrier !== call && awaitsBetween(carrier, call);
  const declarator = resultDeclarator(call);
  if (declarator) {
    const variable = sourceCode.getDeclaredVariables(declarator)[0];
    if (!variable || variable.references.some((reference) => reference.isWrite() && reference.init !== true)) return undefined;
    const declaration = declarator.parent;
    return {
      uses: variable.references.filter((reference) => reference.isRead()).map((reference) => reference.identifier),
      declaration: declaration.declarations.length === 1 ? declaration : undefined,
      awaited,
    };
  }
  return { uses: [carrier], declaration: undefined, awaited };
}

function awaitsBetween(carrier: TSESTree.Node, call: TSESTree.Node): boolean {
  let current: TSESTree.Node | undefined = call.parent;
  while (current && contains(carrier, current)) {
    if (current.type === AST_NODE_TYPES.AwaitExpression) return true;
    current = current.parent;
  }
  return false;
}

/** A v3 callback that never looks at its reply argument (or has none). */
export function callbackIgnoresReply(sourceCode: Readonly<TSESLint.SourceCode>, callback: TSESTree.Node): boolean {
  if (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback.type !== AST_NODE_TYPES.FunctionExpression) return false;
  const reply = callback.params[1];
  if (!reply) return true;
  if (reply.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = sourceCode.getDeclaredVariables(callback).find((candidate) => candidate.name === reply.name);
  return variable !== undefined && variable.references.length === 0;
}

/** The value is dropped, or every variable it is declared into is never read (nor reassigned). */
export function isResultDiscarded(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): boolean {
  const flow = valueFlow(node);
  if (flow.kind === 'detached' || (flow.kind === 'dropped' && flow.statement)) return true;
  if (flow.kind !== 'declared') return false;
  const variables = sourceCode.getDeclaredVariables(flow.declarator);
  return variables.length > 0 && variables.every((variable) => variable.references.every((reference) => reference.init === true));
}

/** True when a call's value is only ever tested for truthiness (or not used at all). */
export function isUsedOnlyAsCondition(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.Node): boolean {
  const flow = valueFlow(call);
  if (flow.kind === 'detached' || (flow.kind === 'dropped' && flow.statement)) return true;
  if (isConditionPosition(flow.carrier)) return true;
  const declarator = resultDeclarator(call);
  if (declarator) {
    const variable = sourceCode.getDeclaredVariables(declarator)[0];
    return variable?.references.every((reference) => reference.init === true || isConditionPosition(reference.identifier)) ?? false;
  }
  return false;
}

function isConditionPosition(node: TSESTree.Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  switch (parent.type) {
    case AST_NODE_TYPES.IfStatement:
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
    case AST_NODE_TYPES.ConditionalExpression:
      return parent.test === node;
    case AST_NODE_TYPES.UnaryExpression:
      return parent.operator === '!';
    case AST_NODE_TYPES.LogicalExpression:
      return parent.left === node
        ? isConditionPosition(parent) || (parent.operator !== '??' && parent.parent.type !== AST_NODE_TYPES.VariableDeclarator)
        : isConditionPosition(parent);
    case AST_NODE_TYPES.CallExpression:
      return parent.callee.type === AST_NODE_TYPES.Identifier && parent.callee.name === 'Boolean';
    default:
      return false;
  }
}

/** Whether a `return` in `block` hands back the call's value (directly or through the variable declared for it). */
export function returnsResultOf(sourceCode: Readonly<TSESLint.SourceCode>, block: TSESTree.Node, call: TSESTree.Node): boolean {
  const holder = resultDeclarator(call)?.id.name;
  let returns = false;
  visitStatements(sourceCode, block, (node) => {
    if (returns || node.type !== AST_NODE_TYPES.ReturnStatement || !node.argument) return;
    const argument = node.argument;
    if (contains(argument, call)) returns = true;
    else if (holder !== undefined && sourceCode.getText(argument).split(/\W+/u).includes(holder)) returns = true;
  });
  return returns;
}

/** Walks the statements and expressions of a block, not entering nested functions. */
export function visitStatements(
  sourceCode: Readonly<TSESLint.SourceCode>,
  root: TSESTree.Node,
  visit: (node: TSESTree.Node) => void,
): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    forEachChild(node, sourceCode.visitorKeys, (child) => {
      if (!isFunctionLike(child)) stack.push(child);
    });
  }
}

// Where a value sits between the query's result and the boolean: `other` is anything that cannot
// hold it (`rowCount`, `rows.length`, another column), `opaque` a step this analysis does not follow.
type Level = 'result' | 'rows' | 'row' | 'value' | 'other' | 'opaque';

interface Binding {
  readonly identifier: TSESTree.Identifier;
  readonly level: Level;
}

/** The expression that reads the boolean from a binding at `level`, for a guard. */
function guardExpression(name: string, level: Level, column: string): string | undefined {
  const access = /^[A-Za-z_$][\w$]*$/u.test(column) ? `?.${column}` : `?.[${JSON.stringify(column)}]`;
  switch (level) {
    case 'value':
      return name;
    case 'row':
      return `${name}${access}`;
    case 'rows':
      return `${name}[0]${access}`;
    case 'result':
      return `${name}.rows[0]${access}`;
    default:
      return undefined;
  }
}

function step(level: Level, key: string | number | undefined, column: string): Level {
  switch (level) {
    case 'result':
      if (key === 'rows') return 'rows';
      return typeof key === 'string' ? 'other' : 'opaque';
    case 'rows':
      if (key === 'length') return 'other';
      return typeof key === 'number' ? 'row' : 'opaque';
    case 'row':
      if (key === column) return 'value';
      return typeof key === 'string' ? 'other' : 'opaque';
    default:
      return level;
  }
}

/** Bindings of a destructuring pattern with their levels; `false` when a part is not followed. */
function collectBindings(pattern: TSESTree.Node, level: Level, column: string, into: Binding[]): boolean {
  switch (pattern.type) {
    case AST_NODE_TYPES.Identifier:
      into.push({ identifier: pattern, level });
      return true;
    case AST_NODE_TYPES.AssignmentPattern:
      return collectBindings(pattern.left, level, column, into);
    case AST_NODE_TYPES.ObjectPattern:
      for (const property of pattern.properties) {
        if (property.type === AST_NODE_TYPES.RestElement) {
          if (!collectBindings(property.argument, level, column, into)) return false;
          continue;
        }
        const key = property.computed
          ? undefined
          : property.key.type === AST_NODE_TYPES.Identifier
            ? property.key.name
            : typeof property.key.value === 'number'
              ? property.key.value
              : property.key.value;
        const next = step(level, key, column);
        if (next === 'opaque') return false;
        if (!collectBindings(property.value, next, column, into)) return false;
      }
      return true;
    case AST_NODE_TYPES.ArrayPattern:
      for (const [index, element] of pattern.elements.entries()) {
        if (!element) continue;
        if (element.type === AST_NODE_TYPES.RestElement) {
          // The rest of the rows is still rows; the rest of anything else is not followed.
          if (level !== 'rows' || !collectBindings(element.argument, level, column, into)) return false;
          continue;
        }
        const next = step(level, index, column);
        if (next === 'opaque') return false;
        if (!collectBindings(element, next, column, into)) return false;
      }
      return true;
    default:
      return false;
  }
}

class ReadTracker {
  private readonly visiting = new Set<TSESTree.Identifier>();

  constructor(
    private readonly sourceCode: Readonly<TSESLint.SourceCode>,
    private readonly column: string,
  ) {}

  /** Some read of the binding reaches the boolean, or lets the rows go where this analysis does not follow. */
  bindingReadsValue(identifier: TSESTree.Identifier, level: Level): boolean {
    if (level === 'other') return false;
    if (this.visiting.has(identifier)) return true;
    this.visiting.add(identifier);
    const variable = declaredVariable(this.sourceCode, identifier);
    if (!variable) return true;
    return variable.references.some((reference) => reference.isRead() && this.readReachesValue(reference.identifier, level));
  }

  private readReachesValue(start: TSESTree.Node, startLevel: Level): boolean {
    let node = start;
    let level = startLevel;
    for (;;) {
      if (level === 'other') return false;
      if (level === 'opaque') return true;
      const top = outermostWrapper(node);
      const parent = top.parent;
      if (!parent) return true;
      if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === top) {
        // A method of the rows (`rows.some(row => row.locked)`): not followed.
        const outer = outermostWrapper(parent).parent;
        if (outer?.type === AST_NODE_TYPES.CallExpression && skipTypeWrappers(outer.callee) === parent) return true;
        level = step(level, memberKey(parent), this.column);
        node = parent;
        continue;
      }
      if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === top) {
        const bindings: Binding[] = [];
        if (parent.id.type !== AST_NODE_TYPES.Identifier && level === 'value') return true;
        if (!collectBindings(parent.id, level, this.column, bindings)) return true;
        return bindings.some((binding) => this.bindingReadsValue(binding.identifier, binding.level));
      }
      // The boolean itself used anywhere, or the rows used whole (passed, returned, iterated).
      return true;
    }
  }
}

/** The node itself, or the `?.` chain, `!`, `as` or `satisfies` around it. */
function outermostWrapper(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (
    current.parent &&
    (current.parent.type === AST_NODE_TYPES.ChainExpression ||
      current.parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      current.parent.type === AST_NODE_TYPES.TSAsExpression ||
      current.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)
  )
    current = current.parent;
  return current;
}

function declaredVariable(sourceCode: Readonly<TSESLint.SourceCode>, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(identifier); scope; scope = scope.upper) {
    const variable = scope.set.get(identifier.name);
    if (variable?.identifiers.includes(identifier)) return variable;
  }
  return undefined;
}

function memberKey(member: TSESTree.MemberExpression): string | number | undefined {
  if (!member.computed && member.property.type === AST_NODE_TYPES.Identifier) return member.property.name;
  if (member.property.type === AST_NODE_TYPES.Literal) {
    const value = member.property.value;
    if (typeof value === 'number') return value;
    if (typeof value === 'string') return /^\d+$/u.test(value) ? Number(value) : value;
  }
  return undefined;
}
