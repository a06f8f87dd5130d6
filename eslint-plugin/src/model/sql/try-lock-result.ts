// Whether code reads the answer a lock call returns: the boolean of a `pg_try_advisory_lock` (or of a
// `pg_advisory_unlock`) from the rows its query returns, or a call's whole value (a release script's
// 0/1, a lock-table DELETE's result). The one result-flow analysis of the model: acquisitions and
// releases alike ask it.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionLike, skipTypeWrappers, valueCarrier } from '../../util/ast.js';
import type { SqlLibrary } from './client-table.js';

/**
 * How a library hands back a SELECT's rows: `result` (`{ rows }`: pg, knex `raw` on pg, kysely),
 * `rows` (an array of rows: postgres.js, Prisma `$queryRaw`, TypeORM), or `unknown` (Sequelize's
 * `[rows, meta]` or rows by `type`, drizzle's per-driver result, ...).
 */
export type ResultShape = 'result' | 'rows' | 'unknown';

/**
 * Where the answer sits in a call's value: a column of the rows (in the library's `ResultShape`),
 * or `whole`, the value itself (any read of it counts: a script's reply, an affected-row count that
 * the libraries spell `rowCount`, `count` or a plain number).
 */
export type AnswerShape = ResultShape | 'whole';

export function resultShapeOf(library: SqlLibrary, method: string): ResultShape {
  switch (library) {
    case 'pg':
    case 'kysely':
      return 'result';
    case 'knex':
      return method === 'raw' ? 'result' : 'unknown';
    case 'postgres':
    case 'typeorm':
      return 'rows';
    case 'prisma':
      return method === '$queryRaw' || method === '$queryRawUnsafe' ? 'rows' : 'unknown';
    default:
      return 'unknown';
  }
}

export type TryLockResultFate =
  | { kind: 'checked' }
  | { kind: 'ignored'; statement: TSESTree.ExpressionStatement | undefined }
  /** Bound, but nothing reads the boolean; `guard` is an expression for it from the binding, when one binding leads there. */
  | { kind: 'unread'; name: string; declaration: TSESTree.VariableDeclaration | undefined; guard: string | undefined };

// Where a value sits between the query's result and the boolean: `other` is anything that cannot
// hold it (`rowCount`, `rows.length`, another column), `opaque` a step this analysis does not follow.
type Level = 'result' | 'rows' | 'row' | 'value' | 'other' | 'opaque';

interface Binding {
  readonly identifier: TSESTree.Identifier;
  readonly level: Level;
}

/**
 * What happens to the boolean `column` of the query `node` returns (with `shape` `whole`: to the
 * value `node` returns; `column` is then unused). Checked: any read of the
 * boolean (a test, a comparison, returning or passing it), or the rows leaving the analysis whole
 * (returned, passed to a function, iterated, a method called on them). Unchecked: the result
 * dropped, or bound and then never read, or read only for something else (`rowCount`, `rows.length`).
 */
export function tryLockResultFate(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  column: string,
  shape: AnswerShape,
): TryLockResultFate {
  // A callback receives the result (pg's `query(text, values, cb)`): not followed.
  if (node.type === AST_NODE_TYPES.CallExpression && node.arguments.some((argument) => isFunctionLike(argument))) return { kind: 'checked' };
  const carrier = valueCarrier(node);
  const parent = carrier.parent;
  if (!parent) return { kind: 'checked' };
  if (parent.type === AST_NODE_TYPES.ExpressionStatement) return { kind: 'ignored', statement: parent };
  if (parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void') return { kind: 'ignored', statement: undefined };
  if (parent.type !== AST_NODE_TYPES.VariableDeclarator || parent.init !== carrier) return { kind: 'checked' };
  const declaration = parent.parent;
  // An exported binding is read by the modules that import it.
  if (declaration.parent.type === AST_NODE_TYPES.ExportNamedDeclaration) return { kind: 'checked' };
  const top: Level = shape === 'unknown' ? 'opaque' : shape === 'whole' ? 'value' : shape;
  const bindings: Binding[] = [];
  if (parent.id.type === AST_NODE_TYPES.Identifier) bindings.push({ identifier: parent.id, level: top });
  else if (top === 'opaque' || !collectBindings(parent.id, top, column, bindings)) return { kind: 'checked' };
  const tracker = new ReadTracker(sourceCode, column);
  const relevant = bindings.filter((binding) => binding.level !== 'other');
  if (relevant.some((binding) => tracker.bindingReadsValue(binding.identifier, binding.level))) return { kind: 'checked' };
  const first = relevant[0] ?? bindings[0];
  if (!first) return { kind: 'checked' };
  const guard = relevant.length === 1 ? guardExpression(first.identifier.name, first.level, column) : undefined;
  return { kind: 'unread', name: first.identifier.name, declaration: declaration.declarations.length === 1 ? declaration : undefined, guard };
}

/** The expression that reads the boolean from a binding at `level`, for a guard. */
export function guardExpression(name: string, level: Level, column: string): string | undefined {
  const access = /^[A-Za-z_$][\w$]*$/u.test(column) ? `?.${column}` : `?.[${JSON.stringify(column)}]`;
  switch (level) {
    case 'value': return name;
    case 'row': return `${name}${access}`;
    case 'rows': return `${name}[0]${access}`;
    case 'result': return `${name}.rows[0]${access}`;
    default: return undefined;
  }
}

/** The suffix that reads the boolean from the awaited result itself (`.rows[0]?.locked`). */
export function resultAccess(shape: ResultShape, column: string): string | undefined {
  if (shape === 'unknown') return undefined;
  return guardExpression('', shape, column);
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
        const key = property.computed ? undefined
          : property.key.type === AST_NODE_TYPES.Identifier ? property.key.name
            : typeof property.key.value === 'number' ? property.key.value : property.key.value;
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

  constructor(private readonly sourceCode: Readonly<TSESLint.SourceCode>, private readonly column: string) {}

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
  while (current.parent && (current.parent.type === AST_NODE_TYPES.ChainExpression || current.parent.type === AST_NODE_TYPES.TSNonNullExpression
    || current.parent.type === AST_NODE_TYPES.TSAsExpression || current.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) current = current.parent;
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
