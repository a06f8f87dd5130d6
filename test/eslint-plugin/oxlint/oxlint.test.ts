// eslint-plugin-locksmith under oxlint's JS plugins: the same files linted by oxlint (the
// devDependency's version, `.oxlintrc.json` with `jsPlugins` and the strict preset's rules) and by
// the locksmith CLI (ESLint) must give the same findings as (rule, file, line), except the
// differences listed in differences.json, each with the oxlint gap that explains it. An entry that
// no longer happens fails too, so the list only shrinks.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import {
  type Difference,
  type EslintRun,
  type OxlintRun,
  REPOSITORY_ROOT,
  differences,
  eslintFindings,
  isAccepted,
  key,
  oxlintApplySuggestions,
  oxlintFindings,
  oxlintLanguageServer,
  readDifferences,
  readmeOxlintConfig,
} from './compare';

const SETTINGS_PROJECT = path.join(REPOSITORY_ROOT, 'test/eslint-plugin/fixtures/oxlint-settings');
const SUGGESTIONS_PROJECT = path.join(REPOSITORY_ROOT, 'test/eslint-plugin/fixtures/oxlint-suggestions');
const CORPUS_PREFIX = 'corpus/node_modules/';

interface CorpusFiles {
  collectCorpusFiles(options?: { extensions?: string[] }): string[];
  ensureCorpusInstalled(): boolean;
  corpusModules: string;
  CORPUS_EXTENSIONS: string[];
}

function format(difference: Difference): string {
  return `only ${difference.only}: ${difference.rule} ${difference.file}:${difference.line}`;
}

describe('oxlint JS plugins', function () {
  const accepted = readDifferences();
  const seen: Difference[] = [];

  /** Fails on a difference differences.json does not list, and on oxlint errors ESLint does not share. */
  function check(eslint: EslintRun, oxlint: OxlintRun): void {
    const found = differences(eslint.findings, oxlint.findings);
    seen.push(...found);
    const unexplained = found.filter((difference) => !accepted.accepted.some((entry) => isAccepted(difference, entry)));
    assert.deepEqual(unexplained.map(format), [], 'differences not listed in test/eslint-plugin/oxlint/differences.json');
    // A file neither parser accepts is no finding in either; any other oxlint diagnostic (a plugin crash, a parse error ESLint's parser does not share) is.
    const unshared = oxlint.errors.filter((error) => !eslint.parseErrors.includes(error.file));
    assert.deepEqual(unshared, [], 'oxlint errors');
  }

  it('lints examples/, the fixture projects and the Lua fixtures like the CLI', async function () {
    this.timeout(300_000);
    const paths = ['examples', 'test/fixtures/projects', 'test/eslint-plugin/fixtures/lua-scripts'];
    const [eslint, oxlint] = [await eslintFindings(REPOSITORY_ROOT, paths), await oxlintFindings(REPOSITORY_ROOT, paths)];
    // The comparison means something only if both linted and found: the fixtures are full of findings.
    assert.ok(oxlint.findings.length > 40, `oxlint found only ${oxlint.findings.length}`);
    check(eslint, oxlint);
  });

  it("lints like `locksmith --preset recommended` with the README's .oxlintrc.json", async function () {
    this.timeout(300_000);
    const paths = ['examples', 'test/fixtures/projects'];
    const eslint = await eslintFindings(REPOSITORY_ROOT, paths, 'recommended');
    const oxlint = await oxlintFindings(
      REPOSITORY_ROOT,
      paths,
      {},
      {},
      {
        config: readmeOxlintConfig(),
        configDirectory: path.join(REPOSITORY_ROOT, 'test-output', 'oxlint'),
      },
    );
    assert.ok(oxlint.findings.length > 30, `oxlint found only ${oxlint.findings.length}`);
    check(eslint, oxlint);
  });

  it('lints the real-package corpus like the CLI', async function () {
    // About 10 s for oxlint and 30 s for the CLI on an idle machine; the machine is shared.
    this.timeout(900_000);
    const corpus = (await import(path.join(REPOSITORY_ROOT, 'corpus/files.mjs'))) as CorpusFiles;
    corpus.ensureCorpusInstalled();
    const files = corpus
      .collectCorpusFiles({ extensions: [...corpus.CORPUS_EXTENSIONS, '.lua'] })
      .map((file) => path.relative(corpus.corpusModules, file));
    assert.ok(files.length > 1000, `only ${files.length} corpus files`);
    const eslint = await eslintFindings(corpus.corpusModules, files);
    const oxlint = await oxlintFindings(corpus.corpusModules, files);
    const prefix = <T extends { file: string }>(item: T): T => ({ ...item, file: CORPUS_PREFIX + item.file });
    check(
      {
        findings: eslint.findings.map(prefix),
        parseErrors: eslint.parseErrors.map((file) => CORPUS_PREFIX + file),
        suggestions: new Map(),
      },
      { findings: oxlint.findings.map(prefix), errors: oxlint.errors.map(prefix) },
    );
  });

  it("reads locksmith.json's settings from .oxlintrc.json's settings.locksmith", async function () {
    this.timeout(120_000);
    const projectConfig = JSON.parse(fs.readFileSync(path.join(SETTINGS_PROJECT, 'locksmith.json'), 'utf8')) as {
      rules: Record<string, unknown>;
      settings: Record<string, unknown>;
    };
    const rules = Object.fromEntries(Object.entries(projectConfig.rules).map(([id, level]) => [`locksmith/${id}`, level]));
    const eslint = await eslintFindings(SETTINGS_PROJECT, ['.']);
    const oxlint = await oxlintFindings(SETTINGS_PROJECT, ['.'], { locksmith: projectConfig.settings }, rules);
    assert.ok(eslint.findings.length > 0, 'the fixture has findings under its locksmith.json');
    check(eslint, oxlint);
    // And the settings are what makes them: without, oxlint reports something else.
    const bare = await oxlintFindings(SETTINGS_PROJECT, ['.'], {}, rules);
    assert.notDeepEqual(bare.findings, oxlint.findings);
  });

  // oxlint hands every file a thread lints one scope manager (and at times one SourceCode), where
  // ESLint makes one per file: a cache keyed by either gave a later file the names of the first, and
  // b.mjs's token fix called its local `crypto` object.
  it('applies each file its own suggestions, whatever oxlint linted before it', async function () {
    this.timeout(120_000);
    const files = ['a.mjs', 'b.mjs'];
    const fixed = (directory: string) => files.map((file) => fs.readFileSync(path.join(directory, file), 'utf8'));
    const together = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-oxlint-together-'));
    const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-oxlint-alone-'));
    try {
      for (const directory of [together, alone]) fs.cpSync(SUGGESTIONS_PROJECT, directory, { recursive: true });
      await oxlintApplySuggestions(together, files);
      for (const file of files) await oxlintApplySuggestions(alone, [file]);
      const [a, b] = fixed(together);
      assert.match(a!, /const token = crypto\.randomUUID\(\);/);
      // ESLint's suggestion for b.mjs, whose own `crypto` shadows the global.
      assert.match(b!, /const token = globalThis\.crypto\.randomUUID\(\);/);
      assert.deepEqual(fixed(together), fixed(alone));
    } finally {
      fs.rmSync(together, { recursive: true, force: true });
      fs.rmSync(alone, { recursive: true, force: true });
    }
  });

  // What an editor shows through oxc's language server (`oxlint --lsp`, which the oxc editor extensions run).
  it('publishes the same findings in oxlint --lsp, with the same suggestions as quick fixes', async function () {
    this.timeout(120_000);
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-oxlint-lsp-'));
    try {
      const file = 'runner.js';
      fs.copyFileSync(path.join(REPOSITORY_ROOT, 'examples/job-runner/runner.js'), path.join(workspace, file));
      const eslint = await eslintFindings(workspace, [file]);
      const server = await oxlintLanguageServer(workspace, file);
      assert.ok(eslint.findings.length >= 3, `the example has ${eslint.findings.length} findings`);
      assert.deepEqual(differences(eslint.findings, server.findings).map(format), []);
      for (const finding of eslint.findings) {
        const offered = server.actions.get(`${finding.rule}|${finding.line}`) ?? [];
        for (const suggestion of eslint.suggestions.get(key(finding)) ?? []) {
          assert.ok(
            offered.includes(suggestion),
            `${finding.rule} line ${finding.line}: "${suggestion}" not among ${JSON.stringify(offered)}`,
          );
        }
      }
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('lists no accepted difference that no longer happens', function () {
    const stale = accepted.accepted.filter((entry) => !seen.some((difference) => isAccepted(difference, entry)));
    assert.deepEqual(stale, [], 'remove these from test/eslint-plugin/oxlint/differences.json');
    const unknownGaps = accepted.accepted.filter((entry) => !(entry.gap in accepted.gaps));
    assert.deepEqual(unknownGaps, [], 'each accepted difference names a gap');
  });
});
