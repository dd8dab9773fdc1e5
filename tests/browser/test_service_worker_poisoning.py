"""Issue 33, F9: another document of the same origin writes into the service worker's caches.

Every project site of one GitHub user is served from ``user.github.io``: another project's page
(here a page outside the site's sub-path, which the worker does not control) can open every
cache the worker uses and put its own response under a URL the worker precached. The worker must
serve only the bytes this build listed: a planted copy is dropped, the real file fetched again and
kept, and nothing from the planted response (its body, its headers) reaches the reader.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.test_offline import SUB_PATH, SubPathSite, open_controlled
from tests.conftest import ROOT, build_project, free_port
from tests.generator.mini_project import MINI

pytestmark = pytest.mark.browser
TOPIC = "layer-1/power/"
PLANTED_PAGE = ("<!doctype html><title>Planted</title><h1 id='planted'>Planted page</h1>"
                "<script>window.plantedRan = true;</script>")

# Run in the other project's page: put `body` with `headers` under every key, in every cache of
# the origin, whose path is one of `paths`, and under each of those paths too. Returns how many
# of those keys the worker had written (the caches the worker uses, found by listing them all).
PLANT = """async ({ paths, body, headers }) => {
  let found = 0;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const keys = (await cache.keys()).map((request) => request.url).filter((url) => paths.includes(new URL(url).pathname));
    found += keys.length;
    for (const url of new Set([...keys, ...paths.map((path) => location.origin + path)])) {
      await cache.put(url, new Response(body, { headers }));
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SubPathSite]:
    root = tmp_path_factory.mktemp("poisoning")
    shutil.copytree(MINI, root / "content")
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    served = SubPathSite(root, root / "site", free_port())
    build_project(root, served.url)
    served.start()
    yield served
    served.stop()


@pytest.fixture
def context(browser: Browser, site: SubPathSite) -> Iterator[BrowserContext]:
    context = browser.new_context()
    yield context
    context.close()
    if site.server is None:
        site.start()


def console_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(f"{page.url}: {message.text}"))
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    return errors


def other_project(context: BrowserContext, site: SubPathSite) -> Page:
    """A page of the same origin outside the site's sub-path, as another project site of the same user."""
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{site.port}/other-project/")
    return page


def plant(attacker: Page, paths: list[str], body: str, headers: dict[str, str]) -> int:
    return attacker.evaluate(PLANT, {"paths": paths, "body": body, "headers": headers})


def expect_real_topic(page: Page) -> None:
    expect(page.locator(".md-content h1").first).to_contain_text("Power")
    expect(page.locator("#planted")).to_have_count(0)
    assert page.evaluate("() => window.plantedRan") is None


def go_offline(context: BrowserContext, site: SubPathSite) -> None:
    site.stop()
    context.set_offline(True)


def test_a_page_planted_in_the_workers_caches_is_not_served_and_the_real_one_is_kept(
        context: BrowserContext, site: SubPathSite) -> None:
    reader = context.new_page()
    errors = console_errors(reader)
    open_controlled(reader, site.url + TOPIC)
    expect_real_topic(reader)

    paths = [SUB_PATH + TOPIC, SUB_PATH + TOPIC + "index.html"]
    assert plant(other_project(context, site), paths, PLANTED_PAGE, {"Content-Type": "text/html"}) >= 1

    reader.goto(site.url + TOPIC)  # online: the planted copy is dropped, the page fetched again
    expect_real_topic(reader)
    reader.reload()
    expect_real_topic(reader)

    go_offline(context, site)  # offline: the copy fetched again was kept
    reader.goto(site.url + TOPIC)
    expect_real_topic(reader)
    reader.goto(site.url)
    expect(reader.locator(".md-content h1").first).to_be_visible()
    assert errors == []


def test_the_right_bytes_planted_with_their_own_headers_are_served_without_those_headers(
        context: BrowserContext, site: SubPathSite) -> None:
    # A Refresh header would send the reader of the real page somewhere else on every visit.
    reader = context.new_page()
    errors = console_errors(reader)
    open_controlled(reader, site.url + TOPIC)
    attacker = other_project(context, site)
    real = attacker.evaluate("async (url) => (await fetch(url)).text()", site.url + TOPIC)
    assert "<h1" in real and "Content-Security-Policy" in real
    elsewhere = f"http://127.0.0.1:{site.port}/other-project/elsewhere"
    paths = [SUB_PATH + TOPIC, SUB_PATH + TOPIC + "index.html"]
    assert plant(attacker, paths, real, {"Content-Type": "text/html", "Refresh": f"0; url={elsewhere}"}) >= 1

    go_offline(context, site)
    reader.goto(site.url + TOPIC)
    expect_real_topic(reader)
    reader.wait_for_timeout(1_500)  # a Refresh of 0 s would have left by now
    expect(reader).to_have_url(site.url + TOPIC)
    expect_real_topic(reader)
    assert errors == []


def open_search(page: Page) -> None:
    page.locator("label.md-search__icon, .md-search__input").first.click()
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching", timeout=30_000)


def search(page: Page, term: str) -> None:
    field = page.locator("input.md-search__input")
    field.fill(term)  # the whole term, then one keyup (Material searches on keyup)
    field.press("End")


def test_a_search_index_planted_in_the_workers_caches_is_not_used(context: BrowserContext, site: SubPathSite) -> None:
    reader = context.new_page()
    errors = console_errors(reader)
    open_controlled(reader, site.url)
    open_search(reader)  # the worker caches this version's index
    attacker = other_project(context, site)
    index = json.loads(attacker.evaluate("async (url) => (await fetch(url)).text()", site.url + "search/search_index.json"))
    index["docs"].append({"location": "planted/", "title": "Planted result", "text": "plantedword"})
    paths = [SUB_PATH + "search/search_index.json"]
    assert plant(attacker, paths, json.dumps(index), {"Content-Type": "application/json"}) >= 1

    reader.reload()
    open_search(reader)
    search(reader, "plantedword")
    expect(reader.locator(".md-search-result__meta")).to_have_text(re.compile("No matching documents"), timeout=30_000)
    expect(reader.get_by_text("Planted result")).to_have_count(0)

    go_offline(context, site)  # the index fetched again was kept
    reader.reload()
    open_search(reader)
    search(reader, "power")
    expect(reader.locator(".md-search-result__item").first).to_be_visible(timeout=30_000)
    search(reader, "plantedword")
    expect(reader.locator(".md-search-result__meta")).to_have_text(re.compile("No matching documents"), timeout=30_000)
    assert errors == []
