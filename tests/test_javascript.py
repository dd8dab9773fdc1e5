"""The JavaScript's own checks, run by the test command: node's test runner over the pure parts
(tests/js/) and the Biome linter (pinned in package.json, configured in biome.json)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIOME = ROOT / "node_modules" / ".bin" / "biome"
LINTED = ["generator/assets", "tests/js"]


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)


def test_the_pure_javascript_passes_its_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is missing: install it (scripts/setup.sh needs it too)", pytrace=False)
    # The assets are ES modules without a package.json of their own (the site serves them as
    # modules): node says so once per file, a notice about speed, not a fault.
    done = run([node, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "--test", "tests/js/"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout


def test_the_javascript_passes_the_linter() -> None:
    if not BIOME.exists():
        pytest.fail(f"{BIOME.relative_to(ROOT)} is missing: run `npm ci` (scripts/setup.sh does)", pytrace=False)
    done = run([str(BIOME), "lint", "--error-on-warnings", *LINTED])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Checked" in done.stdout + done.stderr
