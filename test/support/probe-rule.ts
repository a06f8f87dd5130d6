// One rule of the test's own, run over a snippet by a real Linter: how the model tests see the lock
// model, the screens and the AST exactly as a rule of the plugin does (same context, same parser,
// same traversal), without a copy of this harness in every test file.

import * as assert from 'node:assert/strict';
import { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import type { TSESLint } from '@typescript-eslint/utils';

export type ProbeContext = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;

export interface ProbeOptions {
  /** Parse with @typescript-eslint/parser (the file is named `probe.ts` unless `filename` says otherwise). */
  readonly typescript?: boolean;
  readonly filename?: string;
  readonly sourceType?: 'module' | 'commonjs';
  readonly settings?: Record<string, unknown>;
}

/**
 * Lints `code` with one rule whose listeners `listen` makes from its context, and fails the test on
 * any message (a parse error included): a snippet that does not parse would prove nothing.
 */
export function lintWithProbe(code: string, listen: (context: ProbeContext) => TSESLint.RuleListener, options: ProbeOptions = {}): void {
  const probe: TSESLint.RuleModule<string> = {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the RuleModule type still requires it
    defaultOptions: [],
    meta: { type: 'problem', messages: {}, schema: [] },
    create: listen,
  };
  const filename = options.filename ?? (options.typescript ? 'probe.ts' : 'probe.js');
  const messages = new Linter().verify(
    code,
    [
      {
        files: ['**/*.js', '**/*.ts'],
        languageOptions: {
          ...(options.typescript ? { parser: typescriptParser } : {}),
          ...(options.sourceType ? { sourceType: options.sourceType } : {}),
        },
        plugins: { probe: { rules: { probe } } } as never,
        rules: { 'probe/probe': 'error' },
        ...(options.settings ? { settings: options.settings } : {}),
      },
    ],
    { filename },
  );
  assert.deepEqual(messages, []);
}

/** What `read` computes from the rule's context once the whole file has been traversed (`Program:exit`). */
export function readAtEnd<T>(code: string, read: (context: ProbeContext) => T, options: ProbeOptions = {}): T {
  let answer: { value: T } | undefined;
  lintWithProbe(
    code,
    (context) => ({
      'Program:exit'() {
        answer = { value: read(context) };
      },
    }),
    options,
  );
  assert.ok(answer, 'the probe rule never reached the end of the file');
  return answer.value;
}
