"""Versions never mix, and the offline and new-version notices (issue 34, items 3 and 10).

The mini project, served under a sub-path as GitHub Pages serves it: every file may be reused by
the browser for ten minutes (Cache-Control: max-age=600). Each build marks its pages (the footer's
copyright) and its stylesheet (a custom property) with its deployment's name, so a page that shows
with another deployment's stylesheet is seen.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from generator.emit import docs_tree
from tests.browser.test_offline import SubPathSite, _SubPathHandler, open_controlled
from tests.browser.test_service_worker_poisoning import console_errors
from tests.conftest import ROOT, build_project, free_port
from tests.generator.mini_project import MINI

pytestmark = pytest.mark.browser
TOPIC = "layer-1/power/"
STYLE_BUNDLE = docs_tree.style_bundle  # as layermap joins its stylesheets


class _PagesLikeHandler(_SubPathHandler):
    """Every response may be reused for ten minutes, as GitHub Pages sends; the service worker's
    first fetch of a page while it installs (a request past the browser's cache) can be held."""

    hold_install: threading.Event | None = None  # set: let the held request go on
    install_held = threading.Event()  # set once a request is being held

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        hold = type(self).hold_install
        reloads = "no-cache" in self.headers.get("Cache-Control", "") or "no-cache" in self.headers.get("Pragma", "")
        if hold is not None and reloads and self.path.endswith(".html") and not type(self).install_held.is_set():
            type(self).install_held.set()
            hold.wait(120)
        super().do_GET()


class _Site(SubPathSite):
    handler = _PagesLikeHandler


def deploy(site: _Site, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Build the site as deployment `name`: its pages say so in their footer, its stylesheet in --lm-deployment."""
    config = site.root / "mkdocs.yml"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config.write_text(f"{text.rstrip()}\ncopyright: Deployment {name}\n", encoding="utf-8")
    monkeypatch.setattr(docs_tree, "style_bundle", lambda tree: f'{STYLE_BUNDLE(tree)}\n:root {{ --lm-deployment: "{name}"; }}\n')
    build_project(site.root, site.url)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[_Site]:
    shutil.copytree(MINI, tmp_path / "content")
    served = _Site(tmp_path, tmp_path / "site", free_port())
    deploy(served, "A", monkeypatch)
    served.start()
    yield served
    served.stop()
    _PagesLikeHandler.hold_install = None
    _PagesLikeHandler.install_held.clear()


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

    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    page.wait_for_timeout(500)
    cached = page.evaluate(CACHED_VERSIONS)
    assert cached and all(page_version == sheet for _, page_version, sheet in cached), cached
    assert {page_version for _, page_version, _ in cached} == {"B"}  # one deployment, all of it
    for path in site.pages():  # now served by the worker
        page.goto(site.url + path)
        assert page.evaluate(SHOWN_VERSIONS) == ["B", "B"], path
    assert errors == []


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
