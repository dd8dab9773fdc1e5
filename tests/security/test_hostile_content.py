"""The hostile content corpus, built with the real pipeline and played in Chromium.

No payload may run on any page (each would set ``window.pwned``); every plain-text value must
be visible as typed, every Markdown value its harmless words; `check` names each Markdown field
whose HTML the sanitiser removes.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.pipeline import load_map
from generator.project import Project
from tests.conftest import ROOT, build_project, free_port, serve_folder
from tests.security.hostile_content import Case, hostile_corpus, write_hostile_project


@dataclass(frozen=True)
class HostileSite:
    root: Path
    site: Path
    url: str
    cases: list[Case]


def _corpus_root(tmp: Path) -> tuple[Path, list[Case]]:
    shutil.copy(ROOT / "mkdocs.yml", tmp / "mkdocs.yml")
    return tmp, write_hostile_project(tmp)


CASES = hostile_corpus()[1]


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostileSite]:
    root, cases = _corpus_root(tmp_path_factory.mktemp("hostile"))
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    site = build_project(root, url)
    server = serve_folder(site, port)
    yield HostileSite(root, site, url, cases)
    server.shutdown()


def test_the_corpus_has_at_least_forty_cases_each_field_named_once() -> None:
    names = [case.name for case in CASES]
    assert len(names) >= 40
    assert len(set(names)) == len(names)


# --- check ------------------------------------------------------------------------------


def test_check_names_file_line_and_field_of_html_the_sanitiser_removes(tmp_path: Path) -> None:
    root, _ = _corpus_root(tmp_path)
    content, _ = load_map(Project(root))
    html = [w for w in content.warnings if "raw HTML here passes an allow-list" in w.message]
    fields = {(w.file, w.path) for w in html}
    assert ("content/layer-1/hostile-0.yaml", "depths.D1.body") in fields
    assert ("content/layer-1/hostile-0.yaml", "depths.D1.flow.steps[0].detail") in fields
    assert ("content/map.yaml", "introduction") in fields
    body = next(w for w in html if w.file == "content/layer-1/hostile-0.yaml" and w.path == "depths.D1.body")
    assert "<script> (not on the allow-list), shown as text" in body.message
    line = (root / body.file).read_text().splitlines()[body.line - 1]
    assert "<script>" in line
    # a plain-text field is escaped, not sanitised: nothing to warn about
    assert not any(w.path.endswith(("title", "summary", "hook")) for w in html if w.path != "depths.D1.flow.title")


# --- the built HTML, read without a browser ------------------------------------------------


class _Live(HTMLParser):
    """Whatever in a page could run a script: handlers, script URLs, frames, inline scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._script = tag == "script"
        if tag in ("iframe", "object", "embed", "frame"):
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            text = (value or "").strip().lower()
            if name.startswith("on"):
                self.found.append(f"{name} on <{tag}>")
            if name in ("href", "src", "xlink:href", "action", "formaction") and text.startswith(("javascript:", "data:")):
                self.found.append(f"{name}={text[:30]} on <{tag}>")

    def handle_data(self, data: str) -> None:
        if self._script and "pwned" in data:
            self.found.append(f"<script>{data[:40]}")

    def handle_endtag(self, tag: str) -> None:
        self._script = False


def test_no_built_page_holds_a_live_payload(hostile_site: HostileSite) -> None:
    found = {}
    for page in sorted(hostile_site.site.rglob("*.html")):
        scan = _Live()
        scan.feed(page.read_text(encoding="utf-8"))
        if scan.found:
            found[page.relative_to(hostile_site.site).as_posix()] = scan.found
    assert found == {}


def test_the_search_index_holds_titles_and_text_as_escaped_html(hostile_site: HostileSite) -> None:
    """Material shows search results as HTML: a title must arrive there escaped."""
    docs = json.loads((hostile_site.site / "search" / "search_index.json").read_text())["docs"]
    raw_tag = re.compile(r"<\s*(script|img|svg|iframe|details|style|math)\b", re.IGNORECASE)
    assert [d["location"] for d in docs if raw_tag.search(d["title"]) or raw_tag.search(d["text"])] == []
    titles = " ".join(d["title"] for d in docs)
    assert "title/script &lt;script&gt;" in titles


def test_front_matter_values_cannot_leave_title_or_meta(hostile_site: HostileSite) -> None:
    page = (hostile_site.site / "layer-2" / "hostile-3" / "index.html").read_text()
    title = re.search(r"<title>(.*?)</title>", page, re.DOTALL).group(1)
    assert title.startswith("title/title-breakout &lt;/title&gt;&lt;img")
    meta = re.search(r'<meta name="description" content="([^"]*)">', page).group(1)
    assert meta.startswith("summary/title-breakout &lt;/title&gt;")


# --- in Chromium ---------------------------------------------------------------------------

OPEN_DETAILS = "document.querySelectorAll('details').forEach(d => { d.open = true; })"


@dataclass(frozen=True)
class Visit:
    pwned: object
    text: str  # the page's visible text, white space collapsed
    title: str
    description: str | None
    dialogs: int
    config: str  # the tag of the element the theme reads as its config (#__config): the theme's <script>


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def visits(hostile_site: HostileSite, browser) -> dict[str, Visit]:  # noqa: ANN001
    """Every page of the site, loaded once: whether a payload ran and what a reader sees."""
    context = browser.new_context()
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    elsewhere: list[str] = []
    page.on("request", lambda request: elsewhere.append(request.url) if not request.url.startswith(hostile_site.url) else None)
    found = {}
    paths = sorted(p.parent.relative_to(hostile_site.site).as_posix() for p in hostile_site.site.rglob("index.html"))
    for path in ["" if p == "." else p + "/" for p in paths]:
        before = len(dialogs)
        page.goto(hostile_site.url + path)
        page.wait_for_load_state("load")
        page.evaluate(OPEN_DETAILS)
        page.wait_for_timeout(150)  # lets any onerror/ontoggle fire
        found[path] = Visit(
            pwned=page.evaluate("window.pwned"),
            text=_words(page.evaluate("document.body.innerText")),
            title=page.title(),
            description=page.evaluate("document.querySelector('meta[name=description]')?.content ?? null"),
            dialogs=len(dialogs) - before,
            config=page.evaluate("document.getElementById('__config')?.tagName ?? ''"),
        )
    context.close()
    assert elsewhere == []  # no page asks another host for anything (an image by a backslash URL, …)
    return found


@pytest.mark.browser
def test_no_payload_runs_on_any_page(visits: dict[str, Visit]) -> None:
    assert len(visits) >= 12
    assert {path: v.pwned for path, v in visits.items() if v.pwned is not None or v.dialogs} == {}


@pytest.mark.browser
def test_the_theme_reads_its_own_config_on_every_page(visits: dict[str, Visit]) -> None:
    assert {path: v.config for path, v in visits.items() if v.config != "SCRIPT"} == {}


@pytest.mark.browser
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_each_value_reads_as_text_where_it_belongs(case: Case, visits: dict[str, Visit]) -> None:
    assert _words(case.visible) in visits[case.page].text


@pytest.mark.browser
def test_title_and_description_show_exactly_as_typed(visits: dict[str, Visit]) -> None:
    topic = CASES[[c.name for c in CASES].index("title/title-breakout")]
    summary = CASES[[c.name for c in CASES].index("summary/title-breakout")]
    visit = visits[topic.page]
    assert visit.title.startswith(_words(topic.value) + " - ")
    assert visit.description == _words(summary.value)


@pytest.mark.browser
def test_search_results_show_a_hostile_title_as_text(hostile_site: HostileSite, page) -> None:  # noqa: ANN001
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(hostile_site.url)
    page.keyboard.press("s")  # Material's search shortcut
    page.locator("input.md-search__input").press_sequentially("onerror", delay=20)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=10000)
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned") is None
    shown = _words(page.locator(".md-search-result").inner_text())
    assert "<img src=x onerror=" in shown
