// --type-aware: TypeScript linted with the project's tsconfig (typescript-eslint's project service),
// so the rules take their checker path; files outside every tsconfig are linted shape-only.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import {
  CLI_SUITE_TIMEOUT_MS,
  REPOSITORY_ROOT,
  UNSAFE_RELEASE_SOURCE,
  makeProject,
  parseJsonReport,
  runLocksmith,
  type CliRun,
} from './run-cli';

const TYPED_FIXTURES = path.join(REPOSITORY_ROOT, 'test/eslint-plugin/fixtures/typed');

// The README's example (see test/eslint-plugin/model/type-aware.test.ts): an ioredis client whose
// name and origin say nothing; only its type makes it Redis.
const IOREDIS_NAMED_STORE = `import { getStore } from './store.js';
const store = getStore();
export async function release() {
  await store.del('lock:invoice');
}
`;

// A Map subclass with Redis-like methods in a variable named `redis`: the shape says Redis, the type says not.
const MAP_NAMED_REDIS = `import { LocalLocks } from './local-locks.js';
export function release(redis: LocalLocks) {
  redis.del('lock:invoice');
}
`;

function findingsByFile(run: CliRun, root: string): Record<string, string[]> {
  const byFile: Record<string, string[]> = {};
  for (const result of parseJsonReport(run)) {
    byFile[path.relative(root, result.filePath)] = result.messages.map(
      (message) => `${message.ruleId ?? `fatal: ${message.message}`}@${message.line}`,
    );
  }
  return byFile;
}

describe('locksmith --type-aware', function () {
  // Each test starts real `node` processes that load ESLint and TypeScript; on a busy machine one takes seconds.
  this.timeout(CLI_SUITE_TIMEOUT_MS);

  let root = '';
  let cleanup = (): void => undefined;

  before(() => {
    ({ root, cleanup } = makeProject({
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          types: [],
        },
        include: ['src'],
      }),
      'src/store.ts': fs.readFileSync(path.join(TYPED_FIXTURES, 'store.ts'), 'utf8'),
      'src/local-locks.ts': fs.readFileSync(path.join(TYPED_FIXTURES, 'local-locks.ts'), 'utf8'),
      'src/release-store.ts': IOREDIS_NAMED_STORE,
      'src/release-map.ts': MAP_NAMED_REDIS,
      'scripts/x.ts': UNSAFE_RELEASE_SOURCE,
    }));
    // The project's dependencies (ioredis and its types), as an installed project has them.
    fs.symlinkSync(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  });
  after(() => {
    cleanup();
  });

  it('finds the ioredis client named store with the flag and misses it without', () => {
    const typed = findingsByFile(runLocksmith(root, ['--format', 'json', '--type-aware', 'src']), root);
    const untyped = findingsByFile(runLocksmith(root, ['--format', 'json', 'src']), root);
    assert.deepEqual(typed['src/release-store.ts'], ['locksmith/no-unsafe-release@4']);
    assert.deepEqual(untyped['src/release-store.ts'], []);
    // And the other way round: the Map named `redis` is silent only with types.
    assert.deepEqual(typed['src/release-map.ts'], []);
    assert.deepEqual(untyped['src/release-map.ts'], ['locksmith/no-unsafe-release@3']);
  });

  it('lints a file outside every tsconfig include shape-only: the same findings either way, no parse error', () => {
    const typedRun = runLocksmith(root, ['--format', 'json', '--type-aware', '.']);
    const untypedRun = runLocksmith(root, ['--format', 'json', '.']);
    const typed = findingsByFile(typedRun, root);
    assert.deepEqual(typed['scripts/x.ts'], ['locksmith/no-unsafe-release@13']);
    assert.deepEqual(typed['scripts/x.ts'], findingsByFile(untypedRun, root)['scripts/x.ts']);
    assert.equal(
      parseJsonReport(typedRun).some((result) => result.messages.some((message) => message.fatal === true)),
      false,
    );
    assert.equal(typedRun.stderr, '');
  });

  it('lints explicitly named files, inside and outside the tsconfig, the same way', () => {
    const named = findingsByFile(runLocksmith(root, ['--format', 'json', '--type-aware', 'scripts/x.ts', 'src/release-store.ts']), root);
    assert.deepEqual(named, {
      'scripts/x.ts': ['locksmith/no-unsafe-release@13'],
      'src/release-store.ts': ['locksmith/no-unsafe-release@4'],
    });
  });
});
