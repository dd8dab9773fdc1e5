"""Offline reading: the built site's service worker, written by Workbox after the engine ran.

``generator/workbox/build-service-worker.mjs`` (Node.js, npm ``workbox-build`` pinned in
package-lock.json) writes ``sw.js`` into the built folder: every page and asset precached with a
revision, the calculator runtime (``assets/pyodide/``) listed apart to be cached on first use; each
entry also carries the SHA-256 digest of its file, which the worker checks every cached copy against.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from generator.errors import LayermapError

BUILD_SCRIPT = Path(__file__).parent / "workbox" / "build-service-worker.mjs"
WORKER_FILE = "sw.js"
MISSING_PACKAGE = 2  # the script's exit status when workbox-build is not installed
INSTALL_FIX = ("install Node.js 18 or later (e.g. `apt-get install nodejs npm`) and run `npm ci` in the "
               "layermap folder (scripts/setup.sh does both); the previous site/ was kept")


def write_service_worker(site: Path, not_precached: tuple[str, ...] = ()) -> dict[str, int]:
    """Write ``site/sw.js``; return what its manifests hold (files and bytes). ``not_precached``:
    globs (relative to ``site``) of files no page uses, left out of the precache."""
    node = shutil.which("node")
    if node is None:
        raise LayermapError("Node.js (`node`) is not on the PATH: layermap builds the site's offline "
                            "service worker with Workbox (npm package workbox-build)", INSTALL_FIX)
    # A young generation of 1 MB: V8 collects the files Workbox hashes sooner (its process peaked at 160 MB
    # on a 1,000-topic site, the build's highest point; 110 MB so, in the same time).
    command = [node, "--max-semi-space-size=1", str(BUILD_SCRIPT), str(site)]
    for pattern in not_precached:
        command += ["--not-precached", pattern]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        details = "\n".join(f"    {line}" for line in result.stderr.strip().splitlines()) or f"    exit status {result.returncode}"
        fix = INSTALL_FIX if result.returncode == MISSING_PACKAGE else "this is a bug in layermap, not in your content: report it; the previous site/ was kept"
        raise LayermapError(f"building the offline service worker (Workbox) failed:\n{details}", fix)
    return json.loads(result.stdout.strip().splitlines()[-1])
