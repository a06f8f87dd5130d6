// The Explorer's Locksmith view: every lock in the workspace, grouped by its key or name, each
// acquisition with where the lock is released and renewed, its TTL, its token, its writes' fencing and
// its findings. The server builds the map from the plugin's lock model (LockMapRequest); this only
// renders it and asks again, for the changed files only, when files change.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LockMapRequest, lockLine, type LockMapFile, type LockMapLock, type LockMapParams, type LockMapResult } from '../shared/settings';

type Range = LockMapLock['acquired'];

export type LockMapNode =
  | { type: 'group'; name: string; kind: string; locks: { uri: string; lock: LockMapLock }[] }
  | { type: 'lock'; uri: string; lock: LockMapLock }
  | { type: 'detail'; label: string; description?: string | undefined; tooltip?: string; icon: string; uri?: string; range?: Range };

export const OPEN_LOCATION_COMMAND = 'locksmith.openLockLocation';

export class LockMapView implements vscode.TreeDataProvider<LockMapNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<LockMapNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly indexed = new vscode.EventEmitter<LockMapResult>();
  /** Fires after each index of the workspace (tests wait on it; the view refreshes from it). */
  readonly onDidIndex = this.indexed.event;
  private groups: Extract<LockMapNode, { type: 'group' }>[] | undefined;
  private running: Promise<LockMapResult> | undefined;
  private again = false;
  private cancel: vscode.CancellationTokenSource | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly client: LanguageClient,
    private readonly files: (token: vscode.CancellationToken) => Promise<vscode.Uri[]>,
    private readonly output: vscode.LogOutputChannel,
  ) {
    // Any script saved, created or deleted may add, move or remove a lock: index again (only changed files are analysed).
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}');
    this.disposables.push(
      watcher,
      watcher.onDidChange(() => {
        this.refreshSoon();
      }),
      watcher.onDidCreate(() => {
        this.refreshSoon();
      }),
      watcher.onDidDelete(() => {
        this.refreshSoon();
      }),
      vscode.workspace.onDidSaveTextDocument(() => {
        this.refreshSoon();
      }),
      this.changed,
      this.indexed,
    );
  }

  /** The last index, once there is one. */
  get lastGroups(): readonly Extract<LockMapNode, { type: 'group' }>[] | undefined {
    return this.groups;
  }

  /** Indexes the workspace now (the server re-analyses only what changed) and redraws the view. */
  refresh(): Promise<LockMapResult> {
    if (this.running) {
      // One index at a time; a change during one starts another when it ends.
      this.again = true;
      return this.running;
    }
    this.running = this.index().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.running;
  }

  /** The map as indexed: the index under way, or the first one, or the last one. */
  async ready(): Promise<readonly Extract<LockMapNode, { type: 'group' }>[]> {
    if (this.running) await this.running;
    else if (this.groups === undefined) await this.refresh();
    return this.groups ?? [];
  }

  /** Stops an index under way (the server stops at its next file; the map stays what it was). */
  cancelIndexing(): void {
    this.cancel?.cancel();
  }

  private refreshSoon(): void {
    if (this.groups === undefined) return;
    // Coalesces a burst of file events (a save-all, a git checkout) into one request.
    if (this.refreshTimer !== undefined) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void this.refresh();
    }, 300);
  }

  private async index(): Promise<LockMapResult> {
    this.cancel = new vscode.CancellationTokenSource();
    const token = this.cancel.token;
    try {
      await this.client.start();
      const uris = await this.files(token);
      const params: LockMapParams = { uris: uris.map((uri) => this.client.code2ProtocolConverter.asUri(uri)) };
      const result = await this.client.sendRequest<LockMapResult>(LockMapRequest, params, token);
      // A cancelled (or superseded) index lists only the files it reached: the map stays what it was,
      // and the next index (any change, the view's next showing) completes it.
      const groups = group(result.files);
      if (!result.cancelled) this.groups = groups;
      this.output.info(
        `Lock map: ${result.indexed} files (${result.analysed} analysed) in ${result.ms} ms, ${groups.length} locks${result.cancelled ? ' (cancelled)' : ''}.`,
      );
      this.changed.fire(undefined);
      this.indexed.fire(result);
      return result;
    } finally {
      this.cancel.dispose();
      this.cancel = undefined;
    }
  }

  getTreeItem(node: LockMapNode): vscode.TreeItem {
    if (node.type === 'group') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
      const findings = node.locks.reduce((sum, entry) => sum + entry.lock.findings.length, 0);
      item.description = `${node.kind}${findings === 0 ? '' : ` · ${findings} finding${findings === 1 ? '' : 's'}`}`;
      item.iconPath = new vscode.ThemeIcon(findings === 0 ? 'lock' : 'warning');
      item.tooltip = `${node.kind} lock ${node.name}: acquired in ${node.locks.length} place${node.locks.length === 1 ? '' : 's'}`;
      item.contextValue = 'lockGroup';
      item.id = `group:${node.kind}:${node.name}`;
      return item;
    }
    if (node.type === 'lock') {
      const { lock } = node;
      const item = new vscode.TreeItem(`acquired · ${where(node.uri, lock.acquired)}`, vscode.TreeItemCollapsibleState.Collapsed);
      item.description = `TTL ${lock.ttl} · token ${lock.token} · ${lock.writes}`;
      item.tooltip = lockLine(lock);
      item.iconPath = new vscode.ThemeIcon('key');
      item.command = openCommand(node.uri, lock.acquired);
      item.contextValue = 'lockAcquisition';
      item.id = `lock:${node.uri}:${lock.acquired.start.line}:${lock.acquired.start.character}`;
      return item;
    }
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    if (node.description !== undefined) item.description = node.description;
    if (node.tooltip !== undefined) item.tooltip = node.tooltip;
    item.iconPath = new vscode.ThemeIcon(node.icon);
    if (node.uri !== undefined && node.range !== undefined) item.command = openCommand(node.uri, node.range);
    return item;
  }

  async getChildren(node?: LockMapNode): Promise<LockMapNode[]> {
    if (node === undefined) {
      // The view's first showing starts the index; the view shows its progress bar meanwhile.
      if (this.groups === undefined) await this.refresh();
      return this.groups ?? [];
    }
    if (node.type === 'group') return node.locks.map(({ uri, lock }) => ({ type: 'lock', uri, lock }));
    if (node.type === 'lock') return details(node.uri, node.lock);
    return [];
  }

  /** For `reveal` (the CodeLens's "show in the lock map"): a lock's group; groups and details are found from the top. */
  getParent(node: LockMapNode): LockMapNode | undefined {
    if (node.type !== 'lock') return undefined;
    return this.groups?.find((candidate) => candidate.locks.some((entry) => entry.lock === node.lock));
  }

  dispose(): void {
    if (this.refreshTimer !== undefined) clearTimeout(this.refreshTimer);
    this.cancel?.cancel();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** Locks grouped by kind and name, across files; groups with findings first, then by name. */
function group(files: readonly LockMapFile[]): Extract<LockMapNode, { type: 'group' }>[] {
  const groups = new Map<string, Extract<LockMapNode, { type: 'group' }>>();
  for (const file of files) {
    for (const lock of file.locks) {
      const id = `${lock.kind}\u0000${lock.name}`;
      let entry = groups.get(id);
      if (entry === undefined) {
        entry = { type: 'group', name: lock.name, kind: lock.kind, locks: [] };
        groups.set(id, entry);
      }
      entry.locks.push({ uri: file.uri, lock });
    }
  }
  const findings = (entry: Extract<LockMapNode, { type: 'group' }>): number =>
    entry.locks.reduce((sum, { lock }) => sum + lock.findings.length, 0);
  return [...groups.values()].sort(
    (left, right) => Number(findings(right) > 0) - Number(findings(left) > 0) || left.name.localeCompare(right.name),
  );
}

function details(uri: string, lock: LockMapLock): LockMapNode[] {
  const nodes: LockMapNode[] = [];
  if (lock.releases.length === 0) nodes.push({ type: 'detail', label: 'never released here', icon: 'unlock' });
  for (const site of lock.releases)
    nodes.push({
      type: 'detail',
      label: `released · ${where(uri, site.range)}`,
      description: site.note,
      icon: 'unlock',
      uri,
      range: site.range,
    });
  for (const site of lock.renewals)
    nodes.push({
      type: 'detail',
      label: `renewed · ${where(uri, site.range)}`,
      description: site.note,
      icon: 'history',
      uri,
      range: site.range,
    });
  nodes.push({ type: 'detail', label: `TTL ${lock.ttl}`, icon: 'clock' });
  nodes.push({
    type: 'detail',
    label: `token ${lock.token}`,
    description: lock.tokenUnique === true ? 'unique' : lock.tokenUnique === false ? 'not unique' : undefined,
    icon: 'key',
  });
  nodes.push({ type: 'detail', label: lock.writes, icon: lock.fenced === false ? 'shield' : 'database' });
  for (const finding of lock.findings) {
    nodes.push({
      type: 'detail',
      label: `${finding.ruleId} · ${where(uri, finding.range)}`,
      description: finding.message,
      tooltip: finding.message,
      icon: 'warning',
      uri,
      range: finding.range,
    });
  }
  return nodes;
}

/** `worker.ts:13`: the file's name and the 1-based line. */
function where(uri: string, range: Range): string {
  return `${uri.slice(uri.lastIndexOf('/') + 1)}:${range.start.line + 1}`;
}

function openCommand(uri: string, range: Range): vscode.Command {
  return { title: 'Open', command: OPEN_LOCATION_COMMAND, arguments: [uri, range] };
}

/** Opens the file at the range (the tree's click). */
export async function openLocation(uri: string, range: Range): Promise<vscode.TextEditor> {
  const selection = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
  return vscode.window.showTextDocument(vscode.Uri.parse(uri), { selection, preview: true });
}
