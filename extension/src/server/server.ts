// Wires the Locksmith language server's parts to one LSP connection; main.ts runs it as a program.
// Each part has one concern, as vscode-eslint's server is split: configuration.ts (settings and
// locksmith.json), diagnostics.ts (what is published), document-lints.ts (documents and when they
// are linted), code-actions.ts (fixes), lock-map-requests.ts (the lock map and its CodeLens).

import { CodeActionKind, TextDocumentSyncKind, TextDocuments, type Connection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { clearPackageTypes } from 'eslint-plugin-locksmith/parsing';
import { clearResolutions } from 'eslint-plugin-locksmith/module-host';
import {
  RulesRequest,
  SHOW_DOCUMENTATION_COMMAND,
  ServerInfoRequest,
  type ClientFeatures,
  type RuleInfo,
  type ServerInfo,
} from '../shared/settings';
import { CodeActions } from './code-actions';
import { Configuration } from './configuration';
import { Diagnostics } from './diagnostics';
import { DocumentLints } from './document-lints';
import { ruleIds, ruleInfo } from './lint';
import { LockMapIndex } from './lock-map';
import { LockMapRequests } from './lock-map-requests';
import { createLog } from './log';
import { FIX_ALL_KIND } from './problems';

/** Runs the server on `connection`; `dispose` gives the model back the host it had (tests run servers in process). */
export function startServer(connection: Connection): { dispose(): void } {
  const documents = new TextDocuments(TextDocument);
  const log = createLog(connection);
  const diagnostics = new Diagnostics(connection, log);
  const configuration = new Configuration(connection, diagnostics, log);
  /** Every file's locks, for the Explorer's Locksmith view and the CodeLens (lock-map.ts). */
  const lockMap = new LockMapIndex();
  const lints = new DocumentLints(connection, documents, configuration, diagnostics, lockMap, log);
  const codeActions = new CodeActions(connection, documents, lints, configuration);
  const lockMapRequests = new LockMapRequests(connection, documents, lints, configuration, lockMap, log);

  connection.onInitialize((params) => {
    configuration.initialize(params);
    // Virtual folders get paths (and imports) only when the client fetches their files for us.
    if ((params.initializationOptions as ClientFeatures | undefined)?.readFiles === true) {
      lints.useVirtualFolders((params.workspaceFolders ?? []).map((folder) => folder.uri));
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
    configuration.registerForChanges();
    log(`Locksmith server ready (Node ${process.version}); rules: ${ruleIds().join(', ') || 'none'}`);
  });

  // The client watches locksmith.json and package.json files (and says when the editor saved one): any
  // change may change any open file's findings, its configuration or (package.json "type") its parse.
  connection.onDidChangeWatchedFiles(() => {
    configuration.projectFilesChanged();
    lockMap.clear();
    clearPackageTypes();
    // A package.json names workspace packages and `imports`: what an import names may have changed.
    clearResolutions();
    lints.scheduleAll();
  });

  connection.onDidChangeConfiguration((change) => {
    configuration.settingsChanged(change.settings);
    lockMap.clear();
    lints.scheduleAll();
  });

  lints.listen();
  codeActions.listen();
  lockMapRequests.listen();
  connection.onRequest(ServerInfoRequest, (): ServerInfo => ({ pid: process.pid, node: process.version }));
  connection.onRequest(RulesRequest, (): RuleInfo[] => ruleIds().map(ruleInfo));

  documents.listen(connection);
  connection.listen();
  return {
    dispose() {
      lints.dispose();
    },
  };
}
