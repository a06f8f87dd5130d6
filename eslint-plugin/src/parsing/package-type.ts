// The module system Node gives a file from its name and its nearest package.json `"type"`.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** `undefined`: Node decides by the file's own syntax (no `"type"` in the package scope). */
export type ModuleKind = 'module' | 'commonjs' | undefined;

// One read per directory for the whole run, however many files share it: linear in directories. A
// long-lived process (the language server) clears it when a package.json may have changed.
const typeByDirectory = new Map<string, ModuleKind>();

/** Forgets every package.json read, so the next lookups read the disk again. */
export function clearPackageTypes(): void {
  typeByDirectory.clear();
}

/**
 * As Node 20.19+ and 22 decide: `.mjs`/`.mts` are modules, `.cjs`/`.cts` CommonJS, and any other
 * file follows the nearest package.json's `"type"`, or Node's syntax detection when it has none.
 */
export function moduleKindOf(filePath: string, options: { packageScope?: boolean } = {}): ModuleKind {
  if (/\.m[jt]s$/.test(filePath)) return 'module';
  if (/\.c[jt]s$/.test(filePath)) return 'commonjs';
  // A name without a file on disk (an untitled editor) has no package: Node's syntax detection decides.
  if (options.packageScope === false) return undefined;
  return packageTypeFor(path.dirname(path.resolve(filePath)));
}

function packageTypeFor(directory: string): ModuleKind {
  if (typeByDirectory.has(directory)) return typeByDirectory.get(directory);
  // Node's package scope lookup stops at a node_modules folder (never reading its package.json)
  // and at the file system root.
  const found = path.basename(directory) === 'node_modules' ? undefined : readPackageType(directory);
  let type: ModuleKind;
  if (found !== NO_PACKAGE_JSON) {
    type = found;
  } else {
    const parent = path.dirname(directory);
    type = parent === directory ? undefined : packageTypeFor(parent);
  }
  typeByDirectory.set(directory, type);
  return type;
}

const NO_PACKAGE_JSON = Symbol('no package.json');

function readPackageType(directory: string): ModuleKind | typeof NO_PACKAGE_JSON {
  let text: string;
  try {
    text = fs.readFileSync(path.join(directory, 'package.json'), 'utf8');
  } catch {
    return NO_PACKAGE_JSON;
  }
  try {
    const type = (JSON.parse(text) as { type?: unknown } | null)?.type;
    return type === 'module' || type === 'commonjs' ? type : undefined;
  } catch {
    // Node refuses to load such a package; linting it by its syntax is the lenient, useful choice.
    return undefined;
  }
}
