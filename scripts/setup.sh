#!/usr/bin/env bash
# Installs what a fresh machine lacks: Debian packages for the end-to-end tests (Chromium, fonts, and
# what code-server needs to build), the npm packages (beside the Debian packages: npm ci needs none of
# them), and the official Python Hub client in a virtual environment in ~/.cache/rl-run-browser/ (for
# the emulator's conformance test). code-server itself is installed once per machine into that folder
# by the first command that needs it (scripts/codeServer.mjs): `npm test` does it beside the unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."

npm_log="$(mktemp)"
t0=$(date +%s)
npm ci --no-audit --no-fund --loglevel=error >"$npm_log" 2>&1 &
npm_pid=$!
# a step below that fails ends the script: npm ci with it
trap 'kill "$npm_pid" 2>/dev/null || true' EXIT

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
dpkg -s fonts-liberation >/dev/null 2>&1 || need+=(fonts-liberation)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v python3 >/dev/null 2>&1 || need+=(python3)
# venv needs ensurepip, which Debian ships apart
{ command -v python3 >/dev/null 2>&1 && python3 -c 'import ensurepip, venv' >/dev/null 2>&1; } || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# huggingface_hub from the machine's package index only: its configured extra indexes become the index
# (no fall-back to the default one), the version in scripts/hf-hub-version.txt, one environment per version
hf_version="$(tr -d '[:space:]' < scripts/hf-hub-version.txt)"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/rl-run-browser/venv-hf-$hf_version"
if [ ! -f "$venv/.complete" ]; then
  echo "setup: huggingface_hub $hf_version into $venv"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
  read -r -a indexes <<< "$(python3 -m pip config get global.extra-index-url 2>/dev/null || true)"
  pip_args=(--quiet --disable-pip-version-check --retries 0 --timeout 30)
  if [ ${#indexes[@]} -gt 0 ]; then
    pip_args+=(--index-url "${indexes[0]}")
    for i in "${indexes[@]:1}"; do pip_args+=(--extra-index-url "$i"); done
  fi
  "$venv/bin/python" -m pip install "${pip_args[@]}" "huggingface_hub==$hf_version" 2>&1 | grep -v "is ignored: it is neither a file nor a directory" || true
  "$venv/bin/python" -c "import huggingface_hub as h; assert h.__version__ == '$hf_version', h.__version__"
  touch "$venv/.complete"
fi

npm_status=0
wait "$npm_pid" || npm_status=$?
trap - EXIT
cat "$npm_log"
rm -f "$npm_log"
if [ "$npm_status" -ne 0 ]; then
  echo "setup: npm ci failed (exit $npm_status; its output is above)" >&2
  exit "$npm_status"
fi
echo "setup: npm ci done ($(( $(date +%s) - t0 )) s after it started)"
echo "setup: done"
