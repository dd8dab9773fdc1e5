#!/usr/bin/env bash
# Make sure a Chromium exists for the browser tests, without downloading a
# browser build: use a Playwright-installed one if present (e.g. GitHub Actions),
# else Debian's chromium-headless-shell (the same Chromium without the browser
# around it: the tests run faster in it), installing it with apt when it is
# missing; else Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

if ls "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"/chromium* >/dev/null 2>&1; then
  echo "layermap setup: using the Playwright-installed Chromium"; exit 0
fi
if [ -x /usr/bin/chromium-headless-shell ]; then
  echo "layermap setup: using /usr/bin/chromium-headless-shell"; exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
if command -v apt-get >/dev/null 2>&1; then
  echo "layermap setup: installing Debian's chromium-headless-shell with apt-get (about a minute)"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium-headless-shell >/dev/null; }; then
    echo "layermap setup: apt-get could not install chromium-headless-shell; trying chromium" >&2
    [ -x /usr/bin/chromium ] || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null || true
  fi
fi
if [ -x /usr/bin/chromium-headless-shell ]; then
  echo "layermap setup: using /usr/bin/chromium-headless-shell"; exit 0
fi
if [ -x /usr/bin/chromium ]; then
  echo "layermap setup: using /usr/bin/chromium"; exit 0
fi
echo "layermap setup: no Chromium found. Install Debian's: 'sudo apt-get install chromium-headless-shell'" >&2
echo "  (layermap never downloads a browser build)." >&2
exit 1
