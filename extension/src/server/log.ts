// The server's output channel: one timestamped line per event, through the connection's console.

import type { Connection } from 'vscode-languageserver/node';

export type Log = (line: string) => void;

export function createLog(connection: Connection): Log {
  return (line) => {
    connection.console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  };
}
