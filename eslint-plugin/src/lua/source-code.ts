// The SourceCode of a `.lua` file for ESLint's language API: luaparse's tree with its comments, so
// that `-- eslint-disable-next-line locksmith/<rule>` and `--[[ eslint-disable ]]` work as in
// JavaScript (the shape @eslint/json and @eslint/css give their SourceCode).

import { CallMethodStep, ConfigCommentParser, Directive, TextSourceCodeBase, VisitNodeStep } from '@eslint/plugin-kit';
import type * as luaparse from 'luaparse';

/** Any luaparse node with the positions the language asks luaparse for. */
export type LuaSyntaxNode = luaparse.Node & {
  range: [number, number];
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
};

/** The root: a chunk with its comments (luaparse's `comments: true`). */
export type LuaChunk = luaparse.Chunk & LuaSyntaxNode & { comments: (luaparse.Comment & LuaSyntaxNode)[]; readonly lockScript: boolean };

type LuaComment = luaparse.Comment & LuaSyntaxNode;

/** The child keys of each luaparse node type, in source order (`comments` is not a child). */
export const LUA_VISITOR_KEYS: Readonly<Record<string, string[]>> = {
  Chunk: ['body'],
  LabelStatement: ['label'],
  BreakStatement: [],
  GotoStatement: ['label'],
  ReturnStatement: ['arguments'],
  IfStatement: ['clauses'],
  IfClause: ['condition', 'body'],
  ElseifClause: ['condition', 'body'],
  ElseClause: ['body'],
  WhileStatement: ['condition', 'body'],
  DoStatement: ['body'],
  RepeatStatement: ['body', 'condition'],
  LocalStatement: ['variables', 'init'],
  AssignmentStatement: ['variables', 'init'],
  CallStatement: ['expression'],
  FunctionDeclaration: ['identifier', 'parameters', 'body'],
  ForNumericStatement: ['variable', 'start', 'end', 'step', 'body'],
  ForGenericStatement: ['variables', 'iterators', 'body'],
  Identifier: [],
  StringLiteral: [],
  NumericLiteral: [],
  BooleanLiteral: [],
  NilLiteral: [],
  VarargLiteral: [],
  TableKey: ['key', 'value'],
  TableKeyString: ['key', 'value'],
  TableValue: ['value'],
  TableConstructorExpression: ['fields'],
  BinaryExpression: ['left', 'right'],
  LogicalExpression: ['left', 'right'],
  UnaryExpression: ['argument'],
  MemberExpression: ['base', 'identifier'],
  IndexExpression: ['base', 'index'],
  CallExpression: ['base', 'arguments'],
  TableCallExpression: ['base', 'arguments'],
  StringCallExpression: ['base', 'argument'],
};

// The directives ESLint knows, at the start of a comment's text.
const INLINE_CONFIG = /^\s*(?:eslint(?:-enable|-disable(?:(?:-next)?-line)?)?)(?:\s|$)/u;
const commentParser = new ConfigCommentParser();

export class LuaSourceCode extends TextSourceCodeBase<{
  LangOptions: Record<string, unknown>;
  RootNode: LuaChunk;
  SyntaxElementWithLoc: LuaSyntaxNode;
  ConfigNode: LuaComment;
}> {
  declare ast: LuaChunk;
  readonly comments: readonly LuaComment[];
  readonly #parents = new WeakMap<LuaSyntaxNode, LuaSyntaxNode>();
  #inlineConfigComments: LuaComment[] | undefined;

  constructor({ text, ast }: { text: string; ast: LuaChunk }) {
    super({ text, ast });
    this.ast = ast;
    this.comments = ast.comments;
  }

  /** The comments that hold an `eslint-*` directive or an `eslint` rule config. */
  getInlineConfigNodes(): LuaComment[] {
    this.#inlineConfigComments ??= this.comments.filter((comment) => INLINE_CONFIG.test(comment.value));
    return this.#inlineConfigComments;
  }

  getDisableDirectives(): { problems: { ruleId: null; message: string; loc: LuaSyntaxNode['loc'] }[]; directives: Directive[] } {
    const problems: { ruleId: null; message: string; loc: LuaSyntaxNode['loc'] }[] = [];
    const directives: Directive[] = [];
    for (const comment of this.getInlineConfigNodes()) {
      const parsed = commentParser.parseDirective(comment.value);
      if (!parsed) continue;
      const { label, value, justification } = parsed;
      // As in JavaScript: a `-line` directive spanning lines would leave unclear which line it means.
      if (label === 'eslint-disable-line' && comment.loc.start.line !== comment.loc.end.line) {
        problems.push({ ruleId: null, message: `${label} comment should not span multiple lines.`, loc: comment.loc });
        continue;
      }
      if (
        label === 'eslint-disable' ||
        label === 'eslint-enable' ||
        label === 'eslint-disable-next-line' ||
        label === 'eslint-disable-line'
      ) {
        const type = label.slice('eslint-'.length) as 'disable' | 'enable' | 'disable-next-line' | 'disable-line';
        directives.push(new Directive({ type, node: comment, value, justification }));
      }
    }
    return { problems, directives };
  }

  /** `-- eslint locksmith/no-unsafe-release: off` rule configs. */
  applyInlineConfig(): {
    configs: { config: { rules: Record<string, unknown> }; loc: LuaSyntaxNode['loc'] }[];
    problems: { ruleId: null; message: string; loc: LuaSyntaxNode['loc'] }[];
  } {
    const configs: { config: { rules: Record<string, unknown> }; loc: LuaSyntaxNode['loc'] }[] = [];
    const problems: { ruleId: null; message: string; loc: LuaSyntaxNode['loc'] }[] = [];
    for (const comment of this.getInlineConfigNodes()) {
      const parsed = commentParser.parseDirective(comment.value);
      if (parsed?.label !== 'eslint') continue;
      const result = commentParser.parseJSONLikeConfig(parsed.value);
      if (result.ok) configs.push({ config: { rules: result.config }, loc: comment.loc });
      else problems.push({ ruleId: null, message: result.error.message, loc: comment.loc });
    }
    return { configs, problems };
  }

  override getParent(node: LuaSyntaxNode): LuaSyntaxNode | undefined {
    return this.#parents.get(node);
  }

  /** Enter and exit steps over the tree, depth first, recording each node's parent on the way. */
  override traverse(): (VisitNodeStep | CallMethodStep)[] {
    const steps: (VisitNodeStep | CallMethodStep)[] = [];
    const visit = (node: LuaSyntaxNode, parent: LuaSyntaxNode | undefined): void => {
      if (parent) this.#parents.set(node, parent);
      steps.push(new VisitNodeStep({ target: node, phase: 1, args: [node, parent] }));
      for (const key of LUA_VISITOR_KEYS[node.type] ?? []) {
        const value = (node as unknown as Record<string, unknown>)[key];
        const children = Array.isArray(value) ? value : [value];
        for (const child of children) if (isSyntaxNode(child)) visit(child, node);
      }
      steps.push(new VisitNodeStep({ target: node, phase: 2, args: [node, parent] }));
    };
    visit(this.ast, undefined);
    return steps;
  }
}

function isSyntaxNode(value: unknown): value is LuaSyntaxNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
