// The plugin's shape: every rule has its source, test and doc page, ids come from the catalogue,
// and the configs enable exactly the registered rules at the severities rules.md gives them.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { RELEASE_SCRIPT } from '../../eslint-plugin/src/fixes/scripts.js';
import plugin from '../../eslint-plugin/src/index.js';
import { rules } from '../../eslint-plugin/src/rules/index.js';
import { ruleDocsUrl } from '../../eslint-plugin/src/rule-support/create-rule.js';

const REPOSITORY_ROOT = path.join(__dirname, '..', '..');
const RULE_SOURCES = path.join(REPOSITORY_ROOT, 'eslint-plugin', 'src', 'rules');
const RULE_TESTS = path.join(REPOSITORY_ROOT, 'test', 'eslint-plugin', 'rules');
const RULE_DOCS = path.join(REPOSITORY_ROOT, 'rules-docs');
const RULES_INDEX = path.join(RULE_SOURCES, 'index.ts');
// Beside the repository, as in CI (a copy of shared/ next to the clone); optional elsewhere.
const CATALOGUE_FILE = path.join(REPOSITORY_ROOT, '..', 'shared', 'spec', 'rules.md');

/** The rule catalogue of rules.md, in its order. Rule ids are public API. */
const CATALOGUE = [
  'no-check-then-set',
  'no-split-acquire',
  'require-lock-ttl',
  'require-unique-token',
  'no-unsafe-release',
  'no-unsafe-extend',
  'require-fencing-token',
  'require-acquire-check',
  'no-pooled-advisory-lock',
  'no-xact-lock-outside-transaction',
  'require-release-in-finally',
  'no-lock-takeover',
  'no-unneeded-lock',
  'no-lock-key-write',
  'require-release-check',
  'require-lock-loss-handling',
  'no-lua-reply-pitfalls',
  'no-ttl-unit-mismatch',
  'no-late-renewal',
  'no-expiring-fence',
] as const;

/**
 * Catalogue rules not shipped yet (rules.md 18–20, from lock users' 2025–2026 reports; issue 33).
 * Every other catalogue rule must be registered, and a rule leaves this list when it lands.
 */
const NOT_YET_IMPLEMENTED: readonly string[] = ['no-ttl-unit-mismatch', 'no-late-renewal', 'no-expiring-fence'];

type Severity = 'error' | 'warn' | 'off';

/** rules.md, "Configurations": recommended is error except these; strict is error throughout. */
const RECOMMENDED_EXCEPTIONS: Readonly<Record<string, Severity>> = {
  'require-fencing-token': 'warn',
  'no-unneeded-lock': 'off',
  'require-release-check': 'off',
  'require-lock-loss-handling': 'off',
};

interface RuleMeta {
  docs?: { description?: string; url?: string; recommended?: unknown };
  schema?: unknown;
}

const ruleIds = Object.keys(rules);
const metaOf = (id: string): RuleMeta => (rules as Record<string, { meta: RuleMeta }>)[id]!.meta;

function basenames(directory: string, suffix: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory)
    .filter((name) => name.endsWith(suffix))
    .map((name) => name.slice(0, -suffix.length))
    .sort();
}

function readDoc(id: string): string {
  return fs.readFileSync(path.join(RULE_DOCS, `${id}.md`), 'utf8');
}

function recommendedSeverity(id: string): Severity {
  return RECOMMENDED_EXCEPTIONS[id] ?? 'error';
}

/** Names of the options a rule's JSON schema declares (object properties, at any depth). */
function namedOptions(schema: unknown): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const properties = record['properties'];
    if (properties !== null && typeof properties === 'object') {
      for (const [name, value] of Object.entries(properties)) {
        names.add(name);
        visit(value);
      }
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) visit(record[key]);
  };
  visit(schema);
  return [...names];
}

function markdownSections(markdown: string): string[] {
  return [...markdown.matchAll(/^#{2,3} +(.+?) *$/gmu)].map((match) => match[1]!.toLowerCase());
}

describe('plugin meta', () => {
  it('registers at least one rule', () => {
    assert.ok(ruleIds.length > 0);
  });

  describe('rule ids', () => {
    it('come from the catalogue in rules.md', () => {
      const unknown = ruleIds.filter((id) => !(CATALOGUE as readonly string[]).includes(id));
      assert.deepEqual(unknown, [], `not in the rules.md catalogue: ${unknown.join(', ')}`);
    });

    it('cover the catalogue but for the rules listed as not yet implemented', () => {
      const expected = CATALOGUE.filter((id) => !NOT_YET_IMPLEMENTED.includes(id)).sort();
      assert.deepEqual([...ruleIds].sort(), expected);
    });

    it('match the catalogue of rules.md when it is beside the repository', function () {
      if (!fs.existsSync(CATALOGUE_FILE)) this.skip();
      const text = fs.readFileSync(CATALOGUE_FILE, 'utf8');
      const listed = [...text.matchAll(/^\s*\d+\.\s+\*\*`([a-z-]+)`\*\*/gmu)].map((match) => match[1]);
      assert.deepEqual(listed, [...CATALOGUE]);
    });

    it('are sorted in src/rules/index.ts, imports and entries alike', () => {
      const sorted = [...ruleIds].sort();
      assert.deepEqual(ruleIds, sorted, 'the rules object of src/rules/index.ts is not sorted by id');
      const source = fs.readFileSync(RULES_INDEX, 'utf8');
      const imported = [...source.matchAll(/^import \w+ from '\.\/([a-z-]+)\.js';$/gmu)].map((match) => match[1]!);
      assert.deepEqual(imported, sorted, 'src/rules/index.ts should import exactly the registered rules, sorted');
    });
  });

  describe('files', () => {
    it('every rule has its source, test and doc page', () => {
      const missing: string[] = [];
      for (const id of ruleIds) {
        for (const file of [
          path.join(RULE_SOURCES, `${id}.ts`),
          path.join(RULE_TESTS, `${id}.test.ts`),
          path.join(RULE_DOCS, `${id}.md`),
        ]) {
          if (!fs.existsSync(file)) missing.push(path.relative(REPOSITORY_ROOT, file));
        }
      }
      assert.deepEqual(missing, []);
    });

    it('no rule source, test or doc page exists for an unregistered rule', () => {
      const registered = new Set(ruleIds);
      const orphans = [
        ...basenames(RULE_SOURCES, '.ts')
          .filter((id) => id !== 'index')
          .map((id) => `eslint-plugin/src/rules/${id}.ts`),
        ...basenames(RULE_TESTS, '.test.ts').map((id) => `test/eslint-plugin/rules/${id}.test.ts`),
        ...basenames(RULE_DOCS, '.md').map((id) => `rules-docs/${id}.md`),
      ].filter((file) => !registered.has(path.basename(file).replace(/\.(?:test\.ts|ts|md)$/u, '')));
      assert.deepEqual(orphans, [], 'register these rules in src/rules/index.ts or remove the files');
    });
  });

  describe('rule meta', () => {
    for (const id of ruleIds) {
      it(`${id}: docs.url points at its doc page`, () => {
        assert.equal(metaOf(id).docs?.url, ruleDocsUrl(id));
        assert.match(ruleDocsUrl(id), new RegExp(`/rules-docs/${id}\\.md$`, 'u'));
      });

      it(`${id}: docs.recommended matches rules.md`, () => {
        const expected = recommendedSeverity(id);
        assert.equal(metaOf(id).docs?.recommended, expected === 'off' ? false : expected);
      });
    }
  });

  describe('doc pages', () => {
    for (const id of ruleIds) {
      describe(id, () => {
        const docFile = path.join(RULE_DOCS, `${id}.md`);

        it('starts with its description and prefixed id, then the generated header', function () {
          if (!fs.existsSync(docFile)) this.skip();
          const doc = readDoc(id);
          const description = metaOf(id).docs?.description ?? '';
          const title = `${description.charAt(0).toUpperCase()}${description.slice(1).replace(/\.$/u, '')}`;
          assert.equal(doc.split('\n')[0], `# ${title} (\`locksmith/${id}\`)`);
          assert.ok(doc.includes('<!-- end auto-generated rule header -->'), 'missing the eslint-doc-generator header marker');
        });

        it('shows the race as a Mermaid sequence diagram', function () {
          if (!fs.existsSync(docFile)) this.skip();
          assert.match(readDoc(id), /```mermaid\s*\n\s*sequenceDiagram\b/u);
        });

        it('has a "When not to use it" section', function () {
          if (!fs.existsSync(docFile)) this.skip();
          assert.ok(markdownSections(readDoc(id)).includes('when not to use it'), 'missing "## When not to use it"');
        });

        it('documents every option of its schema', function () {
          if (!fs.existsSync(docFile)) this.skip();
          const doc = readDoc(id);
          const undocumented = namedOptions(metaOf(id).schema).filter((name) => !doc.includes(`\`${name}\``));
          assert.deepEqual(undocumented, []);
        });
      });
    }
  });

  it('no-unsafe-release quotes exactly the compare-and-delete script its suggestion inserts', function () {
    const docFile = path.join(RULE_DOCS, 'no-unsafe-release.md');
    if (!ruleIds.includes('no-unsafe-release') || !fs.existsSync(docFile)) this.skip();
    assert.ok(
      fs.readFileSync(docFile, 'utf8').includes(RELEASE_SCRIPT),
      'rules-docs/no-unsafe-release.md should quote RELEASE_SCRIPT from src/fixes/scripts.ts',
    );
  });

  describe('configs', () => {
    const expectedRecommended = Object.fromEntries(ruleIds.map((id) => [`locksmith/${id}`, recommendedSeverity(id)]));
    const expectedStrict = Object.fromEntries(ruleIds.map((id) => [`locksmith/${id}`, 'error']));
    // Only the rules that read Lua, at their recommended level (recommended and strict ignore `.lua`).
    const luaRuleIds = ['no-lua-reply-pitfalls', 'no-unsafe-extend', 'no-unsafe-release'];
    const expectedLua = Object.fromEntries(luaRuleIds.map((id) => [`locksmith/${id}`, recommendedSeverity(id)]));
    const configs = plugin.configs as Record<string, { rules?: Record<string, unknown> }>;
    const cases: [string, Record<string, string>][] = [
      ['recommended', expectedRecommended],
      ['recommended-type-checked', expectedRecommended],
      ['strict', expectedStrict],
      ['lua', expectedLua],
      ['legacy-recommended', expectedRecommended],
      ['legacy-recommended-type-checked', expectedRecommended],
      ['legacy-strict', expectedStrict],
    ];

    for (const [name, expected] of cases) {
      it(`${name} enables exactly the registered rules at rules.md's severities`, () => {
        assert.ok(configs[name], `missing config ${name}`);
        assert.deepEqual(configs[name].rules, expected);
      });
    }

    it('exports no other config', () => {
      assert.deepEqual(Object.keys(configs).sort(), cases.map(([name]) => name).sort());
    });

    it('flat configs register the plugin itself under the locksmith prefix', () => {
      for (const name of ['recommended', 'recommended-type-checked', 'strict', 'lua']) {
        const config = plugin.configs[name as 'recommended'] as { plugins?: Record<string, unknown> };
        assert.equal(config.plugins?.['locksmith'], plugin, name);
      }
    });
  });
});
