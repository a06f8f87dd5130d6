// The Lua text behind a script argument (redis/script-resolver.ts): an inline string, a module
// constant, a `.lua` file read with readFileSync (path.join/resolve with __dirname, `__dirname + …`,
// `new URL(…, import.meta.url)`), and the script behind a SHA from SCRIPT LOAD. What the source does
// not pin down (a `let`, a path built at run time, a missing file, a SHA from elsewhere) resolves to nothing.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { after, before, describe, it } from 'mocha';
import { isCompareAndDelete } from '../../../../eslint-plugin/src/lua/analyze-script.js';
import { ScriptResolver } from '../../../../eslint-plugin/src/model/redis/script-resolver.js';
import { collectNodes } from '../../../../eslint-plugin/src/util/collect-nodes.js';
import { readAtEnd } from '../../../support/probe-rule.js';

const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

let root = '';

/** For each `evalScript(x)` / `evalSha(x)` call of `code`, what the resolver makes of `x`, as if the file were `src/locks.ts` of the project. */
function resolved(code: string): (string | undefined)[] {
  return readAtEnd(
    code,
    (context) => {
      const resolver = new ScriptResolver(context.sourceCode, path.join(root, 'src', 'locks.ts'));
      return collectNodes(context.sourceCode)
        .calls.filter((call) => call.callee.type === AST_NODE_TYPES.Identifier && /^eval(?:Script|Sha)$/u.test(call.callee.name))
        .map((call) => {
          const bySha = call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'evalSha';
          return (bySha ? resolver.resolveSha(call.arguments[0]!) : resolver.resolve(call.arguments[0]!))?.source;
        });
    },
    { typescript: true },
  );
}

describe('script-resolver', () => {
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-scripts-'));
    fs.mkdirSync(path.join(root, 'src', 'lua'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'lua', 'release.lua'), RELEASE);
    fs.writeFileSync(path.join(root, 'src', 'renew.lua'), 'return redis.call("pexpire", KEYS[1], ARGV[1])');
  });

  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('inline strings and templates, module constants, and a `let` that may change', () => {
    assert.deepEqual(
      resolved(`const RELEASE = '${RELEASE}';
let changing = 'return 1';
changing = 'return 2';
evalScript('return redis.call("del", KEYS[1])');
evalScript(\`return redis.call("get", KEYS[1])\`);
evalScript(RELEASE);
evalScript(changing);
evalScript(buildScript());`),
      ['return redis.call("del", KEYS[1])', 'return redis.call("get", KEYS[1])', RELEASE, undefined, undefined],
    );
  });

  it('a .lua file read with readFileSync, however the path is joined to the file’s folder', () => {
    assert.deepEqual(
      resolved(`import * as fs from 'node:fs';
import * as path from 'node:path';
import { readFileSync } from 'node:fs';
const RELEASE_PATH = path.join(__dirname, 'lua', 'release.lua');
evalScript(fs.readFileSync(path.join(__dirname, 'lua/release.lua'), 'utf8'));
evalScript(readFileSync(path.resolve(__dirname, './renew.lua')).toString());
evalScript(readFileSync(__dirname + '/lua/release.lua', 'utf8'));
evalScript(readFileSync(new URL('./renew.lua', import.meta.url), 'utf8'));
evalScript(readFileSync(path.join(import.meta.dirname, 'renew.lua'), 'utf8'));
evalScript(fs.readFileSync(RELEASE_PATH, 'utf8'));
evalScript(fs.readFileSync(path.join(__dirname, 'lua', 'missing.lua'), 'utf8'));
evalScript(fs.readFileSync(path.join(__dirname, process.env.SCRIPT!), 'utf8'));`),
      [
        RELEASE,
        'return redis.call("pexpire", KEYS[1], ARGV[1])',
        RELEASE,
        'return redis.call("pexpire", KEYS[1], ARGV[1])',
        'return redis.call("pexpire", KEYS[1], ARGV[1])',
        RELEASE,
        undefined,
        undefined,
      ],
    );
  });

  it('reads a script file again once it has changed', () => {
    const file = path.join(root, 'src', 'changing.lua');
    const code = `import { readFileSync } from 'node:fs';
evalScript(readFileSync(__dirname + '/changing.lua', 'utf8'));`;
    fs.writeFileSync(file, 'return redis.call("del", KEYS[1])');
    assert.deepEqual(resolved(code), ['return redis.call("del", KEYS[1])']);
    // A different size is a different version, whatever the clock's resolution.
    fs.writeFileSync(file, RELEASE);
    assert.deepEqual(resolved(code), [RELEASE]);
  });

  it('the script behind a SHA: SCRIPT LOAD and scriptLoad, not a SHA from anywhere else', () => {
    assert.deepEqual(
      resolved(`const RELEASE = '${RELEASE}';
export async function f(redis: any, client: any, shaFromConfig: string) {
  const sha = await redis.script('LOAD', RELEASE);
  const loaded = await client.scriptLoad('return redis.call("pexpire", KEYS[1], ARGV[1])');
  const other = await redis.get('release-sha');
  evalSha(sha);
  evalSha(loaded);
  evalSha(other);
  evalSha(shaFromConfig);
}`),
      [RELEASE, 'return redis.call("pexpire", KEYS[1], ARGV[1])', undefined, undefined],
    );
  });

  it('summarises what it resolves, and leaves text that is not Lua without a summary', () => {
    const summaries = readAtEnd(
      `evalScript('${RELEASE}');
evalScript('this is not lua at all (');`,
      (context) => {
        const resolver = new ScriptResolver(context.sourceCode, path.join(root, 'src', 'locks.ts'));
        return collectNodes(context.sourceCode).calls.map((call) => resolver.resolve(call.arguments[0]!)?.summary);
      },
      { typescript: true },
    );
    assert.equal(summaries.length, 2);
    assert.equal(isCompareAndDelete(summaries[0]!), true);
    assert.equal(summaries[1], undefined);
  });
});
