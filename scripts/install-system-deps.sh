#!/usr/bin/env bash
# Installs the Debian packages the tests need (real Redis, real PostgreSQL, Chromium for the real
# VS Code run), skipping what is already present. Needs root, as CI and the dev machines have.
set -euo pipefail

needed=()
command -v redis-server >/dev/null 2>&1 || needed+=(redis-server)
[[ -x /usr/lib/postgresql/15/bin/initdb ]] || needed+=(postgresql)
command -v chromium >/dev/null 2>&1 || needed+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || needed+=(libkrb5-dev)
dpkg -s build-essential >/dev/null 2>&1 || needed+=(build-essential)
dpkg -s pkg-config >/dev/null 2>&1 || needed+=(pkg-config)

if ((${#needed[@]})); then
  echo "installing: ${needed[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
fi
# The distribution's packaged servers must not keep running: tests start their own on free ports.
service redis-server stop >/dev/null 2>&1 || true
service postgresql stop >/dev/null 2>&1 || true
