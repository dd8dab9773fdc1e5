"""axe-core (shipped inside axe-playwright-python) scans the pages a reader meets first."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.conftest import BuiltSite, hold_calculator_worker

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


# One page of each type, as a reader opens it: the topic at the depth with a table of citations,
# the calculator topic at the depth with its formulas (a code block that scrolls sideways on a
# phone) and its calculator, the learning plans, and the page a missing address gets (GitHub Pages
# answers it with 404.html, at the missing address).
PAGE_TYPES = {
    "home": "",
    "layer": "layer-3/",
    "topic": "layer-5/mixture-of-experts/#depth-d5",
    "calculator page": "layer-3/gpu-clusters/#depth-d4",
    "plans index": "plans/",
    "plan": "plans/chat-assistants-d4/",
    "sources": "sources/",
    "404": "layer-3/no-such-topic/",
}
# A phone is a touch screen without hover (the theme makes scrolling code focusable only with hover).
SCREENS = {
    "phone 390": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop 1280": {"viewport": {"width": 1280, "height": 800}},
}


# The theme's schemes (body[data-md-color-scheme]); the reader's system preference picks one on a
# first visit, the header's toggle switches to the other (and the theme keeps the choice).
SCHEMES = {"default": "light", "slate": "dark"}
# Every box that scrolls sideways has its role and name once theme-fixes.js knows its size.
SCROLLERS_KNOWN = """() => [...document.querySelectorAll(
        ".md-typeset pre > code, .md-typeset .md-typeset__scrollwrap, .lm-calc__figure-art")].every((box) => {
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    return box.dataset.lmScrolls === String(scrolls)
        && (!scrolls || (box.getAttribute("tabindex") === "0" && box.getAttribute("role") === "region"));
})"""
NOTHING_MOVING = "() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running')"


def scheme_on_show(page: Page) -> str:
    return SCHEMES[page.evaluate("document.body.dataset.mdColorScheme")]


def switch_scheme(page: Page) -> str:
    """The other colour scheme, by the header's toggle as a reader switches; returns its name."""
    other = "dark" if scheme_on_show(page) == "light" else "light"
    page.locator(f'form[data-md-component=palette] label[title="Switch to {other} mode"]').click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", next(k for k, v in SCHEMES.items() if v == other))
    page.wait_for_function(NOTHING_MOVING)  # colours half-way through a transition would be scanned
    return other


@pytest.mark.parametrize(("screen", "system_scheme"), [("phone 390", "dark"), ("desktop 1280", "light")])
def test_every_page_type_in_both_colour_schemes(browser, built_site: BuiltSite, screen: str, system_scheme: str) -> None:  # noqa: ANN001
    """One context per screen, reused for every page; each page scanned in the scheme it opens in,
    then in the other one after the header's toggle (so the next page opens in that one)."""
    context = browser.new_context(**SCREENS[screen], service_workers="block", color_scheme=system_scheme)
    not_found = (built_site.site / "404.html").read_bytes()
    context.route("**/no-such-topic/", lambda route: route.fulfill(status=404, body=not_found, content_type="text/html"))
    hold_calculator_worker(context)  # the calculator as a page opens with it; test_live_calculator_page scans it running
    page = context.new_page()
    found = {}
    for kind, path in PAGE_TYPES.items():
        page.goto(built_site.url + path)
        if page.locator(".lm-depths").count():
            page.wait_for_selector(".lm-depths[data-ready]", state="attached")
        page.wait_for_function(SCROLLERS_KNOWN)
        if not found:
            assert scheme_on_show(page) == system_scheme  # a first visit follows the system
        found[f"{kind} ({scheme_on_show(page)})"] = blocking_violations(page)
        found[f"{kind} ({switch_scheme(page)})"] = blocking_violations(page)
    context.close()
    assert len(found) == 2 * len(PAGE_TYPES)  # every page type in both schemes
    assert {kind: problems for kind, problems in found.items() if problems} == {}


def test_the_exercise_players_stop_button_reads_when_it_has_the_focus(page: Page, built_site: BuiltSite) -> None:
    page.goto(built_site.url + "layer-3/gpu-clusters/#depth-d4")
    page.locator(".lm-try").first.click()
    stop = page.get_by_role("button", name="Stop")
    expect(stop).to_be_focused()
    results = AXE.run(page, context={"include": [[".lm-player"]]}, options={"resultTypes": ["violations"]})
    stop.click()
    assert [v["id"] for v in results.response["violations"]] == []


@pytest.fixture(scope="module")
def topic_page(browser, built_site: BuiltSite) -> Iterator[Page]:  # noqa: ANN001
    """The calculator topic, opened once for the scans of its depths (a tab each), its calculators
    as the page opens with them (test_live_calculator_page scans one running)."""
    context = browser.new_context()
    hold_calculator_worker(context)
    page = context.new_page()
    page.goto(built_site.url + "layer-3/gpu-clusters/")
    yield page
    context.close()


@pytest.mark.parametrize("depth", ["D1", "D2", "D3", "D4", "D5"])
def test_topic_page_at_each_depth(topic_page: Page, depth: str) -> None:
    tab = topic_page.get_by_role("tab", name=re.compile(f"^{depth}"))
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true")
    assert blocking_violations(topic_page) == []


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
    hold_calculator_worker(context)  # the bar and the fields are on the page before Python starts
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
