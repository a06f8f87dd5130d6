// ESLint's own parser (espree) with the module system Node would use for each file, so valid
// CommonJS (top-level `return`, legacy octal literals, `with`) parses, and ES modules still do.
//
// A module of its own, holding no state a fresh import cannot rebuild (the package.json cache
// refills itself), so ESLint worker threads can load it by name.

import { createRequire } from 'node:module';
import type { Linter } from 'eslint';
import { moduleKindOf } from './package-type.js';

interface EspreeOptions {
  ecmaVersion?: number | 'latest';
  sourceType?: string;
  ecmaFeatures?: { jsx?: boolean; globalReturn?: boolean; impliedStrict?: boolean };
  filePath?: string;
  [option: string]: unknown;
}

interface ParsedProgram { type: 'Program'; sourceType: string }

interface Espree { parse(code: string, options: EspreeOptions): ParsedProgram }

interface EslintScope {
  analyze(ast: ParsedProgram, options: Record<string, unknown>): unknown;
}

interface VisitorKeys {
  KEYS: Record<string, readonly string[]>;
  getKeys: (node: object) => readonly string[];
}

// The espree, eslint-scope and visitor keys of the ESLint that runs us, whichever major it is, so
// the tree and scopes are exactly what its default parser would produce.
const fromEslint = createRequire(require.resolve('eslint'));
const espree = fromEslint('espree') as Espree;
const eslintScope = fromEslint('eslint-scope') as EslintScope;
const visitorKeys = fromEslint('eslint-visitor-keys') as VisitorKeys;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- read at run time, as the plugin's own meta is
const { version } = require('../../package.json') as { version: string };

type SourceType = 'module' | 'commonjs';

export const meta = { name: 'locksmith/javascript', version };

export function parseForESLint(code: string, options: EspreeOptions = {}) {
  const { ast, sourceType } = parseAsNodeWould(code, options);
  const ecmaFeatures = options.ecmaFeatures ?? {};
  // What ESLint's own scope analysis does, with the source type this file really has.
  const scopeManager = eslintScope.analyze(ast, {
    ignoreEval: true,
    nodejsScope: sourceType === 'commonjs',
    impliedStrict: ecmaFeatures.impliedStrict,
    ecmaVersion: typeof options.ecmaVersion === 'number' ? options.ecmaVersion : 6,
    sourceType,
    childVisitorKeys: visitorKeys.KEYS,
    fallback: visitorKeys.getKeys,
    jsx: ecmaFeatures.jsx,
  });
  return { ast, scopeManager, visitorKeys: visitorKeys.KEYS };
}

function parseAsNodeWould(code: string, options: EspreeOptions): { ast: ParsedProgram; sourceType: SourceType } {
  const decided = options.filePath === undefined ? undefined : moduleKindOf(options.filePath);
  if (decided !== undefined) {
    return { ast: parseAs(code, options, decided), sourceType: decided };
  }
  // Node's syntax detection: CommonJS first; a module only when CommonJS fails and module syntax
  // parses. CommonJS only rejects module syntax that modules accept (`import`, `export`,
  // `import.meta`, top-level `await`), so that is exactly Node's "failed because of ESM syntax".
  let commonJsError: unknown;
  try {
    return { ast: parseAs(code, options, 'commonjs'), sourceType: 'commonjs' };
  } catch (error) {
    commonJsError = error;
  }
  try {
    return { ast: parseAs(code, options, 'module'), sourceType: 'module' };
  } catch (moduleError) {
    // Broken either way: Node rejects it too. Report the one error that got further into the
    // file, which is the reading its author meant.
    throw errorIndex(moduleError) > errorIndex(commonJsError) ? moduleError : commonJsError;
  }
}

function parseAs(code: string, options: EspreeOptions, sourceType: SourceType): ParsedProgram {
  const ecmaFeatures = { ...options.ecmaFeatures, globalReturn: sourceType === 'commonjs' };
  return espree.parse(code, { ...options, sourceType, ecmaFeatures });
}

function errorIndex(error: unknown): number {
  const index = (error as { index?: unknown } | null)?.index;
  return typeof index === 'number' ? index : -1;
}

/** The parser object for flat config's `languageOptions.parser` (its tree is espree's ESTree). */
export const javascriptParser = { meta, parseForESLint } as unknown as Linter.Parser;
