// Binds every rule's documentation URL once, as typescript-eslint's RuleCreator does, applies each
// rule's default options once per distinct configuration rather than once per file, gives a file
// with no sign of Redis or SQL no listeners at all, and hands each rule a plain copy of ESLint's
// context rather than the context itself (rule-context.ts says why).

import { ESLintUtils } from '@typescript-eslint/utils';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isLuaSourceCode } from '../lua/language.js';
import type { LuaSourceCode } from '../lua/source-code.js';
import { fileMayHoldLocks } from '../model/file-screen.js';
import { collectingListeners } from '../util/collect-nodes.js';
import { type LocksmithRuleContext, plainRuleContext } from '../util/rule-context.js';

export type { LocksmithRuleContext } from '../util/rule-context.js';

export const REPOSITORY_URL = 'https://github.com/locksmith-lint/locksmith';
export const DOCS_BASE_URL = `${REPOSITORY_URL}/blob/main/rules-docs/`;

export function ruleDocsUrl(ruleId: string): string {
  return `${DOCS_BASE_URL}${ruleId}.md`;
}

export interface LocksmithDocs {
  description: string;
  /** Severity in the `recommended` config; `false` for rules only `strict` enables. */
  recommended: 'error' | 'warn' | false;
  /** The rule gains precision from type information but never requires it. */
  requiresTypeChecking?: false;
}

const createDocumentedRule = ESLintUtils.RuleCreator<LocksmithDocs>(ruleDocsUrl);

type LuaLocation = { start: { line: number; column: number }; end: { line: number; column: number } };

/** What a rule sees when it runs on a `.lua` file (the `locksmith/lua` language). */
export interface LuaRuleContext<MessageIds extends string> {
  readonly sourceCode: LuaSourceCode;
  readonly filename: string;
  readonly settings: Record<string, unknown>;
  report(descriptor: {
    loc: LuaLocation;
    messageId: MessageIds;
    data?: Record<string, string>;
    suggest?: {
      messageId: MessageIds;
      data?: Record<string, string>;
      fix: (fixer: { replaceTextRange(range: readonly [number, number], text: string): unknown }) => unknown;
    }[];
  }): void;
}

/** The languages a rule runs on, as ESLint 10 checks them (`meta.languages`). */
export const JAVASCRIPT_LANGUAGE = 'js/js';
export const LUA_LANGUAGE = 'locksmith/lua';

// ESLint creates every rule of a file in turn, and most files hold no lock: the last file the screen
// turned away (its Program: oxlint may hand all files one SourceCode) is remembered, so the other
// rules turn it away with one comparison, before the Lua check. The screen remembers its last answer
// too (file-screen.ts), but reaching it through the Lua check and the context again is measurably dearer
// (a small lock-free file: 10.8 µs of rule time with this, 11.7 without).
let turnedAway: TSESTree.Program | undefined;
// What each rule returns for a file it has nothing to look at: one object for every such file
// rather than a new one per rule and file (ESLint only reads a rule's listeners).
const NO_LISTENERS: TSESLint.RuleListener = Object.freeze({});

export function createRule<Options extends readonly unknown[], MessageIds extends string>(
  rule: Readonly<Omit<ESLintUtils.RuleWithMetaAndName<Options, MessageIds, LocksmithDocs>, 'create'>> & {
    /** The rule's listeners on a JavaScript or TypeScript file, given a plain copy of ESLint's context (rule-context.ts). */
    readonly create: (context: LocksmithRuleContext<MessageIds, Options>, optionsWithDefault: Readonly<Options>) => TSESLint.RuleListener;
    /** The rule's listeners on a `.lua` file; rules without it run on JavaScript and TypeScript only. */
    readonly lua?: (context: LuaRuleContext<MessageIds>) => Record<string, (node: never) => void>;
  },
): ReturnType<typeof createDocumentedRule<Options, MessageIds>> {
  const module = createDocumentedRule<Options, MessageIds>(rule);
  const lua = rule.lua;
  const languages = lua ? [JAVASCRIPT_LANGUAGE, LUA_LANGUAGE] : [JAVASCRIPT_LANGUAGE];
  // RuleCreator deep-clones the defaults for every file it lints; the merged options depend only
  // on the configured options, so they are computed once per configuration and shared (rules
  // never mutate their options).
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- RuleCreator still reads it too
  const defaults = (rule.meta.defaultOptions ?? rule.defaultOptions ?? []) as Options;
  const merged = new Map<string, Options>();
  return {
    ...module,
    // ESLint 10 refuses a config that turns a rule on for a language its `meta.languages` leaves out.
    meta: { ...module.meta, languages },
    create(context) {
      const sourceCode = context.sourceCode;
      if (sourceCode.ast === turnedAway) return NO_LISTENERS;
      if (isLuaSourceCode(sourceCode)) {
        return lua ? lua(plainRuleContext(context) as unknown as LuaRuleContext<MessageIds>) : NO_LISTENERS;
      }
      // A file with no sign of Redis or SQL holds nothing to report: no listener at all.
      if (!fileMayHoldLocks(context)) {
        turnedAway = sourceCode.ast;
        return NO_LISTENERS;
      }
      const key = JSON.stringify(context.options);
      let options = merged.get(key);
      if (!options) {
        options = ESLintUtils.applyDefault(defaults, context.options) as unknown as Options;
        if (merged.size > 64) merged.clear();
        merged.set(key, options);
      }
      const listeners = rule.create(plainRuleContext(context), options);
      const collecting = collectingListeners(sourceCode);
      return collecting ? mergeListeners(collecting, listeners) : listeners;
    },
  };
}

/** Both sets of listeners; for an event both handle, `first`'s runs first. */
function mergeListeners(first: TSESLint.RuleListener, second: TSESLint.RuleListener): TSESLint.RuleListener {
  const merged: Record<string, (node: never) => void> = { ...(second as Record<string, (node: never) => void>) };
  for (const [event, listener] of Object.entries(first as Record<string, (node: never) => void>)) {
    const other = merged[event];
    merged[event] = other
      ? (node) => {
          listener(node);
          other(node);
        }
      : listener;
  }
  return merged;
}
