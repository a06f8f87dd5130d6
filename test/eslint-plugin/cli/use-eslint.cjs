// Preloaded with `node --require` by the CLI tests: makes `require('eslint')` load the ESLint at
// $LOCKSMITH_TEST_ESLINT (8.57 or 9 from test/eslint-compat), as in a project that installed it.
'use strict';

const Module = require('node:module');

const eslintDirectory = process.env.LOCKSMITH_TEST_ESLINT;
if (eslintDirectory) {
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function resolveEslint(request, ...rest) {
    return resolveFilename.call(this, request === 'eslint' ? eslintDirectory : request, ...rest);
  };
}
