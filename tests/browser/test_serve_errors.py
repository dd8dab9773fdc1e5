"""`layermap serve` shows an invalid save in the open page: an overlay listing each problem as
file:line:column with what is wrong and the fix, gone by itself once the save is fixed.

The real command runs in a subprocess on a copy of the mini project; the page is a topic page.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import ROOT, free_port
from tests.generator.mini_project import copy_mini

pytestmark = pytest.mark.browser
START_SECONDS = 180.0  # the first build of a loaded machine
SHOW_MS = 120_000  # a save → watcher burst → regeneration → engine rebuild → the page's next look


def wait_for_server(url: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert server.poll() is None, "layermap serve ended before serving"
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"layermap serve did not answer at {url} within {START_SECONDS:.0f} s")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """The mini project served by `layermap serve`; stopped by Ctrl+C (SIGINT) afterwards."""
    mini = copy_mini(tmp_path)
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    port = free_port()
    log = (tmp_path / "serve.log").open("w", encoding="utf-8")
    server = subprocess.Popen([sys.executable, "-m", "generator.cli", "--project", str(mini.root), "serve",
                               "--address", f"127.0.0.1:{port}"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_server(url, server)
        yield mini.content, url
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
    assert "Traceback" not in (tmp_path / "serve.log").read_text(encoding="utf-8")


def test_a_bad_save_shows_its_problems_in_the_page_until_fixed(served: tuple[Path, str], page: Page) -> None:
    content, url = served
    chips = content / "layer-2" / "chips.yaml"
    good = chips.read_text(encoding="utf-8")
    page.goto(url + "layer-2/chips/")
    overlay = page.get_by_role("alertdialog")
    expect(page.locator("h1")).to_contain_text("Chips")
    expect(overlay).to_have_count(0)

    chips.write_text(good.replace("layer: 2", "layer: two"), encoding="utf-8")
    expect(overlay).to_be_visible(timeout=SHOW_MS)
    expect(overlay).to_have_accessible_name("Content has 1 problem — this page is out of date")
    expect(overlay.locator("code")).to_have_text("content/layer-2/chips.yaml:3:8")
    expect(overlay).to_contain_text("layer: expected a whole number, got `two`")
    expect(overlay).to_contain_text("fix: write digits only, e.g. `layer: 2`")
    expect(overlay.get_by_role("button", name="Hide")).to_be_focused()

    chips.write_text(good, encoding="utf-8")
    expect(overlay).to_have_count(0, timeout=SHOW_MS)
    expect(page.locator("h1")).to_contain_text("Chips")


def test_hide_takes_the_overlay_away_by_keyboard(served: tuple[Path, str], page: Page) -> None:
    content, url = served
    chips = content / "layer-2" / "chips.yaml"
    page.goto(url + "layer-2/chips/")
    chips.write_text(chips.read_text(encoding="utf-8").replace("layer: 2", "layer: two"), encoding="utf-8")
    overlay = page.get_by_role("alertdialog")
    expect(overlay).to_be_visible(timeout=SHOW_MS)
    page.keyboard.press("Enter")  # the Hide button has the focus
    expect(overlay).to_have_count(0)
    page.wait_for_timeout(2500)  # two more looks at the same status: a hidden overlay stays hidden
    expect(overlay).to_have_count(0)
