// The workspace's lock map, kept per file: what the Explorer's Locksmith view and the CodeLens show.
// Each entry is stamped (a document's version, or a file's size and modification time) so that a
// request analyses again only what changed since the last one.

import type { LockSummary } from 'eslint-plugin-locksmith/lock-map';
import type { LockMapFile, LockMapFinding, LockMapLock } from '../shared/settings';
import type { Problem } from './problems';

interface Entry {
  stamp: string;
  /** Made when first asked (an open document's entry: after its diagnostics are out). */
  file: LockMapFile | (() => LockMapFile);
}

export class LockMapIndex {
  private readonly entries = new Map<string, Entry>();

  /** The file's entry when its stamp is still `stamp`. */
  current(uri: string, stamp: string): LockMapFile | undefined {
    const entry = this.entries.get(uri);
    return entry?.stamp === stamp ? fileOf(entry) : undefined;
  }

  set(uri: string, stamp: string, locks: readonly LockSummary[], problems: readonly Problem[]): LockMapFile {
    const file: LockMapFile = { uri, locks: locks.map((lock) => withFindings(lock, problems)) };
    this.entries.set(uri, { stamp, file });
    return file;
  }

  /** An entry whose locks are summarised when first asked for (`locks` is read then, once). */
  setLazily(uri: string, stamp: string, locks: () => readonly LockSummary[], problems: readonly Problem[]): void {
    this.entries.set(uri, { stamp, file: () => ({ uri, locks: locks().map((lock) => withFindings(lock, problems)) }) });
  }

  /** Any stamp's entry: the last analysis of the file, for a CodeLens asked before a new one. */
  latest(uri: string): LockMapFile | undefined {
    const entry = this.entries.get(uri);
    return entry === undefined ? undefined : fileOf(entry);
  }

  /** Forgets files no longer in the workspace, so the map does not keep deleted ones. */
  retain(uris: ReadonlySet<string>): void {
    for (const uri of this.entries.keys()) if (!uris.has(uri)) this.entries.delete(uri);
  }

  /** Settings or project configuration changed: every file must be analysed again. */
  clear(): void {
    this.entries.clear();
  }
}

function fileOf(entry: Entry): LockMapFile {
  if (typeof entry.file === 'function') entry.file = entry.file();
  return entry.file;
}

/** The findings that concern the lock: on one of its sites, or inside its critical section. */
function withFindings(lock: LockSummary, problems: readonly Problem[]): LockMapLock {
  const spans = [lock.section, lock.acquired, ...lock.releases.map((site) => site.range), ...lock.renewals.map((site) => site.range)];
  const findings: LockMapFinding[] = problems
    .filter((problem) => spans.some((span) => inside(problem.range.start, span)))
    .map((problem) => ({ ruleId: problem.ruleId, message: problem.message, range: problem.range }));
  return { ...lock, findings };
}

type Position = LockSummary['acquired']['start'];

function inside(position: Position, span: LockSummary['acquired']): boolean {
  return !before(position, span.start) && !before(span.end, position);
}

function before(left: Position, right: Position): boolean {
  return left.line < right.line || (left.line === right.line && left.character < right.character);
}
