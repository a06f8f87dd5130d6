// Where the model reads files that are not the one being linted: modules a file imports, `.lua`
// scripts it loads. The CLI and ESLint read the disk; the editor's server installs a host that
// answers from open documents and from files the client fetched through `vscode.workspace.fs`, so
// virtual workspaces work and unsaved edits of an imported module count.

import fs from 'node:fs';

export interface FileVersion {
  /** Changes whenever the content may have changed (a file's mtime and size, a document's version). */
  readonly version: string;
  readonly size: number;
}

export interface ModuleHost {
  /** Undefined when the file does not exist or cannot be read; never throws. */
  stat(filePath: string): FileVersion | undefined;
  /** Undefined when the file does not exist or cannot be read; never throws. */
  readFile(filePath: string): string | undefined;
  /** Entry names of a directory (workspace packages); empty when unreadable. Optional: hosts without it see no workspaces. */
  readDirectory?(dirPath: string): string[];
}

export const diskHost: ModuleHost = {
  stat(filePath) {
    try {
      const stats = fs.statSync(filePath, { throwIfNoEntry: false });
      if (!stats?.isFile()) return undefined;
      return { version: `${stats.mtimeMs}:${stats.size}`, size: stats.size };
    } catch {
      return undefined;
    }
  },
  readFile(filePath) {
    try {
      return fs.readFileSync(filePath, 'utf8');
    } catch {
      return undefined;
    }
  },
  readDirectory(dirPath) {
    try {
      return fs.readdirSync(dirPath);
    } catch {
      return [];
    }
  },
};

let currentHost: ModuleHost = diskHost;

/** The host every model read goes through. One per process (or worker thread). */
export function moduleHost(): ModuleHost {
  return currentHost;
}

/** Installs another host (the editor's server); returns the previous one so tests can restore it. */
export function setModuleHost(host: ModuleHost): ModuleHost {
  const previous = currentHost;
  currentHost = host;
  return previous;
}
