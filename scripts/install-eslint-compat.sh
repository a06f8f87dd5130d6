#!/usr/bin/env bash
# Installs the older ESLint majors the compatibility test runs (8.57 and 9) into test/eslint-compat,
# apart from the workspace, once; later runs reuse them.
set -euo pipefail
cd "$(dirname "$0")/../test/eslint-compat"
if [[ ! -f node_modules/eslint8/package.json || ! -f node_modules/eslint9/package.json ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
