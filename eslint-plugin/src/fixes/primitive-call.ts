// Builds the suggestion that swaps an unsafe release or renewal for the server's own compare-first
// command (`DELEX … IFEQ`, `DELIFEQ`, `SET … IFEQ … PX`), in the call's dialect. Offered only when
// `settings.locksmith.redis` names a server that runs the command (model/servers.ts).

import type { TSESLint } from '@typescript-eslint/utils';
import type { RedisCommand } from '../model/nouns/redis-events.js';
import { renderRawCommand, renderTypedCompareDelete, renderTypedCompareSet } from './templates.js';

export interface PrimitiveCallInput {
  readonly command: RedisCommand;
  readonly keyText: string;
  readonly tokenText: string;
}

/** `DELEX key IFEQ token` or `DELIFEQ key token` at the release's call; undefined inside MULTI/pipeline. */
export function compareAndDeleteFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  primitive: 'DELEX' | 'DELIFEQ',
  input: PrimitiveCallInput,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const { command, keyText, tokenText } = input;
  // Inside MULTI/pipeline the reply is queued, and another command changes the exec() result shape.
  if (command.client.chain) return undefined;
  const client = sourceCode.getText(command.receiver);
  const callback = command.callback ? sourceCode.getText(command.callback) : undefined;
  // node-redis 5 has a typed `delEx`; every other client sends it as a raw command, which works on
  // each of their versions (ioredis and node-redis 4 have no method for it, Upstash has none yet).
  const call =
    (primitive === 'DELEX' ? renderTypedCompareDelete(command.dialect, client, keyText, tokenText) : undefined) ??
    renderRawCommand(
      command.dialect,
      client,
      primitive,
      primitive === 'DELEX' ? [keyText, `'IFEQ'`, tokenText] : [keyText, tokenText],
      callback,
    );
  return (fixer) => [fixer.replaceText(command.call, call)];
}

/** `SET key token IFEQ token PX ttl` at the renewal's call (`ttlText` in milliseconds, as the dialect sends it). */
export function compareAndSetFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  input: PrimitiveCallInput & { readonly ttlText: string },
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | undefined {
  const { command, keyText, tokenText, ttlText } = input;
  if (command.client.chain) return undefined;
  const client = sourceCode.getText(command.receiver);
  const callback = command.callback ? sourceCode.getText(command.callback) : undefined;
  const call =
    renderTypedCompareSet(command.dialect, client, keyText, tokenText, ttlText) ??
    renderRawCommand(command.dialect, client, 'SET', [keyText, tokenText, `'IFEQ'`, tokenText, `'PX'`, ttlText], callback);
  return (fixer) => [fixer.replaceText(command.call, call)];
}
