// The Locksmith language server as a program: plain LSP over stdio, IPC or a socket, chosen by argv
// (`locksmith-lsp --stdio` from any editor; the VS Code client forks it with --node-ipc).

import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { startServer } from './server';

const connection = createConnection(ProposedFeatures.all);
process.on('uncaughtException', (error) => {
  // Logged, not fatal: one bad document must not end the server for every other file.
  connection.console.error(`Uncaught: ${error.stack ?? error.message}`);
});
startServer(connection);
