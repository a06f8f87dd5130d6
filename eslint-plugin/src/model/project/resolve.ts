// Which file an import specifier names, as TypeScript and Node would find it, without running
// either: relative paths with or without an extension (NodeNext's `./redis.js` for `redis.ts`),
// index files, tsconfig `paths`/`baseUrl`, a package's `imports` (`#db`), and workspace packages
// (a dependency whose directory is a sibling package of the monorepo). Package names that are no
// project file (`ioredis`, `pg`) resolve to nothing: the client tables know them by name.
//
// Every answer is cached for the process; the files it reads (tsconfig.json, package.json) are
// read through the model's host once per directory.

import path from 'node:path';
import { moduleHost } from './host.js';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** What a `.js`-family specifier may stand for when the file on disk is its TypeScript source. */
const SOURCE_FOR: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.js', '.jsx'],
  '.jsx': ['.tsx', '.jsx'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
};

const resolved = new Map<string, string | null>();

/** The file `specifier` names when imported from `fromFile`, or undefined (a package, a missing file). */
export function resolveImport(fromFile: string, specifier: string): string | undefined {
  if (!path.isAbsolute(fromFile)) return undefined;
  const fromDir = path.dirname(fromFile);
  const cacheKey = `${fromDir}\0${specifier}`;
  const known = resolved.get(cacheKey);
  if (known !== undefined) return known ?? undefined;
  let answer: string | undefined;
  try {
    answer = resolveUncached(fromDir, specifier);
  } catch {
    answer = undefined;
  }
  resolved.set(cacheKey, answer ?? null);
  return answer;
}

/** Forgets every answer (tests that write files between runs). */
export function clearResolutions(): void {
  resolved.clear();
  tsconfigs.clear();
  packages.clear();
  packageJsons.clear();
  workspaces.clear();
}

function resolveUncached(fromDir: string, specifier: string): string | undefined {
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    return fileOrDirectory(path.resolve(fromDir, specifier));
  }
  if (specifier.startsWith('/')) return fileOrDirectory(specifier);
  if (specifier.startsWith('#')) return packageImport(fromDir, specifier);
  const viaTsconfig = tsconfigPath(fromDir, specifier);
  if (viaTsconfig) return viaTsconfig;
  return workspacePackage(fromDir, specifier);
}

function isFile(filePath: string): boolean {
  return moduleHost().stat(filePath) !== undefined;
}

/** `base` as written, with a source extension, its `.js`→`.ts` source, or its index file. */
function fileOrDirectory(base: string): string | undefined {
  const extension = path.extname(base);
  const sources = SOURCE_FOR[extension];
  if (sources) {
    const stem = base.slice(0, -extension.length);
    for (const candidate of sources) if (isFile(stem + candidate)) return stem + candidate;
  }
  if (SOURCE_EXTENSIONS.includes(extension) && isFile(base)) return base;
  for (const candidate of SOURCE_EXTENSIONS) if (isFile(base + candidate)) return base + candidate;
  for (const candidate of SOURCE_EXTENSIONS) {
    const index = path.join(base, `index${candidate}`);
    if (isFile(index)) return index;
  }
  return undefined;
}

// tsconfig.json ------------------------------------------------------------------------------

interface PathsConfig {
  readonly baseUrl: string | undefined;
  /** Directory `paths` are relative to: baseUrl, else the tsconfig's own directory. */
  readonly pathsBase: string;
  readonly paths: ReadonlyArray<readonly [string, readonly string[]]>;
}

const tsconfigs = new Map<string, PathsConfig | null>();

function tsconfigPath(fromDir: string, specifier: string): string | undefined {
  const config = nearestTsconfig(fromDir);
  if (!config) return undefined;
  for (const [pattern, targets] of config.paths) {
    const star = pattern.indexOf('*');
    let captured: string | undefined;
    if (star === -1) captured = pattern === specifier ? '' : undefined;
    else if (
      specifier.startsWith(pattern.slice(0, star)) &&
      specifier.endsWith(pattern.slice(star + 1)) &&
      specifier.length >= pattern.length - 1
    ) {
      captured = specifier.slice(star, specifier.length - (pattern.length - star - 1));
    }
    if (captured === undefined) continue;
    for (const target of targets) {
      const found = fileOrDirectory(path.resolve(config.pathsBase, target.replace('*', captured)));
      if (found) return found;
    }
  }
  return config.baseUrl ? fileOrDirectory(path.resolve(config.baseUrl, specifier)) : undefined;
}

function nearestTsconfig(dir: string): PathsConfig | undefined {
  const known = tsconfigs.get(dir);
  if (known !== undefined) return known ?? undefined;
  const file = path.join(dir, 'tsconfig.json');
  let config: PathsConfig | undefined;
  const text = moduleHost().readFile(file);
  if (text !== undefined) config = readTsconfig(file, text, 0);
  else {
    const parent = path.dirname(dir);
    config = parent === dir ? undefined : nearestTsconfig(parent);
  }
  tsconfigs.set(dir, config ?? null);
  return config;
}

/** `compilerOptions.baseUrl`/`paths`, following a relative `extends` (a package's base config is not read). */
function readTsconfig(file: string, text: string, depth: number): PathsConfig | undefined {
  const json = parseJsonc(text) as { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } } | undefined;
  if (!json) return undefined;
  const dir = path.dirname(file);
  let inherited: PathsConfig | undefined;
  if (typeof json.extends === 'string' && json.extends.startsWith('.') && depth < 4) {
    const parentFile = path.resolve(dir, json.extends.endsWith('.json') ? json.extends : `${json.extends}.json`);
    const parentText = moduleHost().readFile(parentFile);
    if (parentText !== undefined) inherited = readTsconfig(parentFile, parentText, depth + 1);
  }
  const options = json.compilerOptions ?? {};
  const baseUrl = typeof options.baseUrl === 'string' ? path.resolve(dir, options.baseUrl) : inherited?.baseUrl;
  const ownPaths =
    options.paths && typeof options.paths === 'object'
      ? Object.entries(options.paths as Record<string, unknown>).filter(
          (entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[1].every((target) => typeof target === 'string'),
        )
      : undefined;
  if (!ownPaths && !inherited && baseUrl === undefined) return undefined;
  return {
    baseUrl,
    pathsBase: ownPaths ? (baseUrl ?? dir) : (inherited?.pathsBase ?? baseUrl ?? dir),
    paths: ownPaths ?? inherited?.paths ?? [],
  };
}

/** JSON with comments and trailing commas, as tsconfig.json allows; undefined when unreadable. */
function parseJsonc(text: string): unknown {
  // package.json is strict JSON, and most tsconfig.json files are too: skip the character walk for them.
  try {
    return JSON.parse(text);
  } catch {
    // comments or trailing commas: strip them below
  }
  let out = '';
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inString) {
      out += char;
      if (char === '\\') out += text[++index] ?? '';
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      out += char;
      continue;
    }
    if (char === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') index++;
      out += '\n';
      continue;
    }
    if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 1;
      continue;
    }
    out += char;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/gu, '$1'));
  } catch {
    return undefined;
  }
}

// package.json -------------------------------------------------------------------------------

interface PackageInfo {
  readonly dir: string;
  readonly name: string | undefined;
  readonly json: Record<string, unknown>;
}

const packages = new Map<string, PackageInfo | null>();

const packageJsons = new Map<string, Record<string, unknown> | null>();

/** The package.json of `dir` itself, parsed once per process; undefined when absent or unreadable. */
function packageJsonAt(dir: string): Record<string, unknown> | undefined {
  const known = packageJsons.get(dir);
  if (known !== undefined) return known ?? undefined;
  const text = moduleHost().readFile(path.join(dir, 'package.json'));
  const json = text === undefined ? undefined : parseJsonc(text);
  const object = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  packageJsons.set(dir, object ?? null);
  return object;
}

function nearestPackage(dir: string): PackageInfo | undefined {
  const known = packages.get(dir);
  if (known !== undefined) return known ?? undefined;
  const json = packageJsonAt(dir);
  let info: PackageInfo | undefined;
  if (json) info = { dir, name: typeof json.name === 'string' ? json.name : undefined, json };
  else {
    const parent = path.dirname(dir);
    info = parent === dir ? undefined : nearestPackage(parent);
  }
  packages.set(dir, info ?? null);
  return info;
}

/** `#db` through the nearest package.json's `imports` (a string, or conditions: source-like ones first). */
function packageImport(fromDir: string, specifier: string): string | undefined {
  const info = nearestPackage(fromDir);
  const imports = info?.json.imports;
  if (!info || !imports || typeof imports !== 'object') return undefined;
  for (const [pattern, target] of Object.entries(imports as Record<string, unknown>)) {
    const star = pattern.indexOf('*');
    let captured: string | undefined;
    if (star === -1) captured = pattern === specifier ? '' : undefined;
    else if (specifier.startsWith(pattern.slice(0, star)) && specifier.endsWith(pattern.slice(star + 1)))
      captured = specifier.slice(star, specifier.length - (pattern.length - star - 1));
    if (captured === undefined) continue;
    for (const candidate of conditionTargets(target)) {
      if (!candidate.startsWith('./')) continue;
      const found = fileOrDirectory(path.resolve(info.dir, candidate.replace('*', captured)));
      if (found) return found;
    }
  }
  return undefined;
}

/** The strings of an `exports`/`imports` target, TypeScript-source conditions before the rest. */
function conditionTargets(target: unknown, depth = 0): string[] {
  if (typeof target === 'string') return [target];
  if (depth > 3 || !target || typeof target !== 'object') return [];
  if (Array.isArray(target)) return target.flatMap((entry) => conditionTargets(entry, depth + 1));
  const entries = Object.entries(target as Record<string, unknown>);
  const preferred = ['types', 'source', 'development', 'import', 'require', 'node', 'default'];
  entries.sort(([left], [right]) => rank(preferred, left) - rank(preferred, right));
  return entries.flatMap(([, value]) => conditionTargets(value, depth + 1));
}

function rank(order: readonly string[], name: string): number {
  const index = order.indexOf(name);
  return index === -1 ? order.length : index;
}

/**
 * A workspace package (`@acme/db`): a package of the same monorepo, found among the sibling
 * directories of the workspace roots the root package.json names (`packages/*`, `apps/*`). Its
 * `exports['.']`, `main`/`types`, else `src/index` decides the file.
 */
function workspacePackage(fromDir: string, specifier: string): string | undefined {
  const parts = specifier.split('/');
  const packageName = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  const subpath = parts.slice(specifier.startsWith('@') ? 2 : 1).join('/');
  const root = workspaceRoot(fromDir);
  if (!root) return undefined;
  const dir = root.members.get(packageName);
  if (!dir) return undefined;
  const info = nearestPackage(dir);
  if (subpath !== '') return fileOrDirectory(path.join(dir, subpath)) ?? fileOrDirectory(path.join(dir, 'src', subpath));
  const exportsField = info?.json.exports;
  const dotTarget =
    exportsField && typeof exportsField === 'object' && !Array.isArray(exportsField) && '.' in exportsField
      ? (exportsField as Record<string, unknown>)['.']
      : exportsField;
  const candidates = [...conditionTargets(dotTarget), info?.json.types, info?.json.main].filter(
    (value): value is string => typeof value === 'string',
  );
  for (const candidate of candidates) {
    const found = fileOrDirectory(path.resolve(dir, candidate));
    if (found) return found;
  }
  return fileOrDirectory(path.join(dir, 'src', 'index')) ?? fileOrDirectory(path.join(dir, 'index'));
}

interface Workspace {
  readonly members: ReadonlyMap<string, string>;
}

const workspaces = new Map<string, Workspace | null>();

/**
 * The nearest package.json at or above `dir` with `workspaces`, and its member packages by name.
 * Every directory walked through is remembered with the answer, as the tsconfig and package
 * lookups do, so the files of a tree read each package.json on the way up once.
 */
function workspaceRoot(dir: string): Workspace | undefined {
  const known = workspaces.get(dir);
  if (known !== undefined) return known ?? undefined;
  const json = packageJsonAt(dir) as { workspaces?: unknown } | undefined;
  const patterns =
    (Array.isArray(json?.workspaces) ? json.workspaces : (json?.workspaces as { packages?: unknown } | undefined)?.packages) ??
    pnpmWorkspacePatterns(dir);
  let workspace: Workspace | undefined;
  if (Array.isArray(patterns)) {
    workspace = {
      members: workspaceMembers(
        dir,
        patterns.filter((pattern): pattern is string => typeof pattern === 'string'),
      ),
    };
  } else {
    const parent = path.dirname(dir);
    workspace = parent === dir ? undefined : workspaceRoot(parent);
  }
  workspaces.set(dir, workspace ?? null);
  return workspace;
}

/**
 * The `packages:` list of a `pnpm-workspace.yaml` at `dir` (pnpm names its workspace there, not in
 * package.json): one pattern per `- item` line of that block, quoted or not. Undefined without one.
 */
function pnpmWorkspacePatterns(dir: string): string[] | undefined {
  const text = moduleHost().readFile(path.join(dir, 'pnpm-workspace.yaml'));
  if (text === undefined) return undefined;
  const patterns: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/u)) {
    if (/^packages\s*:/u.test(line)) inPackages = true;
    else if (/^\S/u.test(line)) inPackages = false;
    else if (inPackages) {
      const item = /^\s+-\s*(['"]?)([^'"#]+?)\1\s*(?:#.*)?$/u.exec(line);
      // Exclusions (`!**/test/**`) name no member.
      if (item && !item[2]!.startsWith('!')) patterns.push(item[2]!);
    }
  }
  return patterns;
}

/** `packages/*` and `apps/api` style patterns only: one trailing star, read from the disk. */
function workspaceMembers(root: string, patterns: readonly string[]): Map<string, string> {
  const members = new Map<string, string>();
  for (const pattern of patterns) {
    const dirs: string[] = [];
    if (pattern.endsWith('/*')) {
      for (const entry of listDirectory(path.join(root, pattern.slice(0, -2)))) dirs.push(path.join(root, pattern.slice(0, -2), entry));
    } else if (!pattern.includes('*')) dirs.push(path.join(root, pattern));
    for (const dir of dirs) {
      const name = packageJsonAt(dir)?.name;
      if (typeof name === 'string' && !members.has(name)) members.set(name, dir);
    }
  }
  return members;
}

function listDirectory(dir: string): string[] {
  const host = moduleHost();
  return host.readDirectory?.(dir) ?? [];
}
