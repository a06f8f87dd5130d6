// A project written to a temporary folder, for tests of what the model reads from other modules:
// each test writes its modules, lints a caller with the `strict` preset (untyped), and removes it all.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import plugin from '../../../../eslint-plugin/src/index.js';
import { clearModules } from '../../../../eslint-plugin/src/model/project/modules.js';
import { clearResolutions } from '../../../../eslint-plugin/src/model/project/resolve.js';

export class TempProject {
  readonly root: string;

  constructor(prefix: string) {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  }

  /** Writes a module (lines are joined and end with a newline); returns its path. */
  write(relative: string, content: string | readonly string[]): string {
    const file = path.join(this.root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : [...content, ''].join('\n'));
    return file;
  }

  /** The text of a module written before. */
  read(relative: string): string {
    return fs.readFileSync(path.join(this.root, relative), 'utf8');
  }

  /** Writes `relative` and lints it with `strict`: "line rule" per finding, sorted. */
  lint(relative: string, lines: readonly string[]): string[] {
    const file = this.write(relative, lines);
    const text = fs.readFileSync(file, 'utf8');
    const linter = new Linter({ configType: 'flat', cwd: this.root });
    const config = [
      plugin.configs.strict as unknown as Linter.Config,
      { files: ['**/*.ts'], languageOptions: { parser: typescriptParser as unknown as Linter.Parser } },
    ];
    const messages = linter.verify(text, config, { filename: file });
    for (const message of messages) assert.notEqual(message.fatal, true, message.message);
    return messages.map((message) => `${message.line} ${message.ruleId ?? ''}`).sort();
  }

  /** Forgets the modules the model read from it, and deletes it. */
  remove(): void {
    clearModules();
    clearResolutions();
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
