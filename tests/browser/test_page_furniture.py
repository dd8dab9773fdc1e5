"""The edges of a page (issue 34, item 10): previous and next at a topic's foot, a 404 page that
leads back into the map, and a calculator page that prints as text and results, not as a form."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import BuiltSite, real_map

pytestmark = pytest.mark.browser
GPU = "layer-3/gpu-clusters/"
KMAP = real_map()


def test_a_topic_ends_with_links_to_the_previous_and_the_next_page(page: Page, built_site: BuiltSite) -> None:
    layer = sorted(KMAP.topics_by_layer[3], key=lambda topic: topic.title)  # the navigation's order: by title
    here = next(index for index, topic in enumerate(layer) if topic.id == "gpu-clusters")
    assert 0 < here < len(layer) - 1
    page.goto(built_site.url + GPU)
    foot = page.get_by_role("navigation", name="Footer")
    previous = foot.get_by_role("link", name=re.compile("^Previous"))
    following = foot.get_by_role("link", name=re.compile("^Next"))
    expect(previous).to_contain_text(layer[here - 1].title)
    expect(following).to_contain_text(layer[here + 1].title)
    following.click()
    expect(page).to_have_url(built_site.url + f"layer-3/{layer[here + 1].id}/")


@pytest.mark.parametrize("width", [390, 1280])
def test_a_missing_address_gets_a_page_that_leads_back_into_the_map(browser: Browser, built_site: BuiltSite, width: int) -> None:
    """GitHub Pages answers a missing address with 404.html, at that address: its links must work from any depth."""
    context = browser.new_context(viewport={"width": width, "height": 800}, service_workers="block")
    not_found = (built_site.site / "404.html").read_bytes()
    context.route("**/layer-3/no-such-topic/deeper/", lambda route: route.fulfill(status=404, body=not_found, content_type="text/html"))
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(built_site.url + "layer-3/no-such-topic/deeper/")
    article = page.locator("article")
    expect(article.get_by_role("heading", level=1)).to_contain_text("not found", ignore_case=True)
    expect(article.get_by_role("link", name=re.compile("map", re.IGNORECASE)).first).to_be_visible()
    for number in range(1, 7):
        expect(article.get_by_role("link", name=re.compile(f"^Layer {number}\\b"))).to_have_count(1)
    expect(article.get_by_role("link", name="Sources")).to_have_count(1)
    search = article.get_by_role("searchbox", name=re.compile("Search"))
    search.fill("pipeline bubble")
    search.press("Enter")  # a search from here opens the theme's search on the home page with the words
    expect(page.locator("[data-md-component=search-query]")).to_have_value("pipeline bubble")
    expect(page.locator(".md-search-result__item").first).to_be_visible(timeout=10_000)
    page.go_back()
    article.get_by_role("link", name=re.compile("^Layer 3\\b")).click()
    expect(page).to_have_url(built_site.url + "layer-3/")
    context.close()
    assert [e for e in errors if "404" not in e] == []


def test_a_calculator_page_prints_its_text_and_results_not_its_form(browser: Browser, built_site: BuiltSite, tmp_path: Path) -> None:
    from pypdf import PdfReader

    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    page = context.new_page()
    page.goto(built_site.url + GPU + "#depth-d4")
    page.wait_for_selector(".lm-depths[data-ready]", state="attached")
    pdf = tmp_path / "topic.pdf"
    page.pdf(path=str(pdf), format="A4")
    page.set_viewport_size({"width": 794, "height": 1123})  # an A4 page at 96 dpi
    page.emulate_media(media="print")
    printed = page.locator("#calc-parallelism-d4").evaluate("c => c.getBoundingClientRect().height")
    context.close()
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(str(pdf)).pages)
    assert "Before any data flows" in text  # the depth's text
    assert "Memory needed per accelerator" in text and "Training time" in text  # its results
    assert "Tensor-parallel ways 8" in text  # the case they are for, as a list of values
    assert "Reset to defaults" not in text and "Link to this scenario" not in text  # not the form's controls
    assert "Presets" not in text and "slider" not in text.lower()
    assert printed <= 1123, printed  # the whole calculator on a page (its form alone took two)
