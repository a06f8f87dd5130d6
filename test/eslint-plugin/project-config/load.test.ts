// The project configuration loader: what a locksmith.json may hold, and the one line naming the
// file and the key for everything it may not.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import {
  parseProjectConfig,
  ProjectConfigError,
  toEslintRules,
  type ProjectConfig,
} from '../../../eslint-plugin/src/project-config/index.js';

const FILE = path.resolve('/project/locksmith.json');
const PACKAGE_JSON = path.resolve('/project/package.json');

function parse(data: unknown, filePath = FILE): ProjectConfig | undefined {
  return parseProjectConfig(typeof data === 'string' ? data : JSON.stringify(data), filePath);
}

function errorOf(data: unknown, filePath = FILE): string {
  try {
    parse(data, filePath);
  } catch (error) {
    assert.ok(error instanceof ProjectConfigError, String(error));
    const line = error.describe('/project');
    assert.ok(!line.includes('\n'), `one line: ${line}`);
    return line;
  }
  assert.fail('expected a ProjectConfigError');
}

describe('project config: parsing locksmith.json', () => {
  it('reads rules in every ESLint form, with or without the locksmith/ prefix', () => {
    const config = parse({
      rules: {
        'no-unsafe-release': 'off',
        'locksmith/require-lock-ttl': ['warn', { defaultTtlMs: 5000 }],
        'no-lock-takeover': 2,
        'require-unique-token': [1],
      },
    })!;
    assert.deepEqual(toEslintRules(config), {
      'locksmith/no-unsafe-release': 'off',
      'locksmith/require-lock-ttl': ['warn', { defaultTtlMs: 5000 }],
      'locksmith/no-lock-takeover': 'error',
      'locksmith/require-unique-token': 'warn',
    });
    assert.equal(config.directory, path.dirname(FILE));
  });

  it('reads settings as settings.locksmith, and an empty file as no change', () => {
    const settings = {
      lockKeyPattern: '^mutex:',
      efficiencyLocks: ['/^cache:/'],
      fenceColumns: ['epoch'],
      lockWrappers: { acquire: ['takeLock'], release: ['/^drop/'] },
      redis: { server: 'valkey', version: '9.0' },
    };
    assert.deepEqual(parse({ settings })!.settings, settings);
    const empty = parse({})!;
    assert.equal(empty.rules.size, 0);
    assert.deepEqual(empty.settings, {});
    assert.deepEqual(empty.ignores, []);
  });

  it("applies ignores with flat-config semantics, relative to the file's folder", () => {
    const config = parse({ ignores: ['generated/', '*.gen.js', '!keep.gen.js', '**/fixtures/**'] })!;
    const at = (relative: string) => config.isIgnored(path.join(path.dirname(FILE), relative));
    assert.equal(at('generated/a.js'), true);
    assert.equal(at('src/generated/a.js'), false, 'a pattern with a slash is anchored to the folder');
    assert.equal(at('a.gen.js'), true);
    assert.equal(at('src/a.gen.js'), false, 'as in flat config, `*.gen.js` matches at the root only');
    assert.equal(at('keep.gen.js'), false, 'negation un-ignores');
    assert.equal(at('test/fixtures/x.js'), true);
    assert.equal(at('src/index.js'), false);
    assert.equal(config.isIgnored('/elsewhere/generated/a.js'), false, 'files outside the folder are not its business');
  });

  it('accepts the $schema key editors add', () => {
    assert.ok(parse({ $schema: './node_modules/eslint-plugin-locksmith/schemas/locksmith.schema.json' }));
  });

  it('takes package.json\'s "locksmith" key, and no configuration from a package.json without one', () => {
    assert.equal(parse({ name: 'app', version: '1.0.0' }, PACKAGE_JSON), undefined);
    assert.equal(parse('{ not json', PACKAGE_JSON), undefined, "a broken package.json with no locksmith key is npm's problem");
    const config = parse({ name: 'app', locksmith: { rules: { 'no-unsafe-release': 'warn' } } }, PACKAGE_JSON)!;
    assert.deepEqual(toEslintRules(config), { 'locksmith/no-unsafe-release': 'warn' });
  });
});

describe('project config: errors are one line naming the file and the key', () => {
  const cases: [string, unknown, string][] = [
    ['an unknown rule', { rules: { 'no-unsafe-releas': 'off' } }, 'locksmith.json: rules.no-unsafe-releas: unknown rule'],
    ["another plugin's rule", { rules: { 'n/no-sync': 'off' } }, 'locksmith.json: rules.n/no-sync: unknown rule'],
    [
      'a bad severity word',
      { rules: { 'no-unsafe-release': 'warning' } },
      'locksmith.json: rules.no-unsafe-release: bad severity "warning" (use off, warn, error, 0, 1 or 2)',
    ],
    [
      'a bad severity number',
      { rules: { 'no-unsafe-release': 3 } },
      'locksmith.json: rules.no-unsafe-release: bad severity 3 (use off, warn, error, 0, 1 or 2)',
    ],
    [
      'a bad severity in an array',
      { rules: { 'no-unsafe-release': ['on'] } },
      'locksmith.json: rules.no-unsafe-release[0]: bad severity "on" (use off, warn, error, 0, 1 or 2)',
    ],
    ['an empty array', { rules: { 'no-unsafe-release': [] } }, 'locksmith.json: rules.no-unsafe-release: must hold at least 1 item'],
    [
      'options for a rule that takes none',
      { rules: { 'no-unsafe-release': ['error', {}] } },
      'locksmith.json: rules.no-unsafe-release[1]: this rule takes no options',
    ],
    [
      'a bad rule option',
      { rules: { 'require-lock-ttl': ['error', { defaultTtlMs: 0 }] } },
      'locksmith.json: rules.require-lock-ttl[1].defaultTtlMs: must be at least 1, not 0',
    ],
    [
      'an unknown rule option',
      { rules: { 'require-lock-ttl': ['error', { ttl: 5 }] } },
      'locksmith.json: rules.require-lock-ttl[1].ttl: unknown key',
    ],
    [
      'a rule given twice',
      { rules: { 'no-unsafe-release': 'off', 'locksmith/no-unsafe-release': 'warn' } },
      'locksmith.json: rules.locksmith/no-unsafe-release: no-unsafe-release is configured twice (with and without the locksmith/ prefix)',
    ],
    ['an unknown top-level key', { rule: {} }, 'locksmith.json: rule: unknown key'],
    ['rules not an object', { rules: ['no-unsafe-release'] }, 'locksmith.json: rules: must be an object, not an array'],
    ['a file that is not an object', [], 'locksmith.json: must be an object, not an array'],
    ['an unknown setting', { settings: { lockKey: 'x' } }, 'locksmith.json: settings.lockKey: unknown key'],
    ['settings nested again', { settings: { locksmith: { lockKeyPattern: 'x' } } }, 'locksmith.json: settings.locksmith: unknown key'],
    [
      'a setting of the wrong type',
      { settings: { fenceColumns: 'fence' } },
      'locksmith.json: settings.fenceColumns: must be an array, not "fence"',
    ],
    [
      'an invalid lock key pattern',
      { settings: { lockKeyPattern: '(' } },
      'locksmith.json: settings.lockKeyPattern: invalid regular expression "("',
    ],
    [
      'an invalid efficiency pattern',
      { settings: { efficiencyLocks: ['ok', '[z-a]'] } },
      'locksmith.json: settings.efficiencyLocks[1]: invalid regular expression "[z-a]"',
    ],
    [
      'an invalid wrapper pattern',
      { settings: { lockWrappers: { release: ['/(/'] } } },
      'locksmith.json: settings.lockWrappers.release[0]: invalid regular expression "/(/"',
    ],
    [
      'an unknown server',
      { settings: { redis: { server: 'keydb', version: '6.3' } } },
      'locksmith.json: settings.redis.server: must be one of "redis", "valkey", "dragonfly", not "keydb"',
    ],
    [
      'a server version that is no version',
      { settings: { redis: { server: 'redis', version: 'latest' } } },
      'locksmith.json: settings.redis.version: invalid version "latest" (use numbers such as "8.4" or "9.0.1")',
    ],
    [
      'a server version as a number',
      { settings: { redis: { server: 'valkey', version: 9.0 } } },
      'locksmith.json: settings.redis.version: must be a string, not 9',
    ],
    ['an unknown wrapper kind', { settings: { lockWrappers: { renew: [] } } }, 'locksmith.json: settings.lockWrappers.renew: unknown key'],
    ['an empty ignore pattern', { ignores: ['dist/', ''] }, 'locksmith.json: ignores[1]: must not be empty'],
    ['ignores not a list', { ignores: 'dist/' }, 'locksmith.json: ignores: must be an array, not "dist/"'],
    ['invalid JSON', '{\n  "rules": {\n    "no-unsafe-release": "off",\n  }\n}', 'locksmith.json: invalid JSON: '],
  ];
  for (const [what, data, expected] of cases) {
    it(what, () => {
      const line = errorOf(data);
      if (what === 'invalid JSON') {
        assert.ok(line.startsWith(expected), line);
        assert.match(line, /at line 4, column 3$/, 'the position, as line and column');
      } else {
        assert.equal(line, expected);
      }
    });
  }

  it('names package.json and the locksmith key in it', () => {
    assert.equal(
      errorOf({ name: 'app', locksmith: { rules: { 'no-unsafe-releas': 'off' } } }, PACKAGE_JSON),
      'package.json: locksmith.rules.no-unsafe-releas: unknown rule',
    );
    assert.match(errorOf('{ "locksmith": { ', PACKAGE_JSON), /^package\.json: invalid JSON: /);
  });
});
