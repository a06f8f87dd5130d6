#!/usr/bin/env bash
# Installs the older ESLint majors the compatibility test runs (8.57 and 9) into test/eslint-compat,
# apart from the workspace, once; later runs reuse them.
set -euo pipefail
cd "$(dirname "$0")/.."
# Run from `npm test`, the nested install would take the outer npm's settings (its project, its
# loglevel, its nodedir) as its own: start again without them.
if [[ -n "$(compgen -e npm_)" ]]; then exec bash scripts/without-npm-env.sh bash "$0" "$@"; fi
cd test/eslint-compat
if [[ ! -f node_modules/eslint8/package.json || ! -f node_modules/eslint9/package.json ]]; then
  # Warnings stay visible (an install script npm's allowScripts does not cover, say).
  npm ci --no-audit --no-fund --loglevel=warn
fi
