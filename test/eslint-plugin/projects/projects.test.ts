// The fixture projects (test/fixtures/projects): multi-file projects modelled on public
// repositories, each expected finding marked in the source with `// expect: locksmith/<rule>`.
// Locksmith runs over them with the `strict` preset through ESLint's Node API (without and
// with type information) and through the CLI; every finding must be marked (0 false
// positives beyond the listed ones) and every marker found unless listed as a known miss.
// Both lists live in expectations.json and may only shrink: an entry that no longer
// happens fails the test too.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import { before, describe, it } from 'mocha';
import plugin from '../../../eslint-plugin/src/index.js';
import { CLI_SUITE_TIMEOUT_MS, REPOSITORY_ROOT, parseJsonReport, runLocksmith } from '../cli/run-cli';

const PROJECTS_DIR = path.join(REPOSITORY_ROOT, 'test/fixtures/projects');
const EXPECTATIONS_FILE = path.join(__dirname, 'expectations.json');
const SOURCE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);
const TS_FILES = ['**/*.ts', '**/*.mts', '**/*.cts', '**/*.tsx'];
const MARKER = /\/\/\s*expect:\s*(.+)$/;

// The rules of rules.md that this plugin does not ship yet: markers for them are recorded but
// not scored until the rule exists (then they count like any other marker).
const CATALOGUED_RULES = new Set([
  'no-check-then-set', 'no-split-acquire', 'require-lock-ttl', 'require-unique-token', 'no-unsafe-release',
  'no-unsafe-extend', 'require-fencing-token', 'require-acquire-check', 'no-pooled-advisory-lock',
  'no-xact-lock-outside-transaction', 'require-release-in-finally', 'no-lock-takeover', 'no-unneeded-lock',
  'no-lock-key-write', 'require-release-check', 'require-lock-loss-handling', 'no-lua-reply-pitfalls',
]);
const SHIPPED_RULES = new Set(Object.keys(plugin.rules));

type Mode = 'eslint' | 'eslint-typed' | 'cli';
const MODES: readonly Mode[] = ['eslint', 'eslint-typed', 'cli'];

/** `project/relative/file.ts:12 rule-id`, the unit every list and comparison uses. */
type FindingKey = string;

interface Expectations {
  knownMisses: Record<Mode, Record<FindingKey, string>>;
  knownFalsePositives: Record<Mode, Record<FindingKey, string>>;
}

function key(project: string, file: string, line: number, rule: string): FindingKey {
  return `${project}/${file}:${line} ${rule}`;
}

function projectNames(): string[] {
  return fs.readdirSync(PROJECTS_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
}

function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (SOURCE_EXTENSIONS.has(path.extname(entry.name))) {
        files.push(full);
      }
    }
  };
  walk(root);
  return files.sort();
}

function relativeToProjects(file: string): { project: string; file: string } {
  const [project = '', ...rest] = path.relative(PROJECTS_DIR, file).split(path.sep);
  return { project, file: rest.join('/') };
}

interface Markers { scored: Set<FindingKey>; pending: Set<FindingKey> }

function readMarkers(): Markers {
  const scored = new Set<FindingKey>();
  const pending = new Set<FindingKey>();
  for (const project of projectNames()) {
    for (const file of sourceFiles(path.join(PROJECTS_DIR, project))) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((text, index) => {
        const match = MARKER.exec(text);
        if (!match) return;
        for (const item of match[1]!.split(',').map((part) => part.trim())) {
          const rule = /^locksmith\/([a-z-]+)$/.exec(item)?.[1];
          assert.ok(rule !== undefined && CATALOGUED_RULES.has(rule), `${file}:${index + 1}: marker names no rule of rules.md: ${item}`);
          const where = relativeToProjects(file);
          (SHIPPED_RULES.has(rule) ? scored : pending).add(key(where.project, where.file, index + 1, rule));
        }
      });
    }
  }
  return { scored, pending };
}

function findingKeys(results: ReadonlyArray<{ filePath: string; messages: ReadonlyArray<{ ruleId: string | null; line: number; fatal?: boolean; message: string }> }>): Set<FindingKey> {
  const found = new Set<FindingKey>();
  for (const result of results) {
    const where = relativeToProjects(result.filePath);
    for (const message of result.messages) {
      assert.notEqual(message.fatal, true, `${result.filePath}:${message.line}: ${message.message}`);
      if (message.ruleId?.startsWith('locksmith/') !== true) continue;
      found.add(key(where.project, where.file, message.line, message.ruleId.slice('locksmith/'.length)));
    }
  }
  return found;
}

function eslintConfig(typed: boolean): Linter.Config[] {
  const tsParser = typescriptParser as unknown as Linter.Parser;
  const config: Linter.Config[] = [
    plugin.configs.strict as unknown as Linter.Config,
    { files: TS_FILES, languageOptions: { parser: tsParser } },
    { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  ];
  if (typed) {
    config.push({ files: TS_FILES, languageOptions: { parser: tsParser, parserOptions: { projectService: true, tsconfigRootDir: PROJECTS_DIR } } });
  }
  return config;
}

async function lintWithEslint(typed: boolean): Promise<Set<FindingKey>> {
  const eslint = new ESLint({ cwd: PROJECTS_DIR, overrideConfigFile: true, overrideConfig: eslintConfig(typed), errorOnUnmatchedPattern: false });
  const patterns = typed
    ? projectNames().filter((project) => fs.existsSync(path.join(PROJECTS_DIR, project, 'tsconfig.json'))).map((project) => `${project}/**/*.{ts,mts,cts}`)
    : ['.'];
  return findingKeys(await eslint.lintFiles(patterns));
}

function lintWithCli(): Set<FindingKey> {
  const run = runLocksmith(REPOSITORY_ROOT, ['--preset', 'strict', '--format', 'json', '--no-config-lookup', path.relative(REPOSITORY_ROOT, PROJECTS_DIR)]);
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return findingKeys(parseJsonReport(run).map((result) => ({ ...result, filePath: path.resolve(REPOSITORY_ROOT, result.filePath) })));
}

function projectOf(findingKey: FindingKey): string {
  return findingKey.slice(0, findingKey.indexOf('/'));
}

function scopeToTyped(keys: ReadonlySet<FindingKey>): Set<FindingKey> {
  // The typed run lints only TypeScript files of projects with a tsconfig.json.
  return new Set([...keys].filter((findingKey) => {
    const file = findingKey.slice(0, findingKey.lastIndexOf(':'));
    return /\.(ts|mts|cts)$/.test(file) && fs.existsSync(path.join(PROJECTS_DIR, projectOf(findingKey), 'tsconfig.json'));
  }));
}

function report(mode: Mode, expected: ReadonlySet<FindingKey>, found: ReadonlySet<FindingKey>): string {
  const lines = [`locksmith fixture projects, ${mode}:`];
  let totalExpected = 0;
  let totalFound = 0;
  let totalFalse = 0;
  for (const project of projectNames()) {
    const mine = [...expected].filter((findingKey) => projectOf(findingKey) === project);
    const hits = mine.filter((findingKey) => found.has(findingKey)).length;
    const falsePositives = [...found].filter((findingKey) => projectOf(findingKey) === project && !expected.has(findingKey)).length;
    totalExpected += mine.length;
    totalFound += hits;
    totalFalse += falsePositives;
    lines.push(`  ${project.padEnd(36)} expected ${String(mine.length).padStart(2)}  found ${String(hits).padStart(2)}  false positives ${falsePositives}`);
  }
  const recall = totalExpected === 0 ? 1 : totalFound / totalExpected;
  lines.push(`  total: expected ${totalExpected}, found ${totalFound}, recall ${recall.toFixed(2)}, false positives ${totalFalse}`);
  return lines.join('\n');
}

describe('fixture projects', function () {
  this.timeout(CLI_SUITE_TIMEOUT_MS * 2);

  const expectations = JSON.parse(fs.readFileSync(EXPECTATIONS_FILE, 'utf8')) as Expectations;
  let markers: Markers = { scored: new Set(), pending: new Set() };
  const found = new Map<Mode, Set<FindingKey>>();

  before(async () => {
    markers = readMarkers();
    found.set('eslint', await lintWithEslint(false));
    found.set('eslint-typed', await lintWithEslint(true));
    found.set('cli', lintWithCli());
  });

  it('has at least 20 projects, each with a README citing the repository it is modelled on', () => {
    const projects = projectNames();
    assert.ok(projects.length >= 20, `only ${projects.length} projects`);
    for (const project of projects) {
      const readme = path.join(PROJECTS_DIR, project, 'README.md');
      assert.ok(fs.existsSync(readme), `${project} has no README.md`);
      assert.match(fs.readFileSync(readme, 'utf8'), /Modelled on: `[\w.-]+\/[\w.-]+`/, `${project}/README.md cites no owner/name`);
    }
  });

  it('types help and never take away: the typed run reports every finding the shape run reports on the files both lint', () => {
    const shape = scopeToTyped(found.get('eslint')!);
    const typed = found.get('eslint-typed')!;
    assert.ok(shape.size > 0, 'the shape run found nothing on the typed files: the comparison would prove nothing');
    assert.deepEqual([...shape].filter((findingKey) => !typed.has(findingKey)).sort(), [], 'findings the shape run makes and the typed run drops');
  });

  for (const mode of MODES) {
    it(`${mode}: finds every marked bug except the listed known misses, and nothing unmarked except the listed false positives`, () => {
      const expected = mode === 'eslint-typed' ? scopeToTyped(markers.scored) : markers.scored;
      const actual = found.get(mode)!;
      console.log(report(mode, expected, actual));
      if (markers.pending.size > 0 && mode === 'eslint') {
        console.log(`  (${markers.pending.size} markers for rules of rules.md this plugin does not ship yet are not scored)`);
      }
      const misses = [...expected].filter((findingKey) => !actual.has(findingKey)).sort();
      const falsePositives = [...actual].filter((findingKey) => !expected.has(findingKey)).sort();
      if (process.env.LOCKSMITH_PROJECTS_DUMP !== undefined) {
        // Maintainers' aid: the current lists, to review when updating expectations.json.
        fs.writeFileSync(`${process.env.LOCKSMITH_PROJECTS_DUMP}.${mode}.json`, JSON.stringify({ misses, falsePositives }, null, 2));
      }
      const knownMisses = Object.keys(expectations.knownMisses[mode]).sort();
      const knownFalsePositives = Object.keys(expectations.knownFalsePositives[mode]).sort();
      assert.deepEqual(misses.filter((findingKey) => !knownMisses.includes(findingKey)), [], 'expected findings missed that are not listed as known misses');
      assert.deepEqual(knownMisses.filter((findingKey) => !misses.includes(findingKey)), [], 'listed known misses that are now found (or no longer marked): remove them from expectations.json');
      assert.deepEqual(falsePositives.filter((findingKey) => !knownFalsePositives.includes(findingKey)), [], 'unmarked findings (false positives) not listed');
      assert.deepEqual(knownFalsePositives.filter((findingKey) => !falsePositives.includes(findingKey)), [], 'listed false positives that no longer happen: remove them from expectations.json');
    });
  }
});
