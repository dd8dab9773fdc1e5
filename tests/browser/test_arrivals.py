"""Where a reader lands (issue 34, items 5, 6 and 8): a link to a depth puts its tabs under the
header and the table of contents on that depth; a click just after a scroll leaves the old page's
anchor and scroll position behind; a link that asks for what is not there says so where the
reader looks."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from generator.model.graph import build_map
from generator.pipeline import load_content
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


# --- item 6: a click within moments of a scroll --------------------------------------------------


def test_a_click_just_after_a_scroll_leaves_the_old_anchor_and_scroll_behind(browser: Browser, built_site: BuiltSite) -> None:
    """The theme saves the scroll offset 100 ms after a scroll, and navigation.tracking writes the
    heading in view into the address 250-500 ms after; both land on the next page's history entry
    when the reader clicks meanwhile (the next page is held back here, as on a slow network)."""
    context = context_for(browser, "desktop 1280")
    page = context.new_page()

    def slow(route: Route) -> None:
        time.sleep(0.7)
        route.continue_()

    page.route("**/layer-3/cluster-networking/", slow)
    page.goto(built_site.url + GPU)
    settled(page)
    page.evaluate("() => { window.sameDocument = true }")
    link = page.locator(".md-nav--primary").get_by_role("link", name="Cluster networking", exact=True)
    link.evaluate("a => { scrollTo(0, 1600); a.dataset.lmTest = 'next' }")
    page.wait_for_timeout(380)
    page.evaluate("() => { scrollTo(0, 2500); setTimeout(() => document.querySelector('[data-lm-test=next]').click(), 40) }")
    page.wait_for_url("**/layer-3/cluster-networking/**")
    page.wait_for_function("() => document.querySelector('h1')?.textContent.includes('networking')")
    page.wait_for_timeout(900)
    url, scrolled, instant = page.evaluate("() => [location.href, scrollY, window.sameDocument === true]")
    context.close()
    assert instant  # the theme's instant navigation, not a full load
    assert url == built_site.url + "layer-3/cluster-networking/"
    assert scrolled < 10, scrolled


# --- item 8: links that ask for what is not there ------------------------------------------------


def test_a_link_to_a_missing_depth_says_so_beside_the_tabs_and_opens_the_nearest(browser: Browser, mini_site: BuiltSite) -> None:
    """The real map has every depth everywhere; the mini project's power topic has only D1 and D4."""
    lacking = build_map(load_content(mini_site.root / "content", mini_site.root)).topics["power"]
    present = [key for key, _ in lacking.depths.present()]
    assert "D3" not in present
    nearest = sorted(present, key=lambda k: (abs(int(k[1]) - 3), int(k[1])))[0]
    context = context_for(browser, "phone 390")
    page = context.new_page()
    page.goto(mini_site.url + "layer-1/power/#depth-d3")
    settled(page)
    notice = page.locator(".lm-depth-notice:visible")
    expect(notice).to_have_count(1)
    expect(notice).to_contain_text("no D3")
    expect(notice).to_contain_text(f"shows {nearest}")
    expect(page.get_by_role("tab", name=re.compile(f"^{nearest}"))).to_have_attribute("aria-selected", "true")
    assert page.locator(".lm-depth:visible").evaluate_all("els => els.map(e => e.dataset.depth)") == [nearest]
    box = notice.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844  # in view, where the reader looks
    stored = page.evaluate("() => localStorage.getItem('layermap.depth')")
    context.close()
    assert stored is None  # a link shows a depth; the reader's own choice is not changed by it


def test_a_shared_link_with_a_rejected_value_says_so_in_the_results_bar(browser: Browser, built_site: BuiltSite) -> None:
    context = context_for(browser, "phone 390")
    page = context.new_page()
    page.goto(built_site.url + GPU + "?calc-parallelism-d4.tp=0#calc-parallelism-d4")
    calc = page.locator("#calc-parallelism-d4")
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready", timeout=90_000)
    expect(calc.locator('[data-error-for="tp"]')).not_to_be_empty()
    bar = calc.locator(".lm-calc__glance")
    expect(bar).to_be_in_viewport()
    expect(bar).to_contain_text("Results not updated: Tensor-parallel ways")  # the field the link got wrong, by its label
    expect(bar.locator(".lm-calc__glance-item:visible")).to_have_count(0)  # not the defaults' numbers as if they were the link's
    calc.locator('[data-field="tp"]').fill("8")  # corrected: the bar shows results again
    expect(bar.locator(".lm-calc__glance-item:visible").first).to_be_visible()
    expect(bar.locator(".lm-calc__glance-error")).to_be_hidden()
    context.close()
