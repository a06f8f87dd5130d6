#!/usr/bin/env node
// The `locksmith` command; the code lives in the compiled CLI.
'use strict';

let cli;
try {
  cli = require('../dist/cli/main.js');
} catch (error) {
  const missing = error && error.code === 'MODULE_NOT_FOUND' ? String(error.message).split('\n')[0] : '';
  if (missing.includes('dist/cli/main.js')) {
    process.stderr.write('locksmith: the plugin is not built; run `npx tsc -b` in its repository first\n');
    process.exit(2);
  }
  if (missing.includes("'eslint'")) {
    process.stderr.write('locksmith: eslint is not installed; run `npm install --save-dev eslint`\n');
    process.exit(2);
  }
  throw error;
}
cli.main();
