// Whether a file can hold anything any rule reports: a sign of Redis (redis-gate.ts) or of SQL
// (screen/sql-prefilter.ts). Most files of a project hold neither, and for them no rule needs to run.

import type { TSESTree } from '@typescript-eslint/utils';
import { collectImports } from './facts/imports.js';
import { callsImportedHelper } from './helpers/imported-helpers.js';
import { moduleHelperSummaries } from './lock-model.js';
import { mayNameLock, mayUseRedis } from './screen/redis-gate.js';
import { readSharedSettings } from './facts/settings.js';
import type { SharedSettings } from './nouns/vocabulary.js';
import { mayContainSql, mayHoldSqlLock } from './screen/sql-prefilter.js';
import { getTypeOracle } from './facts/type-oracle.js';
import type { LocksmithRuleContext } from '../util/rule-context.js';

// The answer for the file being linted: every rule and the lock map ask it while ESLint lints that
// one file, so the last Program and its answer are all there is to remember (one tree is held until
// the next file). A WeakMap entry per file, here and for the word scan (redis-gate.ts), was a quarter
// of Locksmith's rule time on a small lock-free file (15.9 µs a file with them, 11.9 without); a
// Program asked about again after another is screened anew.
let screenedProgram: TSESTree.Program | undefined;
let screenedAnswer = false;

// LOCK_WORDS (redis-gate.ts): what a file without Redis must name to hold a lock; the same scan of
// the text looks for both.
export { LOCK_WORDS } from './screen/redis-gate.js';

interface HelperScreen {
  readonly names: ReadonlySet<string>;
  /** A helper given as a `/pattern/` may be named anything: no text can rule it out. */
  readonly anyNameMatches: boolean;
}

// Settings objects are shared by every file of a configuration (settings.ts caches them), so their
// helper names are gathered once per configuration rather than once per file.
const helperScreens = new WeakMap<SharedSettings['lockWrappers'], HelperScreen>();

function helperScreenOf(lockWrappers: SharedSettings['lockWrappers']): HelperScreen {
  let screen = helperScreens.get(lockWrappers);
  if (!screen) {
    const names = [...lockWrappers.acquire, ...lockWrappers.release, ...lockWrappers.withLock];
    screen = { names: new Set(names), anyNameMatches: names.some((name) => name.startsWith('/')) };
    helperScreens.set(lockWrappers, screen);
  }
  return screen;
}

export function fileMayHoldLocks(context: LocksmithRuleContext): boolean {
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast;
  if (program === screenedProgram) return screenedAnswer;
  const settings = readSharedSettings(context);
  const helpers = helperScreenOf(settings.lockWrappers);
  const answer =
    helpers.anyNameMatches ||
    // With types any receiver may turn out to be a Redis client, whatever the text says.
    getTypeOracle(context) !== null ||
    mayUseRedis(sourceCode, helpers.names) ||
    (mayNameLock(sourceCode) &&
      // A file that sends SQL holds a PostgreSQL lock only where it names one (mayHoldSqlLock); the
      // writes a Redis or helper lock protects are seen through the other branches.
      ((mayContainSql(sourceCode.text, program) && mayHoldSqlLock(sourceCode.text)) ||
        // A file whose only lock is a call to a helper another module exports (its summary says so);
        // its own text screen (LOCK_TEXT) comes first, memoised with the candidates.
        callsImportedHelper(sourceCode, context.filename, collectImports(program), settings, moduleHelperSummaries)));
  screenedProgram = program;
  screenedAnswer = answer;
  return answer;
}
