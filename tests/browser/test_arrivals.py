"""Where a reader lands (issue 34, item 5): a link to a depth puts its tabs under the header and
the table of contents on that depth."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.conftest import BuiltSite

pytestmark = pytest.mark.browser
GPU = "layer-3/gpu-clusters/"
SCREENS = {"phone 390": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
           "desktop 1280": {"viewport": {"width": 1280, "height": 800}}}


def context_for(browser: Browser, screen: str) -> BrowserContext:
    return browser.new_context(**SCREENS[screen], service_workers="block")


def settled(page: Page) -> None:
    page.wait_for_selector(".lm-depths[data-ready]", state="attached")
    page.wait_for_timeout(400)  # the theme's table of contents follows the viewport after a frame or two


# --- item 5: arriving at #depth-d4 ---------------------------------------------------------------


@pytest.mark.parametrize("screen", SCREENS)
def test_a_depth_link_shows_its_tabs_under_the_header_and_the_contents_on_that_depth(browser: Browser, built_site: BuiltSite,
                                                                                     screen: str) -> None:
    context = context_for(browser, screen)
    page = context.new_page()
    page.goto(built_site.url + GPU + "#depth-d4")
    settled(page)
    header = page.locator(".md-header").bounding_box()
    tabs = page.get_by_role("tablist", name="Depth level").bounding_box()
    assert header["y"] + header["height"] <= tabs["y"] < header["y"] + header["height"] + 40, (header, tabs)
    expect(page.get_by_role("tab", name=re.compile("^D4"))).to_have_attribute("aria-selected", "true")
    outline = page.locator("#depth-d4").evaluate("s => getComputedStyle(s).outlineStyle")
    assert outline == "none"  # the panel is where the reader is, not a thing to outline
    active = page.locator("[data-md-component=toc] .md-nav__link--active")
    assert active.evaluate_all("links => links.map(a => a.hash)") in (["#depth-d4-title"], ["#depth-d4-title"] * 2)
    page.mouse.wheel(0, 300)  # reading on inside D4: the contents and the address stay on D4
    page.wait_for_timeout(900)
    assert set(active.evaluate_all("links => links.map(a => a.hash)")) <= {"#depth-d4-title", "#d4-things-to-try"}
    hash_now = page.evaluate("() => location.hash")
    assert hash_now in ("", "#depth-d4", "#depth-d4-title"), hash_now
    context.close()
