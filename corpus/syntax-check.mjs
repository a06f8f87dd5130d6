// Decides whether a file that the CLI reported as unparsable is valid code: the judge is Node for JS, TypeScript for TS.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** { accepted: true } when the file is valid; otherwise { accepted: false, by } naming who rejects it too. */
export function checkAcceptedByNode(file) {
  if (TYPESCRIPT_EXTENSIONS.has(path.extname(file))) return checkWithTypeScript(file);
  // `node --check` parses as Node would load the file: by extension, package.json "type" and, for a .js
  // file with neither, Node's own syntax detection. It compiles only; nothing in the file runs.
  const { status } = spawnSync(process.execPath, ['--check', file], { stdio: 'ignore' });
  return status === 0 ? { accepted: true } : { accepted: false, by: 'node --check' };
}

function checkWithTypeScript(file) {
  const ts = require('typescript');
  const { diagnostics = [] } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, jsx: ts.JsxEmit.Preserve },
  });
  // transpileModule reports syntax errors only (no type checking); options errors would be ours, not the file's.
  const syntaxErrors = diagnostics.filter(
    (diagnostic) => diagnostic.file !== undefined && diagnostic.category === ts.DiagnosticCategory.Error,
  );
  return syntaxErrors.length === 0 ? { accepted: true } : { accepted: false, by: 'TypeScript' };
}
