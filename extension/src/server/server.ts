// The Locksmith language server's behaviour over one LSP connection; main.ts runs it as a program.

import {
  CodeActionKind,
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  TextDocumentSyncKind,
  TextDocuments,
  type CancellationToken,
  type CodeAction,
  type CodeLens,
  type Connection,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ProjectConfigError, ProjectConfigLookup, type ProjectConfig } from 'eslint-plugin-locksmith/project-config';
import { clearPackageTypes } from 'eslint-plugin-locksmith/parsing';
import { clearResolutions, forgetModule, setModuleHost } from 'eslint-plugin-locksmith/module-host';
import { URI } from './uri';
import {
  LintTextRequest,
  LockMapRequest,
  PreferredFixesRequest,
  ReadFilesRequest,
  SHOW_LOCK_MAP_COMMAND,
  RulesRequest,
  SETTINGS_SECTION,
  ServerInfoRequest,
  SHOW_DOCUMENTATION_COMMAND,
  Settings,
  StatusNotification,
  type ClientFeatures,
  type LintTextParams,
  type LintTextResult,
  type LockMapFile,
  type LockMapParams,
  type LockMapResult,
  type PreferredFixesParams,
  type ReadFileResult,
  type ReadFilesParams,
  type RuleInfo,
  type ServerInfo,
  type StatusParams,
  lockLine,
} from '../shared/settings';
import { LockMapIndex } from './lock-map';
import { lintText, ruleIds, ruleInfo } from './lint';
import { EditorModuleHost, ImportIndex, MAX_FETCHED_BYTES, VirtualFolders } from './module-host';
import type { LockSummary } from 'eslint-plugin-locksmith/lock-map';
import { fixAll, minimalEdit, type FixAllResult, type FixMode } from './fix-all';
import {
  FIX_ALL_KIND,
  confirmedEdit,
  pinnedEdit,
  quickFixes,
  toDiagnostic,
  toProblems,
  toTextEdit,
  type FixAllData,
  type LintState,
  type Problem,
} from './problems';

/** Runs the server on `connection`; `dispose` gives the model back the host it had (tests run servers in process). */
export function startServer(connection: Connection): { dispose(): void } {
  const documents = new TextDocuments(TextDocument);
  // Imported modules are read from open documents first (unsaved edits count), then from the disk,
  // or in a virtual workspace from what the client fetched (module-host.ts).
  let files = new EditorModuleHost(documents);
  const previousHost = setModuleHost(files);
  /** Which open documents read which other files. */
  const importIndex = new ImportIndex();
  const states = new Map<string, LintState>();
  const settingsCache = new Map<string, Promise<Settings>>();
  /** Last status sent per document, so the output gets one line per change of state, not per keystroke. */
  const lastStatus = new Map<string, StatusParams['state']>();
  const pending = new Set<string>();
  /** Every file's locks, for the Explorer's Locksmith view and the CodeLens (lock-map.ts). */
  const lockMap = new LockMapIndex();
  let canPullConfiguration = false;
  let initialSettings: Settings = Settings.from(undefined);

  const log = (line: string): void => {
    connection.console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  };

  // locksmith.json is data: read from disk for file: documents, in untrusted workspaces too. Other
  // schemes (virtual workspaces) have no disk here, so only the locksmith.* settings apply to them.
  const projectConfigs = new ProjectConfigLookup();
  /** Bad configuration files shown to the user, by URI, with the line shown, so each is said once. */
  const shownConfigErrors = new Map<string, string>();

  function projectConfigFor(uri: string): ProjectConfig | undefined {
    if (!uri.startsWith('file:')) return undefined;
    try {
      return projectConfigs.forFile(URI.toFilePath(uri));
    } catch (error) {
      if (!(error instanceof ProjectConfigError)) throw error;
      showConfigError(error);
      // Linting goes on without the bad file, so the editor still shows findings while it is fixed.
      return undefined;
    }
  }

  function showConfigError(error: ProjectConfigError): void {
    const configUri = pathToFileURL(error.filePath).toString();
    if (shownConfigErrors.get(configUri) === error.message) return;
    shownConfigErrors.set(configUri, error.message);
    log(`Ignoring ${error.message}`);
    connection.window.showWarningMessage(`Locksmith: ${error.message} (the file is ignored until it is fixed)`);
    void connection.sendDiagnostics({
      uri: configUri,
      diagnostics: [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: DiagnosticSeverity.Error,
          source: 'locksmith',
          message: `${error.key === '' ? '' : `${error.key}: `}${error.reason}`,
        },
      ],
    });
  }

  function settingsFor(uri: string): Promise<Settings> {
    if (!canPullConfiguration) return Promise.resolve(initialSettings);
    let settings = settingsCache.get(uri);
    if (settings === undefined) {
      settings = connection.workspace.getConfiguration({ scopeUri: uri, section: SETTINGS_SECTION }).then(
        (raw: unknown) => Settings.from(raw),
        () => initialSettings,
      );
      settingsCache.set(uri, settings);
    }
    return settings;
  }

  function lintDocumentText(document: TextDocument, settings: Settings, text = document.getText()): ReturnType<typeof lintText> {
    const project = projectConfigFor(document.uri);
    // A virtual document gets its absolute virtual path, so that its relative imports resolve.
    const filePath = files.pathOf(document.uri) ?? URI.toFilePath(document.uri);
    return lintText({ text, filePath, languageId: document.languageId, settings, ...(project === undefined ? {} : { project }) });
  }

  /** Lints an open document, noting which other files it read (and fetching the virtual ones it lacked). */
  function lintOpenDocument(document: TextDocument, settings: Settings): ReturnType<typeof lintText> {
    const recorded = files.record(() => lintDocumentText(document, settings));
    importIndex.add(document.uri, recorded.reads, files.pathOf(document.uri));
    if (recorded.wanted.length > 0) void fetchFiles(recorded.wanted);
    return recorded.result;
  }

  /**
   * Fetches virtual files a lint asked for through the client (one request per lint), then lints
   * again the open documents that asked for any file found. Each path is fetched once, so the rounds
   * end: each goes one import deeper, and the model follows imports only so deep.
   */
  async function fetchFiles(paths: readonly string[]): Promise<void> {
    const host = files;
    const requests = host.beginFetch(paths);
    if (requests.length === 0) return;
    const texts = new Map<string, string | null>();
    try {
      const results = await connection.sendRequest<unknown>(ReadFilesRequest, {
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
      log(`Reading ${requests.length} imported files through the client failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (host !== files || !host.endFetch(requests, texts)) return;
    // Resolutions made while these files were unknown named nothing; they are made again.
    clearResolutions();
    lintReaders(requests.map((request) => request.path));
  }

  /**
   * Lints again the open documents that read one of `paths` (an imported module changed). The other
   * modules they read are forgotten first: a summary of one may rest on a changed module it imports,
   * and the model keeps summaries per module version. So an edit costs a parse of what its importers
   * read, never more.
   */
  function lintReaders(paths: readonly string[], except?: string): void {
    const readers = new Set(paths.flatMap((filePath) => importIndex.readersOfPath(filePath)));
    for (const uri of readers) {
      if (uri === except) continue;
      for (const filePath of importIndex.readsOfDocument(uri)) forgetModule(filePath);
      const reader = documents.get(uri);
      if (reader !== undefined) schedule(reader);
    }
  }

  function reportStatus(uri: string, state: StatusParams['state'], detail?: string): void {
    if (lastStatus.get(uri) === state) return;
    lastStatus.set(uri, state);
    const name = URI.displayName(uri);
    if (state === 'skipped') log(`Skipped ${name}: ${detail ?? ''}`);
    if (state === 'parseError') log(`No findings for ${name} while it does not parse (${detail ?? ''})`);
    void connection.sendNotification(StatusNotification, {
      uri,
      state,
      ...(detail === undefined ? {} : { detail }),
    } satisfies StatusParams);
  }

  /** Lints the document as it is now and publishes; the state it stores is pinned to this version. */
  async function validate(document: TextDocument, publish = true): Promise<LintState> {
    const settings = await settingsFor(document.uri);
    const current = documents.get(document.uri) ?? document;
    const state: LintState = { uri: current.uri, version: current.version, problems: [] };
    let locks: LockSummary[] = [];
    if (settings.enable) {
      const started = performance.now();
      try {
        const outcome = lintOpenDocument(current, settings);
        if (outcome.kind === 'linted') {
          state.problems = toProblems(current, outcome.messages, outcome.reports);
          locks = outcome.locks;
          reportStatus(current.uri, 'ok');
        } else if (outcome.kind === 'skipped') {
          reportStatus(current.uri, 'skipped', outcome.reason);
        } else {
          reportStatus(current.uri, 'parseError', `line ${outcome.line}: ${outcome.message}`);
        }
      } catch (error) {
        // A rule that throws must not take the server down; the output says which file.
        log(`Linting ${URI.displayName(current.uri)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
      if (process.env.LOCKSMITH_TRACE_TIMING === '1')
        log(`Linted ${URI.displayName(current.uri)} v${current.version} in ${(performance.now() - started).toFixed(1)} ms`);
    }
    if (documents.get(current.uri)?.version === state.version) {
      states.set(current.uri, state);
      lockMap.set(current.uri, `v${state.version}`, locks, state.problems);
      if (publish)
        void connection.sendDiagnostics({
          uri: current.uri,
          version: state.version,
          diagnostics: state.problems.map((problem) => toDiagnostic(problem, current.uri)),
        });
    }
    return state;
  }

  /** Coalesces bursts of edits: only the newest version of a document is linted. */
  function schedule(document: TextDocument): void {
    if (pending.has(document.uri)) return;
    pending.add(document.uri);
    setImmediate(() => {
      pending.delete(document.uri);
      const latest = documents.get(document.uri);
      if (latest !== undefined) void validate(latest);
    });
  }

  async function currentState(document: TextDocument): Promise<LintState> {
    const state = states.get(document.uri);
    if (state?.version === document.version) return state;
    // In onSave mode a code action request must not refresh the diagnostics of an unsaved edit.
    return validate(document, (await settingsFor(document.uri)).run === 'onType');
  }

  /** The fix-all of one rule (or of all rules) on the document's current text. */
  async function fixAllResult(document: TextDocument, ruleId: string | null, mode: FixMode): Promise<FixAllResult | undefined> {
    const settings = await settingsFor(document.uri);
    if (!settings.enable) return undefined;
    return fixAll(
      document.getText(),
      (candidate) => {
        const outcome = lintDocumentText(document, settings, candidate);
        if (outcome.kind !== 'linted') return null;
        return toProblems(
          TextDocument.create(document.uri, document.languageId, document.version, candidate),
          outcome.messages,
          outcome.reports,
        ) satisfies Problem[];
      },
      (problemRule) => ruleId === null || problemRule === ruleId,
      mode,
    );
  }

  async function fixAllEdit(document: TextDocument, ruleId: string | null, mode: FixMode): Promise<WorkspaceEdit | undefined> {
    const result = await fixAllResult(document, ruleId, mode);
    const edit = result === undefined ? undefined : minimalEdit(document.getText(), result.text);
    return edit === undefined ? undefined : pinnedEdit(document, [toTextEdit(document, edit)]);
  }

  connection.onInitialize((params) => {
    canPullConfiguration = params.capabilities.workspace?.configuration === true;
    const options = params.initializationOptions as ({ settings?: unknown } & ClientFeatures) | undefined;
    initialSettings = Settings.from(options?.settings);
    // Virtual folders get paths (and imports) only when the client fetches their files for us.
    if (options?.readFiles === true) {
      files = new EditorModuleHost(documents, new VirtualFolders((params.workspaceFolders ?? []).map((folder) => folder.uri)));
      setModuleHost(files);
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: true },
        executeCommandProvider: { commands: [SHOW_DOCUMENTATION_COMMAND] },
        codeLensProvider: { resolveProvider: false },
      },
      serverInfo: { name: 'locksmith-lsp' },
    };
  });

  connection.onInitialized(() => {
    if (canPullConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
    log(`Locksmith server ready (Node ${process.version}); rules: ${ruleIds().join(', ') || 'none'}`);
  });

  // The client watches locksmith.json and package.json files (and says when the editor saved one): any
  // change may change any open file's findings, its configuration or (package.json "type") its parse.
  connection.onDidChangeWatchedFiles(() => {
    projectConfigs.clear();
    lockMap.clear();
    clearPackageTypes();
    // A package.json names workspace packages and `imports`: what an import names may have changed.
    clearResolutions();
    for (const uri of shownConfigErrors.keys()) void connection.sendDiagnostics({ uri, diagnostics: [] });
    shownConfigErrors.clear();
    for (const document of documents.all()) schedule(document);
  });

  connection.onDidChangeConfiguration((change) => {
    settingsCache.clear();
    lockMap.clear();
    if (!canPullConfiguration) initialSettings = Settings.from((change.settings as Record<string, unknown> | null)?.[SETTINGS_SECTION]);
    for (const document of documents.all()) schedule(document);
  });

  // An open document is what its importers read (module-host.ts): opening one may make a module exist
  // that an import named in vain, and its edits change what its importers' lints see.
  documents.onDidOpen((change) => {
    const filePath = files.opened(change.document.uri);
    if (filePath === undefined) return;
    clearResolutions();
    lintReaders([filePath], change.document.uri);
  });

  documents.onDidChangeContent(async (change) => {
    const settings = await settingsFor(change.document.uri);
    if (settings.run === 'onType' || !states.has(change.document.uri)) schedule(change.document);
    const filePath = files.pathOf(change.document.uri);
    if (settings.run === 'onType' && filePath !== undefined) lintReaders([filePath], change.document.uri);
  });

  documents.onDidSave(async (change) => {
    const settings = await settingsFor(change.document.uri);
    if (settings.run !== 'onSave') return;
    schedule(change.document);
    const filePath = files.pathOf(change.document.uri);
    if (filePath !== undefined) lintReaders([filePath], change.document.uri);
  });

  documents.onDidClose((change) => {
    // Its importers read the disk (or a fresh fetch) again, which unsaved edits it dropped never reached.
    const filePath = files.closed(change.document.uri);
    importIndex.forget(change.document.uri);
    if (filePath !== undefined) lintReaders([filePath], change.document.uri);
    states.delete(change.document.uri);
    lastStatus.delete(change.document.uri);
    settingsCache.delete(change.document.uri);
    void connection.sendDiagnostics({ uri: change.document.uri, diagnostics: [] });
  });

  connection.onCodeAction(async (params) => {
    const document = documents.get(params.textDocument.uri);
    if (document === undefined) return [];
    const only = params.context.only;
    const actions: CodeAction[] = [];
    const wants = (kind: string): boolean =>
      only === undefined || only.some((requested) => kind === requested || kind.startsWith(`${requested}.`));
    if (wants(CodeActionKind.QuickFix)) {
      actions.push(...quickFixes(document, await currentState(document), params.context.diagnostics));
    }
    if (only !== undefined && wants(FIX_ALL_KIND)) {
      // Asked for on save: computed now, since a save does not wait for a resolve round trip everywhere.
      // Autofixes only: a suggestion changes what runs against Redis or the database, and a save
      // applies it unseen. The explicit command (PreferredFixesRequest) previews those instead.
      const edit = await fixAllEdit(document, null, 'autofix');
      if (edit !== undefined) actions.push({ title: 'Fix all Locksmith problems', kind: FIX_ALL_KIND, edit });
    }
    return actions;
  });

  connection.onCodeActionResolve(async (action) => {
    const data = action.data as FixAllData | undefined;
    if (data === undefined) return action;
    const document = documents.get(data.uri);
    // Stale: the document moved on since the menu was built, so the fix is dropped.
    if (document?.version !== data.version) return action;
    // Chosen from the menu for one rule, so its preferred suggestions are what the user asked for.
    const edit = await fixAllEdit(document, data.ruleId, 'preferred');
    return edit === undefined ? action : { ...action, edit };
  });

  connection.onRequest(PreferredFixesRequest, async (params: PreferredFixesParams): Promise<WorkspaceEdit | null> => {
    const document = documents.get(params.uri);
    if (document === undefined || (params.version !== undefined && params.version !== document.version)) return null;
    const result = await fixAllResult(document, null, 'preferred');
    if (result === undefined || result.fixed === 0) return null;
    // Each fix is its own change in the preview when one pass applied them all; otherwise (fixes
    // that build on each other) the one smallest replacement, under every rule's name.
    const whole = minimalEdit(document.getText(), result.text);
    const changes = result.fixes ?? (whole === undefined ? [] : [{ ...whole, ruleId: result.rules.join(', '), desc: undefined }]);
    return changes.length === 0
      ? null
      : confirmedEdit(
          document,
          changes.map((fix) => ({ ruleId: fix.ruleId, desc: fix.desc, edit: toTextEdit(document, fix) })),
        );
  });

  connection.onExecuteCommand(async (params) => {
    if (params.command !== SHOW_DOCUMENTATION_COMMAND) return;
    const href: unknown = params.arguments?.[0];
    if (typeof href === 'string') await connection.window.showDocument({ uri: href, external: true });
  });

  connection.onRequest(LintTextRequest, async (params: LintTextParams): Promise<LintTextResult> => {
    const open = documents.get(params.uri);
    // An open document is linted from the editor's text, which may be newer than the disk.
    if (open !== undefined) {
      const state = await currentState(open);
      return { problems: state.problems.length, skipped: lastStatus.get(params.uri) === 'skipped' };
    }
    const settings = await settingsFor(params.uri);
    if (!settings.enable) return { problems: 0, skipped: true };
    const document = TextDocument.create(params.uri, params.languageId, 0, params.text);
    const outcome = lintDocumentText(document, settings);
    const problems = outcome.kind === 'linted' ? toProblems(document, outcome.messages, outcome.reports) : [];
    if (outcome.kind === 'skipped') log(`Skipped ${URI.displayName(params.uri)}: ${outcome.reason}`);
    void connection.sendDiagnostics({ uri: params.uri, diagnostics: problems.map((problem) => toDiagnostic(problem, params.uri)) });
    return { problems: problems.length, skipped: outcome.kind === 'skipped' };
  });

  /** One file's locks: an open document's from its current text, another's from disk unless unchanged. */
  async function lockMapOf(uri: string): Promise<{ file: LockMapFile | undefined; analysed: boolean }> {
    const open = documents.get(uri);
    if (open !== undefined) {
      const cached = lockMap.current(uri, `v${open.version}`);
      if (cached !== undefined) return { file: cached, analysed: false };
      await currentState(open);
      return { file: lockMap.current(uri, `v${open.version}`), analysed: true };
    }
    // Only files on disk are read (and never run); other schemes are mapped while open in the editor.
    if (!uri.startsWith('file:')) return { file: undefined, analysed: false };
    const filePath = URI.toFilePath(uri);
    let stamp: string;
    let text: string;
    try {
      const stat = await fs.promises.stat(filePath);
      stamp = `${stat.size}:${stat.mtimeMs}`;
      const cached = lockMap.current(uri, stamp);
      if (cached !== undefined) return { file: cached, analysed: false };
      text = await fs.promises.readFile(filePath, 'utf8');
    } catch {
      // Deleted or unreadable since the client listed it.
      return { file: undefined, analysed: false };
    }
    const settings = await settingsFor(uri);
    if (!settings.enable) return { file: lockMap.set(uri, stamp, [], []), analysed: true };
    const document = TextDocument.create(uri, '', 0, text);
    try {
      const outcome = lintDocumentText(document, settings);
      return outcome.kind === 'linted'
        ? { file: lockMap.set(uri, stamp, outcome.locks, toProblems(document, outcome.messages, outcome.reports)), analysed: true }
        : { file: lockMap.set(uri, stamp, [], []), analysed: true };
    } catch (error) {
      log(
        `Mapping the locks of ${URI.displayName(uri)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return { file: lockMap.set(uri, stamp, [], []), analysed: true };
    }
  }

  connection.onRequest(LockMapRequest, async (params: LockMapParams, token: CancellationToken): Promise<LockMapResult> => {
    const started = performance.now();
    const progress = await connection.window.createWorkDoneProgress();
    const total = params.uris.length;
    progress.begin('Locksmith: indexing locks', 0, `0/${total} files`, true);
    const files: LockMapFile[] = [];
    let analysed = 0;
    let indexed = 0;
    let cancelled = false;
    let reported = performance.now();
    for (const uri of params.uris) {
      if (token.isCancellationRequested || progress.token.isCancellationRequested) {
        cancelled = true;
        break;
      }
      const result = await lockMapOf(uri);
      indexed += 1;
      if (result.analysed) analysed += 1;
      if (result.file !== undefined && result.file.locks.length > 0) files.push(result.file);
      if (performance.now() - reported > 100) {
        reported = performance.now();
        progress.report(Math.floor((indexed / total) * 100), `${indexed}/${total} files`);
      }
      // Between files, edits and other requests get their turn: indexing runs in the background.
      if (result.analysed) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    progress.done();
    if (!cancelled) lockMap.retain(new Set(params.uris));
    const ms = Math.round(performance.now() - started);
    log(
      `Lock map: ${indexed} files (${analysed} analysed) in ${ms} ms, ${files.reduce((sum, file) => sum + file.locks.length, 0)} locks${cancelled ? ' (cancelled)' : ''}.`,
    );
    return { files, indexed, analysed, ms, cancelled };
  });

  connection.onCodeLens(async (params): Promise<CodeLens[]> => {
    const document = documents.get(params.textDocument.uri);
    if (document === undefined || !(await settingsFor(document.uri)).enable) return [];
    await currentState(document);
    const file = lockMap.current(document.uri, `v${document.version}`);
    return (file?.locks ?? []).map((lock) => ({
      range: lock.acquired,
      command: {
        title: `${lockLine(lock)}${lock.findings.length === 0 ? '' : ` · ${lock.findings.length} finding${lock.findings.length === 1 ? '' : 's'}`}`,
        command: SHOW_LOCK_MAP_COMMAND,
        arguments: [lock.name],
      },
    }));
  });

  connection.onRequest(ServerInfoRequest, (): ServerInfo => ({ pid: process.pid, node: process.version }));
  connection.onRequest(RulesRequest, (): RuleInfo[] => ruleIds().map(ruleInfo));

  documents.listen(connection);
  connection.listen();
  return {
    dispose() {
      setModuleHost(previousHost);
    },
  };
}
