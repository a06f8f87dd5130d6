// Shared steps of the integration suite: open fixtures, wait on diagnostics events, run code actions.

import * as vscode from 'vscode';
import type { LocksmithApi } from '../../src/client/extension';

export const EXTENSION_ID = 'locksmith.locksmith';
const WAIT_MS = 30_000;

export async function api(): Promise<LocksmithApi> {
  const extension = vscode.extensions.getExtension<LocksmithApi>(EXTENSION_ID);
  if (extension === undefined) throw new Error(`${EXTENSION_ID} is not installed`);
  return extension.activate();
}

export function workspaceUri(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined) throw new Error('the suite needs a workspace folder');
  return vscode.Uri.joinPath(folder.uri, relative);
}

export function locksmithDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'locksmith');
}

export function ruleOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  if (typeof code === 'object') return String(code.value);
  return code === undefined ? undefined : String(code);
}

/** Resolves when `predicate` holds for the file's Locksmith diagnostics: checked now, then on each change event. */
export function waitForDiagnostics(uri: vscode.Uri, predicate: (diagnostics: vscode.Diagnostic[]) => boolean, what: string): Promise<vscode.Diagnostic[]> {
  return waitFor(vscode.languages.onDidChangeDiagnostics, () => {
    const diagnostics = locksmithDiagnostics(uri);
    return predicate(diagnostics) ? diagnostics : undefined;
  }, `diagnostics of ${vscode.workspace.asRelativePath(uri)}: ${what}`);
}

/** Checks `probe` now and after each event, until it returns a value or the wait times out. */
export function waitFor<T, E>(event: vscode.Event<E>, probe: () => T | undefined, what: string, timeoutMs = WAIT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const first = probe();
    if (first !== undefined) {
      resolve(first);
      return;
    }
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const subscription = event(() => {
      const value = probe();
      if (value === undefined) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(value);
    });
  });
}

export async function openFixture(relative: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceUri(relative));
  return vscode.window.showTextDocument(document, { preview: false });
}

/** Writes `text` to a workspace file (creating it) and returns its URI. */
export async function writeWorkspaceFile(relative: string, text: string): Promise<vscode.Uri> {
  const uri = workspaceUri(relative);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

/** A fresh copy of a fixture under a new name, so each test edits its own file. */
export async function copyFixture(relative: string, copyName: string): Promise<vscode.Uri> {
  const bytes = await vscode.workspace.fs.readFile(workspaceUri(relative));
  const uri = workspaceUri(copyName);
  await vscode.workspace.fs.writeFile(uri, bytes);
  return uri;
}

/** `vscode.executeCodeActionProvider`, retried while it is `Canceled` (it is, right after an editor opens). */
export async function codeActions(uri: vscode.Uri, range: vscode.Range, kind?: string, resolveCount = 0): Promise<vscode.CodeAction[]> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      return await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range, kind, resolveCount);
    } catch (error) {
      if (!(error instanceof Error && error.message.includes('Canceled')) || Date.now() > deadline) throw error;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

export function locksmithActions(actions: readonly vscode.CodeAction[]): vscode.CodeAction[] {
  return actions.filter((action) => /\(no-|\(require-|Fix all|Disable |Show documentation|Fix this /.test(action.title) || action.kind?.value.startsWith('source.fixAll.locksmith') === true);
}

/** Applies a code action's edit and waits until the document's text changed. */
export async function applyAction(uri: vscode.Uri, action: vscode.CodeAction): Promise<void> {
  if (action.edit === undefined) throw new Error(`code action "${action.title}" has no edit`);
  const document = await vscode.workspace.openTextDocument(uri);
  const before = document.version;
  const applied = await vscode.workspace.applyEdit(action.edit);
  if (!applied) throw new Error(`the edit of "${action.title}" was refused`);
  if (document.version === before) throw new Error(`the edit of "${action.title}" changed nothing`);
}

/** Parses the text as the file's dialect with the same parser the plugin uses; throws on a syntax error. */
export function assertParses(document: vscode.TextDocument): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const parser = require('@typescript-eslint/parser') as { parse(code: string, options: object): unknown };
  parser.parse(document.getText(), { filePath: document.uri.fsPath, ecmaVersion: 'latest', sourceType: 'module', jsx: document.uri.fsPath.endsWith('x') });
}

/** Asks the test runner (outside the browser) to act on the workbench UI. */
export async function ui<T>(command: Record<string, unknown>): Promise<T> {
  const control = process.env.LOCKSMITH_TEST_CONTROL;
  if (control === undefined) throw new Error('LOCKSMITH_TEST_CONTROL is not set: UI tests run under extension/test/scripts/run-vscode.mjs');
  const response = await fetch(control, { method: 'POST', body: JSON.stringify(command) });
  if (!response.ok) throw new Error(`UI command ${JSON.stringify(command)} failed: ${await response.text()}`);
  return (await response.json()) as T;
}

export async function updateSetting(section: string, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Workspace);
}

/** The rules the running server lints with, by id, with their doc links. */
export async function serverRules(): Promise<Map<string, string | null>> {
  const rules = await (await api()).rules();
  return new Map(rules.map((rule) => [rule.id, rule.docsUrl]));
}
