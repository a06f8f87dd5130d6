// The lock map over real LSP messages (in process): the workspace indexed from disk with progress,
// only changed files analysed again, cancellation and supersession, and the CodeLens on each acquisition.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'mocha';
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import {
  CancellationTokenSource,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type CodeLens,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { startServer } from '../../../extension/src/server/server';
import { LockMapRequest, type LockMapResult } from '../../../extension/src/shared/settings';

const WORKER = `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function settle(db, id) {
  const key = \`invoice:\${id}\`;
  const token = randomUUID();
  if (!(await redis.set(key, token, 'PX', 30000, 'NX'))) return;
  try {
    await db.query('UPDATE invoices SET paid = true WHERE id = $1', [id]);
  } finally {
    await redis.del(key);
  }
}
`;
const MIGRATE = `export async function migrate(client) {
  await client.query('BEGIN');
  await client.query('SELECT pg_advisory_xact_lock(42)');
  await client.query('COMMIT');
}
`;
const PLAIN = 'export const cache = new Map();\n';

describe('lock map (locksmith/lockMap and CodeLens)', function () {
  let client: ProtocolConnection;
  let server: { dispose(): void } | undefined;
  let root: string;
  const progress: { kind: string; message?: string }[] = [];
  let cancelNextProgress = false;
  const uri = (name: string): string => pathToFileURL(path.join(root, name)).toString();
  const uris = (): string[] => fs.readdirSync(root).sort().map(uri);

  before(async function () {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-lock-map-'));
    fs.writeFileSync(path.join(root, 'worker.ts'), WORKER);
    fs.writeFileSync(path.join(root, 'migrate.js'), MIGRATE);
    for (let index = 0; index < 20; index++) fs.writeFileSync(path.join(root, `plain-${String(index).padStart(2, '0')}.js`), PLAIN);
    const clientToServer = new PassThrough();
    const serverToClient = new PassThrough();
    server = startServer(
      createConnection(ProposedFeatures.all, new StreamMessageReader(clientToServer), new StreamMessageWriter(serverToClient)),
    );
    client = createProtocolConnection(new StreamMessageReader(serverToClient), new StreamMessageWriter(clientToServer));
    client.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
    client.onRequest('client/registerCapability', () => null);
    client.onRequest('window/workDoneProgress/create', (params: { token: string | number }) => {
      if (cancelNextProgress) {
        cancelNextProgress = false;
        // The user presses Cancel on the progress as soon as it shows.
        setImmediate(() => void client.sendNotification('window/workDoneProgress/cancel', { token: params.token }));
      }
      return null;
    });
    client.onNotification('$/progress', (params: { value: { kind: string; message?: string } }) => {
      progress.push(params.value);
    });
    client.onNotification('window/logMessage', () => undefined);
    client.onNotification('locksmith/status', () => undefined);
    client.onNotification('textDocument/publishDiagnostics', () => undefined);
    client.listen();
    const result = await client.sendRequest<{ capabilities: { codeLensProvider?: unknown } }>('initialize', {
      processId: null,
      rootUri: null,
      capabilities: { workspace: { configuration: true }, window: { workDoneProgress: true } },
    });
    assert.ok(result.capabilities.codeLensProvider, 'the server offers CodeLens');
    await client.sendNotification('initialized', {});
  });

  after(() => {
    client.dispose();
    server?.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('indexes the files from disk with progress and maps each lock with its life and findings', async () => {
    progress.length = 0;
    const result = await client.sendRequest<LockMapResult>(LockMapRequest, { uris: uris() });
    assert.equal(result.cancelled, false);
    assert.equal(result.indexed, 22);
    // The 20 plain files are read and screened out by their text (lint.ts mayHoldLocks), never parsed.
    assert.equal(result.analysed, 2);
    assert.deepEqual(result.files.map((file) => path.basename(new URL(file.uri).pathname)).sort(), ['migrate.js', 'worker.ts']);
    const worker = result.files.find((file) => file.uri === uri('worker.ts'))!;
    assert.equal(worker.locks.length, 1);
    const lock = worker.locks[0]!;
    assert.deepEqual(
      [lock.name, lock.kind, lock.ttl, lock.token, lock.writes],
      ['invoice:{id}', 'Redis', '30 s', 'randomUUID', 'writes not fenced'],
    );
    assert.deepEqual(lock.acquired.start, { line: 6, character: 14 });
    assert.deepEqual(
      lock.releases.map((site) => [site.range.start.line, site.note]),
      [[10, 'in finally, not owner-checked']],
    );
    assert.deepEqual(lock.findings.map((finding) => finding.ruleId).sort(), ['no-unsafe-release', 'require-fencing-token']);
    assert.equal(progress[0]?.kind, 'begin', 'a work-done progress begins');
    assert.equal(progress.at(-1)?.kind, 'end', 'and ends');
  });

  it('analyses again only the files that changed', async () => {
    fs.writeFileSync(path.join(root, 'migrate.js'), MIGRATE.replace('42', '43'));
    // A modification time certainly different from the first write's.
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(root, 'migrate.js'), later, later);
    const result = await client.sendRequest<LockMapResult>(LockMapRequest, { uris: uris() });
    assert.equal(result.indexed, 22);
    assert.equal(result.analysed, 1);
    const migrate = result.files.find((file) => file.uri === uri('migrate.js'))!;
    assert.deepEqual(
      migrate.locks.map((lock) => [lock.kind, lock.name, lock.ttl]),
      [['advisory', 'pg_advisory_xact_lock(43)', 'until the transaction ends']],
    );
  });

  it('stops when the progress is cancelled and returns what it has', async () => {
    // A settings change empties the index, so every file has to be analysed again.
    await client.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    cancelNextProgress = true;
    const result = await client.sendRequest<LockMapResult>(LockMapRequest, { uris: uris() });
    assert.equal(result.cancelled, true);
    assert.ok(result.indexed < 22, `stopped before the end (${result.indexed} of 22 files)`);
  });

  it('stops when the request itself is cancelled ($/cancelRequest) and returns what it has', async () => {
    await client.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    const cancel = new CancellationTokenSource();
    const pending = client.sendRequest<LockMapResult>(LockMapRequest, { uris: uris() }, cancel.token);
    cancel.cancel();
    const result = await pending;
    assert.equal(result.cancelled, true);
    assert.ok(result.indexed < 22, `stopped before the end (${result.indexed} of 22 files)`);
  });

  it('stops an index that a newer one supersedes, and the newer one maps every lock', async () => {
    await client.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    const [older, newer] = await Promise.all([
      client.sendRequest<LockMapResult>(LockMapRequest, { uris: uris() }),
      client.sendRequest<LockMapResult>(LockMapRequest, { uris: uris() }),
    ]);
    assert.equal(older.cancelled, true);
    assert.ok(older.indexed < 22, `the older index stopped before the end (${older.indexed} of 22 files)`);
    assert.equal(newer.cancelled, false);
    assert.equal(newer.indexed, 22);
    assert.deepEqual(newer.files.map((file) => path.basename(new URL(file.uri).pathname)).sort(), ['migrate.js', 'worker.ts']);
  });

  it("puts a CodeLens with the lock's life on the acquisition of an open document", async () => {
    await client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: uri('worker.ts'), languageId: 'typescript', version: 1, text: WORKER },
    });
    const lenses = await client.sendRequest<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: uri('worker.ts') } });
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0]!.range.start.line, 6);
    assert.equal(
      lenses[0]!.command!.title,
      'Redis lock `invoice:{id}` · TTL 30 s · token: randomUUID · released in finally (not owner-checked) · writes not fenced · 2 findings',
    );
    assert.equal(lenses[0]!.command!.command, 'locksmith.showLockMap');
    // The open document's text wins over the disk's: an edit shows in the map at once.
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri('worker.ts'), version: 2 },
      contentChanges: [{ text: WORKER.replace("'PX', 30000", "'EX', 60") }],
    });
    const result = await client.sendRequest<LockMapResult>(LockMapRequest, { uris: [uri('worker.ts')] });
    assert.equal(result.files[0]?.locks[0]?.ttl, '60 s');
  });
});
