// Builds the suggestion that swaps a Redis call for a call of one of Locksmith's Lua scripts: the
// script goes in as a literal at the call (or through a constant or command the module already has),
// so the suggestion edits the call alone and its size never depends on where in the file it sits.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { RedisCommand, RedisModel } from '../model/nouns/redis-events.js';
import { isCompareAndDelete, isCompareAndExpire } from '../lua/analyze-script.js';
import { SCRIPT_TEXTS } from './scripts.js';
import { renderDefinedCommandCall, renderEvalCall, renderScriptLiteral } from './templates.js';

export interface ScriptCallFixInput {
  readonly kind: 'release' | 'extend';
  readonly command: RedisCommand;
  readonly keyText: string;
  readonly argTexts: readonly string[];
}

/** A function applying the fix, or undefined when the call cannot be rewritten in place. */
export function scriptCallFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  model: RedisModel,
  input: ScriptCallFixInput,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const { command } = input;
  // Inside MULTI/pipeline the reply is queued, and swapping in EVAL changes the exec() result shape.
  if (command.client.chain) return undefined;
  const clientText = sourceCode.getText(command.receiver);
  const callbackText = command.callback ? sourceCode.getText(command.callback) : undefined;

  const definedName = findDefinedCommand(model, input.kind);
  const definedCall =
    definedName === undefined
      ? undefined
      : renderDefinedCommandCall(command.dialect, clientText, definedName, [input.keyText, ...input.argTexts]);
  if (definedCall !== undefined) return (fixer) => [fixer.replaceText(command.call, definedCall)];

  const existing = input.kind === 'release' ? model.scriptConstants.release : model.scriptConstants.extend;
  const call = renderEvalCall(command.dialect, {
    client: clientText,
    script: existing ?? renderScriptLiteral(SCRIPT_TEXTS[input.kind]),
    keys: [input.keyText],
    args: input.argTexts,
    callback: callbackText,
  });
  return (fixer) => [fixer.replaceText(command.call, call)];
}

function findDefinedCommand(model: RedisModel, kind: 'release' | 'extend'): string | undefined {
  for (const [name, definition] of model.definedCommands) {
    const summary = definition.summary;
    if (!summary || definition.numberOfKeys !== 1) continue;
    if (kind === 'release' && isCompareAndDelete(summary) && summary.expiries.length === 0) return name;
    if (kind === 'extend' && isCompareAndExpire(summary) && summary.deletes.length === 0) return name;
  }
  return undefined;
}

/** Text of a token the fix can pass: an expression visible at `position`, never a literal. */
export function tokenTextAt(
  sourceCode: Readonly<TSESLint.SourceCode>,
  candidates: readonly (TSESTree.Node | undefined)[],
  position: TSESTree.Node,
  isAvailable: (expression: TSESTree.Node, at: TSESTree.Node) => boolean,
): string | undefined {
  for (const candidate of candidates) {
    if (!candidate || candidate.type === AST_NODE_TYPES.Literal) continue;
    if (isAvailable(candidate, position)) return sourceCode.getText(candidate);
  }
  return undefined;
}
