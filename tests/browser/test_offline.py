"""Offline after saving, under a GitHub Pages-like sub-path, and a redeploy picked up cleanly.

The site is built with its address at /layermap/ on a local server. A reader visits once, saves
the site for offline, then the server is stopped and the browser context set offline: every
page must come back byte for byte from the service worker alone, with every file a page asks
for as it loads, a page of each type open by its address and by reload, every topic by a link
from home, and search, the depth switcher and
one exercise of every calculator must still work. (Offline after one visit without
saving: tests/browser/test_offline_after_one_visit.py.)
"""

from __future__ import annotations

import hashlib
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Browser, BrowserContext, BrowserType, Page, Response, expect

from generator.calculation.exercises import play
from generator.calculation.port import calculator_module
from tests.browser.test_exercises import CASES, OpenCalculator, open_calculator, play_through_the_controls
from tests.conftest import (
    ROOT,
    BuiltSite,
    _QuietHandler,
    build_project,
    copy_project,
    free_port,
    returning_readers_browser,
    wait_for_worker_control,
)
from tests.generator.emit.test_offline import worker_manifests
from tests.generator.mini_project import MINI
from tests.site.html_scan import read_page

pytestmark = pytest.mark.browser
SUB_PATH = "/layermap/"
CHANGED_TOPIC = "content/layer-1/power.yaml"  # of the small project (tests/generator/mini_project.py)
RUNTIME_WASM = "pyodide.asm.wasm"


class _SubPathHandler(_QuietHandler):
    """Serves the site under SUB_PATH only, as GitHub Pages serves a project site. The calculator
    runtime's files say that a browser must check its cached copy with the server before using it,
    as GitHub Pages' do ten minutes after they were fetched."""

    wasm_downloads: list[str] = []  # every full GET of the runtime's wasm this server answered

    def end_headers(self) -> None:
        if self.path.startswith(SUB_PATH + "assets/pyodide/"):
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        if self.path.endswith("/" + RUNTIME_WASM) and "If-Modified-Since" not in self.headers:
            self.wasm_downloads.append(self.path)
        super().do_GET()

    def translate_path(self, path: str) -> str:
        if not path.startswith(SUB_PATH):
            return str(Path(self.directory) / "not-under-the-sub-path")
        return super().translate_path("/" + path[len(SUB_PATH):])


@dataclass
class SubPathSite:
    root: Path
    site: Path
    port: int
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{SUB_PATH}"

    handler = _SubPathHandler  # a class attribute, not a field: a subclass may serve otherwise

    def start(self) -> None:
        import functools
        import threading

        handler = functools.partial(self.handler, directory=str(self.site))
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def built(self) -> BuiltSite:
        return BuiltSite(self.root, self.site, self.url)

    def pages(self) -> list[str]:
        """Every page's address below the site root ("" for home), from the built files."""
        found = [p.relative_to(self.site).as_posix() for p in self.site.rglob("index.html")]
        return sorted(path[: -len("index.html")] for path in found)

    def one_page_of_each_type(self) -> list[str]:
        """Home, a layer, a topic with calculators and one without, the plans, a plan, the sources."""
        pages = self.pages()
        plan = next(path for path in pages if re.fullmatch(r"plans/[a-z0-9-]+/", path))
        topics = [path for path in pages if re.fullmatch(r"layer-\d+/[a-z0-9-]+/", path)]
        plain = next(path for path in topics if 'class="lm-calc"' not in (self.site / path / "index.html").read_text(encoding="utf-8"))
        return ["", "layer-3/", calculator_page(self)[len(self.url):], plain, "plans/", plan, "sources/"]

    def files_pages_load(self) -> list[str]:
        """Every address a built page asks for as it loads (stylesheets, scripts, icons, images:
        tests/site/html_scan.py) or links to from its head, once each."""
        found: set[str] = set()
        for path in self.pages():
            page = read_page(self.site / path / "index.html")
            addresses = [*page.loaded_urls(), *(link.attrs.get("href", "") for link in page.find("link"))]
            found.update(urljoin(self.url + path, address) for address in addresses if address and not address.startswith("data:"))
        return sorted(found)

    def page_digest(self, path: str) -> str:
        return hashlib.sha256((self.site / path / "index.html").read_bytes()).hexdigest()

    def saved_megabytes(self) -> str:
        """What "Save for offline" fetches, as it says it: every file its worker lists, in MB."""
        precache, runtime = worker_manifests(self.site)
        return f"{sum(entry['bytes'] for entry in precache + runtime) / 1e6:.1f} MB"


def calculator_page(site: SubPathSite) -> str:
    """The address of the topic of the first exercise (tests/browser/test_exercises.py's CASES)."""
    topic, _, _, _, _ = CASES[0].values
    return site.url + f"layer-{topic.layer}/{topic.id}/"


@contextmanager
def served_build(root: Path, kind: type[SubPathSite] = SubPathSite) -> Iterator[SubPathSite]:
    """The project at ``root`` built for, and served at, a sub-path of a free local port."""
    served = kind(root, root / "site", free_port())
    build_project(root, served.url)
    served.start()
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="module")
def sub_path_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SubPathSite]:
    with served_build(copy_project(tmp_path_factory.mktemp("offline-project"))) as served:
        yield served


def running(site: SubPathSite) -> SubPathSite:
    """The site, served again if an earlier test stopped its server."""
    if site.server is None:
        site.start()
    return site


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context()
    yield context
    context.close()


def open_controlled(page: Page, url: str) -> None:
    """Open a page and wait until the service worker is active and serves it."""
    page.goto(url)
    wait_for_worker_control(page)


def save_for_offline(page: Page, expected: str) -> list[str]:
    """Press the footer's "Save for offline" by keyboard; return every status text shown meanwhile."""
    page.evaluate("""() => {
        window.seenStatus = [];
        const status = document.querySelector('.md-footer .layermap-offline__status');
        new MutationObserver(() => window.seenStatus.push(status.textContent))
            .observe(status, {childList: true, characterData: true, subtree: true});
    }""")
    button = page.locator(".md-footer").get_by_role("button", name="Save for offline")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".md-footer .layermap-offline__status")).to_have_text(
        f"Saved: all {expected}. Every page, search and the calculators now work offline in this browser.", timeout=120_000)
    return page.evaluate("() => window.seenStatus")


def cached_runtime_files(page: Page) -> list[str]:
    """Names of the Pyodide runtime files held in any of the site's caches."""
    return page.evaluate("""async () => {
        const names = [];
        for (const cacheName of await caches.keys()) {
            for (const request of await (await caches.open(cacheName)).keys()) {
                const path = new URL(request.url).pathname;
                if (path.includes('/assets/pyodide/')) names.push(path.split('/').pop());
            }
        }
        return names;
    }""")


def expect_page(page: Page, path: str) -> None:
    expect(page).to_have_url(re.compile(re.escape(path) + r"(#.*)?$"))
    expect(page.locator(".md-content h1").first).to_be_visible()


def test_after_saving_everything_works_offline(context: BrowserContext, sub_path_site: SubPathSite) -> None:
    site = sub_path_site
    page = context.new_page()
    open_controlled(page, site.url)
    assert cached_runtime_files(page) == []  # the runtime is not precached: nothing fetched it yet
    total = site.saved_megabytes()
    seen = save_for_offline(page, total)
    assert any(re.fullmatch(rf"Saving: \d+\.\d MB of {re.escape(total)}", text) for text in seen), seen
    assert sorted(cached_runtime_files(page)) == sorted(p.name for p in (site.site / "assets" / "pyodide").iterdir())

    site.stop()
    context.set_offline(True)
    page.reload()
    expect(page.locator(".layermap-notice--offline")).to_contain_text("Offline")

    # every page, as the worker answers it offline, is the built page byte for byte, and every
    # file a page asks for as it loads is answered too
    answered = page.evaluate(DIGESTS_OF_ANSWERS, [site.url + path for path in site.pages()])
    assert answered == {site.url + path: site.page_digest(path) for path in site.pages()}
    files = site.files_pages_load()
    assert len(files) > 20 and page.evaluate(FAILED_ANSWERS, files) == {}
    # and a page of each type opens by its address, then by reload
    for path in site.one_page_of_each_type():
        page.goto(site.url + path)
        expect_page(page, site.url + path)
    page.reload()
    expect_page(page, site.url + site.one_page_of_each_type()[-1])

    # every topic by a link from home (instant navigation, then back)
    page.goto(site.url)
    topic_links = page.locator(".md-content a[href]").evaluate_all(
        "els => [...new Set(els.map(a => a.href).filter(h => /layer-\\d+\\/[a-z0-9-]+\\/$/.test(h)))]")
    assert len(topic_links) >= 9
    for href in topic_links:
        page.locator(f'.md-content a[href="{href}"] >> visible=true').first.click()
        expect_page(page, href)
        page.go_back()
        expect(page).to_have_url(re.compile(re.escape(site.url) + "(#.*)?$"))

    check_search(page, site)
    check_depth_switch(page, site)
    check_one_exercise_per_calculator(page, site)


# Each address fetched as a navigation would be (through this page's service worker), and the
# SHA-256 of what came back, or the HTTP status when it failed.
DIGESTS_OF_ANSWERS = """async (urls) => {
    const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const answered = {};
    for (const url of urls) {
        const response = await fetch(url);
        answered[url] = response.ok ? hex(await crypto.subtle.digest("SHA-256", await response.arrayBuffer())) : `HTTP ${response.status}`;
    }
    return answered;
}"""


# Each address fetched through this page's service worker: those that failed, with why.
FAILED_ANSWERS = """async (urls) => {
    const failed = {};
    for (const url of urls) {
        try {
            const response = await fetch(url);
            if (!response.ok) failed[url] = `HTTP ${response.status}`;
        } catch (error) {
            failed[url] = String(error);
        }
    }
    return failed;
}"""


def check_search(page: Page, site: SubPathSite) -> None:
    page.goto(site.url)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching", timeout=30_000)  # index loaded
    # The whole term at once, then one keyup (Material searches on keyup): typed letter by letter,
    # the first hit could be one for "all" that the click met before the full term's results came.
    field = page.locator("input.md-search__input")
    field.fill("all-reduce")
    field.press("End")
    first = page.locator(".md-search-result__item a").first
    expect(first).to_be_visible(timeout=30_000)
    first.click()
    expect(page.locator(".md-content h1").first).to_be_visible()
    assert page.url.startswith(site.url) and page.url != site.url


def check_depth_switch(page: Page, site: SubPathSite) -> None:
    page.goto(site.url + "layer-3/gpu-clusters/")
    page.get_by_role("tab", name=re.compile("D4")).click()
    expect(page.get_by_role("tab", name=re.compile("D4"))).to_have_attribute("aria-selected", "true")
    assert page.locator(".lm-depth:visible").evaluate_all("els => els.map(e => e.dataset.depth)") == ["D4"]


def check_one_exercise_per_calculator(page: Page, site: SubPathSite) -> None:
    """The first exercise of every calculator, played offline. The first calculator page is opened
    by its address; the others are reached by links, as a reader goes on (the runtime booted from
    the saved copy serves them all; tests/browser/test_exercises.py's OpenCalculator)."""
    first_cases = {}
    for case in CASES:
        topic, key, depth, index, exercise = case.values
        first_cases.setdefault(depth.calculator.name, case.values)
    assert len(first_cases) >= 6
    calculators = OpenCalculator(page.context)
    for name, (topic, key, depth, _, exercise) in first_cases.items():
        calc = calculators.at(site.built(), topic, key, name)
        play_through_the_controls(calc, play(calculator_module(name), dict(depth.calculator.values), exercise))
    assert calculators.page.evaluate("() => layermapCalculator.status().generation") == 1  # one boot served them all


@pytest.fixture
def small_sub_path_site(tmp_path: Path) -> Iterator[SubPathSite]:
    """The small project's site, for a test that deploys it again (the module's site stays as built)."""
    with served_build(copy_project(tmp_path, MINI)) as served:
        yield served


def test_a_new_deployment_is_announced_and_taken_only_on_reload(context: BrowserContext, small_sub_path_site: SubPathSite) -> None:
    site = small_sub_path_site
    page = context.new_page()
    topic_url = site.url + "layer-1/power/"
    open_controlled(page, topic_url)
    old_title, new_title = "Power", "Power, redeployed"
    expect(page.locator(".md-content h1").first).to_contain_text(old_title)
    page.locator("label.md-search__icon, .md-search__input").first.click()  # the worker caches this version's index
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching", timeout=30_000)

    topic = site.root / CHANGED_TOPIC
    text = topic.read_text(encoding="utf-8")
    assert f"title: {old_title}\n" in text
    topic.write_text(text.replace(f"title: {old_title}\n", f"title: {new_title}\n", 1), encoding="utf-8")
    build_project(site.root, site.url)

    page.reload()
    notice = page.locator(".layermap-notice--update")
    expect(notice).to_contain_text("A new version is available", timeout=60_000)
    expect(notice.get_by_role("button", name="Reload")).to_be_visible()
    expect(page.locator(".md-content h1").first).to_contain_text(old_title)  # the waiting version serves nothing yet
    page.goto(site.url)
    expect(notice).to_be_visible()
    page.goto(topic_url)
    expect(page.locator(".md-content h1").first).to_contain_text(old_title)

    page.locator(".layermap-notice--update").get_by_role("button", name="Reload").click()
    expect(page.locator(".md-content h1").first).to_contain_text(new_title, timeout=30_000)
    expect(page.locator(".layermap-notice--update")).to_have_count(0)

    # the reader had the old search index, so the new worker fetched the new one when it installed
    context.set_offline(True)
    page.goto(site.url)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching", timeout=30_000)
    field = page.locator("input.md-search__input")
    field.fill("redeployed")  # the whole term, then one keyup (Material searches on keyup)
    field.press("End")
    expect(page.locator(".md-search-result__item").first).to_contain_text(new_title, timeout=30_000)
    context.set_offline(False)


def test_instant_navigation_works_at_any_address_once_the_worker_serves_the_site(browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built without a site URL (a sitemap.xml listing no page on the server), served at a sub-path: the worker's
    sitemap for its own scope lets Material's instant navigation take links without a reload."""
    from generator.cli import main
    from tests.site.test_offline_build import MINI

    shutil.copytree(MINI / "content", tmp_path / "content")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    monkeypatch.delenv("LAYERMAP_SITE_URL", raising=False)
    assert main(["--project", str(tmp_path), "build"]) == 0
    assert "<loc>" not in (tmp_path / "site" / "sitemap.xml").read_text(encoding="utf-8")
    served = SubPathSite(tmp_path, tmp_path / "site", free_port())
    served.start()
    context = browser.new_context()
    try:
        page = context.new_page()
        open_controlled(page, served.url)
        page.reload()  # Material reads the sitemap once per full load: now from the worker
        page.evaluate("() => { window.notReloaded = true; }")
        page.locator('.md-content a[href$="layer-2/"] >> visible=true').first.click()
        expect(page).to_have_url(re.compile(re.escape(served.url + "layer-2/") + "(#.*)?$"))
        expect(page.locator(".md-content h1").first).to_be_visible()
        assert page.evaluate("() => window.notReloaded === true")
    finally:
        context.close()
        served.stop()


def wait_until(page: Page, predicate: str, what: str, timeout_s: float = 30) -> None:
    """Poll an async predicate in the page until it holds (Playwright's wait_for_function does not
    wait for a promise: an async predicate would pass at once)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(predicate):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout_s:.0f} s: {what}")
        page.wait_for_timeout(250)


def wait_until_runtime_kept(page: Page, site: SubPathSite) -> None:
    """Wait until the service worker has kept the whole runtime, every file whole."""
    sizes = {p.name: p.stat().st_size for p in (site.site / "assets" / "pyodide").iterdir()}
    wait_until(page, f"""async () => {{
        for (const [name, size] of Object.entries({sizes!r})) {{
            const kept = await caches.match(new URL('assets/pyodide/' + name, {site.url!r}).href);
            if (!kept || (await kept.arrayBuffer()).byteLength !== size) return false;
        }}
        return true;
    }}""", "the service worker keeps the runtime after its first use")


def test_the_calculator_runtime_is_cached_when_a_calculator_first_starts(context: BrowserContext, sub_path_site: SubPathSite) -> None:
    site = running(sub_path_site)
    topic, key, depth, _, _ = CASES[0].values
    page = context.new_page()
    open_controlled(page, site.url)
    assert cached_runtime_files(page) == []
    open_calculator(page, site.built(), topic, key, depth.calculator.name)
    wait_until_runtime_kept(page, site)
    assert sorted(cached_runtime_files(page)) == sorted(p.name for p in (site.site / "assets" / "pyodide").iterdir())


NEVER_IDLE = "window.requestIdleCallback = () => 0;"  # a page that never goes idle (and no focus, no click)


def test_a_returning_reader_with_the_runtime_cached_gets_the_calculator_without_waiting_for_idle(
        context: BrowserContext, browser: Browser, sub_path_site: SubPathSite) -> None:
    site = running(sub_path_site)
    topic, key, depth, _, _ = CASES[0].values
    calculator_page = site.url + f"layer-{topic.layer}/{topic.id}/"
    ready = ".lm-calc__status[data-state=ready]"
    first = context.new_page()
    open_controlled(first, site.url)
    open_calculator(first, site.built(), topic, key, depth.calculator.name)  # runs under the worker: cached
    wait_until_runtime_kept(first, site)
    first.close()
    returning = context.new_page()
    returning.add_init_script(NEVER_IDLE)
    returning.goto(calculator_page)
    returning.wait_for_selector(ready, state="attached", timeout=90_000)
    # A first visit, in a browser that holds nothing, waits for idle: with none, nothing starts.
    fresh = browser.new_context()
    try:
        newcomer = fresh.new_page()
        newcomer.add_init_script(NEVER_IDLE)
        newcomer.goto(calculator_page)
        newcomer.wait_for_timeout(4_000)
        states = newcomer.locator(".lm-calc__status").evaluate_all("els => els.map((el) => el.dataset.state)")
        assert states and set(states) == {"static"}  # as built: the worker was never started
    finally:
        fresh.close()




def use_calculator_once(context: BrowserContext, site: SubPathSite) -> None:
    """A first visit that starts a calculator; then wait until the service worker has kept the runtime."""
    topic, key, depth, _, _ = CASES[0].values
    page = context.new_page()
    open_controlled(page, site.url)
    open_calculator(page, site.built(), topic, key, depth.calculator.name)
    wait_until_runtime_kept(page, site)
    page.close()


def open_calculator_watching_the_wasm(context: BrowserContext, site: SubPathSite) -> tuple[Page, list[Response]]:
    """Open the calculator again; return the page and every GET response for the runtime's wasm."""
    topic, key, depth, _, _ = CASES[0].values
    page = context.new_page()
    seen: list[Response] = []
    page.on("response", lambda r: seen.append(r) if r.url.endswith("/" + RUNTIME_WASM) and r.request.method == "GET" else None)
    open_calculator(page, site.built(), topic, key, depth.calculator.name)
    return page, seen


def test_a_returning_reader_gets_the_runtime_from_the_browsers_cache_not_through_the_service_worker(
        browser_type: BrowserType, browser_type_launch_args: dict, sub_path_site: SubPathSite, tmp_path: Path) -> None:
    # Answered from Cache Storage through the service worker, every start compiled the 9.6 MB wasm
    # afresh (0.3-0.8 s slower); the browser's HTTP cache keeps it compiled.
    site = running(sub_path_site)
    with returning_readers_browser(browser_type, browser_type_launch_args, tmp_path / "profile") as context:
        use_calculator_once(context, site)
        _, wasm = open_calculator_watching_the_wasm(context, site)
    assert [r.url for r in wasm] == [site.url + "assets/pyodide/" + RUNTIME_WASM]
    assert not wasm[0].from_service_worker


def test_a_private_window_gets_the_runtime_from_the_saved_copy_not_the_network_again(
        context: BrowserContext, sub_path_site: SubPathSite) -> None:
    # A private window's in-memory HTTP cache does not keep the wasm: the service worker's copy does.
    site = running(sub_path_site)
    use_calculator_once(context, site)
    downloads = len(_SubPathHandler.wasm_downloads)
    _, wasm = open_calculator_watching_the_wasm(context, site)
    saved = [r for r in wasm if r.url == site.url + "assets/pyodide-saved/" + RUNTIME_WASM]
    assert len(saved) == 1 and saved[0].from_service_worker
    assert len(_SubPathHandler.wasm_downloads) == downloads  # not downloaded again


def test_when_the_network_fails_online_the_calculator_restarts_from_the_saved_runtime(
        browser_type: BrowserType, browser_type_launch_args: dict, sub_path_site: SubPathSite, tmp_path: Path) -> None:
    # The browser says it is online but the server cannot be reached (a dead Wi-Fi), and its cached
    # runtime must be checked with the server first (this test server asks for that, as GitHub Pages
    # does ten minutes after a visit): the pages come from the service worker, and the calculator,
    # whose first start fails, starts again from the saved copy.
    site = running(sub_path_site)
    with returning_readers_browser(browser_type, browser_type_launch_args, tmp_path / "profile") as context:
        use_calculator_once(context, site)
        site.stop()
        try:
            page, wasm = open_calculator_watching_the_wasm(context, site)
            assert page.evaluate("() => navigator.onLine") is True
            assert page.evaluate("() => layermapCalculator.status().generation") == 2  # the failed start, then the saved copy
            saved = [r for r in wasm if r.url == site.url + "assets/pyodide-saved/" + RUNTIME_WASM]
            assert len(saved) == 1 and saved[0].from_service_worker
        finally:
            site.start()


# Records, for the page's first service worker registration, the calculator runtime's state then.
RECORD_REGISTRATION = """
(() => {
  const register = ServiceWorkerContainer.prototype.register;
  ServiceWorkerContainer.prototype.register = function (...args) {
    window.registeredWhile ??= globalThis.layermapCalculator?.status().state ?? "no calculator script";
    return register.apply(this, args);
  };
})();
"""


def test_on_a_first_visit_the_service_worker_installs_after_the_calculator_has_started(
        context: BrowserContext, sub_path_site: SubPathSite) -> None:
    # Its install downloads every page and asset; during Pyodide's start that made it about 0.9 s slower.
    site = running(sub_path_site)
    topic, key, depth, _, _ = CASES[0].values
    context.add_init_script(RECORD_REGISTRATION)
    page = context.new_page()
    page.goto(site.url + f"layer-{topic.layer}/{topic.id}/")
    wait_for_worker_control(page, 90_000)
    assert page.evaluate("() => window.registeredWhile") == "ready"
    plain = context.new_page()  # a page without a calculator registers once it has loaded
    plain.goto(site.url + "layer-1/")
    plain.wait_for_function("() => window.registeredWhile !== undefined", timeout=30_000)
    assert plain.evaluate("() => window.registeredWhile") == "idle"
