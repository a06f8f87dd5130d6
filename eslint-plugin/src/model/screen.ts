// Whether a file can hold anything any rule reports: a sign of Redis (redis-gate.ts) or of SQL
// (sql/prefilter.ts). Most files of a project hold neither, and for them no rule needs to run.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { collectImports } from './imports.js';
import { mayUseRedis } from './redis-gate.js';
import { readSharedSettings } from './settings.js';
import { mayContainSql } from './sql/prefilter.js';
import { getTypeOracle } from './type-oracle.js';

const answers = new WeakMap<TSESTree.Program, boolean>();

export function fileMayHoldLocks(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>): boolean {
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast;
  const known = answers.get(program);
  if (known !== undefined) return known;
  const { lockWrappers } = readSharedSettings(context);
  const helperNames = [...lockWrappers.acquire, ...lockWrappers.release, ...lockWrappers.withLock];
  const answer = helperNames.some((name) => name.startsWith('/'))
    // With types any receiver may turn out to be a Redis client, whatever the text says.
    || getTypeOracle(context) !== null
    || mayUseRedis(sourceCode, new Set(helperNames))
    || mayContainSql(sourceCode.text, collectImports(program));
  answers.set(program, answer);
  return answer;
}
