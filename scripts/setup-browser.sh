#!/usr/bin/env bash
# Make sure a Chromium exists for the browser tests, without downloading a
# browser build: use a Playwright-installed one if present (e.g. GitHub Actions),
# else Debian's chromium, installing it with apt when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ls "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"/chromium* >/dev/null 2>&1; then
  echo "layermap setup: using the Playwright-installed Chromium"; exit 0
fi
if [ -x /usr/bin/chromium ]; then
  echo "layermap setup: using /usr/bin/chromium"; exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
if command -v apt-get >/dev/null 2>&1; then
  echo "layermap setup: installing Debian's chromium with apt-get (about a minute)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "layermap setup: no Chromium found. Install Debian's: 'sudo apt-get install chromium'" >&2
  echo "  (layermap never downloads a browser build)." >&2
  exit 1
fi
