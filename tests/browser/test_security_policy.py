"""The whole built site under its Content-Security-Policy, in Chromium: nothing is blocked.

Every page is loaded and used as a reader would (depth tabs, the map, each calculator booted
and recomputed, an exercise played); search and instant navigation are tried too. Any
`securitypolicyviolation` event, console error or uncaught exception fails the test, named
by page. The policy is the page's own <meta>: the test server sends no policy headers, like
GitHub Pages, except in the test of the worker's own policy.

The walk loads every page in full first, as on a first visit (before the site's service worker
serves it) and with its calculators held back; then the calculator pages
are visited again to run every calculator and play each page's first exercise, reached by links
as a reader going on reaches them: the tab keeps its Python runtime (one start serves many
pages, where a full load of each would start one each). A document keeps the policy it loaded
with, so a tab follows a link only to a page whose own policy is that one, and loads any other
page in full. That part runs in a reader's browser with the service worker, which registers under
the same policy. An exercise plays at a reading pace (1.5 s a step), so it plays in a tab of its
own while the walk goes on.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from generator.emit.csp import WORKER_POLICY
from tests.conftest import (
    BuiltSite,
    _QuietHandler,
    follow_link,
    free_port,
    hold_calculator_worker,
    returning_readers_browser,
    walked_pages,
)

pytestmark = pytest.mark.browser
READY_MS = 90_000
WATCH_VIOLATIONS = """
window.__lmViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__lmViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` (${event.sourceFile || location.pathname}:${event.lineNumber}) ${event.sample}`);
}, true);
"""


class Watch:
    """What went wrong in a page and its workers: console errors, CSP messages, exceptions."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.add_init_script(WATCH_VIOLATIONS)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"{page.url}: uncaught {error}"))

    def _console(self, message) -> None:  # noqa: ANN001
        if message.type == "error" or "Content Security Policy" in message.text:
            self.problems.append(f"{self.page.url}: console {message.type}: {message.text}")

    def collect(self) -> list[str]:
        """The problems so far, with the violations the page's listener saw."""
        return [*self.problems, *self.violations()]

    def violations(self) -> list[str]:
        """What the listener of the document on show saw (a full load starts a new one)."""
        return [f"{self.page.url}: {v}" for v in self.page.evaluate("window.__lmViolations ?? []")]


def site_urls(site: BuiltSite) -> list[str]:
    urls = []
    for path in walked_pages(site.site):
        relative = path.relative_to(site.site).as_posix()
        urls.append(site.url + (relative.removesuffix("index.html") if relative.endswith("index.html") else relative))
    return urls


POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"')


def policy_of(site: BuiltSite, url: str) -> str:
    """The policy of the built page at ``url`` (the text of its <meta>)."""
    relative = url.removeprefix(site.url)
    page = site.site / (relative if relative.endswith(".html") else relative + "index.html")
    found = POLICY.search(page.read_text(encoding="utf-8"))
    assert found, f"{url}: no Content-Security-Policy <meta>"
    return found.group(1)


class Tab:
    """A tab that reaches a page by a link (instant navigation: its calculator runtime serves the
    page) when the page's own policy is the one the tab loaded with, and loads it in full otherwise."""

    def __init__(self, page: Page, site: BuiltSite) -> None:
        self.page, self.site, self.watch, self.policy = page, site, Watch(page), None

    def reach(self, url: str) -> None:
        policy = policy_of(self.site, url)
        if policy == self.policy:
            follow_link(self.page, url)
        else:
            if self.policy is not None:  # the document left takes its listener with it
                self.watch.problems += self.watch.violations()
            self.page.goto(url)
            self.page.wait_for_load_state("load")
            self.policy = policy


def show_tab_of(element: Locator) -> None:
    """Open the depth tab an element sits in (calculators and exercises live in depth panels)."""
    panel = element.evaluate("el => el.closest('[role=tabpanel]')?.id ?? ''")
    if panel:
        element.page.locator(f"#tab-{panel}").click()


def outputs(calc: Locator) -> str:
    return calc.locator("[data-output], [data-error-for]").evaluate_all("els => els.map(e => e.textContent).join('|')")


def use_calculator(calc: Locator) -> None:
    """Boot the calculator, change its first number field and see the worker answer."""
    show_tab_of(calc)
    field = calc.locator("input[data-field]").first
    field.focus()
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    before = outputs(calc)
    number = float(field.input_value().replace(",", "") or 1)
    field.fill(str(number * 2 if number else 1))
    calc.page.wait_for_function(
        "([id, before]) => [...document.getElementById(id).querySelectorAll('[data-output], [data-error-for]')]"
        ".map(e => e.textContent).join('|') !== before",
        arg=[calc.get_attribute("id"), before], timeout=15_000,
    )
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready")
    art = calc.locator("[data-figure-art]")
    if art.count():
        expect(art.first.locator("svg")).to_have_count(1)


def start_exercise(item: Locator) -> None:
    show_tab_of(item)
    item.get_by_role("button", name="Try it").click()


def use_page(page: Page) -> None:
    """Everything a reader can do on the page that runs script, but for its calculators and its
    exercises (use_calculators, Players)."""
    tabs = page.locator(".lm-depth-tabs [role=tab]")
    for index in range(tabs.count()):
        tabs.nth(index).click()
        expect(tabs.nth(index)).to_have_attribute("aria-selected", "true")
    node = page.locator(".lm-map .lm-node").first
    if node.count():
        node.focus()
        expect(page.locator(".lm-map-info").first).to_be_visible()


def use_calculators(page: Page) -> int:
    calcs = page.locator(".lm-calc[data-calculator]")
    for index in range(calcs.count()):
        use_calculator(calcs.nth(index))
    return calcs.count()


class Players:
    """Tabs that play exercises while the walk goes on (headless Chromium runs every tab's timers
    at full speed), one at a time each: a tab whose exercise has ended "done" goes on to the next
    exercise page, by a link where it can (Tab). At most ``at_once`` tabs (each holds a Python
    runtime); the problems of each are collected before it closes."""

    def __init__(self, context: BrowserContext, site: BuiltSite, at_once: int = 3) -> None:
        self.context, self.site, self.at_once = context, site, at_once
        self.playing: list[tuple[Tab, Locator]] = []
        self.problems: list[str] = []

    def play(self, url: str) -> None:
        tab = self._finish(*self.playing.pop(0)) if len(self.playing) == self.at_once else Tab(self.context.new_page(), self.site)
        tab.reach(url)
        exercise = tab.page.locator(".lm-exercise[data-plan]").first
        start_exercise(exercise)
        self.playing.append((tab, exercise))

    def finish_all(self) -> list[str]:
        while self.playing:
            tab = self._finish(*self.playing.pop(0))
            self.problems += tab.watch.collect()
            tab.page.close()
        return self.problems

    def _finish(self, tab: Tab, exercise: Locator) -> Tab:
        expect(exercise).to_have_attribute("data-playing", "done", timeout=READY_MS)
        return tab


@pytest.fixture
def readers_browser(browser_type, browser_type_launch_args: dict, tmp_path: Path) -> Iterator[BrowserContext]:  # noqa: ANN001
    """A reader's browser with its profile on disk, for the walk: the first calculators start as on
    a first visit, the later ones as a returning reader's do, from the HTTP cache with the code
    Chromium compiled (each boot about 4 s of processor time instead of 6)."""
    with returning_readers_browser(browser_type, browser_type_launch_args, tmp_path / "profile") as context:
        yield context


def test_every_page_works_under_its_policy_with_no_violation(
        browser: Browser, readers_browser: BrowserContext, built_site: BuiltSite) -> None:
    urls = site_urls(built_site)
    # A service worker would serve the calculators' script past the hold (and start Python on every
    # calculator page): the worker registers in the second part, under the same policy.
    first_visit = browser.new_context(service_workers="block")
    hold_calculator_worker(first_visit)  # the calculators run in the second part
    first_sight = first_visit.new_page()
    watch = Watch(first_sight)
    found = {"calculators": 0, "exercises": 0, "maps": 0, "tabs": 0}
    calculator_pages, exercise_pages = [], []
    for url in urls:
        first_sight.goto(url)
        first_sight.wait_for_load_state("load")
        assert first_sight.locator('meta[http-equiv="Content-Security-Policy"]').count() == 1, url
        calculators, exercises = first_sight.locator(".lm-calc[data-calculator]").count(), first_sight.locator(".lm-exercise[data-plan]").count()
        found["calculators"] += calculators
        found["exercises"] += exercises > 0
        found["maps"] += first_sight.locator(".lm-map .lm-node").count() > 0
        found["tabs"] += first_sight.locator(".lm-depth-tabs").count()
        use_page(first_sight)
        calculator_pages += [url] * (calculators > 0)
        exercise_pages += [url] * (exercises > 0)
    problems = watch.collect()
    first_visit.close()

    walker, players, used = Tab(readers_browser.new_page(), built_site), Players(readers_browser, built_site), 0
    for url in calculator_pages:
        walker.reach(url)
        used += use_calculators(walker.page)
        if url in exercise_pages:
            players.play(url)
    registered = walker.page.evaluate(WORKER_READY)
    problems += [*players.finish_all(), *walker.watch.collect()]
    assert not problems, "\n".join(problems)
    assert len(urls) > 10 and all(found.values()), found  # the walk really met every feature
    assert used == found["calculators"]
    assert registered, "the site's service worker did not register"


WORKER_READY = """() => Promise.race([navigator.serviceWorker.ready.then(() => true),
                                   new Promise((resolve) => setTimeout(() => resolve(false), 30_000))])"""


def test_search_finds_pages_under_the_policy(page: Page, built_site: BuiltSite) -> None:
    watch = Watch(page)
    page.goto(built_site.url)
    search = page.locator("input.md-search__input")
    search.click()
    # the index loads in Material's search worker: query once it is ready (slow on a busy machine)
    expect(page.locator(".md-search-result__meta")).not_to_have_text("Initializing search", timeout=60_000)
    search.press_sequentially("accelerator")
    expect(page.locator(".md-search-result__item").first).to_be_visible(timeout=30_000)
    problems = watch.collect()
    assert not problems, "\n".join(problems)


def test_instant_navigation_keeps_calculators_working(page: Page, built_site: BuiltSite) -> None:
    """Instant navigation keeps the first page's policy: the next page's content must pass it too."""
    watch = Watch(page)
    page.goto(built_site.url)
    page.evaluate("window.__lmSamePage = true")
    target = next(url for url in site_urls(built_site) if "/gpu-clusters/" in url)
    page.locator(f'a[href$="{target.removeprefix(built_site.url)}"]:visible').first.click()
    # Material's navigation.tracking may still write the home page's heading into the new address
    # (a debounced replaceState racing the navigation, seen with and without layermap's scripts)
    page.wait_for_url(re.compile(re.escape(target) + r"(#[\w-]*)?$"))
    assert page.evaluate("window.__lmSamePage === true"), "instant navigation was not used"
    use_calculator(page.locator(".lm-calc[data-calculator]").first)
    problems = watch.collect()
    assert not problems, "\n".join(problems)


# --- the calculator worker under its own policy (for hosts that can send headers) --------------


class _WorkerPolicyHandler(_QuietHandler):
    def end_headers(self) -> None:
        if self.path.split("?")[0].endswith("/calc-worker.js"):
            self.send_header("Content-Security-Policy", WORKER_POLICY)
        super().end_headers()


@pytest.fixture(scope="module")
def served_with_worker_policy(built_site: BuiltSite) -> Iterator[str]:
    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(_WorkerPolicyHandler, directory=str(built_site.site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{port}/"
    server.shutdown()


def test_the_worker_runs_pyodide_under_its_own_policy_without_eval(browser: Browser, built_site: BuiltSite, served_with_worker_policy: str) -> None:
    """The worker's policy arrives with its script; Pyodide needs 'wasm-unsafe-eval' there, not 'unsafe-eval'."""
    assert "'unsafe-eval'" not in WORKER_POLICY and "'wasm-unsafe-eval'" in WORKER_POLICY
    page = browser.new_page()
    watch = Watch(page)
    policies = []
    page.on("response", lambda r: policies.append(r.headers.get("content-security-policy")) if r.url.endswith("/calc-worker.js") else None)
    target = next(url for url in site_urls(built_site) if "/gpu-clusters/" in url)
    page.goto(served_with_worker_policy + target.removeprefix(built_site.url))
    use_calculator(page.locator(".lm-calc[data-calculator]").first)
    assert policies == [WORKER_POLICY]
    problems = watch.collect()
    page.close()
    assert not problems, "\n".join(problems)


def test_a_blocked_inline_script_is_reported(page: Page, built_site: BuiltSite) -> None:
    """The watch is not blind: a page that breaks its policy shows up as a violation."""
    source = built_site.site / "404.html"
    broken = source.read_text(encoding="utf-8").replace("</body>", "<script>document.title = 'ran'</script></body>")
    (built_site.site / "csp-probe.html").write_text(broken, encoding="utf-8")
    try:
        watch = Watch(page)
        page.goto(built_site.url + "csp-probe.html")
        page.wait_for_load_state("load")
        problems = watch.collect()
        assert page.title() != "ran"
        assert any(re.search(r"script-src-elem blocked inline", p) for p in problems), problems
    finally:
        (built_site.site / "csp-probe.html").unlink()
