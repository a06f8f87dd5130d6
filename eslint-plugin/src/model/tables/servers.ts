import type { ServerKind, ServerPrimitive, TargetServer } from '../nouns/vocabulary.js';
export const SERVER_KINDS: readonly ServerKind[] = ['redis', 'valkey', 'dragonfly'];

/** The first version of each server that accepts each primitive. */
export const PRIMITIVE_SINCE: Readonly<Record<ServerKind, Partial<Record<ServerPrimitive, readonly [number, number]>>>> = {
  redis: { DELEX: [8, 4], 'SET IFEQ': [8, 4] },
  valkey: { 'SET IFEQ': [8, 1], DELIFEQ: [9, 0], DELEX: [9, 2] },
  dragonfly: { DELEX: [1, 37] },
};

/** `'8.4'`, `'9.0.1'`: one to three dot-separated numbers. */
export const VERSION_PATTERN = /^\d+(?:\.\d+){0,2}$/u;

export function parseVersion(text: string): number[] | undefined {
  return VERSION_PATTERN.test(text) ? text.split('.').map(Number) : undefined;
}

export function admits(target: TargetServer | undefined, primitive: ServerPrimitive): boolean {
  const since = target ? PRIMITIVE_SINCE[target.server][primitive] : undefined;
  if (!target || !since || target.version.length === 0) return false;
  const [major = 0, minor = 0] = target.version;
  return major > since[0] || (major === since[0] && minor >= since[1]);
}

/** The compare-and-delete the target runs: `DELEX` where it has it, else Valkey 9.0's `DELIFEQ`. */
export function compareAndDeleteCommand(target: TargetServer | undefined): 'DELEX' | 'DELIFEQ' | undefined {
  if (admits(target, 'DELEX')) return 'DELEX';
  return admits(target, 'DELIFEQ') ? 'DELIFEQ' : undefined;
}
