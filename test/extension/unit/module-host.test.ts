// The server's module host: imported modules read from open documents first, then the disk, or in a
// virtual workspace from what the client fetched; findings of an importer follow an unsaved edit of
// the module it imports, and a deleted or broken module changes nothing and throws nothing.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { after, afterEach, before, describe, it } from 'mocha';
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import {
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
// The instance the server imports (the package's build), so the host installed is the one the model reads.
import { clearResolutions, setModuleHost, type ModuleHost } from 'eslint-plugin-locksmith/module-host';
import {
  EditorModuleHost,
  ImportIndex,
  MAX_FETCHES_PER_LINT,
  VirtualFolders,
  isVirtualPath,
} from '../../../extension/src/server/module-host';
import { lintText, ruleIds, type LintOutcome } from '../../../extension/src/server/lint';
import { startServer } from '../../../extension/src/server/server';
import { Settings, type ReadFileResult, type ReadFilesParams } from '../../../extension/src/shared/settings';

// A helper that says whether it got the lock: a caller that drops its answer runs unlocked.
const RETURNS_ANSWER = `import Redis from 'ioredis';

const redis = new Redis();

export async function acquireLock(key: string, token: string): Promise<boolean> {
  const reply = await redis.set(key, token, 'PX', 30000, 'NX');
  return reply === 'OK';
}
`;
// The same helper throwing when another worker holds the lock: nothing to check at the call.
const THROWS_WHEN_HELD = `import Redis from 'ioredis';

const redis = new Redis();

export async function acquireLock(key: string, token: string): Promise<void> {
  const reply = await redis.set(key, token, 'PX', 30000, 'NX');
  if (reply !== 'OK') throw new Error(\`\${key} is held by another worker\`);
}
`;
const IMPORTER = `import { randomUUID } from 'node:crypto';
import { acquireLock } from './locks';

export async function runJob(id: string): Promise<void> {
  const token = randomUUID();
  await acquireLock(\`lock:job:\${id}\`, token);
  await work(id);
}

async function work(id: string): Promise<void> {}
`;

const settings = Settings.from(undefined);

function rulesOf(outcome: LintOutcome): string[] {
  if (outcome.kind !== 'linted') assert.fail(`expected a lint, got ${JSON.stringify(outcome)}`);
  return outcome.messages.map((message) => message.ruleId ?? '');
}

function documentsOf(open: Map<string, TextDocument>): { get(uri: string): TextDocument | undefined } {
  return { get: (uri) => open.get(uri) };
}

describe("the server's module host", () => {
  let dir = '';
  let previous: ModuleHost | undefined;

  before(function () {
    if (!ruleIds().includes('require-acquire-check')) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-host-'));
  });

  afterEach(() => {
    if (previous !== undefined) setModuleHost(previous);
    previous = undefined;
    clearResolutions();
  });

  after(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A project of its own per test: the model caches modules by path for the process. */
  function project(name: string, helper: string | undefined): { importer: string; helperPath: string; helperUri: string } {
    const root = path.join(dir, name);
    fs.mkdirSync(root, { recursive: true });
    const importer = path.join(root, 'job.ts');
    const helperPath = path.join(root, 'locks.ts');
    fs.writeFileSync(importer, IMPORTER);
    if (helper !== undefined) fs.writeFileSync(helperPath, helper);
    return { importer, helperPath, helperUri: pathToFileURL(helperPath).toString() };
  }

  function lintImporter(importer: string): LintOutcome {
    return lintText({ text: IMPORTER, filePath: importer, languageId: 'typescript', settings });
  }

  it('reads an open document before the disk, and a new version of it as a new module', () => {
    const { helperPath, helperUri } = project('open-wins', RETURNS_ANSWER);
    const open = new Map<string, TextDocument>();
    const host = new EditorModuleHost(documentsOf(open));
    const onDisk = host.stat(helperPath);
    assert.ok(onDisk !== undefined);
    assert.equal(host.readFile(helperPath), RETURNS_ANSWER);

    open.set(helperUri, TextDocument.create(helperUri, 'typescript', 1, THROWS_WHEN_HELD));
    host.opened(helperUri);
    const first = host.stat(helperPath);
    assert.ok(first !== undefined);
    assert.equal(host.readFile(helperPath), THROWS_WHEN_HELD, "the editor's unsaved text, not the disk's");
    assert.notEqual(first.version, onDisk.version);
    assert.equal(first.size, Buffer.byteLength(THROWS_WHEN_HELD));

    TextDocument.update(open.get(helperUri)!, [{ text: `// edited\n${THROWS_WHEN_HELD}` }], 2);
    assert.notEqual(host.stat(helperPath)?.version, first.version, 'an edit bumps the version, so the model parses the module again');

    // Closed and opened again, the editor counts versions from 1: still a version the model has not seen.
    open.delete(helperUri);
    host.closed(helperUri);
    assert.equal(host.stat(helperPath)?.version, onDisk.version, "closed, it is the disk's file again");
    open.set(helperUri, TextDocument.create(helperUri, 'typescript', 1, RETURNS_ANSWER));
    host.opened(helperUri);
    assert.notEqual(host.stat(helperPath)?.version, first.version);
  });

  it("lints an importer against the helper's unsaved text, and back when the edit is undone", () => {
    const { importer, helperUri } = project('unsaved-helper', RETURNS_ANSWER);
    const open = new Map<string, TextDocument>();
    const host = new EditorModuleHost(documentsOf(open));
    previous = setModuleHost(host);
    assert.deepEqual(
      rulesOf(lintImporter(importer)),
      ['locksmith/require-acquire-check'],
      'the helper on disk returns its answer, which the call drops',
    );

    open.set(helperUri, TextDocument.create(helperUri, 'typescript', 1, RETURNS_ANSWER));
    host.opened(helperUri);
    TextDocument.update(open.get(helperUri)!, [{ text: THROWS_WHEN_HELD }], 2);
    assert.deepEqual(rulesOf(lintImporter(importer)), [], 'the unsaved helper throws when the lock is held');

    TextDocument.update(open.get(helperUri)!, [{ text: RETURNS_ANSWER }], 3);
    assert.deepEqual(rulesOf(lintImporter(importer)), ['locksmith/require-acquire-check']);
  });

  it('treats an unparsable open helper, and a deleted one, as absent: no finding from it, nothing thrown', () => {
    const { importer, helperPath, helperUri } = project('broken-helper', RETURNS_ANSWER);
    const open = new Map<string, TextDocument>();
    const host = new EditorModuleHost(documentsOf(open));
    previous = setModuleHost(host);
    assert.deepEqual(rulesOf(lintImporter(importer)), ['locksmith/require-acquire-check']);

    open.set(helperUri, TextDocument.create(helperUri, 'typescript', 1, `${RETURNS_ANSWER}\nexport async function (((`));
    host.opened(helperUri);
    assert.deepEqual(rulesOf(lintImporter(importer)), [], 'a module that does not parse answers nothing');

    open.delete(helperUri);
    host.closed(helperUri);
    fs.rmSync(helperPath);
    assert.equal(host.stat(helperPath), undefined);
    assert.equal(host.readFile(helperPath), undefined);
    assert.deepEqual(rulesOf(lintImporter(importer)), [], 'a deleted module answers nothing');
  });

  it('records what a lint read, for the index of who imports what', () => {
    const { importer, helperPath } = project('recorded', RETURNS_ANSWER);
    const host = new EditorModuleHost(documentsOf(new Map()));
    previous = setModuleHost(host);
    const recorded = host.record(() => lintImporter(importer));
    assert.ok(recorded.reads.has(helperPath), 'the helper was read');
    assert.deepEqual(recorded.wanted, [], 'nothing is fetched for a file: workspace');

    const index = new ImportIndex();
    index.add('file:///job.ts', recorded.reads, importer);
    index.add('file:///job.ts', new Set([importer]), importer);
    assert.deepEqual(
      [...index.readsOfDocument('file:///job.ts')],
      [...recorded.reads].filter((read) => read !== importer),
      'a later lint that read less keeps what the first read',
    );
    assert.deepEqual(index.readersOfPath(helperPath), ['file:///job.ts']);
    assert.deepEqual(index.readersOfPath(importer), [], 'a document is not its own reader');
    index.forget('file:///job.ts');
    assert.deepEqual(index.readersOfPath(helperPath), []);
  });

  it("maps a virtual folder's URIs to absolute paths and back, and reads none of them from the disk", () => {
    const folders = new VirtualFolders(['file:///work/local', 'memfs:/project', 'vscode-vfs://github/acme/jobs/']);
    assert.equal(folders.size, 2);
    assert.equal(folders.toPath('memfs:/project/src/job.ts'), '/~locksmith-virtual/0/src/job.ts');
    assert.equal(folders.toPath('vscode-vfs://github/acme/jobs/src/a%20b.ts'), '/~locksmith-virtual/1/src/a b.ts');
    assert.equal(folders.toUri('/~locksmith-virtual/1/src/a b.ts'), 'vscode-vfs://github/acme/jobs/src/a%20b.ts');
    assert.equal(
      folders.toUri('C:\\~locksmith-virtual\\0\\src\\locks.ts'),
      'memfs:/project/src/locks.ts',
      'as path.resolve gives it on Windows',
    );
    assert.equal(folders.toPath('git:/project/src/job.ts?%7B%22ref%22%3A%22HEAD%22%7D'), undefined, 'outside every virtual folder');
    assert.equal(folders.toPath('memfs:/project/src/job.ts?ref=HEAD'), undefined, 'a URI with a query names no file');
    assert.equal(folders.toUri('/work/local/job.ts'), undefined);
    assert.ok(isVirtualPath('/~locksmith-virtual/0/src/job.ts'));
    assert.ok(!isVirtualPath('/work/local/job.ts'));
  });

  it('asks for unknown virtual paths within a cap per lint, answers from what was fetched, and never from the disk', () => {
    const unreadable: ModuleHost = {
      stat: () => assert.fail('the disk is not read for a virtual path'),
      readFile: () => assert.fail('the disk is not read for a virtual path'),
    };
    const host = new EditorModuleHost(documentsOf(new Map()), new VirtualFolders(['memfs:/project']), unreadable);
    const locks = '/~locksmith-virtual/0/src/locks.ts';
    const recorded = host.record(() => {
      assert.equal(host.stat(locks), undefined, 'unknown until fetched');
      for (let index = 0; index < MAX_FETCHES_PER_LINT + 10; index += 1) host.stat(`/~locksmith-virtual/0/src/other-${index}.ts`);
      return host.readDirectory('/~locksmith-virtual/0/packages');
    });
    assert.deepEqual(recorded.result, []);
    assert.equal(recorded.wanted.length, MAX_FETCHES_PER_LINT);
    assert.equal(recorded.wanted[0], locks);

    const requests = host.beginFetch(recorded.wanted);
    assert.equal(requests[0]?.uri, 'memfs:/project/src/locks.ts');
    assert.deepEqual(host.record(() => host.stat(locks)).wanted, [], 'a path being fetched is not asked for again');
    const texts = new Map<string, string | null>([
      ['memfs:/project/src/locks.ts', RETURNS_ANSWER],
      ['memfs:/project/src/other-0.ts', null],
    ]);
    assert.equal(host.endFetch(requests, texts), true);
    assert.equal(host.readFile(locks), RETURNS_ANSWER);
    assert.equal(host.stat(locks)?.size, Buffer.byteLength(RETURNS_ANSWER));
    assert.equal(host.stat('/~locksmith-virtual/0/src/other-0.ts'), undefined, 'fetched and missing');
    assert.deepEqual(host.record(() => host.stat('/~locksmith-virtual/0/src/other-1.ts')).wanted, [], 'unanswered counts as missing too');
    assert.equal(host.beginFetch([locks]).length, 0, 'a fetched path is not fetched again');

    host.closed('memfs:/project/src/locks.ts');
    assert.deepEqual(
      host.record(() => host.stat(locks)).wanted,
      [locks],
      'closed in the editor, it is fetched again (it may have been saved)',
    );
  });
});

describe('the server with imported modules', function () {
  let client: ProtocolConnection;
  let server: { dispose(): void } | undefined;
  let dir = '';
  const published: PublishDiagnosticsParams[] = [];
  const waiters: (() => void)[] = [];
  /** The virtual workspace the client serves (memfs:/project/…). */
  const virtualFiles = new Map<string, string>([['memfs:/project/src/locks.ts', RETURNS_ANSWER]]);
  const readRequests: string[][] = [];

  /** Resolves with the first published diagnostics of `uri` (from now on, or already) whose rule codes are `codes`. */
  function diagnosticsBecome(uri: string, codes: string[]): Promise<void> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        const last = published.findLast((params) => params.uri === uri);
        const matches =
          last !== undefined && JSON.stringify(last.diagnostics.map((diagnostic) => diagnostic.code)) === JSON.stringify(codes);
        if (matches) resolve();
        return matches;
      };
      if (!check()) {
        const waiter = (): void => {
          if (!check()) waiters.push(waiter);
        };
        waiters.push(waiter);
      }
    });
  }

  before(async function () {
    if (!ruleIds().includes('require-acquire-check')) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-server-host-'));
    const clientToServer = new PassThrough();
    const serverToClient = new PassThrough();
    server = startServer(
      createConnection(ProposedFeatures.all, new StreamMessageReader(clientToServer), new StreamMessageWriter(serverToClient)),
    );
    client = createProtocolConnection(new StreamMessageReader(serverToClient), new StreamMessageWriter(clientToServer));
    client.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
    client.onRequest('client/registerCapability', () => null);
    client.onRequest('locksmith/readFiles', (params: ReadFilesParams): ReadFileResult[] => {
      readRequests.push(params.uris);
      return params.uris.map((uri) => ({ uri, text: virtualFiles.get(uri) ?? null }));
    });
    client.onNotification('window/logMessage', () => undefined);
    client.onNotification('locksmith/status', () => undefined);
    client.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      published.push(params);
      for (const waiter of waiters.splice(0)) waiter();
    });
    client.listen();
    await client.sendRequest('initialize', {
      processId: null,
      rootUri: null,
      workspaceFolders: [
        { uri: pathToFileURL(dir).toString(), name: 'disk' },
        { uri: 'memfs:/project', name: 'virtual' },
      ],
      capabilities: { workspace: { configuration: true } },
      initializationOptions: { readFiles: true },
    });
    await client.sendNotification('initialized', {});
  });

  after(() => {
    client.dispose();
    server?.dispose();
    clearResolutions();
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lints an open importer again when the helper it imports changes in the editor, unsaved, and when the edit is undone', async () => {
    const importerPath = path.join(dir, 'job.ts');
    const helperPath = path.join(dir, 'locks.ts');
    fs.writeFileSync(importerPath, IMPORTER);
    fs.writeFileSync(helperPath, RETURNS_ANSWER);
    const importer = pathToFileURL(importerPath).toString();
    const helper = pathToFileURL(helperPath).toString();

    await client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: importer, languageId: 'typescript', version: 1, text: IMPORTER },
    });
    await diagnosticsBecome(importer, ['require-acquire-check']);

    await client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: helper, languageId: 'typescript', version: 1, text: RETURNS_ANSWER },
    });
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: helper, version: 2 },
      contentChanges: [{ text: THROWS_WHEN_HELD }],
    });
    await diagnosticsBecome(importer, []);

    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: helper, version: 3 },
      contentChanges: [{ text: `${THROWS_WHEN_HELD}\nexport const broken = (((` }],
    });
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: helper, version: 4 },
      contentChanges: [{ text: RETURNS_ANSWER }],
    });
    await diagnosticsBecome(importer, ['require-acquire-check']);

    // Closed with the throwing version unsaved: the importer reads the disk's helper again.
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: helper, version: 5 },
      contentChanges: [{ text: THROWS_WHEN_HELD }],
    });
    await diagnosticsBecome(importer, []);
    await client.sendNotification('textDocument/didClose', { textDocument: { uri: helper } });
    await diagnosticsBecome(importer, ['require-acquire-check']);
    await client.sendNotification('textDocument/didClose', { textDocument: { uri: importer } });
  });

  it("lints an open importer again when a module its helper imports changes, though later lints reuse the helper's summary", async () => {
    const root = path.join(dir, 'transitive');
    fs.mkdirSync(root);
    // locks.ts wraps base.ts's tryLock: the importer reads base.ts only when locks.ts is summarised.
    const base = RETURNS_ANSWER.replace('acquireLock', 'tryLock');
    fs.writeFileSync(path.join(root, 'base.ts'), base);
    fs.writeFileSync(
      path.join(root, 'locks.ts'),
      `import { tryLock } from './base';\n\nexport async function acquireLock(key: string, token: string): Promise<boolean> {\n  return tryLock(key, token);\n}\n`,
    );
    const importer = pathToFileURL(path.join(root, 'job.ts')).toString();
    const baseUri = pathToFileURL(path.join(root, 'base.ts')).toString();

    await client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: importer, languageId: 'typescript', version: 1, text: IMPORTER },
    });
    await diagnosticsBecome(importer, ['require-acquire-check']);
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: importer, version: 2 },
      contentChanges: [{ text: `// edited\n${IMPORTER}` }],
    });
    await diagnosticsBecome(importer, ['require-acquire-check']);

    await client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: baseUri, languageId: 'typescript', version: 1, text: base },
    });
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: baseUri, version: 2 },
      contentChanges: [{ text: THROWS_WHEN_HELD.replace('acquireLock', 'tryLock') }],
    });
    await diagnosticsBecome(importer, []);
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: baseUri, version: 3 },
      contentChanges: [{ text: base }],
    });
    await diagnosticsBecome(importer, ['require-acquire-check']);
    await client.sendNotification('textDocument/didClose', { textDocument: { uri: baseUri } });
    await client.sendNotification('textDocument/didClose', { textDocument: { uri: importer } });
  });

  it("reads a virtual workspace's imported module through the client, and lints the importer again once it arrives", async () => {
    const importer = 'memfs:/project/src/job.ts';
    await client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: importer, languageId: 'typescript', version: 1, text: IMPORTER },
    });
    await diagnosticsBecome(importer, ['require-acquire-check']);
    const asked = readRequests.flat();
    assert.ok(asked.includes('memfs:/project/src/locks.ts'), `the client was asked for the helper: ${asked.join(', ')}`);
    assert.ok(
      readRequests.every((batch) => batch.length <= MAX_FETCHES_PER_LINT),
      'each request is within the cap',
    );
    assert.ok(
      asked.every((uri) => uri.startsWith('memfs:/project/')),
      'only the virtual folder is asked about',
    );

    // Once fetched, a keystroke asks the client for nothing.
    const requestsBefore = readRequests.length;
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: importer, version: 2 },
      contentChanges: [{ text: `// edited\n${IMPORTER}` }],
    });
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (published.some((params) => params.uri === importer && params.version === 2)) resolve();
        else waiters.push(check);
      };
      check();
    });
    assert.equal(readRequests.length, requestsBefore);
    await client.sendNotification('textDocument/didClose', { textDocument: { uri: importer } });
  });
});
