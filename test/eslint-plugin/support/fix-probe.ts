// Runs a fixes/ module on real code: lints the code with a one-off rule that hands a callback the
// file's SourceCode and lock model (as the rules get them), and applies the fix the callback returns.
// The only test support that reaches the model, and through its face (model/index.ts) alone.

import * as assert from 'node:assert/strict';
import * as typescriptParser from '@typescript-eslint/parser';
import type { AST_NODE_TYPES, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { getLockModel, type LockModel } from '../../../eslint-plugin/src/model/index.js';

export type { LockModel };
// The face's queries that give some fixes their input, as the rules call them.
export { checkThenSetRead, spanBetween } from '../../../eslint-plugin/src/model/index.js';
type SourceCode = Readonly<TSESLint.SourceCode>;

export interface ProbedFile {
  readonly sourceCode: SourceCode;
  /** The file's lock model, built on first read as it is for a rule. */
  readonly model: LockModel;
  /** The outermost node whose source text is `text` (of `type`, when given); fails the test when there is none. */
  node<Type extends AST_NODE_TYPES>(text: string, type?: Type): Extract<TSESTree.Node, { type: Type }>;
}

export interface ProbeOptions {
  /** Resolved against the working directory; `.ts` by default, `.js`/`.cjs` for JavaScript cases. */
  readonly filename?: string;
  readonly settings?: Record<string, unknown>;
  readonly sourceType?: 'module' | 'commonjs' | 'script';
}

type FixResult = TSESLint.RuleFix | readonly TSESLint.RuleFix[] | IterableIterator<TSESLint.RuleFix> | null;
export type FixFunction = (fixer: TSESLint.RuleFixer) => FixResult;

/** What `read` answers about `code`, called once the whole file has been parsed and its scopes analysed. */
export function probe<Result>(code: string, read: (file: ProbedFile) => Result, options: ProbeOptions = {}): Result {
  let answer: { value: Result } | undefined;
  runProbe(code, options, (context) => {
    answer = { value: read(probedFile(context)) };
    return undefined;
  });
  assert.ok(answer, 'the probe rule never ran');
  return answer.value;
}

/**
 * `code` with the fix applied that `build` returns (its edits merged, as ESLint applies a suggestion),
 * or `undefined` when `build` returns none.
 */
export function applyFix(
  code: string,
  build: (file: ProbedFile) => FixFunction | undefined,
  options: ProbeOptions = {},
): string | undefined {
  let built = false;
  const messages = runProbe(code, options, (context) => {
    built = true;
    return build(probedFile(context));
  });
  assert.ok(built, 'the probe rule never ran');
  const fix = messages.find((message) => message.ruleId === 'probe/probe')?.fix;
  return fix ? applyEdit(code, fix) : undefined;
}

/** `text` with one replacement applied. */
export function applyEdit(text: string, edit: { readonly range: readonly [number, number]; readonly text: string }): string {
  return text.slice(0, edit.range[0]) + edit.text + text.slice(edit.range[1]);
}

function runProbe(
  code: string,
  options: ProbeOptions,
  onProgramExit: (context: TSESLint.RuleContext<'probe', []>) => FixFunction | undefined,
): Linter.LintMessage[] {
  const rule: Omit<TSESLint.RuleModule<'probe'>, 'defaultOptions'> = {
    meta: { type: 'problem', fixable: 'code', messages: { probe: 'probe' }, schema: [] },
    create(context) {
      return {
        'Program:exit'(program) {
          const fix = onProgramExit(context);
          if (fix) context.report({ node: program, messageId: 'probe', fix });
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const filename = options.filename ?? 'file.ts';
  const config = {
    files: ['**/*.{js,cjs,mjs,jsx,ts,cts,mts,tsx}'],
    languageOptions: { parser: typescriptParser, sourceType: options.sourceType ?? 'module' },
    plugins: { probe: { rules: { probe: rule } } },
    rules: { 'probe/probe': 'error' },
    settings: options.settings ?? {},
  };
  const messages = linter.verify(code, config as unknown as Linter.Config, filename);
  // A parse error, or no configuration for the file name: the probe never saw the code.
  const problem = messages.find((message) => message.ruleId === null);
  assert.equal(problem, undefined, problem?.message);
  return messages;
}

function probedFile(context: TSESLint.RuleContext<'probe', []>): ProbedFile {
  const sourceCode = context.sourceCode;
  let model: LockModel | undefined;
  return {
    sourceCode,
    get model() {
      model ??= getLockModel(context);
      return model;
    },
    node(text, type) {
      const found = findNode(
        sourceCode,
        (candidate) => (type === undefined || candidate.type === type) && sourceCode.getText(candidate) === text,
      );
      assert.ok(found, `no ${type ?? 'node'} with the text ${text}`);
      return found as never;
    },
  };
}

/** The first node, outermost first in source order, that `matches`. */
function findNode(sourceCode: SourceCode, matches: (node: TSESTree.Node) => boolean): TSESTree.Node | undefined {
  const pending: TSESTree.Node[] = [sourceCode.ast];
  while (pending.length > 0) {
    const node = pending.shift()!;
    if (matches(node)) return node;
    const children: TSESTree.Node[] = [];
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child !== null && typeof child === 'object' && 'type' in child) children.push(child as TSESTree.Node);
      }
    }
    pending.unshift(...children.sort((left, right) => left.range[0] - right.range[0]));
  }
  return undefined;
}
