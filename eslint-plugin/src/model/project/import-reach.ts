// Text-only questions about the modules a file imports, for the lock map's screen (file-screen.ts):
// whether any module the file reaches through its imports, each read as loadModule would (resolved
// the same way, no larger than it reads, passing its screen for the purpose), has a text that can
// hold what is asked (a lock helper, a lock library's client). No module is parsed.
//
// The answers are memoised in a ReachMemo the caller keeps for one pass over a workspace: each module
// is read at most once per memo, and a file's imports cost nothing once their answers are known.

import { moduleHost } from './host.js';
import { MAX_MODULE_BYTES, mayBeProjectModule, passesScreen, type ModulePurpose } from './modules.js';
import { resolveImport } from './resolve.js';

export interface ReachMemo {
  /** Module texts by path; null when loadModule would read none. */
  readonly texts: Map<string, string | null>;
  /** Per question: whether a module reaches (or is) a module whose text holds the answer. */
  readonly answers: WeakMap<ReachQuestion, Map<string, boolean>>;
}

export interface ReachQuestion {
  readonly purpose: ModulePurpose;
  /** Whether a module's own text can hold what is asked (`memo` for questions of its own about its imports). */
  holds(text: string, filePath: string, memo: ReachMemo): boolean;
}

export function createReachMemo(): ReachMemo {
  return { texts: new Map(), answers: new WeakMap() };
}

// What an import names, in any of its spellings (`from '…'`, `require('…')`, `import('…')`, `import '…'`).
// A match that is no import (`Array.from('…')`) only costs a resolution that finds nothing.
const SPECIFIER = /\b(?:from|require|import)\s*\(?\s*(['"`])([^'"`\n]+)\1/gu;

/**
 * Whether a module `text` (the file at `filePath`) imports, or a module imported by one of those in
 * turn, passes `question`'s purpose screen and holds its answer. Followed without a depth limit: a
 * helper's summary may rest on a helper its own module imports, each module's model starting afresh.
 */
export function importsReach(filePath: string, text: string, question: ReachQuestion, memo: ReachMemo): boolean {
  let answers = memo.answers.get(question);
  if (!answers) {
    answers = new Map();
    memo.answers.set(question, answers);
  }
  // The file itself is read as any module when a cycle leads back to it.
  const visited = new Set<string>();
  const pending = importedPaths(filePath, text);
  while (pending.length > 0) {
    const modulePath = pending.pop()!;
    if (visited.has(modulePath)) continue;
    visited.add(modulePath);
    const known = answers.get(modulePath);
    if (known === true) return true;
    // A module answered no reaches nothing that holds the answer: its imports need no visit.
    if (known === false) continue;
    const moduleText = textOf(modulePath, memo);
    // loadModule gives nothing for a module it does not read or parse: nothing is reached through it.
    if (moduleText === null || !passesScreen(moduleText, question.purpose)) {
      answers.set(modulePath, false);
      continue;
    }
    if (question.holds(moduleText, modulePath, memo)) {
      answers.set(modulePath, true);
      return true;
    }
    pending.push(...importedPaths(modulePath, moduleText));
  }
  // Every module visited was read to the end of what it reaches, and none holds the answer.
  for (const modulePath of visited) answers.set(modulePath, false);
  return false;
}

function importedPaths(filePath: string, text: string): string[] {
  const paths: string[] = [];
  SPECIFIER.lastIndex = 0;
  for (let match = SPECIFIER.exec(text); match; match = SPECIFIER.exec(text)) {
    const specifier = match[2]!;
    if (!mayBeProjectModule(specifier)) continue;
    const resolved = resolveImport(filePath, specifier);
    if (resolved !== undefined && resolved !== filePath) paths.push(resolved);
  }
  return paths;
}

function textOf(filePath: string, memo: ReachMemo): string | null {
  let text = memo.texts.get(filePath);
  if (text === undefined) {
    const host = moduleHost();
    const stat = host.stat(filePath);
    text = stat !== undefined && stat.size <= MAX_MODULE_BYTES ? (host.readFile(filePath) ?? null) : null;
    memo.texts.set(filePath, text);
  }
  return text;
}
