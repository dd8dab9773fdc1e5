"""A steady page: nothing moves while it loads, on every page type, on a phone and a desktop.

Layout shift is read from the browser's own record (a PerformanceObserver over the buffered
``layout-shift`` entries, leaving out those right after the reader's input), as Lighthouse
and the Web Vitals do. On loopback every script arrives before the first paint, which would
hide a late switch of depth, so the depth switcher's script is held back (as on a slow phone
network) and the page paints first with only the HTML, the stylesheets and the head script.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route

from tests.conftest import BuiltSite, hold_calculator_worker

pytestmark = pytest.mark.browser
MAX_SHIFT = 0.02
SCRIPT_DELAY_S = 0.8
PAGES = {  # one of each page type
    "home": "",
    "layer": "layer-3/",
    "topic": "layer-1/power-cooling/",
    "calculator topic": "layer-3/gpu-clusters/",
    "sources": "sources/",
}
SCREENS = {
    "phone 390": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
    "desktop 1280": {"viewport": {"width": 1280, "height": 800}},
}
READERS = {  # (stored depth, address suffix)
    "first visit": (None, ""),
    "returning reader at D4": ("D4", ""),
    "returning reader at D3 (some topics lack it)": ("D3", ""),
    "#depth-d4 link": ("D2", "#depth-d4"),
}
LAYOUT_SHIFT = """() => new Promise(resolve => {
  const shifts = [];
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) shifts.push(entry.value);
    }
  }).observe({type: "layout-shift", buffered: true});
  setTimeout(() => resolve(shifts.reduce((a, b) => a + b, 0)), 100);
})"""


def hold_back_depth_script(route: Route) -> None:
    time.sleep(SCRIPT_DELAY_S)
    route.continue_()


def reader_context(browser: Browser, screen: str, stored: str | None) -> BrowserContext:
    context = browser.new_context(**SCREENS[screen], service_workers="block")
    if stored:
        context.add_init_script(f"localStorage.setItem('layermap.depth', '{stored}')")
    context.route("**/assets/layermap*/depth.js", hold_back_depth_script)  # the built site's is in a versioned folder
    hold_calculator_worker(context)  # what is measured is the page and the calculator's first state, "starting"
    return context


def settled_shift(page: Page, url: str) -> float:
    """The page's cumulative layout shift once it has loaded and the depth switcher has run."""
    page.goto(url)
    page.wait_for_load_state("load")
    if page.locator(".lm-depths").count():
        page.wait_for_selector(".lm-depths[data-ready]", state="attached")
    page.wait_for_timeout(300)
    return page.evaluate(LAYOUT_SHIFT)


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("reader", READERS)
def test_no_page_moves_while_it_loads(browser: Browser, built_site: BuiltSite, screen: str, reader: str) -> None:
    stored, suffix = READERS[reader]
    context = reader_context(browser, screen, stored)
    page = context.new_page()
    shifts = {kind: round(settled_shift(page, built_site.url + path + suffix), 4) for kind, path in PAGES.items()}
    context.close()
    assert all(shift <= MAX_SHIFT for shift in shifts.values()), shifts


@pytest.mark.parametrize("screen", SCREENS)
def test_a_link_to_a_heading_inside_a_depth_opens_it_without_moving(browser: Browser, built_site: BuiltSite, screen: str) -> None:
    """#d4-things-to-try is D4's on this topic: the head script finds its depth while the page is parsed.
    (Not on the calculator topic: there the calculator's status line changes height when its
    script starts, which moves a heading just below it; see the report of issue 14.)"""
    context = reader_context(browser, screen, "D2")
    page = context.new_page()
    shift = settled_shift(page, built_site.url + PAGES["topic"] + "#d4-things-to-try")
    visible = page.locator(".lm-depth:visible").evaluate_all("els => els.map(e => e.dataset.depth)")
    in_view = page.evaluate("() => document.getElementById('d4-things-to-try').getBoundingClientRect().top")
    context.close()
    assert visible == ["D4"]
    assert 0 <= in_view < 200, in_view
    assert shift <= MAX_SHIFT, shift


def test_a_depth_link_lands_on_its_section_and_stays(browser: Browser, built_site: BuiltSite) -> None:
    context = reader_context(browser, "phone 390", "D1")
    page = context.new_page()
    page.goto(built_site.url + PAGES["calculator topic"] + "#depth-d4")
    first = page.evaluate("() => document.getElementById('depth-d4').getBoundingClientRect().top")
    page.wait_for_selector(".lm-depths[data-ready]", state="attached")
    page.wait_for_timeout(300)
    settled = page.evaluate("() => document.getElementById('depth-d4').getBoundingClientRect().top")
    visible = page.locator(".lm-depth:visible").evaluate_all("els => els.map(e => e.dataset.depth)")
    context.close()
    assert visible == ["D4"]
    assert 0 <= settled < 200, settled  # the section's top, just under the header
    assert abs(settled - first) <= 1, (first, settled)


def test_the_measurement_sees_a_late_shift(browser: Browser, built_site: BuiltSite) -> None:
    """The same measurement on a page that moves: a block pushed in above the content after load."""
    context = reader_context(browser, "phone 390", None)
    page = context.new_page()
    page.goto(built_site.url + PAGES["topic"])
    page.wait_for_selector(".lm-depths[data-ready]", state="attached")
    page.evaluate("""() => { const block = document.createElement('div');
        block.style.height = '300px'; document.querySelector('article').prepend(block); }""")
    page.wait_for_timeout(300)
    shift = page.evaluate(LAYOUT_SHIFT)
    context.close()
    assert shift > MAX_SHIFT


@pytest.mark.parametrize("screen", SCREENS)
def test_instant_navigation_keeps_the_page_steady_and_the_stored_depth(browser: Browser, built_site: BuiltSite, screen: str) -> None:
    """The head script runs on full loads only: after a #depth-d4 arrival, the theme's instant
    navigation to another topic opens the reader's stored depth, and nothing moves."""
    context = reader_context(browser, screen, None)
    page = context.new_page()
    page.goto(built_site.url + PAGES["calculator topic"])
    page.get_by_role("tab", name="D2").click()  # the reader's choice
    page.goto(built_site.url + PAGES["calculator topic"] + "#depth-d4")
    page.wait_for_selector(".lm-depths[data-ready]", state="attached")
    page.evaluate("() => { window.sameDocument = true }")
    page.locator(".lm-connections a[href*='power-cooling']").first.click()
    page.wait_for_url("**/layer-1/power-cooling/")
    page.wait_for_selector(".lm-depths[data-ready]", state="attached")
    page.wait_for_timeout(300)
    instant = page.evaluate("() => window.sameDocument === true")
    visible = page.locator(".lm-depth:visible").evaluate_all("els => els.map(e => e.dataset.depth)")
    shift = page.evaluate(LAYOUT_SHIFT)
    context.close()
    assert instant  # the theme swapped the page in, no full load
    assert visible == ["D2"]
    assert shift <= MAX_SHIFT, shift
