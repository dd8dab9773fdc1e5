"""Versions never mix, and the offline and new-version notices (issue 34, items 3 and 10).

The mini project, served under a sub-path as GitHub Pages serves it: every file may be reused by
the browser for ten minutes (Cache-Control: max-age=600). Each build marks its pages (the footer's
copyright) and its stylesheet (a custom property) with its deployment's name, so a page that shows
with another deployment's stylesheet is seen; given its own copy of the calculators' Python, its
calculators' results end with the name too, so a page that runs another deployment's Python is seen.
"""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from generator.calculation import port
from generator.emit import docs_tree
from tests.browser.test_offline import SubPathSite, _SubPathHandler, open_controlled
from tests.browser.test_service_worker_poisoning import console_errors
from tests.conftest import ROOT, build_project, copy_project, free_port, wait_for_worker_control
from tests.generator.mini_project import MINI

pytestmark = pytest.mark.browser
TOPIC = "layer-1/power/"
STYLE_BUNDLE = docs_tree.style_bundle  # as layermap joins its stylesheets
LAYERMAP_PYTHON = port.PACKAGE_ROOT  # holds layermap's own calcview/ and calculators/


class _PagesLikeHandler(_SubPathHandler):
    """Every response may be reused for ten minutes, as GitHub Pages sends; the service worker's
    first fetch of a page while it installs (a request past the browser's cache) can be held."""

    hold_install: threading.Event | None = None  # set: let the held request go on
    install_held = threading.Event()  # set once a request is being held

    def end_headers(self) -> None:
        self.send_header("Cache-Control", self.cache_control())
        super().end_headers()

    def cache_control(self) -> str:
        return "max-age=600"

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        hold = type(self).hold_install
        reloads = "no-cache" in self.headers.get("Cache-Control", "") or "no-cache" in self.headers.get("Pragma", "")
        if hold is not None and reloads and self.path.endswith(".html") and not type(self).install_held.is_set():
            type(self).install_held.set()
            hold.wait(120)
        super().do_GET()


class _Site(SubPathSite):
    handler = _PagesLikeHandler


class _KeptPagesHandler(_PagesLikeHandler):
    """As GitHub Pages, but the browser must ask again before it reuses a file of a versioned folder:
    so a page it still holds meets the folder as the site has it now, as after ten minutes (or on
    Back, which shows a kept page however old) once the browser's copy of the folder's files is stale."""

    def cache_control(self) -> str:
        return "no-cache" if "/assets/layermap-" in self.path else super().cache_control()


class _KeptPagesSite(SubPathSite):
    handler = _KeptPagesHandler


def deploy(site: _Site, name: str, monkeypatch: pytest.MonkeyPatch, python: Path | None = None) -> None:
    """Build the site as deployment `name`: its pages say so in their footer, its stylesheet in
    --lm-deployment; with `python` (:func:`python_of`), its calculators run that Python."""
    config = site.root / "mkdocs.yml"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config.write_text(f"{text.rstrip()}\ncopyright: Deployment {name}\n", encoding="utf-8")
    monkeypatch.setattr(docs_tree, "style_bundle", lambda tree: f'{STYLE_BUNDLE(tree)}\n:root {{ --lm-deployment: "{name}"; }}\n')
    if python is not None:
        monkeypatch.setattr(port, "PACKAGE_ROOT", python)  # where the build takes the browser's Python from
    build_project(site.root, site.url)


# Appended to a deployment's calcview/evaluate.py: every result it gives the page ends with the
# deployment's name (evaluate_json, which the worker calls, looks evaluate up when it runs).
MARKED_RESULTS = """

_evaluate_unmarked = evaluate


def evaluate(module, raw):
    result = _evaluate_unmarked(module, raw)
    result["display"] = {{output: f"{{text}} ({name})" for output, text in result["display"].items()}}
    return result
"""


def python_of(folder: Path, name: str) -> Path:
    """A copy of layermap's calcview/ and calculators/ whose results end with " (`name`)"."""
    root = folder / f"python-{name}"
    for package in ("calcview", "calculators"):
        shutil.copytree(LAYERMAP_PYTHON / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    evaluate = root / "calcview" / "evaluate.py"
    evaluate.write_text(evaluate.read_text(encoding="utf-8") + MARKED_RESULTS.format(name=name), encoding="utf-8")
    return root


def deployed_mini(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: type[SubPathSite] = _Site) -> Iterator[_Site]:
    shutil.copytree(MINI, tmp_path / "content")
    served = kind(tmp_path, tmp_path / "site", free_port())
    deploy(served, "A", monkeypatch)
    served.start()
    yield served
    served.stop()
    _PagesLikeHandler.hold_install = None
    _PagesLikeHandler.install_held.clear()


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[_Site]:
    yield from deployed_mini(tmp_path, monkeypatch)


@pytest.fixture
def kept_pages_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[_Site]:
    yield from deployed_mini(tmp_path, monkeypatch, _KeptPagesSite)


CALCULATOR = "roofline"
CALCULATOR_PAGES = ("layer-2/boards/", "layer-2/chips/")  # the same calculator at D4 of both


@pytest.fixture
def calculator_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[_Site]:
    """The mini project with a calculator on two topics, deployed as A with Python that says A."""
    copy_project(tmp_path, MINI)  # with the calculators' runtime (node_modules/pyodide)
    for page in CALCULATOR_PAGES:
        topic = tmp_path / "content" / f"{page.rstrip('/')}.yaml"
        depth = f"  D4:\n    body: Work it out.\n    calculator:\n      name: {CALCULATOR}\n"
        topic.write_text(topic.read_text(encoding="utf-8").rstrip() + "\n" + depth, encoding="utf-8")
    served = _Site(tmp_path, tmp_path / "site", free_port())
    deploy(served, "A", monkeypatch, python_of(tmp_path, "A"))
    served.start()
    yield served
    served.stop()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context()
    yield context
    context.close()


# The page's deployment (its footer) and its stylesheet's (the custom property), once the stylesheet applies.
SHOWN_VERSIONS = """() => [
    (document.querySelector('.md-copyright')?.textContent.match(/Deployment (\\w+)/) ?? [])[1] ?? null,
    getComputedStyle(document.documentElement).getPropertyValue('--lm-deployment').trim().replaceAll('"', ''),
]"""

# Every page in the service worker's cache, with the deployment its stylesheet there is of.
CACHED_VERSIONS = """async () => {
    const found = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            if (!new URL(request.url).pathname.endsWith('.html')) continue;
            const html = await (await cache.match(request)).text();
            const page = (html.match(/Deployment (\\w+)/) ?? [])[1];
            const href = html.match(/<link rel="stylesheet" href="([^"]*assets\\/layermap[^"]*\\.css)"/)[1];
            const css = await cache.match(new URL(href, request.url).href, { ignoreSearch: true });
            const sheet = css ? ((await css.text()).match(/--lm-deployment: "(\\w+)"/) ?? [])[1] : 'missing';
            found.push([new URL(request.url).pathname, page, sheet]);
        }
    }
    return found;
}"""


def test_a_deployment_during_the_first_install_never_gives_a_page_another_versions_stylesheet(
        context: BrowserContext, site: _Site, monkeypatch: pytest.MonkeyPatch) -> None:
    page = context.new_page()
    errors = console_errors(page)
    _PagesLikeHandler.hold_install = threading.Event()
    page.goto(site.url)  # a first visit: deployment A, its stylesheet kept by the browser for ten minutes
    assert page.evaluate(SHOWN_VERSIONS) == ["A", "A"]
    assert _PagesLikeHandler.install_held.wait(60), "the service worker never started installing"
    deploy(site, "B", monkeypatch)  # lands while the first visit's worker installs
    _PagesLikeHandler.hold_install.set()

    for path in site.pages():  # pages never seen (deployment B) and the home page again (A, from the browser's cache)
        page.goto(site.url + path)
        page_version, stylesheet_version = page.evaluate(SHOWN_VERSIONS)
        assert page_version in ("A", "B") and stylesheet_version == page_version, path

    wait_for_worker_control(page)
    page.wait_for_timeout(500)
    cached = page.evaluate(CACHED_VERSIONS)
    assert cached and all(page_version == sheet for _, page_version, sheet in cached), cached
    assert {page_version for _, page_version, _ in cached} == {"B"}  # one deployment, all of it
    for path in site.pages():  # now served by the worker
        page.goto(site.url + path)
        assert page.evaluate(SHOWN_VERSIONS) == ["B", "B"], path
    assert errors == []


def calculator_result(page: Page, url: str) -> str:
    """Open the page's calculator, change nothing but ask it again, and return its first result as shown."""
    page.goto(url)
    page.get_by_role("tab", name=re.compile("^D4")).click()
    calc = page.locator(f"#calc-{CALCULATOR}-d4")
    field = calc.locator("input").first
    field.focus()  # a reader's first interaction starts the calculator
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready", timeout=90_000)
    output = calc.locator("dd[data-output]").first
    built = output.text_content()  # the build's own numbers, before the worker answers
    field.fill(field.input_value())  # the same text: the worker works it out
    expect(output).not_to_have_text(built or "", timeout=30_000)
    return output.text_content() or ""


def test_a_page_of_a_new_deployment_runs_its_own_python_while_the_browser_holds_the_old(
        browser: Browser, calculator_site: _Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    context = browser.new_context(service_workers="block")  # no worker: only the browser's HTTP cache
    try:
        page = context.new_page()
        first, second = (calculator_site.url + path for path in CALCULATOR_PAGES)
        assert calculator_result(page, first).endswith(" (A)")  # A's Python, kept by the browser ten minutes
        deploy(calculator_site, "B", monkeypatch, python_of(tmp_path, "B"))  # the same calculator, other Python
        assert calculator_result(page, second).endswith(" (B)")  # a page never seen: B's page, B's Python
        assert page.evaluate(SHOWN_VERSIONS) == ["B", "B"]
    finally:
        context.close()


def test_a_page_kept_from_a_replaced_deployment_loads_again_as_the_new_one(
        browser: Browser, kept_pages_site: _Site, monkeypatch: pytest.MonkeyPatch) -> None:
    site = kept_pages_site
    context = browser.new_context(service_workers="block")  # no worker: only the browser's HTTP cache
    try:
        page = context.new_page()
        loads: list[str] = []  # every page load begun (a reload may end a load before its load event)
        page.on("request", lambda request: request.is_navigation_request() and loads.append(request.url))
        page.goto(site.url + TOPIC)
        assert page.evaluate(SHOWN_VERSIONS) == ["A", "A"]
        page.goto(site.url)  # on to another page (a second visit to the same address may count as a reload)
        deploy(site, "B", monkeypatch)  # A's versioned folder is gone from the site
        loads.clear()
        page.goto(site.url + TOPIC)  # the browser's copy of A's page, which names A's folder
        page.wait_for_function(f"() => JSON.stringify(({SHOWN_VERSIONS})()) === '[\"B\",\"B\"]'", timeout=30_000)
        assert len(loads) == 2  # A's page, then the page again: B's, with its stylesheet

        [folder] = (site.site / "assets").glob("layermap-*")
        shutil.rmtree(folder)  # a deployment that really lacks its folder: one reload, not a loop
        loads.clear()
        page.goto(site.url + "layer-2/")  # a page never seen: B's
        page.wait_for_timeout(3_000)
        assert len(loads) == 2
        assert page.evaluate(SHOWN_VERSIONS) == ["B", ""]  # unstyled, as the site is
    finally:
        context.close()


def notice_inside_the_header(page: Page, kind: str) -> None:
    notice = page.locator(f".layermap-notice--{kind}")
    expect(notice).to_be_visible()
    box, header = notice.bounding_box(), page.locator(".md-header").bounding_box()
    assert box and header
    assert header["y"] <= box["y"] and box["y"] + box["height"] <= header["y"] + header["height"] + 0.5, (box, header)
    assert header["x"] <= box["x"] and box["x"] + box["width"] <= header["x"] + header["width"] + 0.5, (box, header)
    content = page.locator(".md-content").bounding_box()
    assert content and box["y"] + box["height"] <= content["y"] + 0.5  # above the page, never over it


@pytest.mark.parametrize("width", [390, 1280])
def test_the_offline_notice_sits_in_the_header_and_can_be_dismissed(browser: Browser, site: _Site, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    try:
        page = context.new_page()
        errors = console_errors(page)
        open_controlled(page, site.url + TOPIC)
        context.set_offline(True)
        page.reload()
        notice_inside_the_header(page, "offline")
        expect(page.locator(".layermap-notice--offline")).to_contain_text("Offline")
        page.locator(".layermap-notice--offline").get_by_role("button", name="Dismiss this notice").click()
        expect(page.locator(".layermap-notice--offline")).to_have_count(0)
        context.set_offline(False)
        context.set_offline(True)  # news again: shown again, and Escape dismisses it too
        expect(page.locator(".layermap-notice--offline")).to_be_visible()
        page.locator(".layermap-notice--offline").get_by_role("button", name="Dismiss this notice").focus()
        page.keyboard.press("Escape")
        expect(page.locator(".layermap-notice--offline")).to_have_count(0)
        assert errors == []
    finally:
        context.close()


def test_the_new_version_notice_sits_in_the_header_and_stays_dismissed_in_this_tab(
        context: BrowserContext, site: _Site, monkeypatch: pytest.MonkeyPatch) -> None:
    page = context.new_page()
    open_controlled(page, site.url + TOPIC)
    deploy(site, "B", monkeypatch)
    page.reload()
    notice = page.locator(".layermap-notice--update")
    expect(notice).to_contain_text("A new version is available", timeout=60_000)
    notice_inside_the_header(page, "update")
    expect(notice.get_by_role("button", name="Reload")).to_be_visible()
    notice.get_by_role("button", name="Dismiss this notice").click()
    expect(notice).to_have_count(0)
    page.goto(site.url)
    page.wait_for_timeout(1_500)
    expect(notice).to_have_count(0)  # not asked again in this tab
    assert page.evaluate(SHOWN_VERSIONS) == ["A", "A"]  # still the version the reader started with
