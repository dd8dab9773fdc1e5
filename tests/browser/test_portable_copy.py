"""The downloadable copy, unzipped and opened from disk (file://) in Chromium, as a reader would.

The zip comes from the session's build of the real content (``built_site``). Every page is reached
from the home page by following links; no link opens a folder (a directory listing); no page
opened (every page of every template: of the learning plans, one template, a sample) logs a console
error, an uncaught exception or a Content-Security-Policy violation. The depth tabs
switch, the drawn map describes its boxes and its links open pages, search finds a term and its
hit opens the page, and a calculator shows its build-time numbers with the copy's note.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from generator.emit.portable import COPY_FOLDER
from generator.render.paths import OFFLINE_COPY
from tests.conftest import BuiltSite, walked_pages
from tests.site.html_scan import read_page

pytestmark = pytest.mark.browser
CALCULATOR_PAGE = "layer-3/gpu-clusters/index.html"
WATCH = """
window.__lmProblems = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__lmProblems.push(`CSP ${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`);
}, true);
"""
LINKS = """() => [...document.querySelectorAll("a")].map((a) => {
  const raw = a.getAttribute("href") ?? a.getAttributeNS("http://www.w3.org/1999/xlink", "href");
  return raw ? new URL(raw, document.baseURI).href : null;
}).filter(Boolean)"""


@pytest.fixture(scope="module")
def copy(built_site: BuiltSite, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session build's zip, unzipped once for this module."""
    folder = tmp_path_factory.mktemp("downloaded")
    with zipfile.ZipFile(built_site.site / OFFLINE_COPY) as archive:
        archive.extractall(folder)
    return folder / COPY_FOLDER


class Watch:
    """Console errors, uncaught exceptions and CSP violations of every page the tab opens."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.add_init_script(WATCH)
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"{page.url}: console: {m.text}"))
        page.on("pageerror", lambda error: self.problems.append(f"{page.url}: uncaught {error}"))

    def check(self) -> None:
        seen = self.page.evaluate("() => window.__lmProblems ?? []")
        assert [*self.problems, *(f"{self.page.url}: {p}" for p in seen)] == []


def file_of(url: str) -> Path:
    return Path(unquote(urlsplit(url).path))


def open_page(page: Page, path: Path) -> None:
    page.goto(path.as_uri())
    expect(page.locator("#__config")).to_have_count(1)  # a built page, not a directory listing


def links_as_built(path: Path) -> list[str]:
    """The address of every link in the page as built (HTML and SVG links)."""
    addresses = (link.attrs.get("href") or link.attrs.get("xlink:href") for link in read_page(path).find("a"))
    return [urljoin(path.as_uri(), address) for address in addresses if address]


def test_every_page_is_reached_from_home_by_links_and_none_opens_a_folder(page: Page, copy: Path) -> None:
    """Every page of every template opens in the browser, where its links are read as it shows
    them; the learning plans beyond those (one template, half the site) are read as built, and
    where both were read the browser's links include the built ones."""
    watch = Watch(page)
    in_browser = set(walked_pages(copy))
    waiting, visited = [copy / "index.html"], set()
    while waiting:
        current = waiting.pop()
        if current in visited:
            continue
        visited.add(current)
        links = links_as_built(current)
        if current in in_browser:
            open_page(page, current)
            watch.check()
            shown = page.evaluate(LINKS)
            assert {file_of(url) for url in links} <= {file_of(url) for url in shown}, current
            links = shown
        for url in links:
            if not url.startswith("file:"):
                continue
            target = file_of(url)
            assert target.is_file(), f"{current.relative_to(copy)} links to {url}: not a file (a folder shows a listing)"
            if target.suffix == ".html" and target not in visited:
                waiting.append(target)
    assert visited == set(copy.rglob("*.html"))
    assert len(in_browser) > 30 and in_browser < visited


def test_depth_tabs_switch_and_the_choice_follows_the_reader(page: Page, copy: Path) -> None:
    watch = Watch(page)
    open_page(page, copy / CALCULATOR_PAGE)
    tab = page.locator("[role=tab][data-depth=D2]")
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true")
    expect(page.locator("#depth-d2")).to_be_visible()
    expect(page.locator("#depth-d1")).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(page.locator("[role=tab][data-depth=D3]")).to_be_focused()
    expect(page.locator("#depth-d3")).to_be_visible()
    open_page(page, copy / "layer-3/cluster-networking/index.html")
    expect(page.locator("[role=tab][data-depth=D3]")).to_have_attribute("aria-selected", "true")
    watch.check()


def test_the_drawn_map_describes_its_boxes_and_its_links_open_pages(page: Page, copy: Path) -> None:
    watch = Watch(page)
    open_page(page, copy / "index.html")
    node = page.locator(".lm-map svg .lm-node").first
    node.hover()
    info = page.locator(".lm-map-info").first
    expect(info).to_be_visible()  # the summary comes from the map index embedded as a script
    expect(info).to_contain_text(":")
    link = page.locator(".lm-map svg a").first
    target = file_of(link.evaluate("(a) => new URL(a.getAttribute('href') ?? a.getAttribute('xlink:href'), document.baseURI).href"))
    link.click()
    page.wait_for_url(target.as_uri())
    expect(page.locator("#__config")).to_have_count(1)
    expect(page.locator("article h1")).to_have_count(1)
    watch.check()


def test_search_finds_a_term_and_its_hit_opens_the_page(page: Page, copy: Path) -> None:
    watch = Watch(page)
    open_page(page, copy / "index.html")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching", timeout=30_000)  # index loaded
    field = page.locator("input.md-search__input")
    field.fill("Slurm")  # the whole term, then one keyup (Material searches on keyup): no hit for "Sl" to click
    field.press("End")
    hit = page.locator(".md-search-result__item a").first
    expect(hit).to_be_visible(timeout=15_000)
    href = hit.get_attribute("href") or ""
    assert "index.html" in href, href
    hit.click()
    page.wait_for_load_state()
    assert file_of(page.url).is_file() and file_of(page.url).name == "index.html"
    expect(page.locator("#__config")).to_have_count(1)
    expect(page.locator("article")).to_contain_text("Slurm")
    watch.check()


def test_a_calculator_shows_its_build_time_numbers_and_how_to_run_it_live(page: Page, copy: Path, built_site: BuiltSite,
                                                                          browser: Browser) -> None:
    watch = Watch(page)
    open_page(page, copy / CALCULATOR_PAGE)
    page.locator("[role=tab][data-depth=D4]").click()
    calc = page.locator("#depth-d4 .lm-calc").first
    expect(calc).to_be_visible()
    status = calc.locator(".lm-calc__status")
    expect(status).to_contain_text("computed when it was built")
    expect(status).to_contain_text("leaves out")
    expect(status).not_to_contain_text("starts when you change")
    expect(calc.locator("input[data-field]").first).to_be_disabled()
    page.wait_for_timeout(500)  # nothing starts later: the numbers stay the build's
    shown = outputs(calc)
    assert shown and all(text and text != "—" for text in shown.values())
    without_js = browser.new_context(java_script_enabled=False)  # the site's own page, as built
    try:
        site_page = without_js.new_page()
        site_page.goto(built_site.url + CALCULATOR_PAGE.removesuffix("index.html"))
        assert outputs(site_page.locator(f"#{calc.get_attribute('id')}")) == shown
    finally:
        without_js.close()
    watch.check()


def outputs(calc: Locator) -> dict[str, str]:
    return dict(calc.locator("[data-output]").evaluate_all(
        "els => els.map((e) => [e.dataset.output, e.textContent.trim()])"))


@pytest.mark.parametrize("path", ["index.html", CALCULATOR_PAGE])
def test_the_copy_fits_a_phone(browser: Browser, copy: Path, path: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        watch = Watch(page)
        open_page(page, copy / path)
        for depth in page.locator("[role=tab]").evaluate_all("tabs => tabs.map((t) => t.dataset.depth)"):
            page.locator(f"[role=tab][data-depth={depth}]").click()
            # with is_mobile Chromium widens the layout to fit wide content: compare with the width asked for
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, f"{path} at {depth}"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, path
        watch.check()
    finally:
        context.close()
