// What a file reaches through its imports, read from texts only (model/project/import-reach.ts):
// modules found as loadModule finds them (resolved, passing its screen), through barrels and chains
// of any depth and through cycles, and a memo whose answers stay true when another file asks later.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { createReachMemo, importsReach, type ReachQuestion } from '../../../../eslint-plugin/src/model/project/import-reach.js';
import { TempProject } from './temp-project.js';

// A module holds the answer when it names the word; every module here passes the helper screen
// (a lock word beside a Redis word), so the walk alone decides.
const holdsMarker: ReachQuestion = { purpose: 'helper', holds: (text) => text.includes('MARKER') };
const SCREENED = `// a lock helper's module: redis.set(k, v, 'NX')`;

describe('importsReach', () => {
  let project: TempProject;

  beforeEach(() => {
    project = new TempProject('locksmith-import-reach-');
  });

  afterEach(() => {
    project.remove();
  });

  function reach(relative: string, memo = createReachMemo()): boolean {
    return importsReach(path.join(project.root, relative), project.read(relative), holdsMarker, memo);
  }

  it('finds the answer through a barrel and a chain of imports, in any spelling of an import', () => {
    project.write('src/helpers/deep.ts', [SCREENED, 'export const MARKER = 1;']);
    project.write('src/helpers/middle.js', [SCREENED, "const deep = require('./deep');", 'module.exports = deep;']);
    project.write('src/helpers/index.ts', ["export * from './middle.js';"]);
    project.write('src/caller.ts', ["import { MARKER } from './helpers';", 'console.log(MARKER);']);
    project.write('src/lazy.ts', ["export const load = () => import('./helpers/index.js');"]);
    assert.equal(reach('src/caller.ts'), true);
    assert.equal(reach('src/lazy.ts'), true);
  });

  it('goes no further than loadModule: not through a module its screen turns away, a package or a missing file', () => {
    project.write('src/plain.ts', ["import { MARKER } from './deep';", 'export const plain = MARKER;']);
    project.write('src/deep.ts', [SCREENED, 'export const MARKER = 1;']);
    project.write('src/caller.ts', ["import { plain } from './plain';", "import Redis from 'ioredis';", "import { gone } from './gone';"]);
    // plain.ts names no lock word and re-exports nothing: loadModule parses no such module.
    assert.equal(reach('src/caller.ts'), false);
  });

  it('answers through a cycle, and a memo shared by several files keeps every answer true', () => {
    // a imports b, b imports a and c; only c holds the marker. Asked first from a, then from b.
    project.write('src/a.ts', [SCREENED, "import { b } from './b';", 'export const a = b;']);
    project.write('src/b.ts', [SCREENED, "import { a } from './a';", "import { c } from './c';", 'export const b = a;']);
    project.write('src/c.ts', [SCREENED, 'export const c = 1; // MARKER']);
    project.write('src/d.ts', [SCREENED, "import { e } from './e';", 'export const d = e;']);
    project.write('src/e.ts', [SCREENED, "import { d } from './d';", 'export const e = d;']);
    project.write('src/first.ts', ["import { a } from './a';"]);
    project.write('src/second.ts', ["import { b } from './b';"]);
    project.write('src/third.ts', ["import { d } from './d';"]);
    const memo = createReachMemo();
    assert.equal(reach('src/first.ts', memo), true);
    assert.equal(reach('src/second.ts', memo), true);
    assert.equal(reach('src/third.ts', memo), false);
    assert.equal(reach('src/third.ts', memo), false);
  });
});
