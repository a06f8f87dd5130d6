// The shipped JSON schema of locksmith.json: current with the rules and settings, understood in
// full by the loader's checker, and agreeing with the loader on every fixture (checked with ajv).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { describe, it } from 'mocha';
import locksmith from '../../../eslint-plugin/src/index.js';
import { sharedSettingsSchema } from '../../../eslint-plugin/src/model/facts/settings.js';
import { parseProjectConfig, ProjectConfigError, projectConfigSchema } from '../../../eslint-plugin/src/project-config/index.js';
import { SUPPORTED_KEYWORDS } from '../../../eslint-plugin/src/project-config/validate.js';
import { SCHEMA_DIRECTORY, schemaFiles } from '../../support/write-schemas.js';

const FIXTURES = path.resolve(__dirname, '../fixtures/project-config');
const PACKAGE_JSON = path.resolve(__dirname, '../../../eslint-plugin/package.json');
const EXTENSION_MANIFEST = path.resolve(__dirname, '../../../package.json');

function fixtures(folder: string): string[] {
  return fs
    .readdirSync(path.join(FIXTURES, folder))
    .sort()
    .map((name) => path.join(FIXTURES, folder, name));
}

function compileShipped(): { config: (data: unknown) => boolean; packageJson: (data: unknown) => boolean } {
  const ajv = new Ajv({ strict: true, allErrors: true, strictTuples: false });
  ajv.addKeyword('markdownDescription');
  const config = ajv.compile(JSON.parse(fs.readFileSync(path.join(SCHEMA_DIRECTORY, 'locksmith.schema.json'), 'utf8')) as object);
  const packageJson = ajv.compile(JSON.parse(fs.readFileSync(path.join(SCHEMA_DIRECTORY, 'package.schema.json'), 'utf8')) as object);
  return { config: (data) => config(data), packageJson: (data) => packageJson(data) };
}

function loaderError(file: string): string | undefined {
  try {
    parseProjectConfig(fs.readFileSync(file, 'utf8'), file);
    return undefined;
  } catch (error) {
    if (error instanceof ProjectConfigError) return error.describe(FIXTURES);
    throw error;
  }
}

describe('project config: the shipped JSON schema', () => {
  it('is current with the rules and the settings (npm run docs rewrites it)', () => {
    for (const [name, text] of schemaFiles()) {
      assert.equal(fs.readFileSync(path.join(SCHEMA_DIRECTORY, name), 'utf8'), text, `${name} is out of date: run npm run docs`);
    }
  });

  it('names every rule, with and without the prefix, and every shared setting', () => {
    const schema = projectConfigSchema() as { properties: { rules: { properties: object }; settings: { properties: object } } };
    const expectedRules = Object.keys(locksmith.rules)
      .flatMap((id) => [id, `locksmith/${id}`])
      .sort();
    assert.deepEqual(Object.keys(schema.properties.rules.properties).sort(), expectedRules);
    assert.deepEqual(Object.keys(schema.properties.settings.properties).sort(), Object.keys(sharedSettingsSchema).sort());
  });

  it("uses only keywords the loader's checker understands", () => {
    const unsupported = new Set<string>();
    const walk = (node: unknown, inProperties: boolean): void => {
      if (Array.isArray(node)) {
        node.forEach((item) => {
          walk(item, false);
        });
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (!inProperties && !SUPPORTED_KEYWORDS.has(key)) unsupported.add(key);
        if (key !== 'enum') walk(value, !inProperties && key === 'properties');
      }
    };
    walk(projectConfigSchema(), false);
    assert.deepEqual([...unsupported], []);
  });

  it('is shipped in the package and registered in the extension manifest', () => {
    const files = (JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')) as { files: string[] }).files;
    assert.ok(files.includes('schemas'), 'eslint-plugin/package.json files lists schemas');
    const manifest = JSON.parse(fs.readFileSync(EXTENSION_MANIFEST, 'utf8')) as {
      contributes: { jsonValidation: { fileMatch: string; url: string }[] };
    };
    assert.deepEqual(manifest.contributes.jsonValidation, [
      { fileMatch: 'locksmith.json', url: './eslint-plugin/schemas/locksmith.schema.json' },
      { fileMatch: 'package.json', url: './eslint-plugin/schemas/package.schema.json' },
    ]);
    const vscodeignore = fs.readFileSync(path.resolve(EXTENSION_MANIFEST, '../.vscodeignore'), 'utf8');
    assert.match(vscodeignore, /^!eslint-plugin\/schemas\/\*\.json$/m, 'the .vsix carries the schemas');
  });

  describe('agrees with the loader on every fixture', () => {
    const validate = compileShipped();
    const schemaAccepts = (file: string) => {
      const data: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      return path.basename(file) === 'package.json' ? validate.packageJson(data) : validate.config(data);
    };
    for (const file of fixtures('valid')) {
      it(`accepts ${path.relative(FIXTURES, file)}`, () => {
        assert.equal(schemaAccepts(file), true, 'schema');
        assert.equal(loaderError(file), undefined, 'loader');
      });
    }
    for (const file of fixtures('invalid')) {
      it(`rejects ${path.relative(FIXTURES, file)}`, () => {
        assert.equal(schemaAccepts(file), false, 'schema');
        assert.match(
          loaderError(file) ?? 'accepted',
          new RegExp(`^invalid/${path.basename(file).replace('.', '\\.')}: [^\\n]+: [^\\n]+$`),
          'loader',
        );
      });
    }
    // A JSON schema cannot say "compiles as a regular expression"; the loader can, and does.
    for (const file of fixtures('invalid-patterns')) {
      it(`passes the schema but not the loader: ${path.relative(FIXTURES, file)}`, () => {
        assert.equal(schemaAccepts(file), true, 'schema');
        assert.match(loaderError(file) ?? 'accepted', /: invalid regular expression /, 'loader');
      });
    }
  });
});
