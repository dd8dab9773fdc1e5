"""Shared fixtures: a built copy of the real site, served on 127.0.0.1, and the browser."""

from __future__ import annotations

import functools
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")  # Debian's browser, as a reader has it (screenshots to look at)
# Debian's Chromium without the browser around it (package chromium-headless-shell), the kind of
# build Playwright itself runs headless tests in: the same Blink and V8 at the same version. Measured
# here (2026-12-06, 84 page loads and 4 Python starts, side by side): about a quarter less processor
# time a page load and a sixth less a calculator start than the whole browser run headless.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]


@dataclass(frozen=True)
class BuiltSite:
    root: Path  # the project copy the site was built from
    site: Path  # the built HTML
    url: str  # where it is served, ending in /

    def page(self, path: str) -> Path:
        return self.site / path


class _QuietHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args: object) -> None:
        pass


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def copy_project(target: Path, content: Path = ROOT / "content") -> Path:
    """A private copy of the project's content and config (the tests never touch the real site/)."""
    shutil.copytree(content, target / "content")
    shutil.copy(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    for folder in ("calculators", "calcview"):
        if (ROOT / folder).is_dir():
            (target / folder).symlink_to(ROOT / folder)
    return target


# --- the order files start in ---------------------------------------------------------------
# scripts/test runs `pytest -n auto --dist loadfile --no-loadscope-reorder`: each file runs whole
# on one worker, in the order collected here. Files whose tests take minutes start first (the
# heaviest named below, then every other browser file), so the many short files fill the end of
# the run on both workers, instead of a long file left to run alone at the end (xdist's own order,
# most tests first, put these files last). Only the order changes; each file keeps its own.
HEAVIEST_FIRST = (
    "tests/browser/test_offline.py",  # several walks and builds of the real site, offline
    "tests/browser/test_exercises.py",  # every exercise of every calculator
    "tests/browser/test_security_policy.py",  # every page, every calculator booted
    "tests/browser/test_offline_versions.py",
    "tests/browser/test_offline_after_one_visit.py",
    "tests/browser/test_accessibility.py",
    "tests/browser/test_phone_widths.py",
)


def file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


def start_rank(item: pytest.Item) -> int:
    if file_of(item) in HEAVIEST_FIRST:
        return HEAVIEST_FIRST.index(file_of(item))
    return len(HEAVIEST_FIRST) + (0 if item.get_closest_marker("browser") else 1)


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by fixture, which splits files
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank: dict[str, int] = {}  # a file with any browser test goes with the browser files
    first: dict[str, int] = {}
    for position, item in enumerate(items):
        first.setdefault(file_of(item), position)
        rank[file_of(item)] = min(rank.get(file_of(item), start_rank(item)), start_rank(item))
    items.sort(key=lambda item: (rank[file_of(item)], first[file_of(item)]))  # stable: a file's tests keep their order


def walked_pages(site: Path) -> list[Path]:
    """The built pages a walk through every page visits: all of them, but of the learning plans
    (one template, a page per topic and depth: half the site) only the index, the first plan of
    each depth and the longest plan; tests/browser/test_learning_plans.py plays plans in full."""
    pages = sorted(p for p in site.rglob("*.html") if "assets" not in p.parts and "downloads" not in p.parts)
    plans = [p for p in pages if p.parent.parent.name == "plans"]
    kept = {p for p in plans if not any(q.parent.name[-3:] == p.parent.name[-3:] for q in plans if q < p)}
    if plans:
        kept.add(max(plans, key=lambda p: p.stat().st_size))
    return [p for p in pages if p not in plans or p in kept]


@functools.cache
def real_content():  # noqa: ANN201 - generator.content.model.Content, imported late
    """The project's own content, read and checked once per test process (a dozen test modules
    read it when they are collected, each a second of processor time on every xdist worker)."""
    from generator.pipeline import load_content

    return load_content(ROOT / "content", ROOT)


@functools.cache
def real_map():  # noqa: ANN201 - generator.model.graph.KnowledgeMap
    """The map of :func:`real_content`, built once per test process."""
    from generator.model.graph import build_map

    return build_map(real_content())


def hold_calculator_worker(context) -> None:  # noqa: ANN001 - a Playwright BrowserContext
    """Never answer the calculator worker's script in this context: every calculator stays
    "starting", as a reader sees it first, and no page spends seconds of processor time booting
    Python that the test never uses (a calculator page boots it on idle). For tests whose subject
    is the page, not the live calculator; the calculator's own tests leave it running."""
    context.route("**/calc-worker.js", lambda route: None)


# A link the reader follows, as the site's own links are followed: mkdocs-material's instant
# navigation swaps the page in place and keeps the module scripts, so the running calculator
# runtime serves the next page's calculators (calc-runtime.js). The page left is marked, to tell
# when it has gone, and the window too, to tell that it stayed (no full load).
FOLLOW_LINK = """href => {
    window.lmStayed = true;
    document.querySelector("article").dataset.lmLeft = "";
    const link = Object.assign(document.createElement("a"), { href });
    document.body.append(link);
    link.click();
}"""


def wait_for_worker_control(page, timeout_ms: float = 60_000) -> None:  # noqa: ANN001 - a Playwright Page
    """Wait until the site's service worker controls the page (installed, its precache done).
    Checked every 100 ms, not on every animation frame: the wait can be long (the worker installs
    after the page and its calculators), and a frame-by-frame check keeps the page drawing."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100, timeout=timeout_ms)


def follow_link(page, url: str) -> None:  # noqa: ANN001 - a Playwright Page
    """Follow a link to ``url`` from the page on show, by instant navigation (asserted: the
    window, its scripts and its calculator runtime are the ones before)."""
    page.evaluate(FOLLOW_LINK, url)
    page.wait_for_function("() => !document.querySelector('article[data-lm-left]')")
    assert page.evaluate("window.lmStayed === true"), f"{url} was loaded in full, not by instant navigation"


@contextmanager
def returning_readers_browser(browser_type, launch_args: dict, profile: Path) -> Iterator:  # noqa: ANN001 - Playwright's BrowserType
    """A browser with a profile on disk, as a reader's is: its HTTP cache keeps the 9.6 MB wasm
    and, beside it, the code Chromium compiled from it, which a private window's in-memory cache
    does not (a calculator then starts on about two thirds of the processor time)."""
    context = browser_type.launch_persistent_context(profile, **launch_args)
    try:
        yield context
    finally:
        context.close()


def build_project(root: Path, site_url: str) -> Path:
    from generator.emit.engine import build_site
    from generator.pipeline import generate
    from generator.project import Project

    project = Project(root)
    with mock.patch.dict(os.environ, {"LAYERMAP_SITE_URL": site_url}):  # not left for a later test's build
        config, _ = generate(project)
        build_site(config, project.site_dir)
    return project.site_dir


def serve_folder(folder: Path, port: int) -> ThreadingHTTPServer:
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def built_and_served(root: Path) -> Iterator[BuiltSite]:
    """The project at ``root`` built for a free local port and served there while the fixture lives."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    site = build_project(root, url)
    server = serve_folder(site, port)
    yield BuiltSite(root, site, url)
    server.shutdown()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The real content, built once per session and served on a free local port."""
    yield from built_and_served(copy_project(tmp_path_factory.mktemp("project")))


@pytest.fixture(scope="session")
def mini_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The small fixture project (tests/fixtures/mini: topics with gaps in their depths), built and served."""
    yield from built_and_served(copy_project(tmp_path_factory.mktemp("mini"), content=ROOT / "tests" / "fixtures" / "mini" / "content"))


# --- browser (pytest-playwright) ------------------------------------------------------


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    """pytest-playwright's ``context`` and ``page`` as a first visit has them, before the site's
    service worker serves it. Left to run, the worker installs a copy of the whole site (207 files,
    each checked against its SHA-256) in every test's context, then serves each later load, and on
    a calculator page the calculators' script too, past hold_calculator_worker. Tests of what the
    worker does make their own contexts, or opt in with
    ``@pytest.mark.browser_context_args(service_workers="allow")``."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict, browser_type) -> dict:  # noqa: ANN001
    """Use a Playwright-installed Chromium where there is one, else Debian's headless shell, else
    Debian's chromium; fail clearly otherwise."""
    args = {**browser_type_launch_args, "args": CHROMIUM_FLAGS}
    if Path(browser_type.executable_path).exists():
        return args
    for executable in (HEADLESS_SHELL, CHROMIUM):
        if executable.exists():
            return {**args, "executable_path": str(executable)}
    pytest.fail(
        "No Chromium for the browser tests. Install Debian's with `sudo apt-get install chromium-headless-shell` "
        "(scripts/test does this); layermap never downloads a browser build.",
        pytrace=False,
    )
