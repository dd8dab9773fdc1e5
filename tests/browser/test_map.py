"""The drawn map as a reader uses it: click, keyboard, highlight, zoom, phone, dark mode, no JavaScript."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from generator.emit.docs_tree import ASSET_DIR
from generator.model.graph import build_map
from generator.pipeline import load_content
from generator.render.map.layout import layout
from generator.render.map.select import whole_map
from generator.render.map.styles import MAP_STYLES_FILE, kind_styles
from generator.render.map.svg import render_svg
from tests.browser.test_accessibility import blocking_violations
from tests.conftest import BuiltSite
from tests.generator.crowded_map import crowded_project

pytestmark = pytest.mark.browser


def index(site: BuiltSite) -> dict:
    return json.loads((site.site / "assets/layermap/map-index.json").read_text(encoding="utf-8"))


def at(url: str) -> re.Pattern:
    """The page at ``url``: Material's section tracking may add the anchor of a heading in view."""
    return re.compile(re.escape(url) + "(#.*)?$")


def home_map(page: Page, site: BuiltSite):  # noqa: ANN201
    page.goto(site.url)
    svg = page.locator("svg.lm-map-svg")
    expect(svg).to_be_visible()
    return svg


def test_clicking_a_node_lands_on_its_topic(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    topic = next(t for t in index(built_site)["topics"] if t["id"] == "power-cooling")
    svg.locator('a.lm-node[data-id="power-cooling"]').click()
    expect(page).to_have_url(at(built_site.url + topic["url"]))
    expect(page.get_by_role("heading", level=1)).to_contain_text(topic["title"])


def test_tabbing_walks_the_nodes_layer_by_layer(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    nodes = svg.locator("a.lm-node")
    ids = nodes.evaluate_all("els => els.map(e => e.dataset.id)")
    topics = {t["id"]: t for t in index(built_site)["topics"]}
    assert sorted(ids) == sorted(topics)
    layers = [topics[i]["layer"] for i in ids]
    assert layers == sorted(layers)  # first layer first, as in the navigation and the text list
    nodes.first.focus()
    walked = [page.evaluate("document.activeElement.dataset.id")]
    for _ in ids[1:]:
        page.keyboard.press("Tab")
        walked.append(page.evaluate("document.activeElement.dataset.id"))
    assert walked == ids


def _boxes(svg) -> list[dict]:  # noqa: ANN001
    return svg.locator("a.lm-node").evaluate_all(
        """els => els.map(e => { const r = e.querySelector("rect");
             return { id: e.dataset.id, band: Number(e.dataset.band),
                      x: Number(r.getAttribute("x")) + Number(r.getAttribute("width")) / 2,
                      y: Number(r.getAttribute("y")) }; })""")


def test_arrow_keys_walk_a_band_left_to_right_and_stop_at_its_end(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    boxes = _boxes(svg)
    widest = max({b["band"] for b in boxes}, key=lambda band: sum(b["band"] == band for b in boxes))
    row = sorted((b for b in boxes if b["band"] == widest), key=lambda b: b["x"])
    assert len(row) > 2
    svg.locator(f'a.lm-node[data-id="{row[0]["id"]}"]').focus()
    walked = [page.evaluate("document.activeElement.dataset.id")]
    for _ in row:  # one press more than there are boxes: the last one stays put
        page.keyboard.press("ArrowRight")
        walked.append(page.evaluate("document.activeElement.dataset.id"))
    assert walked == [b["id"] for b in row] + [row[-1]["id"]]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.id") == row[-2]["id"]


def test_arrow_up_and_down_move_to_the_nearest_box_in_the_band_above_or_below(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    boxes = _boxes(svg)
    start = next(b for b in boxes if b["id"] == "power-cooling")
    above = min((b for b in boxes if b["band"] > start["band"]), key=lambda b: b["band"])["band"]
    nearest = min((b for b in boxes if b["band"] == above), key=lambda b: abs(b["x"] - start["x"]))
    assert nearest["y"] < start["y"]  # drawn above it
    svg.locator('a.lm-node[data-id="power-cooling"]').focus()
    scrolled = page.evaluate("window.scrollY")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.id") == nearest["id"]
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.id") == "power-cooling"
    page.keyboard.press("ArrowDown")  # nothing below the first layer: focus and page stay
    assert page.evaluate("document.activeElement.dataset.id") == "power-cooling"
    assert page.evaluate("window.scrollY") == scrolled
    assert "Arrow keys move between neighbouring boxes." in svg.locator("desc").text_content()


def test_focusing_a_node_highlights_its_edges_and_neighbours(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    data = index(built_site)
    svg.locator('a.lm-node[data-id="power-cooling"]').focus()
    expect(svg).to_have_class(re.compile(r"\blm-active\b"))
    lit = svg.locator("path.lm-edge.lm-on").evaluate_all("els => els.map(e => [e.dataset.s, e.dataset.o])")
    config = build_map(load_content(built_site.root / "content", built_site.root)).config
    listed_only = {kind.id for kind in config.edge_kinds if kind.prerequisite}
    assert listed_only  # the map has prerequisite edges; the drawing leaves them out
    expected = [[e["subject"], e["object"]] for e in data["edges"]
                if "power-cooling" in (e["subject"], e["object"]) and e["kind"] not in listed_only]
    assert sorted(lit) == sorted(expected) and lit  # prerequisites are listed, not drawn
    near = svg.locator("a.lm-node.lm-near").evaluate_all("els => els.map(e => e.dataset.id)")
    assert sorted(near) == sorted({s if o == "power-cooling" else o for s, o in expected})
    # the other edges fade (a 0.15 s transition: read the opacity once it has run)
    page.wait_for_function("""() => {
        const dimmed = document.querySelector("svg.lm-map-svg path.lm-edge:not(.lm-on)");
        return dimmed !== null && parseFloat(getComputedStyle(dimmed).opacity) < 0.5;
    }""", timeout=5_000)
    summary = next(t["summary"] for t in data["topics"] if t["id"] == "power-cooling")
    expect(page.locator(".lm-map-info")).to_contain_text(summary)
    page.locator("a.lm-node[data-id='power-cooling']").blur()
    expect(svg).not_to_have_class(re.compile(r"\blm-active\b"))


def test_hovering_a_node_highlights_its_edges(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    svg.locator('a.lm-node[data-id="gpu-clusters"]').hover()
    lit = svg.locator("path.lm-edge.lm-on")
    expect(lit).not_to_have_count(0)
    assert all("gpu-clusters" in pair for pair in lit.evaluate_all("els => els.map(e => [e.dataset.s, e.dataset.o])"))


def test_zoom_buttons_change_the_drawing_size(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    before = svg.bounding_box()["width"]
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    after = svg.bounding_box()["width"]
    assert after > before * 1.3
    frame = page.locator(".lm-map-frame")
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth")  # now it pans
    page.get_by_role("button", name="Fit the map to the frame").click()
    assert svg.bounding_box()["width"] <= frame.bounding_box()["width"] + 1


def test_the_frame_is_in_the_tab_order_exactly_while_it_scrolls(page: Page, built_site: BuiltSite) -> None:
    page.set_viewport_size({"width": 1280, "height": 1600})  # tall enough for the whole map (max-height 85vh)
    home_map(page, built_site)
    frame = page.locator(".lm-map-frame").first
    page.get_by_role("button", name="Fit the map to the frame").click()
    assert frame.evaluate("f => f.scrollWidth <= f.clientWidth + 1 && f.scrollHeight <= f.clientHeight + 1")
    expect(frame).not_to_have_attribute("tabindex", "0")
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    expect(frame).to_have_attribute("tabindex", "0")  # it pans now: the keyboard can reach it
    expect(frame).to_have_accessible_name(re.compile("arrow keys scroll it"))
    frame.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.lm-map-frame').scrollLeft > 0")


def test_a_click_on_a_box_goes_through_instant_navigation_and_keeps_the_page_alive(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    page.evaluate("() => { window.__stillHere = true; }")
    svg.locator('a.lm-node[data-id="gpu-clusters"]').click()
    expect(page).to_have_url(at(built_site.url + "layer-3/gpu-clusters/"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("GPU clusters")
    assert page.evaluate("() => window.__stillHere === true")  # same document: scripts and the calculator live on
    page.locator("svg.lm-map-svg").locator('a.lm-node[data-id="power-cooling"]').click()  # and again from there
    expect(page).to_have_url(at(built_site.url + "layer-1/power-cooling/"))
    assert page.evaluate("() => window.__stillHere === true")
    page.go_back()
    expect(page).to_have_url(at(built_site.url + "layer-3/gpu-clusters/"))


def test_enter_on_a_focused_box_goes_through_instant_navigation(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    page.evaluate("() => { window.__stillHere = true; }")
    svg.locator('a.lm-node[data-id="gpu-clouds"]').focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(at(built_site.url + "layer-3/gpu-clouds/"))
    assert page.evaluate("() => window.__stillHere === true")


@pytest.mark.parametrize("modifier", ["Control", "Shift"])
def test_a_click_with_a_modifier_key_is_left_to_the_browser(page: Page, built_site: BuiltSite, modifier: str) -> None:
    svg = home_map(page, built_site)
    page.evaluate("() => { window.__stillHere = true; }")
    with page.context.expect_page() as opened:
        svg.locator('a.lm-node[data-id="gpu-clusters"]').click(modifiers=[modifier])
    expect(opened.value).to_have_url(at(built_site.url + "layer-3/gpu-clusters/"))
    assert at(built_site.url).match(page.url) and page.evaluate("() => window.__stillHere === true")
    opened.value.close()


def test_a_middle_click_on_a_box_opens_a_tab_and_leaves_the_page(page: Page, built_site: BuiltSite) -> None:
    svg = home_map(page, built_site)
    with page.context.expect_page() as opened:
        svg.locator('a.lm-node[data-id="gpu-clouds"]').click(button="middle")
    expect(opened.value).to_have_url(at(built_site.url + "layer-3/gpu-clouds/"))
    assert at(built_site.url).match(page.url)
    opened.value.close()


def test_every_zoom_button_is_named_by_what_it_shows(page: Page, built_site: BuiltSite) -> None:
    home_map(page, built_site)
    buttons = page.locator(".lm-map-tools button")
    names = buttons.evaluate_all("els => els.map(b => [b.textContent, b.getAttribute('aria-label')])")
    assert ["1:1", "1:1, actual size"] in names
    for text, name in names:  # WCAG 2.5.3: a name that holds its visible words (symbols aside)
        if text.isalnum() or ":" in text:
            assert text.casefold() in name.casefold()


def test_topic_page_draws_its_local_map_and_links_to_neighbours(page: Page, built_site: BuiltSite) -> None:
    page.goto(built_site.url + "layer-3/gpu-clusters/")
    svg = page.locator("svg.lm-map-svg")
    expect(svg.locator("a.lm-node.lm-current")).to_have_attribute("aria-current", "page")
    svg.locator('a.lm-node[data-id="power-cooling"]').click()
    expect(page).to_have_url(at(built_site.url + "layer-1/power-cooling/"))


@pytest.mark.parametrize("width", [320, 390])
def test_on_a_phone_the_map_keeps_its_size_in_a_frame_and_the_same_map_as_text_is_shown(browser: Browser, built_site: BuiltSite,
                                                                                       width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(built_site.url)
    svg = page.locator("svg.lm-map-svg")
    expect(svg).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert svg.bounding_box()["width"] >= float(svg.get_attribute("width")) - 1  # 1:1, its text readable (test_label_sizes.py)
    frame = page.locator(".lm-map-frame")
    assert frame.bounding_box()["x"] >= 0 and frame.bounding_box()["x"] + frame.bounding_box()["width"] <= width
    expect(frame).to_have_attribute("tabindex", "0")  # it scrolls, so a keyboard reaches it
    hint = page.locator(".lm-map-hint")
    expect(hint).to_be_visible()
    listed = page.locator(".lm-map-text")
    expect(listed).to_have_js_property("open", True)  # shown, and its disclosure says so
    topic = listed.get_by_role("link", name="GPU clusters & orchestration", exact=True).first
    expect(topic).to_be_visible()
    assert float(topic.evaluate("a => parseFloat(getComputedStyle(a).fontSize)")) >= 11
    assert blocking_violations(page) == []  # the shown text included
    hint.get_by_role("link").click()  # the hint leads to it, below the header, and moves the focus there
    expect(listed.locator("summary")).to_be_focused()
    header = page.locator(".md-header").bounding_box()
    assert header["y"] + header["height"] <= listed.bounding_box()["y"] < 200
    listed.locator("summary").click()  # and the reader can put it away
    expect(topic).to_be_hidden()
    context.close()


def test_on_a_phone_the_text_is_shown_before_any_script_runs(browser: Browser, built_site: BuiltSite) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 740}, is_mobile=True, java_script_enabled=False)
    page = context.new_page()
    page.goto(built_site.url)
    expect(page.locator(".lm-map-text").get_by_role("link", name="GPU clusters & orchestration", exact=True).first).to_be_visible()
    assert page.locator(".lm-map-frame").bounding_box()["width"] <= 390
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    context.close()


def test_on_a_desktop_the_map_keeps_its_size_and_the_text_waits_behind_its_disclosure(page: Page, built_site: BuiltSite) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    svg = home_map(page, built_site)
    assert svg.bounding_box()["width"] >= float(svg.get_attribute("width")) - 1
    expect(page.locator(".lm-map-hint")).to_be_hidden()
    expect(page.locator(".lm-map-text")).to_have_js_property("open", False)
    expect(page.locator(".lm-map-text li").first).to_be_hidden()


TEXT_OVER_TEXT = """svg => {
    const boxes = [...svg.querySelectorAll("text")].map(t => [t.textContent, t.getBoundingClientRect()]);
    const found = [];
    boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
        if (r.left < q.right - 0.5 && q.left < r.right - 0.5 && r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5)
            found.push(`${a} / ${b}`);
    }));
    return found;
}"""


def test_no_drawn_text_covers_other_text_as_the_browser_draws_it(page: Page, built_site: BuiltSite) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    for path in ("", "layer-3/", "layer-3/gpu-clusters/"):
        page.goto(built_site.url + path)
        assert page.locator("svg.lm-map-svg").evaluate(TEXT_OVER_TEXT) == [], path


def test_a_twenty_topic_map_draws_no_text_over_other_text(page: Page, tmp_path) -> None:  # noqa: ANN001
    """The map at the size it is growing to, drawn with the site's map styles and the browser's fonts."""
    kmap = crowded_project(tmp_path).kmap()
    graph = whole_map(kmap)
    svg = render_svg(graph, layout(graph), list(kmap.config.edge_kinds), map_id="m", title="Map",
                     description="Twenty topics")
    styles = (ASSET_DIR / "map.css").read_text(encoding="utf-8") + kind_styles(kmap.config.edge_kinds)
    page.set_content(f"<!doctype html><style>body{{font-family:sans-serif}}{styles}</style>"
                     f'<figure class="lm-map">{svg}</figure>')
    drawn = page.locator("svg.lm-map-svg")
    assert drawn.locator("a.lm-node").count() == 20
    assert drawn.evaluate(TEXT_OVER_TEXT) == []


def test_dark_mode_uses_the_dark_colours_of_each_kind(browser: Browser, built_site: BuiltSite) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(built_site.url)
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    edge = page.locator("path.lm-edge.lm-k-powers").first
    css = (built_site.site / MAP_STYLES_FILE).read_text(encoding="utf-8")  # the site-wide map stylesheet
    dark = re.search(r"slate\] \.lm-map \.lm-k-powers\{--lm-k:(#\w+)\}", css).group(1)
    stroke = edge.evaluate("e => getComputedStyle(e).stroke")
    r, g, b = (int(dark[i:i + 2], 16) for i in (1, 3, 5))
    assert stroke == f"rgb({r}, {g}, {b})"
    label = page.locator("text.lm-edge-label").first.evaluate("e => getComputedStyle(e).fill")
    assert label != "rgb(0, 0, 0)"  # follows the palette's foreground, not black
    context.close()


def test_without_javascript_the_map_is_drawn_and_its_links_work(browser: Browser, built_site: BuiltSite) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(built_site.url)
    expect(page.locator(".lm-map-tools")).to_have_count(0)
    expect(page.locator("text.lm-edge-label").first).to_be_visible()
    page.locator('a.lm-node[data-id="gpu-clusters"]').click()
    expect(page).to_have_url(at(built_site.url + "layer-3/gpu-clusters/"))
    context.close()


def test_map_works_after_instant_navigation(page: Page, built_site: BuiltSite) -> None:
    page.goto(built_site.url)
    page.evaluate("window.__sameDocument = true")
    page.locator("article").get_by_role("link", name="GPU clusters & orchestration", exact=True).first.click()
    expect(page).to_have_url(re.compile(re.escape(built_site.url + "layer-3/gpu-clusters/")))
    assert page.evaluate("window.__sameDocument === true")  # Material swapped the page in place
    svg = page.locator("svg.lm-map-svg")
    svg.locator('a.lm-node[data-id="power-cooling"]').focus()
    expect(svg).to_have_class(re.compile(r"\blm-active\b"))
    expect(page.locator(".lm-map-tools")).to_have_count(1)


def test_a_skip_link_jumps_over_the_map(page: Page, built_site: BuiltSite) -> None:
    home_map(page, built_site)
    skip = page.get_by_role("link", name="Skip the map")
    skip.focus()
    expect(skip).to_be_visible()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.closest('svg') === null")
    assert focused  # the next Tab leaves the drawing behind
