// Answers `locksmith/lockMap` (the Explorer's Locksmith view: every file's locks, indexed from disk
// with work-done progress) and the CodeLens on each acquisition of an open document.

import type { CancellationToken, CodeLens, Connection, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as fs from 'node:fs';
import { createReachMemo, type ReachMemo } from 'eslint-plugin-locksmith/lock-map';
import {
  LockMapRequest,
  SHOW_LOCK_MAP_COMMAND,
  lockLine,
  type LockMapFile,
  type LockMapParams,
  type LockMapResult,
} from '../shared/settings';
import type { Configuration } from './configuration';
import type { DocumentLints } from './document-lints';
import type { LockMapIndex } from './lock-map';
import type { Log } from './log';
import { toProblems } from './problems';
import { URI } from './uri';

export class LockMapRequests {
  /** The newest index request's number: an older one still running stops at its next file. */
  private generation = 0;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly lints: DocumentLints,
    private readonly configuration: Configuration,
    private readonly lockMap: LockMapIndex,
    private readonly log: Log,
  ) {}

  listen(): void {
    this.connection.onRequest(LockMapRequest, (params: LockMapParams, token: CancellationToken) => this.index(params, token));
    this.connection.onCodeLens(async (params): Promise<CodeLens[]> => {
      const document = this.documents.get(params.textDocument.uri);
      if (document === undefined || !(await this.configuration.settingsFor(document.uri)).enable) return [];
      await this.lints.currentState(document);
      const file = this.lockMap.current(document.uri, `v${document.version}`);
      return (file?.locks ?? []).map((lock) => ({
        range: lock.acquired,
        command: {
          title: `${lockLine(lock)}${lock.findings.length === 0 ? '' : ` · ${lock.findings.length} finding${lock.findings.length === 1 ? '' : 's'}`}`,
          command: SHOW_LOCK_MAP_COMMAND,
          arguments: [lock.name],
        },
      }));
    });
  }

  /**
   * Indexes `params.uris`, with work-done progress. Cancelled (by the request's token or the progress'
   * Cancel) or superseded by a newer index, it stops before the next file and says so: the client keeps
   * the map it had, and the entries of the files it did analyse stay valid, stamped as they are.
   */
  private async index(params: LockMapParams, token: CancellationToken): Promise<LockMapResult> {
    const started = performance.now();
    const generation = ++this.generation;
    const progress = await this.connection.window.createWorkDoneProgress();
    const total = params.uris.length;
    progress.begin('Locksmith: indexing locks', 0, `0/${total} files`, true);
    const files: LockMapFile[] = [];
    let analysed = 0;
    let indexed = 0;
    let cancelled = false;
    let reported = performance.now();
    let yielded = performance.now();
    // What the screen read of imported modules, kept for the other files of this index (not the next:
    // those modules may change in between).
    const memo = createReachMemo();
    // Files on disk are read ahead, a few at a time, while earlier ones are analysed: one at a time,
    // each read's round trip through the file system's threads was a third of the whole index.
    const reads: (Promise<DiskFile> | undefined)[] = [];
    const readAhead = (index: number) => {
      for (let next = index; next < Math.min(params.uris.length, index + READ_AHEAD); next++)
        reads[next] ??= this.readFromDisk(params.uris[next]!);
    };
    for (const [index, uri] of params.uris.entries()) {
      if (token.isCancellationRequested || progress.token.isCancellationRequested || generation !== this.generation) {
        cancelled = true;
        break;
      }
      readAhead(index);
      const read = reads[index]!;
      reads[index] = undefined;
      const result = await this.lockMapOf(uri, read, memo);
      indexed += 1;
      if (result.analysed) analysed += 1;
      if (result.file !== undefined && result.file.locks.length > 0) files.push(result.file);
      if (performance.now() - reported > 100) {
        reported = performance.now();
        progress.report(Math.floor((indexed / total) * 100), `${indexed}/${total} files`);
      }
      // Between files, edits and other requests (a cancellation among them) get their turn: indexing
      // runs in the background. A file screened out costs a read, so those yield every few milliseconds.
      if (result.analysed || performance.now() - yielded > 10) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        yielded = performance.now();
      }
    }
    progress.done();
    if (!cancelled) this.lockMap.retain(new Set(params.uris));
    const ms = Math.round(performance.now() - started);
    this.log(
      `Lock map: ${indexed} files (${analysed} analysed) in ${ms} ms, ${files.reduce((sum, file) => sum + file.locks.length, 0)} locks${cancelled ? ' (cancelled)' : ''}.`,
    );
    return { files, indexed, analysed, ms, cancelled };
  }

  /**
   * What the index needs of a file: nothing for an open document (its text is the editor's) or a
   * scheme with no disk here, its entry when its stamp is unchanged, else its text. Never rejects.
   */
  private async readFromDisk(uri: string): Promise<DiskFile> {
    // Only files on disk are read (and never run); other schemes are mapped while open in the editor.
    if (this.documents.get(uri) !== undefined || !uri.startsWith('file:')) return { kind: 'not-read' };
    const filePath = URI.toFilePath(uri);
    try {
      const stat = await fs.promises.stat(filePath);
      const stamp = `${stat.size}:${stat.mtimeMs}`;
      if (this.lockMap.current(uri, stamp) !== undefined) return { kind: 'unchanged', stamp };
      return { kind: 'read', stamp, text: await fs.promises.readFile(filePath, 'utf8') };
    } catch {
      // Deleted or unreadable since the client listed it.
      return { kind: 'gone' };
    }
  }

  /** One file's locks: an open document's from its current text, another's from disk unless unchanged. */
  private async lockMapOf(
    uri: string,
    pending: Promise<DiskFile>,
    memo: ReachMemo,
  ): Promise<{ file: LockMapFile | undefined; analysed: boolean }> {
    const open = this.documents.get(uri);
    if (open !== undefined) {
      const cached = this.lockMap.current(uri, `v${open.version}`);
      if (cached !== undefined) return { file: cached, analysed: false };
      await this.lints.currentState(open);
      return { file: this.lockMap.current(uri, `v${open.version}`), analysed: true };
    }
    let read = await pending;
    // Open when it was read ahead and closed since: read now.
    if (read.kind === 'not-read') read = await this.readFromDisk(uri);
    for (let attempt = 0; read.kind === 'unchanged' && attempt < 2; attempt++) {
      const cached = this.lockMap.current(uri, read.stamp);
      if (cached !== undefined) return { file: cached, analysed: false };
      // The map was cleared since (the settings changed): read again.
      read = await this.readFromDisk(uri);
    }
    if (read.kind !== 'read') return { file: undefined, analysed: false };
    const stamp = read.stamp;
    const settings = await this.configuration.settingsFor(uri);
    if (!settings.enable) return { file: this.lockMap.set(uri, stamp, [], []), analysed: true };
    const document = TextDocument.create(uri, '', 0, read.text);
    // Most files cannot hold a lock, and the plugin's screen says so from the text: they are not parsed.
    if (!this.lints.mayHoldLocks(document, settings, memo)) return { file: this.lockMap.set(uri, stamp, [], []), analysed: false };
    try {
      const outcome = this.lints.lintDocumentText(document, settings);
      return outcome.kind === 'linted'
        ? { file: this.lockMap.set(uri, stamp, outcome.locks, toProblems(document, outcome.messages, outcome.reports)), analysed: true }
        : { file: this.lockMap.set(uri, stamp, [], []), analysed: true };
    } catch (error) {
      this.log(
        `Mapping the locks of ${URI.displayName(uri)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return { file: this.lockMap.set(uri, stamp, [], []), analysed: true };
    }
  }
}

/** How many files are read ahead of the one being analysed. */
const READ_AHEAD = 32;

type DiskFile =
  | { readonly kind: 'not-read' }
  | { readonly kind: 'gone' }
  | { readonly kind: 'unchanged'; readonly stamp: string }
  | { readonly kind: 'read'; readonly stamp: string; readonly text: string };
