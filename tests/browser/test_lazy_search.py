"""The search index is fetched only when the reader opens search, never on a first page view.

Material's bundle asks for search/search_index.json as soon as it loads; layermap's head script
holds that request until the search field gets focus or the search toggle is checked, and the
service worker does not precache it. Requests are watched on the whole browser context, so the
service worker's own fetches (its install) count too.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.test_depth_switcher import D4_ONLY_TERM, GPU, search_for
from tests.conftest import BuiltSite

pytestmark = pytest.mark.browser
INDEX = "search/search_index.json"


@pytest.fixture
def fresh_context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context()  # no cache, no service worker yet: a first visit
    yield context
    context.close()


def first_view(context: BrowserContext, url: str) -> tuple[Page, list[str]]:
    """Open a page on a first visit; return it and every search-index request made so far or later."""
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url) if request.url.split("?")[0].endswith(INDEX) else None)
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)  # installed: its precache is done
    page.wait_for_timeout(3000)
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
