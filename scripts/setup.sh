#!/usr/bin/env bash
# Install everything layermap needs into this folder: a Python virtual environment
# with the pinned, hash-checked packages (requirements.lock: what build and serve
# need; with --with-tests also requirements-test.lock) and the pinned npm packages
# (package-lock.json: the Pyodide runtime that the built site serves itself, Workbox for its
# service worker, and Biome, the JavaScript linter the tests run).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "layermap setup: creating .venv with $($PYTHON --version)"
  "$PYTHON" -m venv .venv
fi
LOCKS=(-r requirements.lock)
if [ "${1:-}" = "--with-tests" ]; then LOCKS+=(-r requirements-test.lock); fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes "${LOCKS[@]}"
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .

if ! command -v npm >/dev/null 2>&1; then
  echo "layermap setup: npm is missing; install Node.js and npm (e.g. apt-get install nodejs npm)" >&2
  exit 1
fi
if [ ! -f node_modules/pyodide/pyodide.asm.wasm ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "layermap setup: ready"
