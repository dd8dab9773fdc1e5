"""Drawn text a reader can read (issue 34, item 7): every label of the drawn map and of the
calculators' figures is at least 11 CSS pixels on screen, at 320, 390 and 1280 px.

The size on screen is the text's computed font size (in the drawing's own units) times the
drawing's scale (its width on screen over its viewBox width), as the browser lays it out."""

from __future__ import annotations

import importlib

import pytest
from playwright.sync_api import Browser

from tests.conftest import BuiltSite, hold_calculator_worker, real_map

pytestmark = pytest.mark.browser
SMALLEST_PX = 11
WIDTHS = (320, 390, 1280)
MAPS = ("", "layer-3/", "layer-3/gpu-clusters/")  # the whole map, a layer's, a topic's neighbourhood


def one_page_per_calculator_with_figures() -> list[str]:
    """The first page (by layer and topic) of each calculator that draws figures: every kind of figure."""
    kmap = real_map()
    pages: dict[str, str] = {}
    for topic in sorted(kmap.topics.values(), key=lambda t: (t.layer, t.id)):
        for key, depth in topic.depths.present():
            if depth.calculator and getattr(importlib.import_module(f"calculators.{depth.calculator.name}"), "FIGURES", None):
                pages.setdefault(depth.calculator.name, f"layer-{topic.layer}/{topic.id}/#depth-{key.lower()}")
    return sorted(pages.values())


FIGURES = one_page_per_calculator_with_figures()
SIZES = """(selector) => [...document.querySelectorAll(selector)].flatMap(svg => {
    const box = svg.getBoundingClientRect();
    if (!box.width) return [];  // not shown (another depth)
    const scale = box.width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll("text")].filter(t => t.getClientRects().length && t.textContent.trim())
        .map(t => [t.textContent.trim().slice(0, 30), Math.round(parseFloat(getComputedStyle(t).fontSize) * scale * 100) / 100]);
})"""


def smallest_labels(browser: Browser, site: BuiltSite, width: int, paths: tuple[str, ...] | list[str],
                    ready: str, drawings: str) -> tuple[dict[str, list], list[str]]:
    """The smallest label on each page, as [text, px on screen], and the pages wider than the screen."""
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=phone, has_touch=phone,
                                  service_workers="block")
    hold_calculator_worker(context)  # the figures as the build drew them; calcview draws the live ones alike
    page = context.new_page()
    found, wide = {}, []
    for path in paths:
        page.goto(site.url + path)
        page.wait_for_selector(ready, state="attached")
        sizes = page.evaluate(SIZES, drawings)
        assert sizes, path  # something is drawn there
        found[path] = min(sizes, key=lambda entry: entry[1])
        if page.evaluate("() => document.documentElement.scrollWidth") > width:
            wide.append(path)
    context.close()
    return found, wide


@pytest.mark.parametrize("width", WIDTHS)
def test_every_label_of_the_drawn_map_is_at_least_11_px(browser: Browser, built_site: BuiltSite, width: int) -> None:
    found, wide = smallest_labels(browser, built_site, width, MAPS, ".lm-map[data-ready]", "svg.lm-map-svg")
    assert all(size >= SMALLEST_PX for _, size in found.values()), found
    assert wide == []  # the drawing scrolls in its frame; the page does not


@pytest.mark.parametrize("width", WIDTHS)
def test_every_label_of_the_calculators_figures_is_at_least_11_px(browser: Browser, built_site: BuiltSite, width: int) -> None:
    found, wide = smallest_labels(browser, built_site, width, FIGURES, ".lm-depths[data-ready]", "svg.lm-fig")
    assert all(size >= SMALLEST_PX for _, size in found.values()), found
    assert wide == []  # a figure scrolls in its own box; the page does not
