// Where the server's lints read the modules (and `.lua` scripts) a document imports: the model's
// ModuleHost, answered from the editor rather than the disk alone.
//
// - An open document is read from the editor, unsaved edits included. Its version is the document's
//   version plus a count of opens, so every edit (and a close and reopen) invalidates the model's
//   cache of the parsed module.
// - A `file:` path that is not open is read from the disk (the model's disk host: read, never run).
// - A path in a virtual workspace (a workspace folder whose scheme is not `file:`) is read from what
//   the client fetched with `vscode.workspace.fs`. The model's reads are synchronous and the client
//   is a round trip away, so a lint that meets a virtual path it has never seen answers "absent" for
//   it and notes it as wanted; the server then fetches the wanted paths in one request and lints again
//   the documents that asked for them (server.ts). Each path is fetched once (until its document is
//   opened or closed), at most MAX_FETCHES_PER_LINT per lint, none larger than MAX_FETCHED_BYTES, and
//   the fetched texts kept are capped in total (the oldest go first, and are fetched again if asked).
//
// Every method answers `undefined` (or an empty list) rather than throw: a deleted, unreadable or
// unparsable module changes nothing.

import * as path from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { diskHost, type FileVersion, type ModuleHost } from 'eslint-plugin-locksmith/module-host';
import { URI } from './uri';

/** The largest module fetched from a virtual workspace (the model reads none larger from disk either). */
export const MAX_FETCHED_BYTES = 400_000;
/** New virtual paths one lint may ask for: one import probes up to 16 names (extensions, index files). */
export const MAX_FETCHES_PER_LINT = 32;
/** The fetched texts kept at once; past it the oldest are dropped. */
const MAX_FETCHED_TOTAL_BYTES = 32 * 1024 * 1024;

/** Virtual paths are absolute, under a root no disk has, so that the model resolves relative imports in them. */
const VIRTUAL_ROOT = '/~locksmith-virtual';

/**
 * The non-`file:` workspace folders, each given an absolute path the model can resolve imports
 * under: `memfs:/project/src/a.ts` in folder 0 is `/~locksmith-virtual/0/src/a.ts`.
 */
export class VirtualFolders {
  private readonly folders: string[];

  constructor(folderUris: readonly string[]) {
    this.folders = folderUris.filter((uri) => !uri.startsWith('file:')).map((uri) => uri.replace(/\/+$/u, ''));
  }

  get size(): number {
    return this.folders.length;
  }

  /** The virtual path of a URI inside a virtual folder; undefined elsewhere (a diff's side carries a query, untitled has no folder). */
  toPath(uri: string): string | undefined {
    for (const [index, folder] of this.folders.entries()) {
      if (!uri.startsWith(`${folder}/`)) continue;
      const rest = uri.slice(folder.length + 1);
      if (/[?#]/u.test(rest)) return undefined;
      try {
        return path.posix.join(VIRTUAL_ROOT, String(index), decodeURIComponent(rest));
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  /** The URI of a virtual path, as the model built it (on Windows `path.resolve` gives it a drive and backslashes). */
  toUri(filePath: string): string | undefined {
    const match = /^\/~locksmith-virtual\/(\d+)\/(.+)$/u.exec(posixForm(filePath));
    const folder = match === null ? undefined : this.folders[Number(match[1])];
    if (match === null || folder === undefined) return undefined;
    return `${folder}/${match[2]!.split('/').map(encodeURIComponent).join('/')}`;
  }
}

function posixForm(filePath: string): string {
  return filePath.replace(/\\/gu, '/').replace(/^[A-Za-z]:/u, '');
}

/** Whether a path is one VirtualFolders made: no disk is read for it. */
export function isVirtualPath(filePath: string): boolean {
  return posixForm(filePath).startsWith(`${VIRTUAL_ROOT}/`);
}

interface OpenFile {
  readonly uri: string;
  /** Counts opens, so a reopened document's version 1 is not the version 1 the model cached before. */
  readonly generation: number;
}

interface FetchedFile {
  readonly text: string | undefined;
  readonly version: string;
}

/** What one lint read: every path it asked about (present or not), and the virtual paths it wants fetched. */
export interface Recorded<T> {
  readonly result: T;
  readonly reads: ReadonlySet<string>;
  readonly wanted: readonly string[];
}

export class EditorModuleHost implements ModuleHost {
  private readonly open = new Map<string, OpenFile>();
  private opens = 0;
  private readonly fetched = new Map<string, FetchedFile>();
  private fetchedBytes = 0;
  private fetches = 0;
  private readonly inFlight = new Set<string>();
  private recording: { reads: Set<string>; wanted: Set<string> } | undefined;

  constructor(
    private readonly documents: { get(uri: string): TextDocument | undefined },
    readonly folders: VirtualFolders = new VirtualFolders([]),
    private readonly disk: ModuleHost = diskHost,
  ) {}

  /** The path the model knows a document by: its file path, its virtual path, or undefined (untitled, a diff's side). */
  pathOf(uri: string): string | undefined {
    if (uri.startsWith('file:')) {
      const filePath = URI.toFilePath(uri);
      return path.isAbsolute(filePath) ? filePath : undefined;
    }
    return this.folders.toPath(uri);
  }

  /** A document opened: its path is read from the editor from now on. Returns the path, if it has one. */
  opened(uri: string): string | undefined {
    const filePath = this.pathOf(uri);
    if (filePath !== undefined) this.open.set(filePath, { uri, generation: ++this.opens });
    return filePath;
  }

  /** A document closed: its path is read from the disk, or fetched again, from now on. */
  closed(uri: string): string | undefined {
    const filePath = this.pathOf(uri);
    if (filePath === undefined) return undefined;
    if (this.open.get(filePath)?.uri === uri) this.open.delete(filePath);
    this.forgetFetched(filePath);
    return filePath;
  }

  /** Runs one lint, noting every path it asks about. */
  record<T>(lint: () => T): Recorded<T> {
    const recording = { reads: new Set<string>(), wanted: new Set<string>() };
    const outer = this.recording;
    this.recording = recording;
    try {
      return { result: lint(), reads: recording.reads, wanted: [...recording.wanted] };
    } finally {
      this.recording = outer;
    }
  }

  /** Marks `paths` as being fetched (a second lint does not ask again), and returns their URIs. */
  beginFetch(paths: readonly string[]): { path: string; uri: string }[] {
    const requests: { path: string; uri: string }[] = [];
    for (const filePath of paths) {
      const uri = this.folders.toUri(filePath);
      if (uri === undefined || this.inFlight.has(filePath) || this.fetched.has(filePath)) continue;
      this.inFlight.add(filePath);
      requests.push({ path: filePath, uri });
    }
    return requests;
  }

  /** Stores what the client answered (a path it did not answer is absent); true when any file was found. */
  endFetch(requests: readonly { path: string; uri: string }[], texts: ReadonlyMap<string, string | null>): boolean {
    let found = false;
    for (const request of requests) {
      this.inFlight.delete(request.path);
      const text = texts.get(request.uri) ?? undefined;
      const usable = text !== undefined && Buffer.byteLength(text, 'utf8') <= MAX_FETCHED_BYTES ? text : undefined;
      this.forgetFetched(request.path);
      this.fetched.set(request.path, { text: usable, version: `fetched:${++this.fetches}` });
      this.fetchedBytes += usable?.length ?? 0;
      if (usable !== undefined) found = true;
    }
    for (const [filePath, file] of this.fetched) {
      if (this.fetchedBytes <= MAX_FETCHED_TOTAL_BYTES) break;
      this.fetched.delete(filePath);
      this.fetchedBytes -= file.text?.length ?? 0;
    }
    return found;
  }

  stat(filePath: string): FileVersion | undefined {
    try {
      this.recording?.reads.add(filePath);
      const document = this.openDocument(filePath);
      if (document !== undefined) {
        return {
          version: `open:${document.generation}:${document.document.version}`,
          size: Buffer.byteLength(document.document.getText(), 'utf8'),
        };
      }
      if (isVirtualPath(filePath)) {
        const file = this.fetchedFile(filePath);
        return file?.text === undefined ? undefined : { version: file.version, size: Buffer.byteLength(file.text, 'utf8') };
      }
      return this.disk.stat(filePath);
    } catch {
      return undefined;
    }
  }

  readFile(filePath: string): string | undefined {
    try {
      this.recording?.reads.add(filePath);
      const document = this.openDocument(filePath);
      if (document !== undefined) return document.document.getText();
      if (isVirtualPath(filePath)) return this.fetchedFile(filePath)?.text;
      return this.disk.readFile(filePath);
    } catch {
      return undefined;
    }
  }

  /** Only the disk's directories are listed: workspace packages are not looked for in a virtual workspace. */
  readDirectory(dirPath: string): string[] {
    try {
      if (isVirtualPath(dirPath)) return [];
      return this.disk.readDirectory?.(dirPath) ?? [];
    } catch {
      return [];
    }
  }

  private openDocument(filePath: string): { document: TextDocument; generation: number } | undefined {
    const file = this.open.get(filePath);
    const document = file === undefined ? undefined : this.documents.get(file.uri);
    return file === undefined || document === undefined ? undefined : { document, generation: file.generation };
  }

  /** A virtual path's fetched text; unknown ones are noted as wanted, within the lint's cap. */
  private fetchedFile(filePath: string): FetchedFile | undefined {
    const file = this.fetched.get(filePath);
    if (file !== undefined) return file;
    const wanted = this.recording?.wanted;
    if (
      wanted !== undefined &&
      !this.inFlight.has(filePath) &&
      wanted.size < MAX_FETCHES_PER_LINT &&
      this.folders.toUri(filePath) !== undefined
    )
      wanted.add(filePath);
    return undefined;
  }

  private forgetFetched(filePath: string): void {
    const file = this.fetched.get(filePath);
    if (file === undefined) return;
    this.fetched.delete(filePath);
    this.fetchedBytes -= file.text?.length ?? 0;
  }
}

/**
 * Which open documents read which paths while open: who to lint again when a path's content changes.
 * The paths accumulate until the document closes. A lint reads a module's imports only when it
 * summarises that module (`acquireLock` in locks.ts calling `tryLock` in base.ts); later lints reuse
 * the summary and read locks.ts alone, yet base.ts changing must still reach the document.
 */
export class ImportIndex {
  private readonly readsOf = new Map<string, Set<string>>();
  private readonly readersOf = new Map<string, Set<string>>();

  /** Adds the paths a lint of `uri` read, except its own. */
  add(uri: string, reads: ReadonlySet<string>, ownPath: string | undefined): void {
    let kept = this.readsOf.get(uri);
    for (const filePath of reads) {
      if (filePath === ownPath || kept?.has(filePath) === true) continue;
      if (kept === undefined) {
        kept = new Set();
        this.readsOf.set(uri, kept);
      }
      kept.add(filePath);
      let readers = this.readersOf.get(filePath);
      if (readers === undefined) {
        readers = new Set();
        this.readersOf.set(filePath, readers);
      }
      readers.add(uri);
    }
  }

  /** Every path `uri` read since it was opened. */
  readsOfDocument(uri: string): ReadonlySet<string> {
    return this.readsOf.get(uri) ?? new Set();
  }

  forget(uri: string): void {
    const reads = this.readsOf.get(uri);
    if (reads === undefined) return;
    this.readsOf.delete(uri);
    for (const filePath of reads) {
      const readers = this.readersOf.get(filePath);
      readers?.delete(uri);
      if (readers?.size === 0) this.readersOf.delete(filePath);
    }
  }

  /** The documents that read `filePath`. */
  readersOfPath(filePath: string): string[] {
    return [...(this.readersOf.get(filePath) ?? [])];
  }
}
