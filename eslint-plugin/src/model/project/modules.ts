// What the project's other modules export, for the calls of the file being linted: which exports
// are Redis or SQL clients, and which are lock helpers (with their key, token and TTL parameters).
//
// Cost is the constraint (parsing imported modules naively cost most of a lint run), so:
// - nothing here runs unless the model asks about a binding used at a lock-relevant site (a
//   receiver of a Redis command, a SQL sender, a callee named like a lock helper);
// - a module is read only after its specifier resolves to a project file (resolve.ts), and parsed
//   only when its text passes a screen (a client package, a lock word, a re-export);
// - each module is parsed at most once per process, cached by path and version (mtime and size on
//   disk, a document version in the editor); its export table is one walk of its top-level
//   statements, and its full lock model (for helper summaries) is built only when a helper is asked for.
// A module that is missing, unreadable, too large or unparsable answers nothing and throws nothing.

import path from 'node:path';
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { parseForESLint } from '@typescript-eslint/parser';
import { SourceCode } from 'eslint';
import { createRequire } from 'node:module';
import {
  createJavascriptParser,
  type EslintScope,
  type Espree,
  type JavascriptParser,
  type VisitorKeys,
} from '../../parsing/javascript-parser.js';
import { isFunctionLike, plainProperty, type FunctionLike, skipTypeWrappers } from '../../util/ast.js';
import { CLIENT_PACKAGES } from '../tables/redis-clients.js';
import { eitherInitialCase, LOCK_NOUNS } from '../tables/lock-words.js';
import { collectImports } from '../facts/imports.js';
import type { ImportBinding, ImportTable } from '../nouns/vocabulary.js';
import { SQL_PACKAGES, GENERATED_CLIENTS } from '../tables/sql-clients.js';
import { mayHoldSqlLock } from '../screen/sql-prefilter.js';
import { textMayUseRedis } from '../screen/redis-gate.js';
import { moduleHost } from './host.js';
import { callsImportedLockName } from './lock-names.js';
import { resolveImport } from './resolve.js';

/** The largest module read (bigger ones are generated or bundled code, not where clients live). */
export const MAX_MODULE_BYTES = 400_000;
/** How many re-exports and imports an answer follows (barrels of barrels). */
export const MAX_DEPTH = 5;

// A module is parsed only if its text can hold what is asked of it, or pass it on (a barrel).
const REEXPORT = /export\s*(?:\*|\{[^}]*\}\s*from)|module\.exports\s*=\s*require/u;
const PACKAGE_NAMES = [...Object.keys(CLIENT_PACKAGES), ...Object.keys(SQL_PACKAGES)];
const GENERATED_CLIENT_NAMES = Object.keys(GENERATED_CLIENTS);
const LUA_REDIS_CALL = /\b(?:redis|server)\.p?call\s*\(/u;
// A lock's name (`jobLock`, `Mutex`) in any module a lock can be reached through.
export const LOCK_NOUN_WORDS = new RegExp(LOCK_NOUNS.map(eitherInitialCase).join('|'), 'u');

/** What the model asks of a module, and the text screen that must pass before it is parsed. */
export type ModulePurpose = 'client' | 'helper' | 'script';

/** A client is made from a package the client tables name (`'ioredis'`, `"pg"`), in quotes. */
function mentionsClientPackage(text: string): boolean {
  for (const name of PACKAGE_NAMES) {
    let index = text.indexOf(name);
    while (index !== -1) {
      const before = text.charCodeAt(index - 1);
      const after = text.charCodeAt(index + name.length);
      if (
        (before === 39 || before === 34 || before === 96) &&
        (after === 39 || after === 34 || after === 96 || after === 47 || name.endsWith('/'))
      )
        return true;
      index = text.indexOf(name, index + name.length);
    }
  }
  return false;
}

/** Whether loadModule parses a module of this text for `purpose` (a barrel always passes). */
export function passesScreen(text: string, purpose: ModulePurpose): boolean {
  if (REEXPORT.test(text)) return true;
  // A Lua script another module keeps in a constant calls Redis from Lua.
  if (purpose === 'script') return LUA_REDIS_CALL.test(text);
  // A generated client (Prisma's `output` path) is made from the project's own module, named by its class.
  if (purpose === 'client') return mentionsClientPackage(text) || GENERATED_CLIENT_NAMES.some((name) => text.includes(name));
  // A helper takes its lock through Redis (the Redis model's own word scan), through SQL, or through
  // a helper it imports. A lock word beside `client` is not enough: an ORM's 100 KB query builder
  // (`setLockMode`, `this.client`) has both, and parsing it costs more than linting the file that asked.
  return LOCK_NOUN_WORDS.test(text) && (mayHoldSqlLock(text) || textMayUseRedis(text) || callsImportedLockName(text));
}

type ExportTarget =
  | { readonly kind: 'local'; readonly name: string }
  | { readonly kind: 'value'; readonly node: TSESTree.Node }
  | { readonly kind: 'reexport'; readonly source: string; readonly imported: string };

export interface ProjectModule {
  readonly filePath: string;
  readonly sourceCode: Readonly<TSESLint.SourceCode>;
  readonly imports: ImportTable;
  /** Per-module memo for the model's own use (the module's client resolver, its lock model). */
  readonly memo: Map<string, unknown>;
  /** @internal */ readonly exportTable: ReadonlyMap<string, ExportTarget>;
  /** @internal */ readonly stars: readonly string[];
  /** @internal */ readonly topLevel: ReadonlyMap<string, TSESTree.Node>;
  /** `module.exports = value` / `export = value`: what a whole-module require gets. */
  /** @internal */ readonly cjsValue: TSESTree.Node | undefined;
}

interface ModuleEntry {
  readonly version: string;
  readonly text: string | undefined;
  /** Undefined until parsed; null when the parse failed. */
  module: ProjectModule | null | undefined;
  readonly screened: Partial<Record<ModulePurpose, boolean>>;
}

const modules = new Map<string, ModuleEntry>();

/** The parsed module at `filePath`, once per version; undefined when its text cannot hold what `purpose` asks. */
export function loadModule(filePath: string, purpose: ModulePurpose): ProjectModule | undefined {
  const host = moduleHost();
  const stat = host.stat(filePath);
  if (!stat) return undefined;
  let entry = modules.get(filePath);
  if (!entry || entry.version !== stat.version) {
    const text = stat.size <= MAX_MODULE_BYTES ? host.readFile(filePath) : undefined;
    entry = { version: stat.version, text, module: undefined, screened: {} };
    modules.set(filePath, entry);
  }
  if (entry.module !== undefined) return entry.module ?? undefined;
  if (entry.text === undefined) return undefined;
  let passes = entry.screened[purpose];
  if (passes === undefined) {
    passes = passesScreen(entry.text, purpose);
    entry.screened[purpose] = passes;
  }
  if (!passes) return undefined;
  entry.module = parseModule(filePath, entry.text) ?? null;
  return entry.module ?? undefined;
}

const JAVASCRIPT_EXTENSIONS = new Set(['.js', '.cjs', '.mjs', '.jsx']);

let javascriptParser: JavascriptParser | null | undefined;

/**
 * JavaScript modules are parsed by the espree and eslint-scope of the ESLint running us, as
 * Node would run them (parsing/): already loaded and warm, where the TypeScript parser's first
 * parse in a JavaScript-only run loads the compiler. Where ESLint cannot be found (a bundle),
 * the TypeScript parser reads JavaScript too.
 */
function javascriptParserOrNull(): JavascriptParser | null {
  if (javascriptParser === undefined) {
    try {
      const fromEslint = createRequire(require.resolve('eslint'));
      javascriptParser = createJavascriptParser({
        espree: fromEslint('espree') as Espree,
        eslintScope: fromEslint('eslint-scope') as EslintScope,
        visitorKeys: fromEslint('eslint-visitor-keys') as VisitorKeys,
      });
    } catch {
      javascriptParser = null;
    }
  }
  return javascriptParser;
}

function parse(filePath: string, text: string): { ast: unknown; scopeManager: unknown; visitorKeys: unknown; services?: unknown } {
  const extension = path.extname(filePath);
  const javascript = JAVASCRIPT_EXTENSIONS.has(extension) ? javascriptParserOrNull() : null;
  if (javascript) {
    return javascript.parseForESLint(text, {
      filePath,
      ecmaVersion: 'latest',
      range: true,
      loc: true,
      tokens: true,
      comment: true,
      ecmaFeatures: { jsx: extension === '.jsx' },
    });
  }
  return parseForESLint(text, {
    filePath,
    range: true,
    loc: true,
    tokens: true,
    comment: true,
    sourceType: extension === '.cjs' || extension === '.cts' ? 'script' : 'module',
    ecmaFeatures: { jsx: extension === '.tsx' || extension === '.jsx' },
    ecmaVersion: 'latest',
  });
}

function parseModule(filePath: string, text: string): ProjectModule | undefined {
  try {
    const parsed = parse(filePath, text);
    // ESLint sets `parent` while it traverses a file it lints; a module read here is never traversed.
    setParents(parsed.ast as TSESTree.Node, parsed.visitorKeys as Readonly<Record<string, readonly string[]>>);
    const sourceCode = new SourceCode({
      text,
      ast: parsed.ast as never,
      scopeManager: parsed.scopeManager as never,
      visitorKeys: parsed.visitorKeys as never,
      parserServices: parsed.services as never,
    }) as unknown as Readonly<TSESLint.SourceCode>;
    const program = sourceCode.ast;
    return { filePath, sourceCode, imports: collectImports(program), memo: new Map(), ...exportsOf(program) };
  } catch {
    return undefined;
  }
}

function setParents(root: TSESTree.Node, keys: Readonly<Record<string, readonly string[]>>): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const key of keys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(child)) {
        for (const item of child) {
          if (item && typeof (item as TSESTree.Node).type === 'string') {
            (item as { parent: TSESTree.Node }).parent = node;
            stack.push(item as TSESTree.Node);
          }
        }
      } else if (child && typeof (child as TSESTree.Node).type === 'string') {
        (child as { parent: TSESTree.Node }).parent = node;
        stack.push(child as TSESTree.Node);
      }
    }
  }
}

/** One walk of the top-level statements: ESM exports, `module.exports`/`exports.x` assignments, declarations. */
function exportsOf(program: TSESTree.Program): Pick<ProjectModule, 'exportTable' | 'stars' | 'topLevel' | 'cjsValue'> {
  const exportTable = new Map<string, ExportTarget>();
  const stars: string[] = [];
  const topLevel = new Map<string, TSESTree.Node>();
  let cjsValue: TSESTree.Node | undefined;
  const declare = (node: TSESTree.Node | null | undefined, exported: boolean) => {
    if (!node) return;
    if (node.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of node.declarations) {
        if (declarator.id.type !== AST_NODE_TYPES.Identifier) continue;
        topLevel.set(declarator.id.name, declarator.id);
        if (exported) exportTable.set(declarator.id.name, { kind: 'local', name: declarator.id.name });
      }
    } else if ((node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.ClassDeclaration) && node.id) {
      topLevel.set(node.id.name, node);
      if (exported) exportTable.set(node.id.name, { kind: 'local', name: node.id.name });
    }
  };
  for (const statement of program.body) {
    switch (statement.type) {
      case AST_NODE_TYPES.ExportNamedDeclaration:
        declare(statement.declaration, true);
        for (const specifier of statement.specifiers) {
          const exported = nameOf(specifier.exported);
          const local = nameOf(specifier.local);
          exportTable.set(
            exported,
            statement.source ? { kind: 'reexport', source: statement.source.value, imported: local } : { kind: 'local', name: local },
          );
        }
        break;
      case AST_NODE_TYPES.ExportAllDeclaration:
        if (statement.exported)
          exportTable.set(nameOf(statement.exported), { kind: 'reexport', source: statement.source.value, imported: '*' });
        else stars.push(statement.source.value);
        break;
      case AST_NODE_TYPES.ExportDefaultDeclaration: {
        const declaration = statement.declaration;
        if (declaration.type === AST_NODE_TYPES.Identifier) exportTable.set('default', { kind: 'local', name: declaration.name });
        else {
          declare(declaration, false);
          exportTable.set('default', { kind: 'value', node: declaration });
        }
        break;
      }
      case AST_NODE_TYPES.TSExportAssignment:
        cjsValue = statement.expression;
        break;
      case AST_NODE_TYPES.VariableDeclaration:
      case AST_NODE_TYPES.FunctionDeclaration:
      case AST_NODE_TYPES.ClassDeclaration:
        declare(statement, false);
        break;
      case AST_NODE_TYPES.ExpressionStatement: {
        const assigned = commonJsExport(statement.expression);
        if (!assigned) break;
        if (assigned.name === undefined) cjsValue = assigned.value;
        else exportTable.set(assigned.name, { kind: 'value', node: assigned.value });
        break;
      }
      default:
        break;
    }
  }
  return { exportTable, stars, topLevel, cjsValue };
}

function nameOf(node: TSESTree.Identifier | TSESTree.StringLiteral): string {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : node.value;
}

/** `module.exports = v` (name undefined), `module.exports.x = v`, `exports.x = v`. */
function commonJsExport(expression: TSESTree.Expression): { name: string | undefined; value: TSESTree.Node } | undefined {
  if (expression.type !== AST_NODE_TYPES.AssignmentExpression || expression.operator !== '=') return undefined;
  const target = expression.left;
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.computed || target.property.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  const object = target.object;
  if (object.type === AST_NODE_TYPES.Identifier && object.name === 'module' && target.property.name === 'exports')
    return { name: undefined, value: expression.right };
  if (object.type === AST_NODE_TYPES.Identifier && object.name === 'exports')
    return { name: target.property.name, value: expression.right };
  if (
    object.type === AST_NODE_TYPES.MemberExpression &&
    !object.computed &&
    object.object.type === AST_NODE_TYPES.Identifier &&
    object.object.name === 'module' &&
    object.property.type === AST_NODE_TYPES.Identifier &&
    object.property.name === 'exports'
  ) {
    return { name: target.property.name, value: expression.right };
  }
  return undefined;
}

/** A value another module exports: the node in that module that makes it (a declared name, a function, an expression). */
export interface ExportedValue {
  readonly module: ProjectModule;
  readonly node: TSESTree.Node;
}

/**
 * What `binding` (an import of the file `fromFile`), or its member `member` (`db.redis` of
 * `import * as db`), is in the module that exports it. Undefined for packages, missing modules,
 * and anything the top-level walk cannot name.
 */
export function importedValue(
  fromFile: string,
  binding: ImportBinding,
  purpose: ModulePurpose,
  member?: string,
  depth = 0,
): ExportedValue | undefined {
  if (depth > MAX_DEPTH || !mayBeProjectModule(binding.source)) return undefined;
  const filePath = resolveImport(fromFile, binding.source);
  if (!filePath || filePath === fromFile) return undefined;
  const module = loadModule(filePath, purpose);
  if (!module) return undefined;
  if (binding.imported === '*') {
    // A whole-module require (or namespace import): `module.exports = v` is the value itself.
    if (module.cjsValue)
      return member === undefined
        ? valueIn(module, module.cjsValue, purpose, depth)
        : propertyOf(module, module.cjsValue, member, purpose, depth);
    return member === undefined ? undefined : exportIn(module, member, purpose, depth);
  }
  if (binding.imported === 'default' && !module.exportTable.has('default') && module.cjsValue) {
    const whole = valueIn(module, module.cjsValue, purpose, depth);
    return member === undefined ? whole : propertyOf(module, module.cjsValue, member, purpose, depth);
  }
  const exported = exportIn(module, binding.imported, purpose, depth);
  if (member === undefined || !exported) return exported;
  return propertyOf(exported.module, exported.node, member, purpose, depth);
}

function exportIn(module: ProjectModule, name: string, purpose: ModulePurpose, depth: number): ExportedValue | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const target = module.exportTable.get(name);
  if (target?.kind === 'value') return valueIn(module, target.node, purpose, depth);
  if (target?.kind === 'local') return localIn(module, target.name, purpose, depth);
  if (target?.kind === 'reexport') {
    return target.imported === '*'
      ? undefined
      : importedValue(module.filePath, { source: target.source, imported: target.imported }, purpose, undefined, depth + 1);
  }
  if (module.cjsValue) return propertyOf(module, module.cjsValue, name, purpose, depth);
  for (const source of module.stars) {
    const found = importedValue(module.filePath, { source, imported: name }, purpose, undefined, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** A top-level name: its declaration, or, when the module imported it, what it is where it came from. */
function localIn(module: ProjectModule, name: string, purpose: ModulePurpose, depth: number): ExportedValue | undefined {
  const declared = module.topLevel.get(name);
  const binding = module.imports.get(name);
  // `const redis = require('./client')` is a declaration the import table also knows: follow the import.
  if (binding && (!declared || isRequireDeclarator(declared)))
    return importedValue(module.filePath, binding, purpose, undefined, depth + 1);
  return declared ? { module, node: declared } : undefined;
}

function isRequireDeclarator(node: TSESTree.Node): boolean {
  return node.parent?.type === AST_NODE_TYPES.VariableDeclarator && node.parent.id === node;
}

/** An exported expression: a name is followed to its declaration, anything else is the value itself. */
function valueIn(module: ProjectModule, node: TSESTree.Node, purpose: ModulePurpose, depth: number): ExportedValue | undefined {
  const value = skipTypeWrappers(node);
  if (value.type === AST_NODE_TYPES.Identifier) return localIn(module, value.name, purpose, depth + 1) ?? { module, node: value };
  return { module, node: value };
}

/** `member` of an exported object literal (`module.exports = { redis, withLock }`). */
function propertyOf(
  module: ProjectModule,
  node: TSESTree.Node,
  member: string,
  purpose: ModulePurpose,
  depth: number,
): ExportedValue | undefined {
  let value = skipTypeWrappers(node);
  if (value.type === AST_NODE_TYPES.Identifier) {
    const declared = localIn(module, value.name, purpose, depth + 1);
    if (!declared) return undefined;
    if (declared.module !== module) return undefined;
    const declarator = declared.node.parent;
    if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || !declarator.init) return undefined;
    value = skipTypeWrappers(declarator.init);
  }
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const property = plainProperty(value, member);
  return property ? valueIn(module, property.value, purpose, depth) : undefined;
}

/** The function an exported value is: a declaration, a `const f = () => …`, an exported function expression. */
export function exportedFunction(value: ExportedValue): FunctionLike | undefined {
  const node = value.node;
  if (isFunctionLike(node)) return node;
  const declarator = node.parent;
  if (
    node.type === AST_NODE_TYPES.Identifier &&
    declarator?.type === AST_NODE_TYPES.VariableDeclarator &&
    declarator.id === node &&
    declarator.init
  ) {
    const init = skipTypeWrappers(declarator.init);
    return isFunctionLike(init) ? init : undefined;
  }
  return undefined;
}

const NODE_BUILTINS =
  /^(?:node:|fs$|path$|os$|crypto$|util$|events$|http$|https$|url$|stream$|child_process$|worker_threads$|net$|tls$|zlib$|assert$|buffer$|timers$)/u;

/** Only project files can be resolved: packages are known by name in the client tables, builtins never hold a client. */
export function mayBeProjectModule(source: string): boolean {
  return (
    source.length > 0 && !NODE_BUILTINS.test(source) && !Object.hasOwn(CLIENT_PACKAGES, source) && !Object.hasOwn(SQL_PACKAGES, source)
  );
}

/** Forgets every parsed module (tests that rewrite files within one process). */
export function clearModules(): void {
  modules.clear();
}

/**
 * Forgets one parsed module, with what was memoised on it. A module's lock model is kept per its own
 * version, but its helpers may call another module's: the editor forgets the modules read beside
 * one that changed, so their summaries are made again from the new text.
 */
export function forgetModule(filePath: string): void {
  modules.delete(filePath);
}
