// Where the model reads files other than the one linted (project/host.ts): the disk by default, which
// answers nothing (and throws nothing) for a missing file or a directory, or a host installed in its
// place — the editor's, answering from open documents — through which every model read then goes.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { diskHost, moduleHost, setModuleHost, type ModuleHost } from '../../../../eslint-plugin/src/model/project/host.js';
import { clearModules, loadModule } from '../../../../eslint-plugin/src/model/project/modules.js';

let root = '';

describe('host', () => {
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-host-'));
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src', 'redis.ts'), "import Redis from 'ioredis';\nexport const redis = new Redis();\n");
  });

  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('the disk host: a file’s version and size, its text, a directory’s entries', () => {
    const file = path.join(root, 'src', 'redis.ts');
    const stat = diskHost.stat(file);
    const size = fs.statSync(file).size;
    assert.deepEqual(stat, { version: `${fs.statSync(file).mtimeMs}:${size}`, size });
    assert.equal(diskHost.readFile(file), "import Redis from 'ioredis';\nexport const redis = new Redis();\n");
    assert.deepEqual(diskHost.readDirectory!(path.join(root, 'src')), ['redis.ts']);
  });

  it('the disk host answers nothing for a missing file or a directory, and never throws', () => {
    assert.equal(diskHost.stat(path.join(root, 'missing.ts')), undefined);
    assert.equal(diskHost.stat(path.join(root, 'src')), undefined);
    assert.equal(diskHost.readFile(path.join(root, 'missing.ts')), undefined);
    assert.equal(diskHost.readFile(path.join(root, 'src')), undefined);
    assert.deepEqual(diskHost.readDirectory!(path.join(root, 'missing')), []);
  });

  it('an installed host answers every model read until the previous one is put back', () => {
    const texts = new Map<string, { text: string; version: number }>([
      ['/virtual/src/redis.ts', { text: "import Redis from 'ioredis';\nexport const redis = new Redis();\n", version: 1 }],
    ]);
    const memory: ModuleHost = {
      stat: (file) => {
        const entry = texts.get(file);
        return entry && { version: String(entry.version), size: entry.text.length };
      },
      readFile: (file) => texts.get(file)?.text,
    };
    const previous = setModuleHost(memory);
    try {
      assert.equal(previous, diskHost);
      assert.equal(moduleHost(), memory);
      const first = loadModule('/virtual/src/redis.ts', 'client');
      assert.equal(first?.filePath, '/virtual/src/redis.ts');
      assert.deepEqual([...first.imports.keys()], ['Redis']);
      // Same version: the parsed module is kept. A new version (an unsaved edit) is read again.
      assert.equal(loadModule('/virtual/src/redis.ts', 'client'), first);
      texts.set('/virtual/src/redis.ts', {
        text: "import { createClient } from 'redis';\nexport const redis = createClient();\n",
        version: 2,
      });
      const second = loadModule('/virtual/src/redis.ts', 'client');
      assert.notEqual(second, first);
      assert.deepEqual([...second!.imports.keys()], ['createClient']);
      // The disk's file is not this host's.
      assert.equal(loadModule(path.join(root, 'src', 'redis.ts'), 'client'), undefined);
    } finally {
      assert.equal(setModuleHost(previous), memory);
      clearModules();
    }
    assert.equal(moduleHost(), diskHost);
  });
});
