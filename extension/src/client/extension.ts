// The Locksmith VS Code client: starts the language server, and owns commands, status bar and output.

import * as vscode from 'vscode';
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
  type WorkspaceEdit,
} from 'vscode-languageclient/node';
import {
  APPLY_PREFERRED_FIXES_COMMAND,
  LintTextRequest,
  PreferredFixesRequest,
  ReadFilesRequest,
  RulesRequest,
  SETTINGS_SECTION,
  ServerInfoRequest,
  StatusNotification,
  type LintTextParams,
  type LintTextResult,
  type PreferredFixesParams,
  type ClientFeatures,
  type ReadFileResult,
  type ReadFilesParams,
  type RuleInfo,
  type ServerInfo,
  type StatusParams,
  LOCK_MAP_VIEW,
  SHOW_LOCK_MAP_COMMAND,
  type LockMapResult,
} from '../shared/settings';
import { LockMapView, OPEN_LOCATION_COMMAND, openLocation, type LockMapNode } from './lock-map-view';

// Lua documents are Redis scripts to the server (files that are not get no diagnostics).
const LANGUAGES = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact', 'lua'];
const WORKSPACE_GLOB = '**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx,lua}';
const WORKSPACE_EXCLUDE = '{**/node_modules/**,**/dist/**,**/out/**,**/.git/**}';
/** The files the server reads its project configuration from (next to `projectConfigWatcher`'s glob). */
const PROJECT_CONFIG_FILE_NAMES = new Set(['locksmith.json', 'package.json']);

/** The files the server asks for (imports of a document in a virtual workspace), through the workspace's file system. */
async function readFiles(params: ReadFilesParams): Promise<ReadFileResult[]> {
  const decoder = new TextDecoder();
  return Promise.all(
    params.uris.map(async (uri): Promise<ReadFileResult> => {
      try {
        const target = vscode.Uri.parse(uri, true);
        const stat = await vscode.workspace.fs.stat(target);
        if ((stat.type & vscode.FileType.File) === 0 || stat.size > params.maxBytes) return { uri, text: null };
        return { uri, text: decoder.decode(await vscode.workspace.fs.readFile(target)) };
      } catch {
        // Missing or unreadable: the server treats it as absent.
        return { uri, text: null };
      }
    }),
  );
}

/** What the integration tests read back; not a public API. */
export interface LocksmithApi {
  client: LanguageClient;
  output: vscode.LogOutputChannel;
  /** Every line written to the output channel, for tests that check what the user would read. */
  outputLines: string[];
  statusBar: vscode.StatusBarItem;
  fileStatus(uri: vscode.Uri): StatusParams | undefined;
  onDidChangeStatus: vscode.Event<StatusParams>;
  /**
   * Fires after the server's diagnostics for a document are shown. `onDidChangeDiagnostics` fires for
   * every source (the TypeScript extension's too), so it cannot tell that the server linted again.
   */
  onDidPublishDiagnostics: vscode.Event<vscode.Uri>;
  activationMs: number;
  /** Milliseconds from activation to a running server; undefined when the first start failed. */
  serverReady: Promise<number | undefined>;
  lintWorkspace(): Promise<{ files: number; problems: number }>;
  /** The Explorer's Locksmith view (its data, for tests that compare the rendered tree with it). */
  lockMap: LockMapView;
  /** Indexes the workspace's locks again (only changed files are analysed). */
  refreshLockMap(): Promise<LockMapResult>;
  /** The rules the running server lints with. */
  rules(): Promise<RuleInfo[]>;
  serverInfo(): Promise<ServerInfo>;
}

const WRITING_METHODS = new Set(['append', 'appendLine', 'trace', 'debug', 'info', 'warn', 'error', 'replace']);

/** The output channel, with a copy of each line kept in `lines`. */
function recordingChannel(channel: vscode.LogOutputChannel, lines: string[]): vscode.LogOutputChannel {
  return new Proxy(channel, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !WRITING_METHODS.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const first = args[0];
        lines.push(first instanceof Error ? first.message : String(first));
        return (value as (...values: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

export function activate(context: vscode.ExtensionContext): LocksmithApi {
  const activationStarted = Date.now();
  const outputLines: string[] = [];
  const channel = vscode.window.createOutputChannel('Locksmith', { log: true });
  const output = recordingChannel(channel, outputLines);
  context.subscriptions.push(channel);
  const statusChanged = new vscode.EventEmitter<StatusParams>();
  context.subscriptions.push(statusChanged);
  const diagnosticsPublished = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(diagnosticsPublished);

  const serverModule = context.asAbsolutePath('extension/dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const projectConfigWatcher = vscode.workspace.createFileSystemWatcher('**/{locksmith.json,package.json}');
  context.subscriptions.push(projectConfigWatcher);
  const clientOptions: LanguageClientOptions = {
    // No scheme filter: virtual workspaces work too. The server reads a file: document's imports from
    // the disk and a virtual one's through this client (ReadFilesRequest), never running them.
    documentSelector: LANGUAGES.map((language) => ({ language })),
    initializationOptions: { readFiles: true } satisfies ClientFeatures,
    // The server re-reads project configurations (locksmith.json, package.json "locksmith") when one changes.
    synchronize: { configurationSection: SETTINGS_SECTION, fileEvents: projectConfigWatcher },
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    diagnosticCollectionName: 'locksmith',
    middleware: {
      handleDiagnostics(uri, diagnostics, next) {
        next(uri, diagnostics);
        diagnosticsPublished.fire(uri);
      },
    },
  };
  const client = new LanguageClient('locksmith', 'Locksmith', serverOptions, clientOptions);

  const statusBar = vscode.window.createStatusBarItem('locksmith.status', vscode.StatusBarAlignment.Right, 100);
  statusBar.name = 'Locksmith';
  statusBar.command = 'locksmith.showOutput';
  context.subscriptions.push(statusBar);
  const fileStatus = new Map<string, StatusParams>();

  const renderStatus = (): void => {
    const editor = vscode.window.activeTextEditor;
    const status = editor === undefined ? undefined : fileStatus.get(editor.document.uri.toString());
    if (client.state !== State.Running) {
      statusBar.text = '$(lock) Locksmith $(debug-disconnect)';
      statusBar.tooltip = 'Locksmith server is not running; click for the output';
      statusBar.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else if (status?.state === 'skipped') {
      statusBar.text = '$(lock) Locksmith: file skipped';
      statusBar.tooltip = `Locksmith skipped this file: ${status.detail ?? ''}`;
      statusBar.backgroundColor = undefined;
    } else {
      statusBar.text = '$(lock) Locksmith';
      statusBar.tooltip = 'Locksmith: distributed lock checks are on; click for the output';
      statusBar.backgroundColor = undefined;
    }
    if (editor !== undefined && LANGUAGES.includes(editor.document.languageId)) statusBar.show();
  };

  context.subscriptions.push(
    client.onDidChangeState(renderStatus),
    client.onRequest(ReadFilesRequest, (params: ReadFilesParams) => readFiles(params)),
    client.onNotification(StatusNotification, (status: StatusParams) => {
      fileStatus.set(status.uri, status);
      renderStatus();
      statusChanged.fire(status);
    }),
    vscode.window.onDidChangeActiveTextEditor(renderStatus),
    vscode.workspace.onDidCloseTextDocument((document) => fileStatus.delete(document.uri.toString())),
    // A project configuration saved in the editor reaches the server whatever the file watcher saw:
    // VS Code's watcher misses files in a folder created inside a just-created one (`mkdir -p`, or
    // the explorer's "New File" with a path), and skips folders in files.watcherExclude.
    vscode.workspace.onDidSaveTextDocument((document) => {
      const name = document.uri.path.slice(document.uri.path.lastIndexOf('/') + 1);
      if (document.uri.scheme !== 'file' || !PROJECT_CONFIG_FILE_NAMES.has(name) || !client.isRunning()) return;
      void client
        .sendNotification(DidChangeWatchedFilesNotification.type, {
          changes: [{ uri: client.code2ProtocolConverter.asUri(document.uri), type: FileChangeType.Changed }],
        })
        .catch((error: unknown) => {
          output.error(
            `Telling the server that ${document.uri.fsPath} changed failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
    }),
  );

  /** The files "Lint workspace" lints and the lock map indexes. */
  const workspaceFiles = (token: vscode.CancellationToken): Thenable<vscode.Uri[]> =>
    vscode.workspace.findFiles(WORKSPACE_GLOB, WORKSPACE_EXCLUDE, undefined, token);

  async function lintWorkspace(): Promise<{ files: number; problems: number }> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Locksmith: linting workspace', cancellable: true },
      async (progress, token) => {
        const uris = await workspaceFiles(token);
        let problems = 0;
        let files = 0;
        for (const uri of uris) {
          if (token.isCancellationRequested) break;
          const bytes = await vscode.workspace.fs.readFile(uri);
          const extension = uri.path.slice(uri.path.lastIndexOf('.'));
          const languageId = ['.ts', '.mts', '.cts'].includes(extension)
            ? 'typescript'
            : extension === '.tsx'
              ? 'typescriptreact'
              : extension === '.jsx'
                ? 'javascriptreact'
                : extension === '.lua'
                  ? 'lua'
                  : 'javascript';
          const result = await client.sendRequest<LintTextResult>(LintTextRequest, {
            uri: uri.toString(),
            languageId,
            text: new TextDecoder().decode(bytes),
          } satisfies LintTextParams);
          problems += result.problems;
          files += 1;
          progress.report({ increment: 100 / uris.length, message: `${files}/${uris.length} files, ${problems} problems` });
        }
        output.info(`Linted ${files} files in the workspace: ${problems} problems.`);
        return { files, problems };
      },
    );
  }

  /**
   * Applies the preferred suggestion of every finding in a file, through the refactor preview: the
   * server marks each change as needing confirmation, so nothing changes until the user applies it.
   * Resolves to whether the edit was applied (false when there was nothing to fix or it was discarded).
   */
  async function applyPreferredFixes(uri?: vscode.Uri): Promise<boolean> {
    const document = uri === undefined ? vscode.window.activeTextEditor?.document : await vscode.workspace.openTextDocument(uri);
    if (document === undefined || !LANGUAGES.includes(document.languageId)) {
      void vscode.window.showInformationMessage('Locksmith: open a JavaScript, TypeScript or Lua file to apply its preferred fixes.');
      return false;
    }
    const params: PreferredFixesParams = { uri: client.code2ProtocolConverter.asUri(document.uri), version: document.version };
    const result = await client.sendRequest<WorkspaceEdit | null>(PreferredFixesRequest, params);
    if (result === null) {
      void vscode.window.showInformationMessage('Locksmith: no preferred fixes in this file.');
      return false;
    }
    const edit = await client.protocol2CodeConverter.asWorkspaceEdit(result);
    return vscode.workspace.applyEdit(edit, { isRefactoring: true });
  }

  // Script files only: a Lua script is a Redis script, not a place where a lock is taken.
  const lockMap = new LockMapView(
    client,
    async (token) => (await workspaceFiles(token)).filter((uri) => !uri.path.endsWith('.lua')),
    output,
  );
  const lockMapView = vscode.window.createTreeView<LockMapNode>(LOCK_MAP_VIEW, { treeDataProvider: lockMap, showCollapseAll: true });
  context.subscriptions.push(
    lockMap,
    lockMapView,
    vscode.commands.registerCommand('locksmith.refreshLockMap', () => lockMap.refresh()),
    vscode.commands.registerCommand(OPEN_LOCATION_COMMAND, (uri: string, range: Parameters<typeof openLocation>[1]) =>
      openLocation(uri, range),
    ),
    vscode.commands.registerCommand(SHOW_LOCK_MAP_COMMAND, async (name?: unknown) => {
      await vscode.commands.executeCommand(`${LOCK_MAP_VIEW}.focus`);
      const group = (await lockMap.ready()).find((candidate) => candidate.name === name);
      if (group !== undefined) await lockMapView.reveal(group, { select: true, focus: true, expand: true });
    }),
  );

  context.subscriptions.push(
    vscode.commands.registerCommand(APPLY_PREFERRED_FIXES_COMMAND, (uri?: unknown) =>
      applyPreferredFixes(uri instanceof vscode.Uri ? uri : undefined),
    ),
    vscode.commands.registerCommand('locksmith.lintWorkspace', async () => {
      const result = await lintWorkspace();
      if (result.problems > 0) await vscode.commands.executeCommand('workbench.actions.view.problems');
      return result;
    }),
    vscode.commands.registerCommand('locksmith.showOutput', () => {
      output.show(true);
    }),
    vscode.commands.registerCommand('locksmith.restartServer', async () => {
      fileStatus.clear();
      await client.restart();
      output.info('Server restarted.');
    }),
    { dispose: () => void client.stop() },
  );

  // Activation does not wait for the server: the editor stays responsive while it loads its parsers.
  const serverReady = client.start().then(
    () => {
      const readyMs = Date.now() - activationStarted;
      output.info(`Locksmith server ready ${readyMs} ms after activation started.`);
      return readyMs;
    },
    (error: unknown) => {
      // The extension stays usable (commands, output); "Restart server" tries again.
      output.error(`Locksmith server failed to start: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    },
  );
  const activationMs = Date.now() - activationStarted;
  output.info(`Locksmith activated in ${activationMs} ms.`);
  renderStatus();
  return {
    client,
    output,
    outputLines,
    statusBar,
    fileStatus: (uri) => fileStatus.get(uri.toString()),
    onDidChangeStatus: statusChanged.event,
    onDidPublishDiagnostics: diagnosticsPublished.event,
    activationMs,
    serverReady,
    lintWorkspace,
    lockMap,
    refreshLockMap: () => lockMap.refresh(),
    rules: () => client.sendRequest<RuleInfo[]>(RulesRequest),
    serverInfo: () => client.sendRequest<ServerInfo>(ServerInfoRequest),
  };
}

export function deactivate(): void {
  // Disposables in context.subscriptions stop the client.
}
