"""The engine's page cache (generator/emit/engine/page_cache.py, an engine hook) on a small MkDocs project:
a warm build converts nothing and writes the same site; a changed page, or a changed set of files,
is converted again; a broken link fails a strict build with or without the cache."""

from __future__ import annotations

import filecmp
import os
import shutil
import time
from functools import partial
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort
from mkdocs.structure.pages import Page

from generator.emit import page_store
from generator.emit.docs_tree import PAGE_CACHE, PAGE_CACHE_HOOK, PAGE_CACHE_SIBLINGS, SANITISER, SANITISER_HOOK
from generator.emit.engine import page_cache, page_workers

CONFIG = f"""site_name: cache test
theme:
  name: material
  font: false
plugins:
  - search
markdown_extensions:
  - attr_list
  - md_in_html
  - toc:
      permalink: true
validation:
  links:
    not_found: warn
    anchors: warn
hooks:
  - {SANITISER_HOOK}
  - {PAGE_CACHE_HOOK}
"""
PAGES = {
    "index.md": "# Home\n\nSee [the second page](second.md#details) and [the third](third.md).\n",
    "second.md": "# Second\n\n## Details\n\n<div markdown>A *raw* block <script>x()</script></div>\n",
    "third.md": "# Third\n\nBack [home](index.md).\n\n## Notes {: #notes }\n\nText.\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    for name, text in PAGES.items():
        (tmp_path / "docs" / name).write_text(text, encoding="utf-8")
    (tmp_path / "hooks").mkdir()
    shutil.copy(SANITISER, tmp_path / SANITISER_HOOK)
    shutil.copy(PAGE_CACHE, tmp_path / PAGE_CACHE_HOOK)
    for sibling, copy in PAGE_CACHE_SIBLINGS.items():
        shutil.copy(sibling, tmp_path / copy)
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    return tmp_path


@pytest.fixture
def conversions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages the engine converts (its Page.render), by source path."""
    converted: list[str] = []
    render = Page.render

    def counting(self: Page, config: object, files: object) -> None:
        converted.append(self.file.src_uri)
        render(self, config, files)

    monkeypatch.setattr(Page, "render", counting)
    return converted


def build_into(project: Path, site: str) -> Path:
    build(load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(project / site), strict=True))
    return project / site


def same_files(a: Path, b: Path) -> bool:
    names = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    if names != sorted(p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file()):
        return False
    return all(filecmp.cmp(a / name, b / name, shallow=False) for name in names)


def test_a_warm_build_converts_nothing_and_writes_the_same_site(project: Path, conversions: list[str]) -> None:
    cold = build_into(project, "cold")
    assert sorted(conversions) == sorted(PAGES)
    conversions.clear()
    warm = build_into(project, "warm")
    assert conversions == []
    assert same_files(cold, warm)
    html = (warm / "second" / "index.html").read_text(encoding="utf-8")
    assert "<script>x()" not in html and "<em>raw</em>" in html  # the sanitised, converted content
    assert 'href="#details"' in html  # the table of contents, rebuilt from the entry


def test_the_site_is_the_same_as_one_built_without_the_cache(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    build_into(project, "cold")
    warm = build_into(project, "warm")
    plain = tmp_path_factory.mktemp("plain")
    shutil.copytree(project / "docs", plain / "docs")
    shutil.copytree(project / "hooks", plain / "hooks")
    (plain / "mkdocs.yml").write_text(CONFIG.replace(f"  - {PAGE_CACHE_HOOK}\n", ""), encoding="utf-8")
    assert same_files(build_into(plain, "site"), warm)


def test_a_changed_page_alone_is_converted_again(project: Path, conversions: list[str]) -> None:
    build_into(project, "cold")
    conversions.clear()
    (project / "docs" / "third.md").write_text("# Third\n\nChanged words.\n", encoding="utf-8")
    site = build_into(project, "warm")
    assert conversions == ["third.md"]
    assert "Changed words." in (site / "third" / "index.html").read_text(encoding="utf-8")


def test_a_changed_set_of_files_converts_every_page_again(project: Path, conversions: list[str]) -> None:
    build_into(project, "cold")
    conversions.clear()
    (project / "docs" / "fourth.md").write_text("# Fourth\n", encoding="utf-8")
    build_into(project, "warm")
    assert sorted(conversions) == sorted([*PAGES, "fourth.md"])


@pytest.mark.parametrize(("link", "said"), [("missing.md", "is not found among documentation files"),
                                             ("third.md#nowhere", "does not contain an anchor '#nowhere'")])
def test_a_broken_link_fails_a_strict_build_with_the_cache_too(project: Path, link: str, said: str,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    build_into(project, "cold")
    (project / "docs" / "index.md").write_text(f"# Home\n\nA [broken link]({link}).\n", encoding="utf-8")
    for site in ("first", "second"):  # the second build finds the page in the cache
        caplog.clear()
        with pytest.raises(Abort):
            build_into(project, site)
        assert any(said in message for message in caplog.messages)
    assert len(list((project / "cache" / page_store.PAGES).glob("*.json"))) == len(PAGES) + 1


def test_search_entries_are_kept_and_the_index_is_the_same(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cold = build_into(project, "cold")
    assert len(list((project / "cache" / page_store.SEARCH).glob("*.json"))) == len(PAGES)
    from material.plugins.search.plugin import Parser

    monkeypatch.setattr(Parser, "feed", lambda *_: pytest.fail("a page was parsed for search again"))
    warm = build_into(project, "warm")
    index = "search/search_index.json"
    assert (cold / index).read_bytes() == (warm / index).read_bytes()


def test_the_theme_search_index_has_what_the_cache_relies_on(project: Path) -> None:
    """Material's SearchIndex: an ``add_entry_from_context(page)`` that appends to ``entries``,
    and its ``config``; the cache wraps the first and reads the others."""
    from material.plugins.search.plugin import SearchIndex

    config = load_config(config_file=str(project / "mkdocs.yml"))
    config = config.plugins.on_config(config)
    index = page_cache.search_index_of(config)
    assert isinstance(index, SearchIndex)
    assert isinstance(index.entries, list) and isinstance(index.config, dict)
    assert index.add_entry_from_context.__name__ == "add_entry_from_context"
    assert index.add_entry_from_context.__qualname__.startswith("cache_search_entries")  # wrapped by the hook


def test_unused_entries_are_removed(tmp_path: Path) -> None:
    old, fresh = tmp_path / "pages" / "old.json", tmp_path / "search" / "fresh.json"
    for path in (old, fresh):
        page_store.write_entry(path, {"x": 1})
    long_ago = time.time() - 3600
    os.utime(old, (long_ago, long_ago))
    assert page_store.remove_unused(tmp_path, time.time() - 60) == 1
    assert not old.exists() and fresh.exists()


def test_pages_converted_alongside_are_not_converted_again(project: Path, conversions: list[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """During the build a forked process converts one share of the pages the cache lacks (about
    half their Markdown, the largest page in it); this process converts the other share, and the
    site is the one a build converting every page here makes."""
    monkeypatch.setattr(page_workers, "MIN_PAGES", 1)
    with page_workers.pages_read_alongside():
        site = build_into(project, "site")
    assert conversions and len(conversions) < len(PAGES)  # the others were converted in the other process
    longest = max(PAGES, key=lambda name: len(PAGES[name]))
    assert conversions == [name for name in PAGES if name != longest]  # the longest page went to the other process
    conversions.clear()
    with page_workers.pages_read_alongside():
        build_into(project, "again")
    assert conversions == []  # nothing missing now: every page from the cache
    shutil.rmtree(project / "cache")
    assert same_files(build_into(project, "alone"), site)


def test_a_cache_that_cannot_be_written_only_costs_time(project: Path, conversions: list[str]) -> None:
    (project / "cache").write_text("not a folder", encoding="utf-8")  # nothing can be stored under it
    first = build_into(project, "first")
    second = build_into(project, "second")
    assert sorted(conversions) == sorted([*PAGES, *PAGES])  # converted both times
    assert same_files(first, second)


def test_the_pages_the_cache_lacks_are_those_the_hook_would_not_find(project: Path) -> None:
    config, files, _ = engine_state(project / "mkdocs.yml")
    page_of = partial(page_workers._page_of, config, files)
    assert [src_uri for _, src_uri in page_workers.missing_pages(config, files, page_of)] == list(PAGES)
    build_into(project, "site")
    config, files, _ = engine_state(project / "mkdocs.yml")
    assert page_workers.missing_pages(config, files, partial(page_workers._page_of, config, files)) == []


def engine_state(config_file: Path) -> tuple:
    """The engine's config, files and navigation, as its build has them before it reads the pages."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files, set_exclusions
    from mkdocs.structure.nav import get_navigation

    config = load_config(config_file=str(config_file))
    config = config.plugins.on_config(config)
    files = get_files(config)
    files.add_files_from_theme(config.theme.get_env(), config)
    files = config.plugins.on_files(files, config=config)
    set_exclusions(files, config)
    return config, files, config.plugins.on_nav(get_navigation(files, config), config=config, files=files)


def test_a_page_from_the_cache_holds_its_content_only_while_it_is_written(project: Path) -> None:
    """Every page's content in memory at once was most of a big build's memory: a page the cache gives
    back is populated without it, and reads it just before it is written (before the theme's search)."""
    from mkdocs.commands.build import _build_page, _populate_page

    first = build_into(project, "site")  # the engine's own place, where the pages below are written again
    first = first.rename(project / "first")
    config, files, nav = engine_state(project / "mkdocs.yml")
    pages = [page_workers._page_of(config, files, file.src_uri) for file in files.documentation_pages()]
    for page in pages:
        _populate_page(page, config, files)
    assert [page.content for page in pages] == ["", "", ""]
    assert pages[0].toc and pages[0].present_anchor_ids  # what the engine reads of every page is there
    env = config.theme.get_env()
    for page in pages:
        _build_page(page, config, files.documentation_pages(), nav, env)
    for name in PAGES:
        html = name.replace(".md", "/index.html") if name != "index.md" else "index.html"
        assert (project / "site" / html).read_bytes() == (first / html).read_bytes()


def test_a_cache_entry_gone_before_its_page_is_written_fails_with_what_to_do(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    entry = tmp_path / "entry.json"
    entry.write_text(page_store.page_entry_text({"content": "<p>kept</p>", "toc": []}), encoding="utf-8")
    page = SimpleNamespace(file=SimpleNamespace(src_uri="a.md"), content="")
    page_cache._build.unread["a.md"] = (entry, 0)
    page_cache.on_page_context({}, page=page)
    assert page.content == "<p>kept</p>"
    page_cache._build.unread["a.md"] = (tmp_path / "gone.json", 0)
    with pytest.raises(PluginError, match=r"a\.md .*went missing during the build; build again"):
        page_cache.on_page_context({}, page=SimpleNamespace(file=SimpleNamespace(src_uri="a.md"), content=""))
