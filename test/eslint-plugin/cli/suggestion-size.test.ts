// JSON output grows with the findings, not with their square: 3,000 lock sites in one file, as
// separate functions, as methods of one class or as functions inside one IIFE, give a report under
// 10 MB. Each suggestion once carried a copy of the file up to its call (a script constant inserted
// after the imports merged with the edit at the call), so such a file wrote hundreds of megabytes or
// crashed the JSON formatter with `RangeError: Invalid string length`.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { RELEASE_SCRIPT } from '../../../eslint-plugin/src/fixes/scripts.js';
import { renderScriptLiteral } from '../../../eslint-plugin/src/fixes/templates.js';
import { lockSitesSource, type LockSiteShape } from './lock-sites';
import { LOCKSMITH_BIN, makeProject } from './run-cli';

const SITES = 3000;
const LIMIT_BYTES = 10 * 1024 * 1024;
/** Beyond this the run fails with ENOBUFS rather than filling the test's memory. */
const MAX_BUFFER_BYTES = 64 * 1024 * 1024;
const SLACK = 200;

interface SuggestionMessage {
  readonly ruleId: string | null;
  readonly line: number;
  readonly suggestions?: readonly { readonly fix: { readonly range: readonly [number, number]; readonly text: string } }[];
}

describe('locksmith --format json on a file with 3,000 lock sites', function () {
  // A hang bound, not a speed check (the benchmark measures speed): rule time on 3,000 sites is
  // tens of seconds on a busy machine.
  this.timeout(600_000);

  let root = '';
  let cleanup = (): void => undefined;
  const shapes: readonly LockSiteShape[] = ['functions', 'class', 'iife'];

  before(() => {
    ({ root, cleanup } = makeProject(Object.fromEntries(shapes.map((shape) => [`${shape}.js`, lockSitesSource(shape, SITES)]))));
  });
  after(() => {
    cleanup();
  });

  for (const shape of shapes) {
    it(`stays under 10 MB with every site's suggestion at its call (${shape})`, () => {
      const child = spawnSync(process.execPath, [LOCKSMITH_BIN, '--format', 'json', `${shape}.js`], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, FORCE_COLOR: '0' },
        maxBuffer: MAX_BUFFER_BYTES,
      });
      assert.equal(child.error, undefined, `the report did not fit ${MAX_BUFFER_BYTES} bytes: ${String(child.error)}`);
      assert.equal(child.stderr, '');
      assert.equal(child.status, 1);
      const bytes = Buffer.byteLength(child.stdout);
      const sourceBytes = fs.statSync(path.join(root, `${shape}.js`)).size;
      console.log(`      ${shape}: ${SITES} sites, ${sourceBytes} bytes of source, ${bytes} bytes of JSON`);
      assert.ok(bytes < LIMIT_BYTES, `${bytes} bytes of JSON`);

      const [result] = JSON.parse(child.stdout) as { messages: SuggestionMessage[] }[];
      const releases = result!.messages.filter((message) => message.ruleId === 'locksmith/no-unsafe-release');
      assert.equal(releases.length, SITES);
      // Each suggestion rewrites its own `redis.del(...)` call and nothing else.
      const script = renderScriptLiteral(RELEASE_SCRIPT);
      for (const message of releases) {
        assert.equal(message.suggestions?.length, 1, `line ${message.line}`);
        const { range, text } = message.suggestions[0]!.fix;
        assert.ok(range[1] - range[0] <= SLACK, `line ${message.line}: replaces ${range[1] - range[0]} characters`);
        assert.ok(text.includes(script) && text.length <= script.length + SLACK, `line ${message.line}: writes ${text.length} characters`);
      }
    });
  }
});
