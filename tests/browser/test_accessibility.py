"""axe-core (shipped inside axe-playwright-python) scans the pages a reader meets first."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.conftest import BuiltSite

pytestmark = pytest.mark.browser
AXE = Axe()
BLOCKING = {"serious", "critical"}


def blocking_violations(page: Page) -> list[str]:
    results = AXE.run(page, options={"resultTypes": ["violations"]})
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:3])
        for v in results.response["violations"]
        if v["impact"] in BLOCKING
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["", "layer-3/", "sources/"])
def test_home_layer_and_sources_pages(page: Page, built_site: BuiltSite, path: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.goto(built_site.url + path)
    assert blocking_violations(page) == []


@pytest.mark.parametrize("depth", ["D1", "D2", "D3", "D4", "D5"])
def test_topic_page_at_each_depth(page: Page, built_site: BuiltSite, depth: str) -> None:
    page.goto(built_site.url + "layer-3/gpu-clusters/")
    page.get_by_role("tab", name=re.compile(f"^{depth}")).click()
    assert blocking_violations(page) == []


def test_live_calculator_page(page: Page, built_site: BuiltSite) -> None:
    page.goto(built_site.url + "layer-3/gpu-clusters/")
    page.get_by_role("tab", name=re.compile("^D4")).click()
    calc = page.locator(".lm-calc").first
    calc.locator("input").first.focus()
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready", timeout=90_000)
    calc.locator('[data-field="tp"]').fill("0")  # an error message on show, too
    expect(calc.locator('[data-error-for="tp"]')).not_to_be_empty()
    assert blocking_violations(page) == []


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 700}, {"width": 1280, "height": 720}])
def test_the_sticky_results_bar_never_hides_the_focused_field(browser, built_site: BuiltSite, viewport) -> None:  # noqa: ANN001
    """WCAG 2.4.11: tabbing down through the calculator, each control ends up above the bar."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(built_site.url + "layer-3/gpu-clusters/#depth-d4")
    calc = page.locator("#calc-parallelism-d4")
    calc.locator("select").first.focus()
    hidden = []
    for _ in range(calc.locator("input, select, button, a[href]").count()):
        page.keyboard.press("Tab")
        box = page.evaluate("""() => {
            const el = document.activeElement, bar = el.closest('.lm-calc')?.querySelector('.lm-calc__glance');
            if (!bar) return null;
            const a = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
            return { id: el.id || el.className, bottom: a.bottom, barTop: b.top, barBottom: b.bottom, inForm: bar.parentElement.contains(el) };
        }""")
        if box is None:
            break
        if box["inForm"] and box["bottom"] > box["barTop"] + 1 and box["barBottom"] <= viewport["height"] + 1:
            hidden.append(box["id"])
    context.close()
    assert hidden == []
