// ESLint's own parser (espree) with the module system Node would use for each file, so valid
// CommonJS (top-level `return`, legacy octal literals, `with`) parses, and ES modules still do.
// One decision for the CLI and the language server; each hands in the espree and eslint-scope of
// the ESLint it runs (the CLI the user's ESLint, the server the bundled one).

import type { Linter } from 'eslint';
import { moduleKindOf } from './package-type.js';

export interface JavascriptParserOptions {
  ecmaVersion?: number | 'latest';
  sourceType?: string;
  ecmaFeatures?: { jsx?: boolean; globalReturn?: boolean; impliedStrict?: boolean };
  filePath?: string;
  /**
   * `false` for text with no file on disk (an untitled editor, a virtual workspace): no package.json
   * is read, and Node's syntax detection decides. A parser option, so the config says it per file.
   */
  packageScope?: boolean;
  [option: string]: unknown;
}

export interface ParsedProgram {
  type: 'Program';
  sourceType: string;
}

export interface Espree {
  parse(code: string, options: JavascriptParserOptions): ParsedProgram;
}

export interface EslintScope {
  analyze(ast: ParsedProgram, options: Record<string, unknown>): unknown;
}

export interface VisitorKeys {
  KEYS: Record<string, readonly string[]>;
  /** eslint-scope's fallback for node types without keys; its own iteration when absent. */
  getKeys?: (node: object) => readonly string[];
}

export interface ParserTools {
  espree: Espree;
  eslintScope: EslintScope;
  visitorKeys: VisitorKeys;
}

type SourceType = 'module' | 'commonjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- read at run time, as the plugin's own meta is
const { version } = require('../../package.json') as { version: string };

export const meta = { name: 'locksmith/javascript', version };

export interface JavascriptParser {
  meta: typeof meta;
  parseForESLint: (
    code: string,
    options?: JavascriptParserOptions,
  ) => { ast: ParsedProgram; scopeManager: unknown; visitorKeys: VisitorKeys['KEYS'] };
}

export function createJavascriptParser(tools: ParserTools): JavascriptParser {
  const { espree, eslintScope, visitorKeys } = tools;

  function parseAs(code: string, options: JavascriptParserOptions, sourceType: SourceType): ParsedProgram {
    // Ours, not espree's.
    const espreeOptions = { ...options };
    delete espreeOptions.packageScope;
    const ecmaFeatures = { ...options.ecmaFeatures, globalReturn: sourceType === 'commonjs' };
    return espree.parse(code, { ...espreeOptions, sourceType, ecmaFeatures });
  }

  function parseAsNodeWould(code: string, options: JavascriptParserOptions): { ast: ParsedProgram; sourceType: SourceType } {
    const decided =
      options.filePath === undefined ? undefined : moduleKindOf(options.filePath, { packageScope: options.packageScope !== false });
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

  function parseForESLint(code: string, options: JavascriptParserOptions = {}) {
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
      fallback: visitorKeys.getKeys ?? 'iteration',
      jsx: ecmaFeatures.jsx,
    });
    return { ast, scopeManager, visitorKeys: visitorKeys.KEYS };
  }

  return { meta, parseForESLint };
}

function errorIndex(error: unknown): number {
  const index = (error as { index?: unknown } | null)?.index;
  return typeof index === 'number' ? index : -1;
}

/** The parser object for flat config's `languageOptions.parser` (its tree is espree's ESTree). */
export function asLinterParser(parser: JavascriptParser): Linter.Parser {
  return parser as unknown as Linter.Parser;
}
