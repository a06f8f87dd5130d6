// Shared steps of the integration suite: open fixtures, wait on diagnostics events, run code actions.

import * as assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { LocksmithApi } from '../../src/client/extension';
import type { ExpectedRelated } from './fixtures';

export const EXTENSION_ID = 'locksmith.locksmith';
/**
 * How long a wait on a condition may take before the test fails. Every wait ends as soon as its
 * condition holds, so the limit costs nothing on an idle machine; it is minutes so that a machine
 * whose cores are all busy (`npm run test:vscode:busy`) still passes. Mocha's per-test limit
 * (suite/index.ts) is larger than a few of these.
 */
export const WAIT_MS = 3 * 60_000;

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
export function waitForDiagnostics(
  uri: vscode.Uri,
  predicate: (diagnostics: vscode.Diagnostic[]) => boolean,
  what: string,
): Promise<vscode.Diagnostic[]> {
  return waitFor(
    vscode.languages.onDidChangeDiagnostics,
    () => {
      const diagnostics = locksmithDiagnostics(uri);
      return predicate(diagnostics) ? diagnostics : undefined;
    },
    `diagnostics of ${vscode.workspace.asRelativePath(uri)}: ${what}`,
  );
}

/** Resolves on the first event that `matches`; events before the call are not seen. */
export function waitForEvent<E>(event: vscode.Event<E>, matches: (value: E) => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`));
    }, timeoutMs);
    const subscription = event((value) => {
      if (!matches(value)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    });
  });
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
      reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`));
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

/**
 * Creates a workspace folder, and each missing parent, one level at a time: each level only after
 * the editor's file watcher reported the one above it created. VS Code's recursive watcher on Linux
 * (@parcel/watcher over inotify) starts watching a new folder when it handles that folder's creation,
 * without looking inside: a folder created in one it has not started watching yet (`mkdir -p a/b`,
 * and `workspace.fs.writeFile` creates missing parents that way) is never watched, so nothing written
 * in it later is ever reported. The watcher handles a folder's creation before it reports it, so once
 * the event is seen the folder is watched.
 */
export async function createWatchedFolder(relative: string): Promise<vscode.Uri> {
  const levels = relative.split('/').filter((part) => part !== '');
  const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, true);
  try {
    for (let depth = 1; depth <= levels.length; depth += 1) {
      const folder = workspaceUri(levels.slice(0, depth).join('/'));
      if (await exists(folder)) continue;
      const key = folder.toString();
      const reported = waitForEvent(
        watcher.onDidCreate,
        (created) => created.toString() === key,
        `the file watcher to report ${vscode.workspace.asRelativePath(folder)} created`,
      );
      await vscode.workspace.fs.createDirectory(folder);
      await reported;
    }
  } finally {
    watcher.dispose();
  }
  return workspaceUri(relative);
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return false;
    throw error;
  }
}

/** A fresh copy of a fixture under a new name, so each test edits its own file. */
export async function copyFixture(relative: string, copyName: string): Promise<vscode.Uri> {
  const bytes = await vscode.workspace.fs.readFile(workspaceUri(relative));
  const uri = workspaceUri(copyName);
  await vscode.workspace.fs.writeFile(uri, bytes);
  return uri;
}

let copies = 0;

/** Opens a fresh copy of a fixture (under `copies/`, same extension), so each test edits its own file. */
export async function openCopy(fixture: string): Promise<vscode.TextEditor> {
  copies += 1;
  const dot = fixture.lastIndexOf('.');
  const name = fixture.slice(fixture.lastIndexOf('/') + 1, dot);
  const uri = await copyFixture(fixture, `copies/${name}-${copies}${fixture.slice(dot)}`);
  return vscode.window.showTextDocument(uri, { preview: false });
}

export async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.files.saveAll');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export function ofRule(ruleId: string) {
  return (diagnostic: vscode.Diagnostic): boolean => ruleOf(diagnostic) === ruleId;
}

/** Waits for the file's first finding of the rule. */
export async function findingOf(uri: vscode.Uri, ruleId: string): Promise<vscode.Diagnostic> {
  const diagnostics = await waitForDiagnostics(uri, (all) => all.some(ofRule(ruleId)), `a ${ruleId} finding`);
  return diagnostics.find(ofRule(ruleId))!;
}

/** The quick fixes offered for a finding that belong to its rule (its suggestions and the per-rule actions). */
export async function actionsFor(uri: vscode.Uri, diagnostic: vscode.Diagnostic, resolveCount = 0): Promise<vscode.CodeAction[]> {
  const actions = await codeActions(uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value, resolveCount);
  return actions.filter(
    (action) =>
      action.diagnostics?.some((other) => ruleOf(other) === ruleOf(diagnostic)) === true ||
      action.title.includes(String(ruleOf(diagnostic))),
  );
}

/** Of a finding's actions, those that fix it: its autofix and each suggestion, in the order offered. */
export function fixesOf(actions: readonly vscode.CodeAction[], ruleId: string): vscode.CodeAction[] {
  return actions.filter((action) => action.title.endsWith(`(${ruleId})`) || action.title === `Fix this ${ruleId} problem`);
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
  return actions.filter(
    (action) =>
      /\(no-|\(require-|Fix all|Disable |Show documentation|Fix this /.test(action.title) ||
      action.kind?.value.startsWith('source.fixAll.locksmith') === true,
  );
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
  parser.parse(document.getText(), {
    filePath: document.uri.fsPath,
    ecmaVersion: 'latest',
    sourceType: 'module',
    jsx: document.uri.fsPath.endsWith('x'),
  });
}

/** The diagnostic's related locations are exactly these: same file, message, line, and text starting as expected. */
export function assertRelated(document: vscode.TextDocument, diagnostic: vscode.Diagnostic, expected: readonly ExpectedRelated[]): void {
  const shown = (diagnostic.relatedInformation ?? []).map((related, index) => {
    assert.equal(related.location.uri.toString(), document.uri.toString(), 'a related location is in the same file');
    const text = document.getText(related.location.range);
    const prefix = expected[index]?.text;
    return {
      message: related.message,
      line: related.location.range.start.line + 1,
      text: prefix !== undefined && text.startsWith(prefix) ? prefix : text,
    };
  });
  assert.deepEqual(shown, expected, `related locations of the ${String(ruleOf(diagnostic))} finding`);
}

/** Asks the test runner (outside the browser) to act on the workbench UI. */
export async function ui<T>(command: Record<string, unknown>): Promise<T> {
  const control = process.env.LOCKSMITH_TEST_CONTROL;
  if (control === undefined) throw new Error('LOCKSMITH_TEST_CONTROL is not set: UI tests run under extension/test/scripts/run-vscode.mjs');
  const response = await fetch(control, { method: 'POST', body: JSON.stringify(command) });
  if (!response.ok) throw new Error(`UI command ${JSON.stringify(command)} failed: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Sets a workspace setting and waits until the extension host reads the new value. The language
 * client forwards the change to the server from its own configuration listener, which runs before
 * this one, so a request sent after this resolves reaches the server after the change.
 */
export async function updateSetting(section: string, key: string, value: unknown): Promise<void> {
  const current = (): unknown => vscode.workspace.getConfiguration(section).inspect(key)?.workspaceValue;
  const applied = waitFor(
    vscode.workspace.onDidChangeConfiguration,
    () => (isDeepStrictEqual(current(), value) ? true : undefined),
    `the workspace setting ${section}.${key} = ${JSON.stringify(value)}`,
  );
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Workspace);
  await applied;
}

/** The rules the running server lints with, by id, with their doc links. */
export async function serverRules(): Promise<Map<string, string | null>> {
  const rules = await (await api()).rules();
  return new Map(rules.map((rule) => [rule.id, rule.docsUrl]));
}
