// Runs of sibling statements (from a lock to its unlock, or to the end of the block) that the
// PostgreSQL fixes move into a checked-out connection or a transaction helper.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionLike } from '../../util/ast.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface StatementSpan {
  readonly statements: readonly TSESTree.Statement[];
  readonly first: TSESTree.Statement;
  readonly last: TSESTree.Statement;
  /** Indentation of the first statement's line. */
  readonly indent: string;
}

/** The statement directly inside a block (or the Program) that contains `node`. */
export function blockStatementOf(node: TSESTree.Node): TSESTree.Statement | undefined {
  let current: TSESTree.Node = node;
  while (current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program) return current as TSESTree.Statement;
    if (isFunctionLike(parent)) return undefined;
    current = parent;
  }
  return undefined;
}

function siblings(statement: TSESTree.Statement): readonly TSESTree.Node[] | undefined {
  const parent = statement.parent;
  if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program) return parent.body;
  return undefined;
}

/** The sibling statements from `from`'s statement through `to`'s statement; undefined unless siblings in order. */
export function spanBetween(sourceCode: SourceCode, from: TSESTree.Node, to: TSESTree.Node): StatementSpan | undefined {
  const first = blockStatementOf(from);
  if (!first) return undefined;
  const body = siblings(first);
  if (!body) return undefined;
  // Climb from `to` to the statement that sits beside `first` (a `try` whose `finally` unlocks, say).
  let last: TSESTree.Node | undefined = to;
  while (last && !body.includes(last)) last = isFunctionLike(last) ? undefined : last.parent;
  if (!last) return undefined;
  const start = body.indexOf(first);
  const end = body.indexOf(last);
  if (start < 0 || end < start) return undefined;
  return makeSpan(sourceCode, body.slice(start, end + 1) as TSESTree.Statement[]);
}

/** From `from`'s statement to the end of its block. */
export function spanToBlockEnd(sourceCode: SourceCode, from: TSESTree.Node): StatementSpan | undefined {
  const first = blockStatementOf(from);
  if (!first) return undefined;
  const body = siblings(first);
  if (!body) return undefined;
  return makeSpan(sourceCode, body.slice(body.indexOf(first)) as TSESTree.Statement[]);
}

function makeSpan(sourceCode: SourceCode, statements: TSESTree.Statement[]): StatementSpan | undefined {
  const first = statements[0];
  const last = statements.at(-1);
  if (!first || !last) return undefined;
  const line = sourceCode.lines[first.loc.start.line - 1] ?? '';
  const indent = /^\s*/u.exec(line)?.[0] ?? '';
  return { statements, first, last, indent };
}

/** Control flow that would change meaning inside a callback: `return`, `break`, `continue`, `yield`, `arguments`, `this`. */
export function spanLeavesCallback(span: StatementSpan, sourceCode: SourceCode): boolean {
  let leaves = false;
  const visit = (node: TSESTree.Node, inFunction: boolean, inLoop: boolean): void => {
    if (leaves) return;
    if (isFunctionLike(node)) {
      if (node.type !== AST_NODE_TYPES.ArrowFunctionExpression) return;
      inFunction = true;
    }
    switch (node.type) {
      case AST_NODE_TYPES.ReturnStatement:
      case AST_NODE_TYPES.YieldExpression:
        if (!inFunction) leaves = true;
        break;
      case AST_NODE_TYPES.BreakStatement:
      case AST_NODE_TYPES.ContinueStatement:
        if (!inLoop || node.label) leaves = true;
        break;
      case AST_NODE_TYPES.Identifier:
        if (node.name === 'arguments' && !inFunction) leaves = true;
        break;
      default:
        break;
    }
    const loop =
      inLoop ||
      node.type === AST_NODE_TYPES.ForStatement ||
      node.type === AST_NODE_TYPES.ForOfStatement ||
      node.type === AST_NODE_TYPES.ForInStatement ||
      node.type === AST_NODE_TYPES.WhileStatement ||
      node.type === AST_NODE_TYPES.DoWhileStatement ||
      node.type === AST_NODE_TYPES.SwitchStatement;
    forEachChild(sourceCode, node, (child) => {
      visit(child, inFunction, loop);
    });
  };
  for (const statement of span.statements) visit(statement, false, false);
  return leaves;
}

/** A `const`/`let`/`function`/`class` declared at the span's top level and read after it. */
export function spanDeclarationsUsedAfter(span: StatementSpan, sourceCode: SourceCode): boolean {
  return span.statements.some(
    (statement) =>
      sourceCode
        .getDeclaredVariables(statement)
        .some((variable) => variable.references.some((reference) => reference.identifier.range[0] > span.last.range[1])) ||
      (statement.type === AST_NODE_TYPES.VariableDeclaration &&
        statement.declarations.some((declarator) =>
          sourceCode
            .getDeclaredVariables(declarator)
            .some((variable) => variable.references.some((reference) => reference.identifier.range[0] > span.last.range[1])),
        )),
  );
}

export interface TextEdit {
  readonly range: TSESTree.Range;
  readonly text: string;
}

/**
 * The span's text with `edits` applied and every line after the first indented by `extra` (except
 * lines inside template literals, whose text is data), prefixed by `indent + extra`.
 */
export function renderSpanBody(span: StatementSpan, sourceCode: SourceCode, edits: readonly TextEdit[], extra = '  '): string {
  const start = span.first.range[0];
  const end = span.last.range[1];
  const text = sourceCode.text;
  const templates: TSESTree.Range[] = [];
  const collect = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.TemplateLiteral) templates.push(node.range);
    forEachChild(sourceCode, node, collect);
  };
  for (const statement of span.statements) collect(statement);
  const all: TextEdit[] = [...edits];
  for (let index = text.indexOf('\n', start); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) {
    const lineStart = index + 1;
    if (templates.some(([from, to]) => from < lineStart && lineStart < to)) continue;
    if (edits.some((edit) => edit.range[0] < lineStart && lineStart < edit.range[1])) continue;
    if (text[lineStart] === '\n' || text[lineStart] === '\r') continue;
    all.push({ range: [lineStart, lineStart], text: extra });
  }
  all.sort((left, right) => right.range[0] - left.range[0] || right.range[1] - left.range[1]);
  let body = text.slice(start, end);
  for (const edit of all) {
    body = body.slice(0, edit.range[0] - start) + edit.text + body.slice(edit.range[1] - start);
  }
  return `${span.indent}${extra}${body}`;
}

function forEachChild(sourceCode: SourceCode, node: TSESTree.Node, visit: (child: TSESTree.Node) => void): void {
  for (const key of sourceCode.visitorKeys[node.type] ?? []) {
    const child = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(child)) {
      for (const item of child) if (isNode(item)) visit(item);
    } else if (isNode(child)) visit(child);
  }
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
