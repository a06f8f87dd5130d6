// Lints the same files with oxlint's JS plugins and with the locksmith CLI (ESLint), both with every
// rule of the `strict` preset, and lists the findings each reports that the other does not, as
// (rule, file, line). Used by oxlint.test.ts and, for the list of what oxlint lacks, by
// test/support/write-oxlint-docs.ts.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPOSITORY_ROOT = path.resolve(__dirname, '../../..');
const CLI_BIN = path.join(REPOSITORY_ROOT, 'eslint-plugin/bin/locksmith.js');
const PLUGIN_ENTRY = path.join(REPOSITORY_ROOT, 'eslint-plugin/dist/index.js');
const OXLINT_BIN = path.join(REPOSITORY_ROOT, 'node_modules/oxlint/bin/oxlint');
const RULE_PREFIX = 'locksmith/';
export const DIFFERENCES_FILE = path.join(__dirname, 'differences.json');

/** One finding, keyed the same way for both linters: `rule|file|line`, file relative to the linted root. */
export interface Finding {
  rule: string;
  file: string;
  line: number;
}

export interface Difference extends Finding {
  /** Which linter reported it (the other did not). */
  only: 'eslint' | 'oxlint';
}

/** An accepted difference in differences.json, one finding each (file relative to the repository root). */
export interface AcceptedDifference {
  only: 'eslint' | 'oxlint';
  rule: string;
  file: string;
  line: number;
  /** A key of `gaps` in differences.json: what oxlint lacks, which explains this entry. */
  gap: string;
  reason: string;
}

export interface DifferencesFile {
  /** What oxlint lacks for Locksmith, by key: the README's oxlint section lists these. */
  gaps: Record<string, { title: string; description: string }>;
  accepted: AcceptedDifference[];
}

export function readDifferences(): DifferencesFile {
  return JSON.parse(fs.readFileSync(DIFFERENCES_FILE, 'utf8')) as DifferencesFile;
}

type Preset = 'recommended' | 'strict';

/** A preset's rules that are on, prefixed, with their severity, sorted by id. */
export function presetRules(preset: Preset): Record<string, string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const locksmith = require(PLUGIN_ENTRY) as { configs: Record<Preset, { rules: Record<string, string> }> };
  return Object.fromEntries(
    Object.entries(locksmith.configs[preset].rules)
      .filter(([, severity]) => severity !== 'off')
      .sort(([left], [right]) => left.localeCompare(right)),
  );
}

/** The strict preset's rule ids, prefixed. */
export function strictRuleIds(): string[] {
  return Object.keys(presetRules('strict'));
}

/**
 * The `.oxlintrc.json` the README shows: the plugin by package name and the `recommended` preset's
 * rules (oxlint's `extends` takes config files, not a plugin's configs). oxlint.test.ts lints with it.
 */
export function readmeOxlintConfig(): Record<string, unknown> {
  return {
    $schema: './node_modules/oxlint/configuration_schema.json',
    jsPlugins: ['eslint-plugin-locksmith'],
    rules: presetRules('recommended'),
  };
}

/** The oxlint version the repository tests with (the exact devDependency). */
export function testedOxlintVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  return manifest.devDependencies['oxlint']!;
}

/** The .oxlintrc.json that runs exactly the strict preset, through the built plugin, with oxlint's own rules off. */
export function oxlintConfig(settings: Record<string, unknown> = {}, ruleOverrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    jsPlugins: [PLUGIN_ENTRY],
    plugins: [],
    categories: { correctness: 'off', suspicious: 'off', pedantic: 'off', perf: 'off', style: 'off', restriction: 'off', nursery: 'off' },
    settings,
    rules: { ...Object.fromEntries(strictRuleIds().map((id) => [id, 'error'])), ...ruleOverrides },
  };
}

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}

function toPosix(file: string): string {
  return file.split(path.sep).join('/');
}

export interface EslintRun {
  findings: Finding[];
  /** Files ESLint's parser refused, relative to `cwd`. */
  parseErrors: string[];
  /** Each finding's suggestion descriptions, by `rule|file|line`. */
  suggestions: Map<string, string[]>;
}

/**
 * Findings of the locksmith CLI (ESLint, strict preset, each file's locksmith.json over it) on `paths`
 * (relative to `cwd`), files relative to `cwd`.
 */
export async function eslintFindings(cwd: string, paths: readonly string[], preset: Preset = 'strict'): Promise<EslintRun> {
  const ruleArguments = preset === 'strict' ? strictRuleIds().map((id) => `--rule=${id.slice(RULE_PREFIX.length)}=error`) : [];
  const result = await run(process.execPath, [CLI_BIN, '--preset', preset, '--format', 'json', ...ruleArguments, ...paths], cwd);
  if (result.code !== 0 && result.code !== 1) throw new Error(`locksmith CLI exited ${result.code}: ${result.stderr}`);
  const reports = JSON.parse(result.stdout) as Array<{
    filePath: string;
    messages: Array<{ ruleId: string | null; line: number; fatal?: boolean; suggestions?: Array<{ desc: string }> }>;
  }>;
  const findings: Finding[] = [];
  const parseErrors: string[] = [];
  const suggestions = new Map<string, string[]>();
  for (const report of reports) {
    const file = toPosix(path.relative(cwd, report.filePath));
    for (const message of report.messages) {
      if (message.fatal === true) parseErrors.push(file);
      if (message.ruleId === null || !message.ruleId.startsWith(RULE_PREFIX)) continue;
      const finding = { rule: message.ruleId.slice(RULE_PREFIX.length), file, line: message.line };
      findings.push(finding);
      suggestions.set(key(finding), [
        ...(suggestions.get(key(finding)) ?? []),
        ...(message.suggestions ?? []).map((suggestion) => suggestion.desc),
      ]);
    }
  }
  return { findings, parseErrors, suggestions };
}

export interface OxlintRun {
  findings: Finding[];
  /** Diagnostics that are not Locksmith findings (parse errors, plugin crashes), by file. */
  errors: Array<{ file: string; message: string }>;
}

/**
 * Findings of oxlint with the plugin's strict rules on `paths` (relative to `cwd`). Like the CLI, it
 * lints what lies under node_modules only when told to: `--ignore-pattern` replaces the default.
 */
export async function oxlintFindings(
  cwd: string,
  paths: readonly string[],
  settings: Record<string, unknown> = {},
  ruleOverrides: Record<string, unknown> = {},
  options: { config?: Record<string, unknown>; configDirectory?: string } = {},
): Promise<OxlintRun> {
  // oxlint resolves `jsPlugins` from the config file's folder: a config naming the package must sit in the repository.
  if (options.configDirectory !== undefined) fs.mkdirSync(options.configDirectory, { recursive: true });
  const directory = fs.mkdtempSync(path.join(options.configDirectory ?? os.tmpdir(), 'locksmith-oxlint-'));
  try {
    const configFile = path.join(directory, '.oxlintrc.json');
    fs.writeFileSync(configFile, JSON.stringify(options.config ?? oxlintConfig(settings, ruleOverrides)));
    const result = await run(process.execPath, [OXLINT_BIN, '-c', configFile, '--format', 'json', '--no-ignore', ...paths], cwd);
    if (result.code !== 0 && result.code !== 1)
      throw new Error(`oxlint exited ${result.code}: ${result.stderr}${result.stdout.slice(0, 2000)}`);
    const report = JSON.parse(result.stdout) as {
      diagnostics: Array<{ code?: string; message: string; filename: string; labels: Array<{ span: { line: number } }> }>;
    };
    const findings: Finding[] = [];
    const errors: OxlintRun['errors'] = [];
    for (const diagnostic of report.diagnostics) {
      // oxlint's own rules (on by default in the README's config) are not part of the comparison.
      if (/^(?!locksmith\()[\w-]+\(.+\)$/.test(diagnostic.code ?? '')) continue;
      const match = /^locksmith\((.+)\)$/.exec(diagnostic.code ?? '');
      const line = diagnostic.labels[0]?.span.line;
      if (match === null || line === undefined) {
        errors.push({ file: toPosix(diagnostic.filename), message: `${diagnostic.code ?? ''} ${diagnostic.message}`.trim() });
        continue;
      }
      findings.push({ rule: match[1]!, file: toPosix(diagnostic.filename), line });
    }
    return { findings, errors };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

export function key(finding: Finding): string {
  return `${finding.rule}|${finding.file}|${finding.line}`;
}

/** The findings only one of the two reports, sorted. Duplicates count: two reports on one line are two findings. */
export function differences(eslint: readonly Finding[], oxlint: readonly Finding[]): Difference[] {
  const counts = new Map<string, number>();
  for (const finding of eslint) counts.set(key(finding), (counts.get(key(finding)) ?? 0) + 1);
  for (const finding of oxlint) counts.set(key(finding), (counts.get(key(finding)) ?? 0) - 1);
  const result: Difference[] = [];
  for (const [k, count] of counts) {
    if (count === 0) continue;
    const [rule, file, line] = k.split('|') as [string, string, string];
    for (let i = 0; i < Math.abs(count); i += 1) result.push({ rule, file, line: Number(line), only: count > 0 ? 'eslint' : 'oxlint' });
  }
  return result.sort((a, b) => key(a).localeCompare(key(b)) || a.only.localeCompare(b.only));
}

export function isAccepted(difference: Difference, accepted: AcceptedDifference): boolean {
  return (
    accepted.only === difference.only &&
    accepted.rule === difference.rule &&
    accepted.file === difference.file &&
    accepted.line === difference.line
  );
}

/**
 * Runs `oxlint --fix-suggestions` (one thread, so that the files share one plugin instance, in the
 * order given) over `files` in `directory`, which it rewrites.
 */
export async function oxlintApplySuggestions(directory: string, files: readonly string[]): Promise<void> {
  const configFile = path.join(directory, '.oxlintrc.json');
  fs.writeFileSync(configFile, JSON.stringify(oxlintConfig()));
  try {
    const result = await run(process.execPath, [OXLINT_BIN, '-c', configFile, '--threads', '1', '--fix-suggestions', ...files], directory);
    if (result.code !== 0 && result.code !== 1) throw new Error(`oxlint exited ${result.code}: ${result.stderr}`);
  } finally {
    fs.rmSync(configFile);
  }
}

export interface LanguageServerFindings {
  findings: Finding[];
  /** The titles of the code actions offered for each finding, by `rule|line`. */
  actions: Map<string, string[]>;
}

/**
 * Opens `file` (in `directory`, which gets the strict `.oxlintrc.json`) in `oxlint --lsp`, as an
 * editor would, and returns the Locksmith diagnostics it publishes and the code actions it offers
 * for each. Rejects after `timeoutMs` without diagnostics.
 */
export function oxlintLanguageServer(directory: string, file: string, timeoutMs = 60_000): Promise<LanguageServerFindings> {
  fs.writeFileSync(path.join(directory, '.oxlintrc.json'), JSON.stringify(oxlintConfig()));
  const child = spawn(process.execPath, [OXLINT_BIN, '--lsp'], { cwd: directory, stdio: ['pipe', 'pipe', 'ignore'] });
  const rootUri = pathToFileURL(directory).href;
  const uri = pathToFileURL(path.join(directory, file)).href;
  const send = (message: object): void => {
    const text = JSON.stringify({ jsonrpc: '2.0', ...message });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  };
  interface Diagnostic {
    code?: string;
    range: { start: { line: number } };
  }
  return new Promise<LanguageServerFindings>((resolve, reject) => {
    const timer = setTimeout(() => {
      finish(new Error(`oxlint --lsp gave no diagnostics for ${file} in ${timeoutMs} ms`));
    }, timeoutMs);
    let finished = false;
    const finish = (error: Error | undefined, result?: LanguageServerFindings): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      child.kill();
      if (error) reject(error);
      else resolve(result!);
    };
    child.on('error', (error) => {
      finish(error);
    });
    const result: LanguageServerFindings = { findings: [], actions: new Map() };
    const pending = new Map<number, string>();
    let buffer = Buffer.alloc(0);
    const handle = (message: {
      id?: number;
      method?: string;
      params?: { uri?: string; diagnostics?: Diagnostic[]; items?: unknown[] };
      result?: Array<{ title: string }> | null;
    }): void => {
      if (message.id === 1 && message.method === undefined) {
        send({ method: 'initialized', params: {} });
        send({
          method: 'textDocument/didOpen',
          params: {
            textDocument: { uri, languageId: 'javascript', version: 1, text: fs.readFileSync(path.join(directory, file), 'utf8') },
          },
        });
      } else if (
        message.method === 'textDocument/publishDiagnostics' &&
        message.params?.uri === uri &&
        pending.size === 0 &&
        result.findings.length === 0
      ) {
        const diagnostics = (message.params.diagnostics ?? []).filter((diagnostic) => /^locksmith\(.+\)$/.test(diagnostic.code ?? ''));
        if (diagnostics.length === 0) return;
        diagnostics.forEach((diagnostic, index) => {
          const rule = /^locksmith\((.+)\)$/.exec(diagnostic.code!)![1]!;
          const line = diagnostic.range.start.line + 1;
          result.findings.push({ rule, file, line });
          pending.set(100 + index, `${rule}|${line}`);
          send({
            id: 100 + index,
            method: 'textDocument/codeAction',
            params: { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } },
          });
        });
      } else if (message.id !== undefined && pending.has(message.id) && message.method === undefined) {
        const key = pending.get(message.id)!;
        pending.delete(message.id);
        result.actions.set(key, [...(result.actions.get(key) ?? []), ...(message.result ?? []).map((action) => action.title)]);
        if (pending.size === 0) finish(undefined, result);
      } else if (message.id !== undefined && message.method !== undefined) {
        // A request from the server (its configuration, say): answer with defaults.
        send({
          id: message.id,
          result: message.method === 'workspace/configuration' ? (message.params?.items ?? []).map(() => null) : null,
        });
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const headerEnd = buffer.indexOf('\r\n\r\n');
        if (headerEnd === -1) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1] ?? 0);
        if (buffer.length < headerEnd + 4 + length) return;
        const body = buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
        buffer = buffer.subarray(headerEnd + 4 + length);
        handle(JSON.parse(body) as Parameters<typeof handle>[0]);
      }
    });
    send({
      id: 1,
      method: 'initialize',
      params: { processId: process.pid, rootUri, capabilities: {}, workspaceFolders: [{ uri: rootUri, name: 'workspace' }] },
    });
  });
}
