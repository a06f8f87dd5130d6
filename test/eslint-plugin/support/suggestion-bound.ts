// The size bound every suggestion must meet: a suggestion edits its lock site, never the file
// around it. ESLint merges a suggestion's edits into one replacement from the first edit to the
// last, so one edit far from the others (a declaration inserted at the top of the module) makes the
// suggestion carry a copy of everything in between, and the JSON of a file with n lock sites grow
// with n².
//
// The bound, for a suggestion offered on a finding whose reported node is N:
//   - the changed code C is the innermost statement enclosing N (N itself when N is a statement),
//     widened to the statement list of the innermost function enclosing N when the suggestion edits
//     more than C (moving a release into `finally`, wrapping lock and unlock in a transaction,
//     turning SETNX + EXPIRE into one SET, fencing a write under the lock: all edit several
//     statements of one function). Code outside every function widens to its top-level statement
//     instead. C never grows past the function, so code in one class, one IIFE or one bundle stays
//     bounded by its method or inner function;
//   - the merged replacement's range and its text are each at most |C| + the template the
//     suggestion inserts + SLACK characters. The template is the Lua script literal it passes at
//     the call, or the transaction or connection scaffold it wraps statements in (its fixed text,
//     without the names, indentation and statements the fix fills in), or nothing.

import * as assert from 'node:assert/strict';
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { EXTEND_SCRIPT, FENCED_ACQUIRE_SCRIPT, RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';
import {
  HANDLE_NAMES,
  renderBeginCommit,
  renderCheckoutWrap,
  renderTransactionWrap,
  type TransactionHelperLibrary,
} from '../../../eslint-plugin/src/fixes/sql-templates.js';
import { renderScriptLiteral } from '../../../eslint-plugin/src/fixes/templates.js';

/** Characters a suggestion may add beyond the code it changes and the script it inserts. */
export const SLACK = 200;

const SCRIPT_LITERALS = [RELEASE_SCRIPT, EXTEND_SCRIPT, FENCED_ACQUIRE_SCRIPT].map(renderScriptLiteral);

// The SQL scaffolds, rendered with markers where the fix fills in names, indentation and the wrapped
// statements: a scaffold counts when the suggestion's text matches it with anything at the markers.
const CLIENT = '\uE000';
const HANDLE = '\uE001';
const BODY = '\uE002';
const INDENT = '\uE003';
const MARKER_PATTERNS: Readonly<Record<string, string>> = {
  [CLIENT]: '[^\\n]*?',
  [HANDLE]: '[\\w$]+',
  [BODY]: '[\\s\\S]*?',
  [INDENT]: '[ \\t]*',
};
const wrapParts = { client: CLIENT, handle: HANDLE, body: BODY, indent: INDENT };
const SCAFFOLDS = [
  ...(Object.keys(HANDLE_NAMES) as TransactionHelperLibrary[]).map((library) => renderTransactionWrap(library, wrapParts)),
  renderBeginCommit(HANDLE, BODY, INDENT),
  renderCheckoutWrap('pg', wrapParts),
  renderCheckoutWrap('postgres', wrapParts),
].map((template) => ({
  pattern: new RegExp(
    template.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&').replace(/[\uE000-\uE003]/gu, (marker) => MARKER_PATTERNS[marker]!),
    'u',
  ),
  fixedLength: template.replace(/[\uE000-\uE003]/gu, '').length,
}));

/** The length of the template a suggestion's text inserts: its Lua script literals, or the longest SQL scaffold it matches. */
export function templateLength(text: string): number {
  const scripts = SCRIPT_LITERALS.filter((literal) => text.includes(literal)).reduce((sum, literal) => sum + literal.length, 0);
  const scaffold = Math.max(0, ...SCAFFOLDS.filter((candidate) => candidate.pattern.test(text)).map((candidate) => candidate.fixedLength));
  return scripts + scaffold;
}

type Range = readonly [number, number];

interface Edit {
  readonly range: Range;
  readonly text: string;
}

/** A RuleFixer that records edits, as ESLint's own does. */
const recordingFixer: TSESLint.RuleFixer = {
  insertTextAfter: (node, text) => ({ range: [node.range[1], node.range[1]], text }),
  insertTextAfterRange: (range, text) => ({ range: [range[1], range[1]], text }),
  insertTextBefore: (node, text) => ({ range: [node.range[0], node.range[0]], text }),
  insertTextBeforeRange: (range, text) => ({ range: [range[0], range[0]], text }),
  remove: (node) => ({ range: node.range, text: '' }),
  removeRange: (range) => ({ range, text: '' }),
  replaceText: (node, text) => ({ range: node.range, text }),
  replaceTextRange: (range, text) => ({ range, text }),
};

/** ESLint's merge of one suggestion's edits: one replacement from the first edit to the last. */
export function mergeEdits(text: string, edits: readonly Edit[]): Edit {
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  const start = sorted[0]!.range[0];
  let end = start;
  let merged = '';
  for (const edit of sorted) {
    assert.ok(edit.range[0] >= end, 'a suggestion holds overlapping edits');
    merged += text.slice(end, edit.range[0]) + edit.text;
    end = edit.range[1];
  }
  return { range: [start, end], text: merged };
}

/** The edits `suggestion.fix` makes, in the order it returns them. */
function editsOf(suggestion: TSESLint.SuggestionReportDescriptor<string>): Edit[] {
  const result = suggestion.fix(recordingFixer);
  if (result === null) return [];
  const fixes: TSESLint.RuleFix[] = 'range' in result ? [result] : [...result];
  return fixes.map((fix) => ({ range: fix.range, text: fix.text }));
}

function isStatement(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.BlockStatement || node.type === AST_NODE_TYPES.Program) return false;
  return node.type.endsWith('Statement') || node.type.endsWith('Declaration');
}

type FunctionWithBody = TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration | TSESTree.FunctionExpression;

function isFunction(node: TSESTree.Node): node is FunctionWithBody {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** The node a report names: its `node`, or the innermost node covering its `loc`. */
function reportedNode(sourceCode: Readonly<TSESLint.SourceCode>, descriptor: TSESLint.ReportDescriptor<string>): TSESTree.Node {
  if ('node' in descriptor && 'parent' in descriptor.node) return descriptor.node;
  const start =
    'node' in descriptor
      ? descriptor.node.range[0]
      : sourceCode.getIndexFromLoc('start' in descriptor.loc ? descriptor.loc.start : descriptor.loc);
  return sourceCode.getNodeByRangeIndex(start) ?? sourceCode.ast;
}

/** The innermost statement at or above `node`, and the innermost function's body or the top-level statement above it. */
export function changedCode(node: TSESTree.Node): { readonly statement: TSESTree.Node; readonly site: TSESTree.Node } {
  let statement: TSESTree.Node | undefined;
  let topLevel: TSESTree.Node = node;
  for (let current: TSESTree.Node = node; current.type !== AST_NODE_TYPES.Program; current = current.parent) {
    if (isFunction(current)) return { statement: statement ?? current, site: current.body };
    if (!statement && isStatement(current)) statement = current;
    topLevel = current;
  }
  return { statement: statement ?? topLevel, site: topLevel };
}

const within = (inner: Range, outer: Range): boolean => outer[0] <= inner[0] && inner[1] <= outer[1];

/** Fails (throws an AssertionError) when `suggestion` breaks the bound described at the top of this file. */
export function assertSuggestionBounded(
  sourceCode: Readonly<TSESLint.SourceCode>,
  descriptor: TSESLint.ReportDescriptor<string>,
  suggestion: TSESLint.SuggestionReportDescriptor<string>,
): void {
  const edits = editsOf(suggestion);
  if (edits.length === 0) return;
  const merged = mergeEdits(sourceCode.text, edits);
  const reported = reportedNode(sourceCode, descriptor);
  const { statement, site } = changedCode(reported);
  const changed = edits.every((edit) => within(edit.range, statement.range)) ? statement : site;
  const script = templateLength(merged.text);
  const limit = changed.range[1] - changed.range[0] + script + SLACK;
  const where = `suggestion "${suggestion.messageId}" on line ${reported.loc.start.line}`;
  assert.ok(
    merged.range[1] - merged.range[0] <= limit,
    `${where} replaces ${merged.range[1] - merged.range[0]} characters, more than ${limit} (${changed.type} of ${changed.range[1] - changed.range[0]} + template ${script} + ${SLACK})`,
  );
  assert.ok(
    merged.text.length <= limit,
    `${where} writes ${merged.text.length} characters, more than ${limit} (${changed.type} of ${changed.range[1] - changed.range[0]} + template ${script} + ${SLACK})`,
  );
}
