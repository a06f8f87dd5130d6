// The language server over real LSP messages (in process): diagnostics, version-pinned code actions, stale ones dropped.

import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'mocha';
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import {
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type CodeAction,
  type Diagnostic,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentEdit,
  type AnnotatedTextEdit,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { startServer } from '../../../extension/src/server/server';
import { ruleIds } from '../../../extension/src/server/lint';

const URI = 'file:///work/jobs/release.ts';
const TEXT = `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function run(id: string): Promise<void> {
  const lockKey = \`lock:job:\${id}\`;
  const token = randomUUID();
  if ((await redis.set(lockKey, token, 'PX', 30000, 'NX')) !== 'OK') return;
  try {
    await work();
  } finally {
    await redis.del(lockKey);
  }
}
async function work(): Promise<void> {}
`;

describe('language server protocol', function () {
  let client: ProtocolConnection;
  let server: { dispose(): void } | undefined;
  const published: PublishDiagnosticsParams[] = [];
  const waiters: (() => void)[] = [];
  let settings: Record<string, unknown> = {};

  function diagnosticsFor(version: number | null): Promise<Diagnostic[]> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        const match = published.findLast(
          (params) => params.uri === URI && (version === null ? params.version === undefined : params.version === version),
        );
        if (match !== undefined) resolve(match.diagnostics);
        return match !== undefined;
      };
      if (!check()) waiters.push(() => void check());
    });
  }

  async function codeActions(diagnostics: Diagnostic[], only?: string[]): Promise<CodeAction[]> {
    const line = diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return client.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: URI },
      range: line,
      context: { diagnostics, ...(only === undefined ? {} : { only }) },
    });
  }

  before(async function () {
    if (!ruleIds().includes('no-unsafe-release')) this.skip();
    const clientToServer = new PassThrough();
    const serverToClient = new PassThrough();
    server = startServer(
      createConnection(ProposedFeatures.all, new StreamMessageReader(clientToServer), new StreamMessageWriter(serverToClient)),
    );
    client = createProtocolConnection(new StreamMessageReader(serverToClient), new StreamMessageWriter(clientToServer));
    client.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => settings));
    client.onRequest('client/registerCapability', () => null);
    client.onNotification('window/logMessage', () => undefined);
    client.onNotification('locksmith/status', () => undefined);
    client.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      published.push(params);
      for (const waiter of waiters.splice(0)) waiter();
    });
    client.listen();
    await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: { workspace: { configuration: true } } });
    await client.sendNotification('initialized', {});
  });

  after(() => {
    client.dispose();
    // The model reads other modules through the host the server installed: give it back.
    server?.dispose();
  });

  it('publishes findings for an opened document, tagged with its version', async () => {
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'typescript', version: 1, text: TEXT } });
    const diagnostics = await diagnosticsFor(1);
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.source, diagnostic.range.start.line]),
      [['no-unsafe-release', 'locksmith', 10]],
    );
  });

  it('drops quick fixes for diagnostics of an older version, and answers for the current one pinned to it', async () => {
    const stale = await diagnosticsFor(1);
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// edited\n' }],
    });
    assert.deepEqual(await codeActions(stale), [], 'the old diagnostic no longer matches a finding');
    const current = await diagnosticsFor(2);
    assert.equal(current[0]?.range.start.line, 11);
    const actions = await codeActions(current);
    const preferred = actions.find((action) => action.isPreferred === true);
    assert.ok(preferred !== undefined);
    assert.deepEqual((preferred.edit?.documentChanges?.[0] as TextDocumentEdit).textDocument, { uri: URI, version: 2 });
  });

  it('resolves "Fix all" only for the version it was offered for', async () => {
    const current = await diagnosticsFor(2);
    const fixAll = (await codeActions(current)).find((action) => action.title === 'Fix all no-unsafe-release problems in this file');
    assert.ok(fixAll !== undefined);
    const resolved = await client.sendRequest<CodeAction>('codeAction/resolve', fixAll);
    const edit = resolved.edit?.documentChanges?.[0] as TextDocumentEdit;
    assert.equal(edit.textDocument.version, 2);
    const fixedText = TextDocument.applyEdits(TextDocument.create(URI, 'typescript', 2, `// edited\n${TEXT}`), edit.edits as TextEdit[]);
    assert.doesNotMatch(fixedText, /redis\.del\(/);

    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 3 },
      contentChanges: [{ text: `// again\n${TEXT}` }],
    });
    const staleResolve = await client.sendRequest<CodeAction>('codeAction/resolve', fixAll);
    assert.equal(staleResolve.edit, undefined, 'a fix-all computed for version 2 is not applied to version 3');
  });

  it('answers source.fixAll.locksmith (fix on save) with no edit: no rule has an autofix, and suggestions are never applied unseen', async () => {
    const current = await diagnosticsFor(3);
    assert.ok(
      current.some((diagnostic) => diagnostic.code === 'no-unsafe-release'),
      'the finding has a suggestion that fix on save could have applied',
    );
    const actions = await codeActions([], ['source.fixAll.locksmith']);
    assert.deepEqual(actions, []);
  });

  it('answers locksmith/preferredFixes with an edit pinned to the version, every change needing confirmation, that removes the finding', async () => {
    const edit = await client.sendRequest<WorkspaceEdit | null>('locksmith/preferredFixes', { uri: URI, version: 3 });
    assert.ok(edit !== null);
    const change = edit.documentChanges?.[0] as TextDocumentEdit;
    assert.deepEqual(change.textDocument, { uri: URI, version: 3 });
    assert.ok(change.edits.length > 0);
    for (const textEdit of change.edits as AnnotatedTextEdit[]) {
      assert.equal(typeof textEdit.annotationId, 'string', 'each change carries an annotation');
      assert.equal(edit.changeAnnotations?.[textEdit.annotationId]?.needsConfirmation, true, 'the annotation asks for confirmation');
      assert.match(edit.changeAnnotations[textEdit.annotationId]!.label, /\(no-unsafe-release\)$/, 'the preview names the rule');
      assert.ok(textEdit.range.end.line - textEdit.range.start.line <= 3, 'each change covers its own finding, not the whole file');
    }
    const fixedText = TextDocument.applyEdits(TextDocument.create(URI, 'typescript', 3, `// again\n${TEXT}`), change.edits as TextEdit[]);
    assert.doesNotMatch(fixedText, /redis\.del\(/);
    assert.ok(fixedText.length - TEXT.length < 400, 'the edit is small');
    assert.equal(await client.sendRequest('locksmith/preferredFixes', { uri: URI, version: 2 }), null, 'a stale version gets no edit');
    assert.equal(
      await client.sendRequest('locksmith/preferredFixes', { uri: 'file:///work/jobs/not-open.ts' }),
      null,
      'a closed document gets no edit',
    );
  });

  it('answers locksmith/preferredFixes with null once the file has nothing to fix', async () => {
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 4 },
      contentChanges: [{ text: 'export const clean = 1;\n' }],
    });
    assert.deepEqual(await diagnosticsFor(4), []);
    assert.equal(await client.sendRequest('locksmith/preferredFixes', { uri: URI, version: 4 }), null);
  });

  it('re-lints on a settings change and clears diagnostics on close', async () => {
    settings = { rules: { 'no-unsafe-release': 'off' } };
    const before = published.length;
    await client.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await new Promise<void>((resolve) => waiters.push(resolve));
    assert.ok(published.length > before);
    assert.deepEqual(published.at(-1)!.diagnostics, []);
    await client.sendNotification('textDocument/didClose', { textDocument: { uri: URI } });
    await diagnosticsFor(null);
  });
});
