"""The page asks for the search index only when the reader opens search, never on a first page view.

Material's bundle asks for search/search_index.json as soon as it loads; layermap's head script
holds that request until the search field gets focus or the search toggle is checked. The service
worker's install, once the page has loaded, fetches it once with every page (so that search works
offline after one visit, issue 32): the page's own requests are watched, and the worker's apart.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, expect

from tests.browser.test_depth_switcher import D4_ONLY_TERM, GPU, search_for
from tests.conftest import BuiltSite, wait_for_worker_control

pytestmark = pytest.mark.browser
INDEX = "search/search_index.json"


@pytest.fixture
def fresh_context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context()  # no cache, no service worker yet: a first visit
    yield context
    context.close()


def first_view(context: BrowserContext, url: str) -> tuple[Page, list[str]]:
    """Open a page on a first visit; return it and every search-index request the page made so far or
    makes later (the service worker's are not the page's: its install, after the page loaded, takes one)."""
    asked: list[str] = []
    by_worker: list[str] = []

    def note(request: Request) -> None:
        if request.url.split("?")[0].endswith(INDEX):
            (by_worker if request.service_worker else asked).append(request.url)

    context.on("request", note)
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("networkidle")
    wait_for_worker_control(page)  # installed: its precache is done
    page.wait_for_timeout(3000)
    assert len(by_worker) == 1  # the install's, once
    return page, asked


def test_a_first_page_view_fetches_no_search_index_until_search_is_opened(fresh_context: BrowserContext, built_site: BuiltSite) -> None:
    page, asked = first_view(fresh_context, built_site.url + "layer-1/power-cooling/")
    assert asked == []
    search_for(page, D4_ONLY_TERM)
    expect(page.locator(f'.md-search-result__link[href*="{GPU}"]').first).to_be_visible(timeout=30_000)
    assert asked and all(url.startswith(built_site.url + INDEX) for url in asked)


def test_the_keyboard_shortcut_opens_search_and_fetches_the_index(fresh_context: BrowserContext, built_site: BuiltSite) -> None:
    page, asked = first_view(fresh_context, built_site.url)
    assert asked == []
    page.keyboard.press("/")  # Material's shortcut: focuses the search field
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching", timeout=30_000)
    assert asked
    field = page.locator("input.md-search__input")
    field.fill(D4_ONLY_TERM)  # the whole term, then one keyup (Material searches on keyup)
    field.press("End")
    expect(page.locator(f'.md-search-result__link[href*="{GPU}"]').first).to_be_visible(timeout=30_000)
