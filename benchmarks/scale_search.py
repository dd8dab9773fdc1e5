"""What a first page view pays for search, and how big the index is.

The built site is served by a local static server that logs the body bytes of every response it
sends (so the page's, its workers' and the service worker's requests all count). Headless Chromium
opens a topic page on a first visit (a fresh context: no cache, no service worker), waits until the
page is idle and its service worker has installed, and the bytes of every response whose path has
``search_index`` are summed; then search is opened with the ``/`` shortcut and the bytes are counted
again once the index has arrived. The index's size is its gzip -9 size (every ``search_index`` file
under ``site/search/``).
"""

from __future__ import annotations

import gzip
import time
from dataclasses import dataclass
from pathlib import Path

SEARCH_FILES = "search_index"
INSTALL_TIMEOUT_MS = 60_000
OPEN_TIMEOUT_SECONDS = 60.0


@dataclass(frozen=True)
class SearchCost:
    first_view_bytes: int      # search-index bytes before search is opened
    opened_bytes: int | None   # search-index bytes once search is opened (None: none arrived)
    index_raw: int             # the index files on disk
    index_gz: int              # the same, gzip -9
    note: str = ""


def index_sizes(site: Path) -> tuple[int, int]:
    files = sorted(p for p in (site / "search").glob(f"*{SEARCH_FILES}*") if p.is_file())
    raw = [p.read_bytes() for p in files]
    return sum(len(r) for r in raw), sum(len(gzip.compress(r, compresslevel=9)) for r in raw)


def search_bytes(log: list[tuple[str, int, bool]]) -> int:
    return sum(size for path, size, _ in log if SEARCH_FILES in path)


def _wait_for_index(server, mark: int, timeout: float) -> int | None:  # noqa: ANN001 - calculator_browser.Server
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if search_bytes(server.since(mark)):
            time.sleep(1.0)  # an index in several files: let the rest arrive
            return search_bytes(server.since(mark))
        time.sleep(0.1)
    return None


def measure_search(site: Path, page_path: str) -> SearchCost:
    from calculator_browser import CHROMIUM, CHROMIUM_ARGS, Server  # the same static server, counting bytes
    from playwright.sync_api import Error, sync_playwright

    raw, gz = index_sizes(site)
    server = Server(site)
    note = ""
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                page = browser.new_context().new_page()
                page.goto(server.base + page_path)
                page.wait_for_load_state("networkidle")
                try:
                    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=INSTALL_TIMEOUT_MS)
                except Error:
                    note = "no service worker took control within 60 s; "
                page.wait_for_timeout(3000)
                first = search_bytes(server.since(0))
                mark = server.mark()
                page.keyboard.press("/")  # Material's shortcut: focuses the search field
                opened = _wait_for_index(server, mark, OPEN_TIMEOUT_SECONDS)
            finally:
                browser.close()
    finally:
        server.close()
    return SearchCost(first, opened, raw, gz, note)
