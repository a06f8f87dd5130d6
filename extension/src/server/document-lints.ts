// The open documents and when each is linted: edits coalesced to the newest version, the documents
// that import a changed one linted again, imported files read from the editor (or fetched through
// the client), and each lint's findings kept for the version they were computed for.

import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { clearResolutions, forgetModule, setModuleHost } from 'eslint-plugin-locksmith/module-host';
import type { LockSummary, ReachMemo } from 'eslint-plugin-locksmith/lock-map';
import {
  LintTextRequest,
  ReadFilesRequest,
  type LintTextParams,
  type LintTextResult,
  type ReadFileResult,
  type ReadFilesParams,
  type Settings,
} from '../shared/settings';
import type { Configuration } from './configuration';
import type { Diagnostics } from './diagnostics';
import { lintText, mayHoldLocks, type LintOutcome } from './lint';
import type { LockMapIndex } from './lock-map';
import type { Log } from './log';
import { EditorModuleHost, ImportIndex, MAX_FETCHED_BYTES, VirtualFolders } from './module-host';
import { toProblems, type LintState } from './problems';
import { URI } from './uri';

export class DocumentLints {
  // Imported modules are read from open documents first (unsaved edits count), then from the disk,
  // or in a virtual workspace from what the client fetched (module-host.ts).
  private files: EditorModuleHost;
  private readonly previousHost: ReturnType<typeof setModuleHost>;
  /** Which open documents read which other files. */
  private readonly importIndex = new ImportIndex();
  private readonly states = new Map<string, LintState>();
  private readonly pending = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly configuration: Configuration,
    private readonly diagnostics: Diagnostics,
    private readonly lockMap: LockMapIndex,
    private readonly log: Log,
  ) {
    this.files = new EditorModuleHost(documents);
    this.previousHost = setModuleHost(this.files);
  }

  /** Virtual folders get paths (and imports) only when the client fetches their files for us. */
  useVirtualFolders(folderUris: readonly string[]): void {
    this.files = new EditorModuleHost(this.documents, new VirtualFolders(folderUris));
    setModuleHost(this.files);
  }

  /** Lints `text` (the document's own by default) as the document, with its project configuration. */
  lintDocumentText(document: TextDocument, settings: Settings, text = document.getText()): LintOutcome {
    const project = this.configuration.projectConfigFor(document.uri);
    // A virtual document gets its absolute virtual path, so that its relative imports resolve.
    const filePath = this.files.pathOf(document.uri) ?? URI.toFilePath(document.uri);
    return lintText({ text, filePath, languageId: document.languageId, settings, ...(project === undefined ? {} : { project }) });
  }

  /**
   * Whether linting the document's text could map a lock (lint.ts mayHoldLocks): read, not parsed.
   * `memo` keeps what was read of imported modules for the other files of one lock map index.
   */
  mayHoldLocks(document: TextDocument, settings: Settings, memo?: ReachMemo): boolean {
    const project = this.configuration.projectConfigFor(document.uri);
    const filePath = this.files.pathOf(document.uri) ?? URI.toFilePath(document.uri);
    return mayHoldLocks(
      {
        text: document.getText(),
        filePath,
        languageId: document.languageId,
        settings,
        ...(project === undefined ? {} : { project }),
      },
      memo,
    );
  }

  /** The findings of the document's current version, linted now unless they are known. */
  async currentState(document: TextDocument): Promise<LintState> {
    const state = this.states.get(document.uri);
    if (state?.version === document.version) return state;
    // In onSave mode a code action request must not refresh the diagnostics of an unsaved edit.
    return this.validate(document, (await this.configuration.settingsFor(document.uri)).run === 'onType');
  }

  /** Coalesces bursts of edits: only the newest version of a document is linted. */
  schedule(document: TextDocument): void {
    if (this.pending.has(document.uri)) return;
    this.pending.add(document.uri);
    setImmediate(() => {
      this.pending.delete(document.uri);
      const latest = this.documents.get(document.uri);
      if (latest !== undefined) void this.validate(latest);
    });
  }

  scheduleAll(): void {
    for (const document of this.documents.all()) this.schedule(document);
  }

  /** Listens to the documents' lifecycle and answers `locksmith/lintText`. */
  listen(): void {
    const { documents, configuration } = this;
    // An open document is what its importers read (module-host.ts): opening one may make a module exist
    // that an import named in vain, and its edits change what its importers' lints see.
    documents.onDidOpen((change) => {
      const filePath = this.files.opened(change.document.uri);
      if (filePath === undefined) return;
      clearResolutions();
      this.lintReaders([filePath], change.document.uri);
    });

    documents.onDidChangeContent(async (change) => {
      const settings = await configuration.settingsFor(change.document.uri);
      if (settings.run === 'onType' || !this.states.has(change.document.uri)) this.schedule(change.document);
      const filePath = this.files.pathOf(change.document.uri);
      if (settings.run === 'onType' && filePath !== undefined) this.lintReaders([filePath], change.document.uri);
    });

    documents.onDidSave(async (change) => {
      const settings = await configuration.settingsFor(change.document.uri);
      if (settings.run !== 'onSave') return;
      this.schedule(change.document);
      const filePath = this.files.pathOf(change.document.uri);
      if (filePath !== undefined) this.lintReaders([filePath], change.document.uri);
    });

    documents.onDidClose((change) => {
      // Its importers read the disk (or a fresh fetch) again, which unsaved edits it dropped never reached.
      const filePath = this.files.closed(change.document.uri);
      this.importIndex.forget(change.document.uri);
      if (filePath !== undefined) this.lintReaders([filePath], change.document.uri);
      this.states.delete(change.document.uri);
      configuration.forget(change.document.uri);
      this.diagnostics.closed(change.document.uri);
    });

    this.connection.onRequest(LintTextRequest, (params: LintTextParams) => this.lintRequested(params));
  }

  /** Gives the model back the module host it had before this server (tests run servers in process). */
  dispose(): void {
    setModuleHost(this.previousHost);
  }

  /** Lints the document as it is now and publishes; the state it stores is pinned to this version. */
  private async validate(document: TextDocument, publish = true): Promise<LintState> {
    const settings = await this.configuration.settingsFor(document.uri);
    const current = this.documents.get(document.uri) ?? document;
    const state: LintState = { uri: current.uri, version: current.version, problems: [] };
    let locks = (): LockSummary[] => [];
    if (settings.enable) {
      const started = performance.now();
      try {
        const outcome = this.lintOpenDocument(current, settings);
        if (outcome.kind === 'linted') {
          state.problems = toProblems(current, outcome.messages, outcome.reports);
          // Read when the lock map or a CodeLens asks: after the diagnostics are published. What the
          // summaries read of other modules counts as the document's reads, as the lint's do.
          locks = () => this.readingFor(current, () => outcome.locks);
          this.diagnostics.reportStatus(current.uri, 'ok');
        } else if (outcome.kind === 'skipped') {
          this.diagnostics.reportStatus(current.uri, 'skipped', outcome.reason);
        } else {
          this.diagnostics.reportStatus(current.uri, 'parseError', `line ${outcome.line}: ${outcome.message}`);
        }
      } catch (error) {
        // A rule that throws must not take the server down; the output says which file.
        this.log(
          `Linting ${URI.displayName(current.uri)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
      if (process.env.LOCKSMITH_TRACE_TIMING === '1')
        this.log(`Linted ${URI.displayName(current.uri)} v${current.version} in ${(performance.now() - started).toFixed(1)} ms`);
    }
    if (this.documents.get(current.uri)?.version === state.version) {
      this.states.set(current.uri, state);
      this.lockMap.setLazily(current.uri, `v${state.version}`, locks, state.problems);
      if (publish) this.diagnostics.publish(current.uri, state.version, state.problems);
    }
    return state;
  }

  /** Lints an open document, noting which other files it read (and fetching the virtual ones it lacked). */
  private lintOpenDocument(document: TextDocument, settings: Settings): LintOutcome {
    return this.readingFor(document, () => this.lintDocumentText(document, settings));
  }

  /** Runs `read` for an open document, noting which other files it read (and fetching the virtual ones it lacked). */
  private readingFor<T>(document: TextDocument, read: () => T): T {
    const recorded = this.files.record(read);
    this.importIndex.add(document.uri, recorded.reads, this.files.pathOf(document.uri));
    if (recorded.wanted.length > 0) void this.fetchFiles(recorded.wanted);
    return recorded.result;
  }

  /**
   * Fetches virtual files a lint asked for through the client (one request per lint), then lints
   * again the open documents that asked for any file found. Each path is fetched once, so the rounds
   * end: each goes one import deeper, and the model follows imports only so deep.
   */
  private async fetchFiles(paths: readonly string[]): Promise<void> {
    const host = this.files;
    const requests = host.beginFetch(paths);
    if (requests.length === 0) return;
    const texts = new Map<string, string | null>();
    try {
      const results = await this.connection.sendRequest<unknown>(ReadFilesRequest, {
        uris: requests.map((request) => request.uri),
        maxBytes: MAX_FETCHED_BYTES,
      } satisfies ReadFilesParams);
      // Another client's answer is checked, not trusted: anything but a text is absent.
      for (const result of Array.isArray(results) ? (results as unknown[]) : []) {
        const { uri, text } = (result ?? {}) as Partial<ReadFileResult>;
        if (typeof uri === 'string') texts.set(uri, typeof text === 'string' ? text : null);
      }
    } catch (error) {
      // Unanswered paths count as absent: the lint stays what it was without them.
      this.log(
        `Reading ${requests.length} imported files through the client failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (host !== this.files || !host.endFetch(requests, texts)) return;
    // Resolutions made while these files were unknown named nothing; they are made again.
    clearResolutions();
    this.lintReaders(requests.map((request) => request.path));
  }

  /**
   * Lints again the open documents that read one of `paths` (an imported module changed). The other
   * modules they read are forgotten first: a summary of one may rest on a changed module it imports,
   * and the model keeps summaries per module version. So an edit costs a parse of what its importers
   * read, never more.
   */
  private lintReaders(paths: readonly string[], except?: string): void {
    const readers = new Set(paths.flatMap((filePath) => this.importIndex.readersOfPath(filePath)));
    for (const uri of readers) {
      if (uri === except) continue;
      for (const filePath of this.importIndex.readsOfDocument(uri)) forgetModule(filePath);
      const reader = this.documents.get(uri);
      if (reader !== undefined) this.schedule(reader);
    }
  }

  /** `locksmith/lintText` (Lint workspace): an open document from the editor's text, another from the text sent. */
  private async lintRequested(params: LintTextParams): Promise<LintTextResult> {
    const open = this.documents.get(params.uri);
    // An open document is linted from the editor's text, which may be newer than the disk.
    if (open !== undefined) {
      const state = await this.currentState(open);
      return { problems: state.problems.length, skipped: this.diagnostics.isSkipped(params.uri) };
    }
    const settings = await this.configuration.settingsFor(params.uri);
    if (!settings.enable) return { problems: 0, skipped: true };
    const document = TextDocument.create(params.uri, params.languageId, 0, params.text);
    const outcome = this.lintDocumentText(document, settings);
    const problems = outcome.kind === 'linted' ? toProblems(document, outcome.messages, outcome.reports) : [];
    if (outcome.kind === 'skipped') this.log(`Skipped ${URI.displayName(params.uri)}: ${outcome.reason}`);
    this.diagnostics.publish(params.uri, undefined, problems);
    return { problems: problems.length, skipped: outcome.kind === 'skipped' };
  }
}
