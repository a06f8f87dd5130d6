// Lints one text with the bundled plugin through ESLint's Linter, and screens a text for the lock map without linting it: never loads anything from the workspace.

import * as path from 'node:path';
import { Linter } from 'eslint/universal';
import type { Rule } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
// Required as ESLint requires them (their CommonJS builds): an `import` would bundle their ES module
// builds beside those, a second copy of each.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
import espree = require('espree');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
import eslintScope = require('eslint-scope');
import locksmith from 'eslint-plugin-locksmith';
import { asLinterParser, createJavascriptParser, type Espree } from 'eslint-plugin-locksmith/parsing';
import { toEslintRules, type ProjectConfig } from 'eslint-plugin-locksmith/project-config';
import { createReachMemo, lockSummaries, textMayTakeLocks, type LockSummary, type ReachMemo } from 'eslint-plugin-locksmith/lock-map';
import { toSharedSettings, type RuleInfo, type Settings } from '../shared/settings';
import { createReportCapture, type CapturedReports } from './related';
import { isVirtualPath } from './module-host';

export const RULE_PREFIX = 'locksmith/';

const SCRIPT_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx'] as const;
const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);
const EXTENSION_BY_LANGUAGE: Record<string, string> = {
  javascript: '.js',
  javascriptreact: '.jsx',
  typescript: '.ts',
  typescriptreact: '.tsx',
};

export type LintOutcome =
  | {
      kind: 'linted';
      messages: Linter.LintMessage[];
      reports: CapturedReports;
      /** Summarised when first read (from the model the lint built): the diagnostics need none of it. */
      readonly locks: LockSummary[];
    }
  | { kind: 'parseError'; message: string; line: number }
  | { kind: 'skipped'; reason: string };

export interface LintInput {
  text: string;
  /** A file system path when there is one; otherwise any name whose extension tells the dialect. */
  filePath: string;
  languageId?: string;
  settings: Settings;
  /** The nearest locksmith.json (or package.json "locksmith" key), when the file has one. */
  project?: ProjectConfig;
}

interface RuleMeta {
  docs?: { url?: string };
  hasSuggestions?: boolean;
}

const pluginRules = locksmith.rules as Record<string, { meta?: RuleMeta } | undefined>;

/** Ids of every rule the bundled plugin exports, without the prefix. */
export function ruleIds(): string[] {
  return Object.keys(pluginRules).sort();
}

export function ruleDocsUrl(ruleId: string): string | undefined {
  return pluginRules[ruleId]?.meta?.docs?.url;
}

/** What the client (and its tests) learn about a rule the server lints with. */
export function ruleInfo(ruleId: string): RuleInfo {
  const entry = (locksmith.configs.recommended.rules as Linter.RulesRecord)[`${RULE_PREFIX}${ruleId}`];
  const severity: unknown = Array.isArray(entry) ? entry[0] : entry;
  return {
    id: ruleId,
    docsUrl: ruleDocsUrl(ruleId) ?? null,
    recommended: severity !== undefined && severity !== 'off' && severity !== 0,
    hasSuggestions: pluginRules[ruleId]?.meta?.hasSuggestions === true,
  };
}

/** The extension that decides the parser: the file's own, else the one its language implies. */
export function dialectExtension(filePath: string, languageId: string | undefined): string {
  const extension = path.extname(filePath).toLowerCase();
  if ((SCRIPT_EXTENSIONS as readonly string[]).includes(extension)) return extension;
  return (languageId === undefined ? undefined : EXTENSION_BY_LANGUAGE[languageId]) ?? '.js';
}

/** Whether the document is a Lua file (a Redis script, for the plugin's `locksmith/lua` language). */
export function isLuaDocument(filePath: string, languageId: string | undefined): boolean {
  return languageId === 'lua' || path.extname(filePath).toLowerCase() === '.lua';
}

/** The rules that read Lua keep their level; the others are off (ESLint refuses them on Lua). */
function luaRuleLevels(rules: Linter.RulesRecord): Linter.RulesRecord {
  const lua = locksmith.configs.lua.rules as Linter.RulesRecord;
  const result: Linter.RulesRecord = {};
  for (const ruleId of Object.keys(rules)) result[ruleId] = ruleId in lua ? (rules[ruleId] ?? 'off') : 'off';
  return result;
}

/** The layers, lowest first: recommended < locksmith.json < the editor's `locksmith.rules`. */
export function ruleLevels(settings: Settings, project?: ProjectConfig): Linter.RulesRecord {
  const recommended = locksmith.configs.recommended.rules as Linter.RulesRecord;
  const rules: Linter.RulesRecord = { ...recommended, ...(project === undefined ? {} : toEslintRules(project)) };
  for (const [ruleId, severity] of Object.entries(settings.rules)) {
    if (pluginRules[ruleId] !== undefined) rules[`${RULE_PREFIX}${ruleId}`] = severity;
  }
  return rules;
}

// JavaScript is parsed as the CLI parses it: as the module system Node runs the file in (the nearest
// package.json "type", else Node's syntax detection), with the espree and eslint-scope bundled here.
const javascriptParser = asLinterParser(
  createJavascriptParser({
    espree: espree as unknown as Espree,
    eslintScope,
    visitorKeys: { KEYS: espree.VisitorKeys },
  }),
);

function languageOptions(extension: string, filePath: string, settings: Settings): Linter.LanguageOptions {
  // A virtual document's path is absolute (its imports resolve under it) but names nothing on disk.
  const onDisk = path.isAbsolute(filePath) && !isVirtualPath(filePath);
  const sourceType = extension === '.cjs' || extension === '.cts' ? 'commonjs' : 'module';
  if (!TYPESCRIPT_EXTENSIONS.has(extension)) {
    return {
      ecmaVersion: 'latest',
      // Only ESLint's default: the parser picks module or CommonJS for the file.
      sourceType,
      parser: javascriptParser,
      // Text with no file on disk (untitled, a virtual workspace) has no package.json to read.
      parserOptions: { ecmaFeatures: { jsx: extension !== '.mjs' && extension !== '.cjs' }, packageScope: onDisk },
    };
  }
  const parserOptions: Linter.ParserOptions = { ecmaFeatures: { jsx: extension === '.tsx' } };
  if (settings.typeAware && onDisk) {
    // The workspace's tsconfig is read, never executed: safe in untrusted workspaces too.
    parserOptions.projectService = true;
    parserOptions.tsconfigRootDir = path.dirname(filePath);
  } else {
    // The ESTree-to-TypeScript node maps serve only a type checker (model/type-oracle.ts asks for
    // both): without a program, not building them takes a tenth off each parse, and off each keystroke.
    parserOptions.preserveNodeMaps = false;
  }
  return { ecmaVersion: 'latest', sourceType, parser: typescriptParser, parserOptions };
}

/**
 * The lock map's probe: a rule of the server's own (not the plugin's) that reports nothing and keeps
 * the way to read the file's locks from the model the plugin's rules built in the same pass (cached
 * per Program). They are read when the outcome's `locks` first are: an edit's diagnostics are
 * published without waiting for the lock map's summaries.
 */
let lastLocks: (() => LockSummary[]) | undefined;
const LOCK_MAP_RULE = 'locksmith-map/locks';

/** The probe's reader of the lint that just ran (none when the probe did not run: a parse error). */
function takeLastLocks(): () => LockSummary[] {
  const read = lastLocks ?? ((): LockSummary[] => []);
  lastLocks = undefined;
  return read;
}
const lockMapPlugin = {
  rules: {
    locks: {
      meta: { type: 'problem', schema: [] },
      create(context: Rule.RuleContext) {
        return {
          'Program:exit'() {
            let locks: LockSummary[] | undefined;
            lastLocks = () => {
              try {
                locks ??= lockSummaries(context as unknown as Parameters<typeof lockSummaries>[0]);
              } catch {
                // The map is a view: a file it cannot summarise shows no locks, and its findings still show.
                locks = [];
              }
              return locks;
            };
          },
        };
      },
    },
  },
} satisfies { rules: Record<string, Rule.RuleModule> };

// Wrapped once: the wrapper keeps each report's `data`, where rules put related locations.
const capture = createReportCapture(locksmith as unknown as { rules: Record<string, Rule.RuleModule> });

const linters = new Map<string, Linter>();

function linterFor(filePath: string): Linter {
  // Flat config ignores files outside the linter's cwd, so each file is linted from its own root.
  const root = path.isAbsolute(filePath) ? path.parse(filePath).root : process.cwd();
  let linter = linters.get(root);
  if (linter === undefined) {
    linter = new Linter({ cwd: root });
    linters.set(root, linter);
  }
  return linter;
}

/** locksmith.json's settings, with the editor's own locksmith.* settings over them: ESLint's `settings`. */
function settingsObjectOf(settings: Settings, project: ProjectConfig | undefined): { locksmith: Record<string, unknown> } {
  return { locksmith: { ...project?.settings, ...toSharedSettings(settings).locksmith } };
}

/**
 * Whether lintText could find a lock in the text, answered from the text alone (the plugin's lock
 * map screen without a parse: textMayTakeLocks): false only when its lint would map no lock. The lock
 * map asks it of every file on disk before linting one; `memo` keeps what it read of the modules
 * those files import, for one pass over a workspace.
 */
export function mayHoldLocks(input: LintInput, memo: ReachMemo = createReachMemo()): boolean {
  const { text, settings, project } = input;
  // Ignored, too large and Lua files are mapped with no locks (lintText skips them or runs no probe).
  if (project?.isIgnored(input.filePath) === true || isLuaDocument(input.filePath, input.languageId)) return false;
  if (Buffer.byteLength(text, 'utf8') / 1024 > settings.maxFileSizeKb) return false;
  const extension = dialectExtension(input.filePath, input.languageId);
  const typed = settings.typeAware && TYPESCRIPT_EXTENSIONS.has(extension);
  return textMayTakeLocks(text, settingsObjectOf(settings, project), typed, lintedPath(input.filePath, extension), memo);
}

/** The path a text is linted under: its own when absolute with its dialect's extension, else a name that has one. */
function lintedPath(filePath: string, extension: string): string {
  return path.isAbsolute(filePath) && path.extname(filePath).toLowerCase() === extension
    ? filePath
    : `${filePath.replace(/[\\/]/g, '_') || 'untitled'}${extension}`;
}

/**
 * Lints a text with the rules and the lock map's probe. The lock map lints every file its screen
 * lets through this way too: the screen lets through few files without a lock, and a probe alone
 * first, then a full lint of the files with locks, cost a fifth more on the corpus than one lint each.
 */
export function lintText(input: LintInput): LintOutcome {
  const { text, settings, project } = input;
  if (project?.isIgnored(input.filePath) === true) {
    return { kind: 'skipped', reason: `ignored by ${project.filePath}` };
  }
  const lua = isLuaDocument(input.filePath, input.languageId);
  const extension = lua ? '.lua' : dialectExtension(input.filePath, input.languageId);
  const sizeKb = Buffer.byteLength(text, 'utf8') / 1024;
  if (sizeKb > settings.maxFileSizeKb) {
    return { kind: 'skipped', reason: `${Math.ceil(sizeKb)} KB is over locksmith.maxFileSizeKb (${settings.maxFileSizeKb} KB)` };
  }
  const filePath = lintedPath(input.filePath, extension);
  const settingsObject = settingsObjectOf(settings, project);
  const config: Linter.Config[] = lua
    ? [
        {
          // A Redis script: read by the plugin's own Lua language; a file with no sign of Redis (a
          // Neovim or LÖVE script) is not parsed and gets no diagnostics.
          files: ['**/*.lua'],
          plugins: { locksmith: capture.plugin },
          language: 'locksmith/lua',
          linterOptions: { reportUnusedDisableDirectives: 'off' },
          settings: settingsObject,
          rules: luaRuleLevels(ruleLevels(settings, project)),
        },
      ]
    : [
        {
          // A universal `**/*` alone does not make ESLint lint a .ts file: name the extensions.
          files: SCRIPT_EXTENSIONS.map((extension) => `**/*${extension}`),
          plugins: { locksmith: capture.plugin, 'locksmith-map': lockMapPlugin },
          languageOptions: languageOptions(extension, filePath, settings),
          linterOptions: { reportUnusedDisableDirectives: 'off' },
          // locksmith.json's settings, with the editor's own locksmith.* settings over them.
          settings: settingsObject,
          rules: { ...ruleLevels(settings, project), [LOCK_MAP_RULE]: 'error' },
        },
      ];
  lastLocks = undefined;
  const linter = linterFor(filePath);
  const { result: messages, reports } = capture.during(() => linter.verify(text, config, { filename: filePath }));
  const readLocks = takeLastLocks();
  const fatal = messages.find((message) => message.fatal === true);
  if (fatal !== undefined && settings.typeAware && /project service|allowDefaultProject/.test(fatal.message)) {
    // A file outside every tsconfig has no program: lint it as if type-aware were off.
    return lintText({ ...input, settings: { ...settings, typeAware: false } });
  }
  if (fatal !== undefined) return { kind: 'parseError', message: fatal.message, line: fatal.line };
  return {
    kind: 'linted',
    messages: messages.filter((message) => message.ruleId?.startsWith(RULE_PREFIX) === true),
    reports,
    get locks() {
      return readLocks();
    },
  };
}
