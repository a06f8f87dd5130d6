// How a JavaScript file is parsed: as the module system Node runs it in. Shared by the CLI and the
// language server, so a file gets the same parse (and the same parse errors) in both.

export {
  createJavascriptParser,
  asLinterParser,
  meta,
  type JavascriptParser,
  type JavascriptParserOptions,
  type ParserTools,
  type Espree,
  type EslintScope,
  type VisitorKeys,
  type ParsedProgram,
} from './javascript-parser.js';
export { moduleKindOf, clearPackageTypes, type ModuleKind } from './package-type.js';
