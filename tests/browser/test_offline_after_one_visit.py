"""Offline after one visit, without "Save for offline" (issue 34, items 1, 2 and 10; issue 32).

The real site, served under a GitHub Pages-like sub-path. A reader opens one page and does
nothing else: the service worker's install keeps every page, asset and the search index, and on a
page with a calculator the calculator runtime too, in the background. Offline, every page opens,
search finds a term and every calculator runs; a reader who never was on a calculator page is
told so plainly by the calculator (no network error). The footer says what this browser holds,
as the worker finds it; "Save for offline" is also at the end of the navigation and counts bytes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from generator.calculation.exercises import play
from generator.calculation.port import calculator_module
from tests.browser.test_exercises import CASES, open_calculator, play_through_the_controls
from tests.browser.test_offline import (
    NEVER_IDLE,
    RUNTIME_WASM,
    SubPathSite,
    _SubPathHandler,
    calculator_page,
    check_search,
    expect_page,
    open_controlled,
    running,
    served_build,
    wait_until_runtime_kept,
)
from tests.browser.test_service_worker_poisoning import console_errors
from tests.conftest import copy_project, wait_for_worker_control
from tests.generator.emit.test_offline import worker_manifests

pytestmark = pytest.mark.browser
FOOTER_STATUS = ".md-footer .layermap-offline__status"
EVERYTHING = "Works offline in this browser: every page, search and the calculators."
NO_CALCULATORS = re.compile(r"^Works offline in this browser: every page and search; the calculators need “Save for offline” \(\d+\.\d MB\)\.$")
NOT_KEPT = "Calculator offline: this browser has not kept its Python runtime"
WASM_CHUNK = 512 * 1024


class _SlowRuntimeHandler(_SubPathHandler):
    """As the sub-path server, with the runtime's wasm sent slowly when asked (a phone's network)."""

    slow_wasm = False

    def copyfile(self, source, outputfile) -> None:  # noqa: ANN001 - the standard library's signature
        if not (self.slow_wasm and self.path.endswith("/" + RUNTIME_WASM)):
            super().copyfile(source, outputfile)
            return
        while chunk := source.read(WASM_CHUNK):
            outputfile.write(chunk)
            outputfile.flush()
            time.sleep(0.08)


class _Site(SubPathSite):
    handler = _SlowRuntimeHandler


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SubPathSite]:
    with served_build(copy_project(tmp_path_factory.mktemp("one-visit")), _Site) as served:
        yield served


@pytest.fixture
def context(browser: Browser, site: SubPathSite) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()
    _SlowRuntimeHandler.slow_wasm = False
    running(site)


def requests_elsewhere(context: BrowserContext, site: SubPathSite) -> list[str]:
    """Every request the pages and the service worker make to another host."""
    origin = f"http://127.0.0.1:{site.port}/"
    elsewhere: list[str] = []
    context.on("request", lambda r: None if r.url.startswith((origin, "data:", "blob:")) else elsewhere.append(r.url))
    return elsewhere


def go_offline(context: BrowserContext, site: SubPathSite) -> None:
    site.stop()
    context.set_offline(True)


def check_a_calculator_of_another_page(page: Page, site: SubPathSite) -> None:
    """One exercise of a calculator on another topic than the one visited (its Python came with the install)."""
    visited = CASES[0].values[0]
    topic, key, depth, _, exercise = next(case.values for case in CASES if case.values[0].id != visited.id)
    calc = open_calculator(page, site.built(), topic, key, depth.calculator.name)
    play_through_the_controls(calc, play(calculator_module(depth.calculator.name), dict(depth.calculator.values), exercise))

def test_one_visit_to_a_calculator_page_is_enough_to_read_search_and_calculate_offline(
        context: BrowserContext, site: SubPathSite) -> None:
    elsewhere = requests_elsewhere(context, site)
    page = context.new_page()
    errors = console_errors(page)
    open_controlled(page, calculator_page(site))  # one visit: no click, no save
    wait_until_runtime_kept(page, site)  # in the background

    go_offline(context, site)
    for path in site.one_page_of_each_type():
        page.goto(site.url + path)
        expect_page(page, site.url + path)
    check_search(page, site)  # the index came with the install
    check_a_calculator_of_another_page(page, site)
    assert errors == []
    assert elsewhere == []


def test_a_calculator_page_whose_calculator_never_started_still_keeps_the_runtime(context: BrowserContext, site: SubPathSite) -> None:
    # A page that never goes idle (a tab left in the background): the calculator does not start,
    # and the worker keeps the runtime anyway, 30 s after the page loaded (on the page's clock,
    # moved on by the test: nothing is registered before).
    page = context.new_page()
    page.clock.install()
    page.add_init_script(NEVER_IDLE)  # after the clock's, which has its own requestIdleCallback
    page.goto(calculator_page(site))
    page.wait_for_load_state("load")
    page.clock.run_for(25_000)
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistration()) === undefined")
    page.clock.run_for(5_000)
    wait_for_worker_control(page, 90_000)
    wait_until_runtime_kept(page, site)
    assert set(page.locator(".lm-calc__status").evaluate_all("els => els.map((el) => el.dataset.state)")) == {"static"}
    expect(page.locator(FOOTER_STATUS)).to_have_text(EVERYTHING, timeout=30_000)


def test_one_visit_to_a_page_without_a_calculator_reads_and_searches_offline_and_says_what_the_calculators_need(
        context: BrowserContext, site: SubPathSite) -> None:
    page = context.new_page()
    errors = console_errors(page)
    open_controlled(page, site.url)

    go_offline(context, site)
    page.goto(site.url + "sources/")
    expect_page(page, site.url + "sources/")
    check_search(page, site)
    page.goto(calculator_page(site))
    status = page.locator(".lm-calc__status").first
    expect(status).to_contain_text(NOT_KEPT, timeout=60_000)  # said plainly, the build's numbers shown
    expect(status).to_contain_text("Save for offline")
    expect(page.locator(FOOTER_STATUS)).to_have_text(NO_CALCULATORS, timeout=60_000)
    assert errors == []


def runtime_files_held(page: Page) -> int:
    return page.evaluate("""async () => {
        let held = 0;
        for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) if (request.url.includes('/assets/pyodide/')) held += 1;
        }
        return held;
    }""")


# Deletes one page from the worker's precache (as a browser's storage pressure or another page of the origin might).
DROP_A_PAGE = """async () => {
    for (const name of await caches.keys()) {
        if (!name.includes('precache')) continue;
        const cache = await caches.open(name);
        const page = (await cache.keys()).find((request) => new URL(request.url).pathname.endsWith('/sources/index.html'));
        if (page) return cache.delete(page);
    }
    return false;
}"""


def test_the_footer_says_what_this_browser_holds_before_and_after_saving(context: BrowserContext, site: SubPathSite) -> None:
    page = context.new_page()
    open_controlled(page, site.url)
    footer = page.locator(FOOTER_STATUS)
    expect(footer).to_have_text(NO_CALCULATORS, timeout=60_000)
    assert runtime_files_held(page) == 0
    expect(footer).not_to_have_attribute("role", "status")  # shown on every page, not announced on every page

    # The runtime held but a page gone: the footer used to look at the runtime alone and say "Saved".
    page.goto(calculator_page(site))
    expect(footer).to_have_text(EVERYTHING, timeout=120_000)
    assert page.evaluate(DROP_A_PAGE) is True
    page.reload()
    expect(footer).to_have_text(re.compile(r"^Not all saved for offline: 1 file \(\d+\.\d MB\) is missing\.$"), timeout=60_000)

    page.locator(".md-footer").get_by_role("button", name="Save for offline").click()
    expect(footer).to_have_attribute("role", "status")  # saving is announced
    expect(footer).to_have_text(re.compile(r"^Saved: all \d+\.\d MB\. Every page, search and the calculators now work offline in this browser\.$"),
                                timeout=120_000)
    page.reload()
    expect(footer).to_have_text(EVERYTHING, timeout=60_000)


# Every status text the navigation's control shows from now on.
WATCH_STATUS = """(selector) => {
    window.seenStatus = [];
    const status = document.querySelector(selector);
    new MutationObserver(() => window.seenStatus.push(status.textContent))
        .observe(status, {childList: true, characterData: true, subtree: true});
}"""


def megabytes(bytes_: int) -> str:
    return f"{bytes_ / 1e6:.1f}"


def test_save_for_offline_is_in_the_navigation_and_counts_bytes(context: BrowserContext, site: SubPathSite) -> None:
    precache, runtime = worker_manifests(site.site)
    total = sum(entry["bytes"] for entry in precache + runtime)
    wasm = next(entry for entry in runtime if entry["url"].endswith(RUNTIME_WASM))["bytes"]
    page = context.new_page()
    open_controlled(page, site.url)
    navigation = page.locator(".md-sidebar--primary .layermap-offline")
    expect(navigation.get_by_role("button", name="Save for offline")).to_be_visible()
    page.evaluate(WATCH_STATUS, ".md-sidebar--primary .layermap-offline__status")
    _SlowRuntimeHandler.slow_wasm = True  # about 1.5 s for the wasm: progress must move while it loads
    navigation.get_by_role("button", name="Save for offline").click()
    expect(navigation.locator(".layermap-offline__status")).to_have_text(
        f"Saved: all {megabytes(total)} MB. Every page, search and the calculators now work offline in this browser.", timeout=120_000)
    progress = [re.fullmatch(r"Saving: (\d+\.\d) MB of (\d+\.\d) MB", text) for text in page.evaluate("() => window.seenStatus")]
    progress = [found for found in progress if found]
    assert progress and {found[2] for found in progress} == {megabytes(total)}
    done = [float(found[1]) * 1e6 for found in progress]
    assert done == sorted(done)
    # Not stuck on one file: several steps while the wasm alone loads (a count of files stood still on it).
    assert len({d for d in done if total - wasm * 1.2 < d < total - 0.05 * wasm}) >= 3, done


def test_on_a_phone_save_for_offline_is_in_the_navigation_drawer(browser: Browser, site: SubPathSite) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(running(site).url)
        button = page.locator(".md-sidebar--primary .layermap-offline").get_by_role("button", name="Save for offline")
        expect(button).not_to_be_in_viewport()  # in the closed drawer
        page.locator("label.md-header__button[for=__drawer]").click()
        button.scroll_into_view_if_needed()
        expect(button).to_be_in_viewport()
        button.click()
        expect(page.locator(".md-sidebar--primary .layermap-offline__status")).to_contain_text(re.compile("Sav(ing|ed)"))
    finally:
        context.close()
