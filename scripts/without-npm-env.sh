#!/usr/bin/env bash
# Runs a command (a nested `npm install`) as it would run from a plain shell, not from inside an npm
# script. An npm script inherits the outer npm's settings as `npm_config_*` variables and its package
# as `npm_package_*`; a nested install would take them as its own: `npm_config_user_agent` names the
# outer Node (code-server's postinstall then refuses Node 24 while running on it),
# `npm_config_nodedir` the outer Node's headers, `npm_config_local_prefix` the outer project.
# Removed: every lower-case `npm_*` variable (npm sets only those; an upper-case `NPM_CONFIG_*` the
# user exported, a registry mirror say, stays), `INIT_CWD` and `NODE`, and the `node_modules/.bin`
# and node-gyp folders npm put in front of PATH.
# Usage: bash scripts/without-npm-env.sh <command> [<argument>...]
set -euo pipefail

unset_args=()
while IFS= read -r name; do
  case "$name" in
    npm_* | INIT_CWD | NODE) unset_args+=(-u "$name") ;;
  esac
done < <(compgen -e)

clean_path=$PATH
if [[ -n "${npm_lifecycle_event:-}" ]]; then
  kept=()
  IFS=: read -r -a entries <<<"$PATH"
  for entry in "${entries[@]}"; do
    case "$entry" in
      */node_modules/.bin | */@npmcli/run-script/lib/node-gyp-bin) ;;
      *) kept+=("$entry") ;;
    esac
  done
  clean_path=$(IFS=:; echo "${kept[*]}")
fi

exec env "${unset_args[@]}" PATH="$clean_path" "$@"
