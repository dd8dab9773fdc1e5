"""On a phone nothing scrolls sideways: every page, every depth, at 320, 360 and 390 px.

Each page is checked at all three widths: it loads at one of them (the widths take turns, so each
width has a third of the pages loaded at it, as a phone opens them) and is then turned to the
other two, as a reader turns a phone or a browser changes its width; every depth tab is looked at
in each. One page load serves three widths (a load costs the test about half a second of
processor time; the resize and the check, milliseconds).

A calculator is seen as a reader sees it first, its live runtime starting: the calculator
worker's script is held back, so no page of the walk spends seconds of processor time booting
Python that the next page throws away (it boots on idle, and the walk stays on a page about a
second; the old walk met the live state only by chance)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.conftest import BuiltSite, hold_calculator_worker, walked_pages

pytestmark = pytest.mark.browser
WIDTHS = (320, 360, 390)


def site_pages(site: BuiltSite) -> list[str]:
    return sorted(str(p.parent.relative_to(site.site)).replace(".", "") + "/" if p.parent != site.site else ""
                  for p in walked_pages(site.site) if p.name == "index.html")


def overflow(page: Page, width: int) -> list[str]:
    """The elements reaching past the screen's right edge, if the page is wider than the screen.
    With a phone's viewport Chromium widens the layout to fit wide content, so the page's
    scroll width is compared with the width asked for, not with innerWidth."""
    if page.evaluate("() => document.documentElement.scrollWidth") <= width:
        return []
    return page.evaluate(f"""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > {width} + 1)
        .map(e => e.tagName.toLowerCase() + '.' + (e.getAttribute('class') || '').split(' ')[0]).slice(-5)""")


def widths_from(first: int) -> list[int]:
    """The three widths, starting with the one at index ``first`` (the width the page loads at)."""
    return [*WIDTHS[first:], *WIDTHS[:first]]


def test_no_page_and_no_depth_is_wider_than_the_phone(browser: Browser, built_site: BuiltSite) -> None:
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 780}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    hold_calculator_worker(context)
    page = context.new_page()
    wide, seen = [], set()
    pages = site_pages(built_site)
    assert len(pages) > 10 and "layer-3/gpu-clusters/" in pages
    for number, path in enumerate(pages):
        widths = widths_from(number % len(WIDTHS))
        loaded_at = widths[0]
        page.set_viewport_size({"width": loaded_at, "height": 780})
        page.goto(built_site.url + path)
        page.wait_for_load_state("load")
        tabs = page.get_by_role("tab")
        for index in range(tabs.count()) or [None]:
            if index is not None:
                tabs.nth(index).click()
            for width in widths:
                page.set_viewport_size({"width": width, "height": 780})
                seen.add((path, index, width))
                if found := overflow(page, width):
                    wide.append(f"{path} at {width} px (loaded at {loaded_at}), tab {index}: {found}")
            widths.reverse()  # the next tab starts at the width this one ended at
    context.close()
    assert len(seen) == len({(path, index) for path, index, _ in seen}) * len(WIDTHS)  # every page and tab at every width
    assert wide == []
