// require-release-in-finally's suggestion: the work between acquiring and releasing goes into
// `try`, the release into its `finally`, in the code's own indentation.

import { AST_NODE_TYPES, AST_TOKEN_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { LockStep } from '../model/nouns/lock-types.js';
import { contains, expressionStatementOf } from '../util/ast.js';
import { indexOfContaining } from '../util/ranges.js';

/**
 * Wraps the statements between the acquisition and the release in `try`, and moves the release
 * into its `finally`. Early-exit guards right after the acquisition (`if (!ok) return;`) stay
 * outside: a lock that was not taken must not be released.
 */
export function moveToFinallyFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  acquisition: LockStep,
  release: LockStep,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined {
  const releaseStatement = releaseStatementOf(release);
  const block = releaseStatement?.parent;
  if (!releaseStatement || block?.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  const releaseIndex = indexOfContaining(block.body, releaseStatement);

  let start: number;
  const acquisitionIndex = indexOfContaining(block.body, acquisition.node);
  if (acquisitionIndex >= 0 && acquisitionIndex < releaseIndex) start = acquisitionIndex + 1;
  else if (
    block.parent.type === AST_NODE_TYPES.IfStatement &&
    block.parent.consequent === block &&
    contains(block.parent.test, acquisition.node)
  )
    start = 0;
  else return undefined;
  while (start < releaseIndex && isEarlyExitGuard(block.body[start]!)) start++;
  const work = block.body.slice(start, releaseIndex);
  if (work.length === 0) return undefined;

  const workStart = work[0]!.range[0];
  // Comments right above the release ("release only our own lock") move with it.
  const lastWorkEnd = work.at(-1)!.range[1];
  const releaseStart =
    sourceCode.getCommentsBefore(releaseStatement).find((comment) => comment.range[0] >= lastWorkEnd)?.range[0] ??
    releaseStatement.range[0];
  if (!declarationsStayInside(sourceCode, work, [workStart, releaseStart])) return undefined;

  const text = sourceCode.text;
  const workText = text.slice(workStart, releaseStart).trimEnd();
  const releaseText = text.slice(releaseStart, releaseStatement.range[1]);
  const lineStart = text.lastIndexOf('\n', workStart - 1) + 1;
  const indent = text.slice(lineStart, workStart);
  const replacement = /^[ \t]*$/u.test(indent)
    ? multiLineTry(sourceCode, block, indent, workText, releaseText, [...work, releaseStatement])
    : `try { ${workText} } finally { ${releaseText} }`;
  return (fixer) => fixer.replaceTextRange([workStart, releaseStatement.range[1]], replacement);
}

/**
 * The statement that moves into `finally`: the release itself, or the `if` that holds only the
 * release (`if ((await redis.get(key)) === token) await redis.del(key);`).
 */
function releaseStatementOf(release: LockStep): TSESTree.Statement | undefined {
  const statement = expressionStatementOf(release.node);
  if (!statement) return undefined;
  const parent = statement.parent;
  if (parent.type === AST_NODE_TYPES.IfStatement && !parent.alternate && parent.consequent === statement) return parent;
  if (parent.type === AST_NODE_TYPES.BlockStatement && parent.body.length === 1) {
    const grandparent = parent.parent;
    if (grandparent.type === AST_NODE_TYPES.IfStatement && !grandparent.alternate && grandparent.consequent === parent) return grandparent;
  }
  return statement;
}

function multiLineTry(
  sourceCode: Readonly<TSESLint.SourceCode>,
  block: TSESTree.BlockStatement,
  indent: string,
  workText: string,
  releaseText: string,
  moved: readonly TSESTree.Statement[],
): string {
  const step = indentStep(sourceCode, block, indent);
  // Re-indenting inside a multi-line string would change the string.
  const reindent = !moved.some((statement) => spansMultiLineString(sourceCode, statement));
  const shift = (code: string) => (reindent ? code.replace(/\n(?=[^\r\n])/gu, `\n${step}`) : code);
  return `try {\n${indent}${step}${shift(workText)}\n${indent}} finally {\n${indent}${step}${shift(releaseText)}\n${indent}}`;
}

/** One level of indentation: what the block's statements add to the line that opens the block. */
function indentStep(sourceCode: Readonly<TSESLint.SourceCode>, block: TSESTree.BlockStatement, indent: string): string {
  const openingLine = sourceCode.lines[block.loc.start.line - 1] ?? '';
  const outer = /^[ \t]*/u.exec(openingLine)?.[0] ?? '';
  if (indent.startsWith(outer) && indent.length > outer.length) return indent.slice(outer.length);
  return indent.includes('\t') ? '\t' : '  ';
}

function spansMultiLineString(sourceCode: Readonly<TSESLint.SourceCode>, statement: TSESTree.Node): boolean {
  return sourceCode
    .getTokens(statement)
    .some(
      (token) =>
        (token.type === AST_TOKEN_TYPES.Template || token.type === AST_TOKEN_TYPES.String) && token.loc.start.line !== token.loc.end.line,
    );
}

/** `if (!ok) return;` / `if (!acquired) throw ...` with no else. */
function isEarlyExitGuard(statement: TSESTree.Statement): boolean {
  if (statement.type !== AST_NODE_TYPES.IfStatement || statement.alternate) return false;
  const consequent = statement.consequent.type === AST_NODE_TYPES.BlockStatement ? statement.consequent.body.at(-1) : statement.consequent;
  return consequent?.type === AST_NODE_TYPES.ReturnStatement || consequent?.type === AST_NODE_TYPES.ThrowStatement;
}

/** Moving the work into a block must not hide a binding that code after it (the release included) reads. */
function declarationsStayInside(
  sourceCode: Readonly<TSESLint.SourceCode>,
  work: readonly TSESTree.Statement[],
  range: readonly [number, number],
): boolean {
  for (const statement of work) {
    if (
      statement.type !== AST_NODE_TYPES.VariableDeclaration &&
      statement.type !== AST_NODE_TYPES.FunctionDeclaration &&
      statement.type !== AST_NODE_TYPES.ClassDeclaration
    )
      continue;
    for (const variable of sourceCode.getDeclaredVariables(statement)) {
      if (variable.references.some((reference) => reference.identifier.range[0] < range[0] || reference.identifier.range[1] > range[1]))
        return false;
    }
  }
  return true;
}
