// Lint latency of the Locksmith language server on a generated 3,000-line realistic file, as a ratio of parse time.
// Standalone: node bench/server-latency.mjs [--edits 40] [--lines 3000] [--json]
// Needs the server bundle: `npm run build && node extension/scripts/build.mjs` (this script builds it when missing).
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { collectCorpusFiles, corpusModules } from '../corpus/files.mjs';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: {
    edits: { type: 'string', default: '40' },
    lines: { type: 'string', default: '3000' },
    json: { type: 'boolean', default: false },
  },
});
const EDITS = Number(options.edits);
const WARMUP = 5;
const TARGET_LINES = Number(options.lines);

/** A service module as teams write them: Redis locks (some right, some wrong), pg writes, helpers. */
function generateFile(lines) {
  const header = `import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { createClient } from 'redis';
import { Pool } from 'pg';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const nodeRedis = createClient({ url: process.env.REDIS_URL });
const pool = new Pool({ connectionString: process.env.DATABASE_URL });

const RELEASE_LOCK_SCRIPT = \`
if redis.call("GET", KEYS[1]) == ARGV[1] then
    return redis.call("DEL", KEYS[1])
else
    return 0
end
\`;

interface Invoice { id: string; customerId: string; total: number; lines: { sku: string; amount: number }[] }
`;
  const blocks = [
    (n) => `
export async function issueInvoice${n}(invoice: Invoice): Promise<boolean> {
  const lockKey = \`lock:invoice:\${invoice.id}:${n}\`;
  const token = randomUUID();
  const acquired = await redis.set(lockKey, token, 'PX', 30000, 'NX');
  if (acquired !== 'OK') return false;
  try {
    const total = invoice.lines.reduce((sum, line) => sum + line.amount, 0);
    await pool.query('UPDATE invoices SET total = $1, fence = $2 WHERE id = $3 AND fence < $2', [total, ${n}, invoice.id]);
    return true;
  } finally {
    await redis.eval(RELEASE_LOCK_SCRIPT, 1, lockKey, token);
  }
}
`,
    (n) => `
export async function sendDigest${n}(userId: string): Promise<void> {
  const lockKey = \`lock:digest:\${userId}:${n}\`;
  const token = randomUUID();
  const acquired = await nodeRedis.set(lockKey, token, { NX: true, PX: 30000 });
  if (acquired !== 'OK') return;
  try {
    const { rows } = await pool.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]);
    for (const row of rows) {
      await deliver${n}(row.email, \`digest ${n}\`);
    }
  } finally {
    await nodeRedis.del(lockKey);
  }
}

async function deliver${n}(email: string, subject: string): Promise<void> {
  if (!email.includes('@')) throw new Error(\`bad address \${email}\`);
  await nodeRedis.lPush('outbox', JSON.stringify({ email, subject }));
}
`,
    (n) => `
export async function nightlyReport${n}(): Promise<void> {
  const lockKey = 'lock:nightly-report:${n}';
  const token = randomUUID();
  if ((await redis.setnx(lockKey, token)) !== 1) return;
  await redis.expire(lockKey, 60);
  try {
    const started = Date.now();
    const { rows } = await pool.query('SELECT count(*) AS n FROM orders WHERE created_at > now() - interval \\'1 day\\'');
    await redis.hset('reports', '${n}', JSON.stringify({ rows, took: Date.now() - started }));
  } finally {
    await redis.eval(RELEASE_LOCK_SCRIPT, 1, lockKey, token);
  }
}
`,
    (n) => `
export function formatAmount${n}(cents: number, currency = 'EUR'): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const units = Math.floor(absolute / 100);
  const rest = String(absolute % 100).padStart(2, '0');
  return \`\${sign}\${units}.\${rest} \${currency}\`;
}
`,
  ];
  let text = header;
  for (let n = 0; text.split('\n').length < lines; n += 1) text += blocks[n % blocks.length](n);
  return text;
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const serverBundle = path.join(repoRoot, 'extension/dist/locksmith-lsp.js');
if (!existsSync(serverBundle))
  execFileSync(process.execPath, [path.join(repoRoot, 'extension/scripts/build.mjs'), '--production'], { stdio: 'inherit' });

const text = generateFile(TARGET_LINES);
const lineCount = text.split('\n').length;
const filePath = path.join(repoRoot, 'bench/.generated/service.ts');
const uri = pathToFileURL(filePath).href;

// Parse time: the same parser and options the server uses for a .ts file, nothing else (without type
// information the server builds no ESTree-to-TypeScript node maps: extension/src/server/lint.ts).
const typescriptParser = require('@typescript-eslint/parser');
const parserOptions = { ecmaFeatures: { jsx: false }, preserveNodeMaps: false };
const parseTimes = [];
for (let run = 0; run < WARMUP + EDITS; run += 1) {
  const started = performance.now();
  typescriptParser.parseForESLint(`// ${run}\n${text}`, { ecmaVersion: 'latest', sourceType: 'module', filePath, ...parserOptions });
  if (run >= WARMUP) parseTimes.push(performance.now() - started);
}

// In process, ESLint's own stats split one lint into parse and rules, with the server's configuration.
const { Linter } = require('eslint');
const locksmith = require('eslint-plugin-locksmith');
const linter = new Linter({ cwd: repoRoot });
const config = [
  {
    files: ['**/*.ts'],
    plugins: { locksmith },
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', parser: typescriptParser, parserOptions },
    rules: locksmith.configs.recommended.rules,
  },
];
const statParse = [];
const statRules = [];
const perRule = new Map();
for (let run = 0; run < WARMUP + EDITS; run += 1) {
  linter.verifyAndFix(`// ${run}\n${text}`, config, { filename: filePath, stats: true, fix: false });
  const pass = linter.getTimes().passes[0];
  if (run < WARMUP) continue;
  statParse.push(pass.parse.total);
  let rulesTotal = 0;
  for (const [ruleId, time] of Object.entries(pass.rules ?? {})) {
    rulesTotal += time.total;
    perRule.set(ruleId, [...(perRule.get(ruleId) ?? []), time.total]);
  }
  statRules.push(rulesTotal);
}

// Server latency: didChange sent → publishDiagnostics for that version, over stdio like any editor.
const { createProtocolConnection, StreamMessageReader, StreamMessageWriter } = require('vscode-languageserver-protocol/node');
const spawned = performance.now();
const server = spawn(process.execPath, [serverBundle, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
const waiting = new Map();
let findings = 0;
connection.onNotification('textDocument/publishDiagnostics', (params) => {
  findings = params.diagnostics.length;
  waiting.get(params.version)?.();
});
connection.onNotification('window/logMessage', () => {});
connection.onNotification('locksmith/status', () => {});
connection.listen();
await connection.sendRequest('initialize', {
  processId: process.pid,
  rootUri: null,
  capabilities: {},
  initializationOptions: { settings: {} },
});
const startupMs = performance.now() - spawned;
await connection.sendNotification('initialized', {});

const published = (version) => new Promise((resolve) => waiting.set(version, resolve));
let version = 1;
let done = published(version);
await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version, text } });
await done;

const latencies = [];
// The machine may be shared: beside each edit the bench parses that edit's text itself, so each
// latency has a parse time taken under the same load (the paired ratio below).
const pairedRatios = [];
let editedText = text;
for (let edit = 0; edit < WARMUP + EDITS; edit += 1) {
  version += 1;
  done = published(version);
  const started = performance.now();
  // A keystroke-sized edit: a comment on the first line, alternating.
  await connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version },
    contentChanges: [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: edit === 0 ? 0 : 3 } }, text: `//${edit % 10}` },
    ],
  });
  await done;
  const latency = performance.now() - started;
  editedText = `//${edit % 10}${editedText.slice(edit === 0 ? 0 : 3)}`;
  const parseStarted = performance.now();
  typescriptParser.parseForESLint(editedText, { ecmaVersion: 'latest', sourceType: 'module', filePath, ...parserOptions });
  const parseTime = performance.now() - parseStarted;
  if (edit >= WARMUP) {
    latencies.push(latency);
    pairedRatios.push(latency / parseTime);
  }
}
// The lock map (the Explorer's Locksmith view): locksmith/lockMap over a whole folder read from disk, cold
// (every file read; those the text screen admits parsed), then again with nothing changed (only stamps checked).
const SCRIPT_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/u;
function filesUnder(folder) {
  const files = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(full));
    else if (SCRIPT_FILE.test(entry.name)) files.push(full);
  }
  return files;
}
async function lockMapTimes(files) {
  const uris = files.map((file) => pathToFileURL(file).href);
  const cold = await connection.sendRequest('locksmith/lockMap', { uris });
  const warm = await connection.sendRequest('locksmith/lockMap', { uris });
  return {
    files: cold.indexed,
    analysed: cold.analysed,
    locks: cold.files.reduce((sum, file) => sum + file.locks.length, 0),
    coldMs: cold.ms,
    unchangedMs: warm.ms,
  };
}
const lockMap = { examples: await lockMapTimes(filesUnder(path.join(repoRoot, 'examples'))) };
// The real-package corpus, when installed (npm run corpus installs it).
// ESLint ignores files under node_modules/, as the editor's workspace listing does: the server reads the
// packages through a link named otherwise, as if they were a workspace's own code.
if (existsSync(corpusModules)) {
  const link = path.join(repoRoot, 'bench/.generated/corpus');
  mkdirSync(path.dirname(link), { recursive: true });
  if (!existsSync(link)) symlinkSync(corpusModules, link);
  lockMap.corpus = await lockMapTimes(collectCorpusFiles().map((file) => path.join(link, path.relative(corpusModules, file))));
}

await connection.sendRequest('shutdown');
await connection.sendNotification('exit');
connection.dispose();
server.kill();

const parseMedian = quantile(parseTimes, 0.5);
const result = {
  lines: lineCount,
  findings,
  edits: EDITS,
  serverStartupMs: Math.round(startupMs),
  parseMs: { median: +parseMedian.toFixed(1), p95: +quantile(parseTimes, 0.95).toFixed(1) },
  lintLatencyMs: { median: +quantile(latencies, 0.5).toFixed(1), p95: +quantile(latencies, 0.95).toFixed(1) },
  latencyOverParse: {
    median: +(quantile(latencies, 0.5) / parseMedian).toFixed(2),
    p95: +(quantile(latencies, 0.95) / parseMedian).toFixed(2),
    // Each edit's latency over a parse of its text timed right after it: steadier on a shared machine.
    pairedMedian: +quantile(pairedRatios, 0.5).toFixed(2),
  },
  // What the rules (and everything else past parsing: scope analysis, traversal, protocol) add, per unit of parse time.
  beyondParseOverParse: +((quantile(latencies, 0.5) - parseMedian) / parseMedian).toFixed(2),
  eslintStats: {
    parseMs: +quantile(statParse, 0.5).toFixed(1),
    rulesMs: +quantile(statRules, 0.5).toFixed(1),
    rulesOverParse: +(quantile(statRules, 0.5) / quantile(statParse, 0.5)).toFixed(2),
    perRuleMs: Object.fromEntries([...perRule].map(([ruleId, times]) => [ruleId, +quantile(times, 0.5).toFixed(1)])),
  },
  target: 'rules at most 0.5 of parse time',
  lockMap,
};
// Activation is measured inside a real VS Code by the integration suite (npm run test:vscode); shown when present.
const activationFile = path.join(repoRoot, 'test-output/activation.json');
if (existsSync(activationFile)) result.vscodeActivation = JSON.parse(readFileSync(activationFile, 'utf8'));

if (options.json) {
  console.log(JSON.stringify(result, null, 2));
} else {
  console.log(`server lint latency on a ${result.lines}-line TypeScript file (${result.findings} findings, ${EDITS} edits):`);
  console.log(`  parse (typescript-eslint parser): median ${result.parseMs.median} ms, p95 ${result.parseMs.p95} ms`);
  console.log(`  didChange → diagnostics:          median ${result.lintLatencyMs.median} ms, p95 ${result.lintLatencyMs.p95} ms`);
  console.log(
    `  latency / parse: median ${result.latencyOverParse.median}, p95 ${result.latencyOverParse.p95}; beyond parse / parse: ${result.beyondParseOverParse}; paired (each edit over a parse of its text beside it): median ${result.latencyOverParse.pairedMedian}`,
  );
  console.log(
    `  ESLint stats, same config: parse ${result.eslintStats.parseMs} ms, rules ${result.eslintStats.rulesMs} ms → rules / parse ${result.eslintStats.rulesOverParse} (target ≤ 0.5)`,
  );
  for (const [ruleId, ms] of Object.entries(result.eslintStats.perRuleMs)) console.log(`    ${ruleId}: ${ms} ms`);
  console.log(`  server startup (spawn → initialize): ${result.serverStartupMs} ms`);
  for (const [name, map] of Object.entries(result.lockMap)) {
    console.log(
      `  lock map of ${name}/ (${map.files} files, ${map.analysed} parsed, the rest screened out by their text; ${map.locks} locks): indexing ${map.coldMs} ms, again unchanged ${map.unchangedMs} ms`,
    );
  }
  if (result.vscodeActivation) {
    const { activationMs, serverReadyAfterActivationMs, version } = result.vscodeActivation;
    console.log(
      `  VS Code ${version} (last npm run test:vscode): activation ${activationMs} ms, server ready after ${serverReadyAfterActivationMs} ms`,
    );
  }
}
