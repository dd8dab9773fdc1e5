"""The depth switcher as a reader uses it: mouse, keyboard, reload, navigation, no JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from generator.content.yaml_source import text_fields
from generator.model.graph import build_map
from generator.pipeline import load_content
from tests.conftest import BuiltSite, hold_calculator_worker, real_map

pytestmark = pytest.mark.browser
KMAP = real_map()
GPU = "layer-3/gpu-clusters/"


@pytest.fixture
def context(context: BrowserContext, request: pytest.FixtureRequest) -> BrowserContext:
    """The tabs are the subject here, not the calculators on the page: their worker is held back
    (a calculator page boots Python on idle, seconds of processor time each test would throw away),
    but for tests marked ``live_calculator``."""
    if request.node.get_closest_marker("live_calculator") is None:
        hold_calculator_worker(context)
    return context


def open_topic(page: Page, site: BuiltSite, path: str = GPU) -> None:
    page.goto(site.url + path)
    expect(page.get_by_role("tablist", name="Depth level")).to_be_visible()


def visible_depths(page: Page) -> list[str]:
    return page.locator(".lm-depth:visible").evaluate_all("els => els.map(e => e.dataset.depth)")


def test_first_visit_shows_d1_as_selected_tab(page: Page, built_site: BuiltSite) -> None:
    open_topic(page, built_site)
    tab = page.get_by_role("tab", name=re.compile("D1"))
    expect(tab).to_have_attribute("aria-selected", "true")
    assert visible_depths(page) == ["D1"]
    panel = page.get_by_role("tabpanel")
    expect(panel).to_have_count(1)
    expect(panel).to_have_attribute("aria-labelledby", tab.get_attribute("id"))


def test_choice_survives_reload_and_follows_the_reader_to_other_topics(page: Page, built_site: BuiltSite) -> None:
    open_topic(page, built_site)
    page.get_by_role("tab", name=re.compile("D4")).click()
    assert visible_depths(page) == ["D4"]
    page.reload()
    expect(page.get_by_role("tab", name=re.compile("D4"))).to_have_attribute("aria-selected", "true")
    connections = page.locator(".lm-connections")
    connections.get_by_role("link", name="Power & cooling for AI data centres").click()
    expect(page).to_have_url(re.compile("layer-1/power-cooling/"))
    expect(page.get_by_role("tab", name=re.compile("D4"))).to_have_attribute("aria-selected", "true")
    assert visible_depths(page) == ["D4"]


def test_missing_depth_says_so_and_opens_the_nearest(page: Page, mini_site: BuiltSite) -> None:
    """The real map has every depth everywhere; the mini project's power topic has only D1 and D4."""
    lacking = build_map(load_content(mini_site.root / "content", mini_site.root)).topics["power"]
    assert lacking.depths.D3 is None
    page.goto(mini_site.url + "layer-1/power/")
    page.evaluate("localStorage.setItem('layermap.depth', 'D3')")  # a reader who chose D3 elsewhere
    page.reload()
    notice = page.locator(".lm-depth-notice:visible")
    expect(notice).to_contain_text("no D3")
    present = [k for k, _ in lacking.depths.present()]
    nearest = sorted(present, key=lambda k: (abs(int(k[1]) - 3), int(k[1])))[0]
    assert nearest == "D4" and visible_depths(page) == [nearest]


def test_tabs_work_by_keyboard_alone(page: Page, built_site: BuiltSite) -> None:
    open_topic(page, built_site)
    page.get_by_role("tab", name=re.compile("D1")).focus()
    page.keyboard.press("ArrowRight")
    second = page.get_by_role("tab", name=re.compile("D2"))
    expect(second).to_be_focused()
    expect(second).to_have_attribute("aria-selected", "true")
    page.keyboard.press("End")
    expect(page.get_by_role("tab", name=re.compile("D5"))).to_be_focused()
    assert visible_depths(page) == ["D5"]
    page.keyboard.press("Tab")  # from the tab list, Tab moves into the panel
    expect(page.locator("#depth-d5")).to_be_focused()


def test_without_javascript_every_depth_is_a_section_with_its_heading(browser: Browser, built_site: BuiltSite) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(built_site.url + GPU)
    assert visible_depths(page) == ["D1", "D2", "D3", "D4", "D5"]
    for key in ("D1", "D2", "D3", "D4", "D5"):
        expect(page.get_by_role("heading", level=2, name=re.compile(f"^{key} ·"))).to_be_visible()
    expect(page.get_by_role("tablist")).to_have_count(0)
    expect(page.locator(".lm-depth-index")).to_be_visible()  # links to each depth instead of tabs
    # the switcher's parts and Try it are in the page for scripts, never shown without them
    assert page.locator(".lm-depth-tabs, .lm-depth-notice, .lm-try").count() > 0
    expect(page.locator(".lm-depth-tabs:visible, .lm-depth-notice:visible, .lm-try:visible")).to_have_count(0)
    context.close()


@pytest.mark.live_calculator  # the calculator's start asks for the runtime: from this host too
def test_a_reading_session_requests_nothing_from_other_hosts(page: Page, built_site: BuiltSite) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    hosts: set[str] = set()
    page.on("request", lambda request: hosts.add(re.sub(r"^\w+://([^/:]+).*", r"\1", request.url)))
    page.goto(built_site.url)
    page.locator("article").get_by_role("link", name="Layer 3 · Cloud & Infrastructure", exact=True).first.click()
    expect(page).to_have_url(re.compile(r"layer-3/(#[\w-]*)?$"))
    page.locator("article").get_by_role("link", name="GPU clusters & orchestration", exact=True).first.click()
    expect(page).to_have_url(re.compile(r"layer-3/gpu-clusters/(#[\w-]*)?$"))
    page.get_by_role("tab", name=re.compile("D4")).click()
    page.wait_for_load_state("networkidle")
    assert hosts - {"127.0.0.1"} == set()
    assert errors == []  # e.g. instant navigation choking on a link it cannot rewrite


# --- search lands where the term is -----------------------------------------------------

D4_ONLY_TERM = "interleaved"  # in GPU clusters' D4 and nowhere else on the site


def test_the_search_term_is_only_in_one_depth() -> None:
    texts = {(topic.id, key): " ".join(text for _, text in text_fields(depth.model_dump(exclude_none=True))
                                        if isinstance(text, str)).lower()
             for topic in KMAP.topics.values() for key, depth in topic.depths.present()}
    assert [place for place, text in texts.items() if D4_ONLY_TERM in text] == [("gpu-clusters", "D4")]


def search_for(page: Page, term: str) -> None:
    page.locator("label.md-search__icon, .md-search__input").first.click()
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching", timeout=30_000)
    # The whole term at once, then one keyup (Material searches on keyup): typed letter by letter,
    # a hit for the term's first letters could be clicked before the whole term's results came.
    field = page.locator("input.md-search__input")
    field.fill(term)
    field.press("End")


@pytest.mark.parametrize("hit", ["the page's own entry", "the D4 section's entry"])
def test_a_search_hit_opens_the_depth_where_its_term_is(page: Page, built_site: BuiltSite, hit: str) -> None:
    open_topic(page, built_site, "layer-1/power-cooling/")
    page.get_by_role("tab", name=re.compile("D2")).click()  # the reader's stored depth
    search_for(page, D4_ONLY_TERM)
    suffix = "?h=" if hit == "the page's own entry" else f"?h={D4_ONLY_TERM}#depth-d4"
    result = page.locator(f'.md-search-result__link[href*="{GPU}{suffix}"]').first
    expect(result).to_be_visible(timeout=30_000)
    result.click()
    expect(page).to_have_url(re.compile(re.escape(GPU)))
    expect(page.get_by_role("tab", name=re.compile("D4"))).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tabpanel")).to_have_attribute("id", "depth-d4")
    expect(page.get_by_role("tabpanel").get_by_text(re.compile(D4_ONLY_TERM, re.I)).first).to_be_visible()
    assert visible_depths(page) == ["D4"]
    expect(page.get_by_role("tab", name=re.compile("D2"))).to_have_attribute("aria-selected", "false")


def test_a_search_link_opened_on_its_own_opens_the_depth_of_its_term(page: Page, built_site: BuiltSite) -> None:
    open_topic(page, built_site)
    page.get_by_role("tab", name=re.compile("D1")).click()
    page.goto(built_site.url + GPU + f"?h={D4_ONLY_TERM}")
    expect(page.get_by_role("tab", name=re.compile("D4"))).to_have_attribute("aria-selected", "true")
    assert visible_depths(page) == ["D4"]


def test_a_link_to_a_heading_inside_a_depth_opens_that_depth(page: Page, built_site: BuiltSite) -> None:
    open_topic(page, built_site)
    page.get_by_role("tab", name=re.compile("D1")).click()
    inner = page.locator("#depth-d4 h3[id]").first.get_attribute("id")
    page.goto(built_site.url + GPU + f"#{inner}")
    expect(page.get_by_role("tab", name=re.compile("D4"))).to_have_attribute("aria-selected", "true")
    assert visible_depths(page) == ["D4"]
    expect(page.locator(f"#{inner}")).to_be_in_viewport()
    page.reload()  # the choice of D1 is kept: the link only opened D4 for this visit
    page.goto(built_site.url + GPU)
    expect(page.get_by_role("tab", name=re.compile("D1"))).to_have_attribute("aria-selected", "true")
