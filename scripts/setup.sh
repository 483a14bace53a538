#!/usr/bin/env bash
# Installs what a fresh machine lacks: Debian packages for the end-to-end tests
# (Chromium, fonts, and what code-server needs to build), the npm packages, and
# code-server itself, once per machine, into ~/.cache/rl-run-browser/ (see scripts/codeServer.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
dpkg -s fonts-liberation >/dev/null 2>&1 || need+=(fonts-liberation)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

echo "setup: npm ci"
t0=$(date +%s)
npm ci --no-audit --no-fund --loglevel=error
echo "setup: npm ci took $(( $(date +%s) - t0 )) s"

if [ -f scripts/codeServer.mjs ]; then
  node scripts/codeServer.mjs install
fi
echo "setup: done"
