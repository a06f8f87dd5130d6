// Builds the suggestion that swaps an unsafe release or renewal for the server's own compare-first
// command (`DELEX … IFEQ`, `DELIFEQ`, `SET … IFEQ … PX`), in the call's dialect. Offered only when
// `settings.locksmith.redis` names a server that runs the command (model/servers.ts).

import type { TSESLint } from '@typescript-eslint/utils';
import type { RedisCommand } from '../model/nouns/redis-events.js';
import type { RedisDialect } from '../model/nouns/vocabulary.js';

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
    primitive === 'DELEX' && command.dialect === 'node-redis-v5'
      ? `${client}.delEx(${keyText}, { condition: 'IFEQ', matchValue: ${tokenText} })`
      : renderRawCommand(
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
    command.dialect === 'node-redis-v5'
      ? `${client}.set(${keyText}, ${tokenText}, { condition: 'IFEQ', matchValue: ${tokenText}, expiration: { type: 'PX', value: ${ttlText} } })`
      : renderRawCommand(command.dialect, client, 'SET', [keyText, tokenText, `'IFEQ'`, tokenText, `'PX'`, ttlText], callback);
  return (fixer) => [fixer.replaceText(command.call, call)];
}

/** A command the client has no method for, in its raw form: ioredis `call`, node-redis `sendCommand`, Upstash `exec`. */
export function renderRawCommand(dialect: RedisDialect, client: string, name: string, args: readonly string[], callback?: string): string {
  switch (dialect) {
    case 'ioredis':
      return `${client}.call(${[`'${name}'`, ...args].join(', ')})`;
    case 'node-redis-v3':
      return `${client}.send_command(${[`'${name}'`, `[${args.join(', ')}]`, ...(callback ? [callback] : [])].join(', ')})`;
    case 'node-redis':
    case 'node-redis-v5':
      return `${client}.sendCommand([${[`'${name}'`, ...args].join(', ')}])`;
    case 'upstash':
      return `${client}.exec([${[`'${name}'`, ...args].join(', ')}])`;
  }
}
