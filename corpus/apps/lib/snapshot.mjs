// Rebuilds an entry's listed files, at exactly the entry's commit, from a fetch snapshot (a git directory under the mirror folder).

import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The git directory of a repository's snapshot, or undefined. `fetch github:owner/name` leaves it at
 * `<mirror>/owner+name/repo` (bare) or `<mirror>/owner+name/repo/.git` (a clone with a work tree).
 */
export function findSnapshot(mirrorDirectory, repository) {
  const wanted = repository.replace('/', '+');
  let folders;
  try {
    folders = fs.readdirSync(mirrorDirectory);
  } catch {
    return undefined;
  }
  // GitHub names are case-insensitive; the folder carries whatever spelling fetch was given.
  const folder = folders.includes(wanted) ? wanted : folders.find((name) => name.toLowerCase() === wanted.toLowerCase());
  if (folder === undefined) return undefined;
  for (const candidate of ['repo/.git', 'repo', '.']) {
    const gitDirectory = path.join(mirrorDirectory, folder, candidate);
    if (fs.existsSync(path.join(gitDirectory, 'HEAD')) && fs.existsSync(path.join(gitDirectory, 'objects'))) return gitDirectory;
  }
  return undefined;
}

/**
 * Writes the entry's files at `commit` into `checkoutDirectory` (emptied first). Resolves to
 * `{ ok: true, lineCounts }` (lines per file), or `{ ok: false, reason, missingCommit? }` when the commit
 * or a file is not in the snapshot.
 */
export async function extractFiles({ gitDirectory, commit, files, checkoutDirectory }) {
  // Literal pathspecs: an entry's path is a file name, never a pattern.
  const gitEnvironment = { ...process.env, GIT_LITERAL_PATHSPECS: '1' };
  const git = (args, input) => run('git', ['--git-dir', gitDirectory, ...args], input, { env: gitEnvironment });
  const commitCheck = await git(['cat-file', '-e', `${commit}^{commit}`]);
  if (commitCheck.code !== 0) {
    const head = await git(['rev-parse', 'HEAD']);
    const headText = head.code === 0 ? head.stdout.toString('utf8').trim() : 'unknown';
    return { ok: false, missingCommit: true, reason: `the snapshot lacks commit ${commit} (its HEAD is ${headText})` };
  }

  // One ls-tree for every path: its mode, type and blob, and which paths the commit does not hold.
  const listing = await git(['ls-tree', '-z', '--full-tree', commit, '--', ...files]);
  if (listing.code !== 0) return { ok: false, reason: `git ls-tree failed: ${firstLine(listing.stderr)}` };
  const entries = new Map();
  for (const record of listing.stdout.toString('utf8').split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(record);
    if (match !== null) entries.set(match[4], { mode: match[1], type: match[2], object: match[3] });
  }
  for (const file of files) {
    const found = entries.get(file);
    if (found === undefined) return { ok: false, reason: `${file} is not in commit ${commit.slice(0, 12)} (a path the entry misspells?)` };
    if (found.type !== 'blob') return { ok: false, reason: `${file} is a ${found.type}, not a file, at ${commit.slice(0, 12)}` };
    if (found.mode === '120000')
      return { ok: false, reason: `${file} is a symbolic link at ${commit.slice(0, 12)}: list its target instead` };
  }

  // The rest of the project, which a real run reads to resolve imports (tsconfig `paths` and
  // `baseUrl`, package `imports`, workspace packages, the modules imports lead to): written beside
  // the files, never linted.
  const configs = await projectConfigFiles(git, commit, new Set(files));
  for (const [file, found] of configs) entries.set(file, found);
  const written = [...files, ...configs.keys()];

  // One cat-file for every blob: `<object> blob <size>\n<content>\n` each.
  const batch = await git(['cat-file', '--batch'], written.map((file) => `${entries.get(file).object}\n`).join(''));
  if (batch.code !== 0) return { ok: false, reason: `git cat-file failed: ${firstLine(batch.stderr)}` };
  fs.rmSync(checkoutDirectory, { recursive: true, force: true });
  const lineCounts = new Map();
  let offset = 0;
  for (const file of written) {
    const headerEnd = batch.stdout.indexOf(0x0a, offset);
    const header = batch.stdout.subarray(offset, headerEnd).toString('utf8').split(' ');
    if (header[1] !== 'blob') return { ok: false, reason: `${file}: its blob is missing from the snapshot` };
    const size = Number(header[2]);
    const content = batch.stdout.subarray(headerEnd + 1, headerEnd + 1 + size);
    offset = headerEnd + 1 + size + 1;
    const target = path.join(checkoutDirectory, ...file.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    if (!configs.has(file)) lineCounts.set(file, countLines(content));
  }
  return { ok: true, lineCounts };
}

const CONFIG_FILE = /(?:^|\/)(?:package\.json|jsconfig\.json|tsconfig[\w.-]*\.json|pnpm-workspace\.yaml)$/;
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|lua)$/;
const SKIPPED_FOLDER = /(?:^|\/)(?:node_modules|dist|build|out|coverage|\.next|vendor)\//;
const MAX_PROJECT_FILES = 20000;
const MAX_PROJECT_FILE_BYTES = 512 * 1024;

/**
 * The rest of the project at the commit, as a real run has it around the linted files: its
 * package.json, pnpm-workspace.yaml, tsconfig*.json and jsconfig.json files, and its other source
 * files (modules the linted files import: clients, helpers, scripts), outside node_modules and build
 * output, up to a bound. Never linted; only read when an import leads there.
 */
async function projectConfigFiles(git, commit, listed) {
  const configs = new Map();
  const tree = await git(['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
  if (tree.code !== 0) return configs;
  for (const record of tree.stdout.toString('utf8').split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t(.*)$/s.exec(record);
    if (match === null || match[2] !== 'blob' || match[1] === '120000') continue;
    const file = match[5];
    if (listed.has(file) || SKIPPED_FOLDER.test(file) || Number(match[4]) > MAX_PROJECT_FILE_BYTES) continue;
    if (!CONFIG_FILE.test(file) && !SOURCE_FILE.test(file)) continue;
    configs.set(file, { mode: match[1], type: match[2], object: match[3] });
    if (configs.size >= MAX_PROJECT_FILES) break;
  }
  return configs;
}

function countLines(content) {
  if (content.length === 0) return 0;
  let lines = 1;
  for (const byte of content) if (byte === 0x0a) lines += 1;
  return content[content.length - 1] === 0x0a ? lines - 1 : lines;
}

function firstLine(buffer) {
  return buffer.toString('utf8').trim().split('\n')[0] ?? '';
}

/** Runs a command to its end: `{ code, stdout, stderr }` as buffers. */
export function run(command, args, input, { timeoutMs, ...spawnOptions } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...spawnOptions, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout = [];
    const stderr = [];
    let timer;
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
      }, timeoutMs);
    }
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer !== undefined) clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}
