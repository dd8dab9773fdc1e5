"""The engine's pages written on two cores: the same site, search entries in order, nothing unsaid."""

from __future__ import annotations

import logging
import multiprocessing
import shutil
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from generator.cli import main
from generator.emit.engine import page_writers
from generator.render.paths import OFFLINE_COPY
from tests.conftest import ROOT

MINI = ROOT / "tests" / "fixtures" / "mini"


# --- the loop, with stand-ins for the engine's pages ------------------------------------------------


class _Search:
    """Stands in for the theme's search plugin: ``search_index`` with entries and the method that adds them."""

    def __init__(self) -> None:
        self.search_index = SimpleNamespace(entries=[], add_entry_from_context=lambda page: None)


def _engine(pages: int, handlers: dict | None = None) -> tuple[SimpleNamespace, list]:
    search = _Search()
    plugins = SimpleNamespace(values=lambda: [search], events=handlers or {})
    config = SimpleNamespace(plugins=plugins, site_url="https://example.org/")
    files = [SimpleNamespace(page=SimpleNamespace(file=SimpleNamespace(dest_uri=f"p{n}/index.html", src_uri=f"p{n}.md"), number=n))
             for n in range(pages)]
    for file in files:
        file.page.file.page = file.page
    return config, files


def _run(config: SimpleNamespace, files: list, finished: list,
         all_written: page_writers.AllWritten | None = None) -> page_writers.PageLoop:
    def write_page(page, config, doc_files, *rest, **named) -> None:  # noqa: ANN001, ARG001 - MkDocs' signature
        config.plugins.values()[0].search_index.entries.append(f"entry of page {page.number}")
        if page.number == 7:
            logging.getLogger("mkdocs.test").warning("page 7 says: a link points nowhere")

    loop = page_writers.PageLoop(write_page, lambda name, url: finished.append((name, url)), all_written=all_written)
    page_writers._loop = loop
    try:
        for file in files:
            loop(file.page, config, files, False)
    finally:
        page_writers._loop = None
    return loop


def test_pages_are_shared_out_and_search_entries_come_back_in_the_engines_order(caplog: pytest.LogCaptureFixture) -> None:
    config, files = _engine(page_writers.MIN_PAGES + 6)
    finished: list = []
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        loop = _run(config, files, finished)
    assert sorted(loop.written) == sorted(f"p{n}/index.html" for n in range(len(files)))
    assert config.plugins.values()[0].search_index.entries == [f"entry of page {n}" for n in range(len(files))]
    assert list(loop.search_entries.items()) == [(f"p{n}.md", [f"entry of page {n}"]) for n in range(len(files))]
    # this process wrote and finished the even pages; the forked one the odd pages (page 7 among them)
    assert finished == [(f"p{n}/index.html", "https://example.org/") for n in range(0, len(files), 2)]
    said = [r.getMessage() for r in caplog.records if "page 7" in r.getMessage()]
    assert said == ["page 7 says: a link points nowhere"]  # said once, by this process


@pytest.mark.parametrize("pages", [3, page_writers.MIN_PAGES + 6])
def test_the_loop_says_once_that_every_page_is_written_and_finished(pages: int) -> None:
    """The build's tail (the copy's zip) starts from there, while the engine ends its build."""
    config, files = _engine(pages)
    finished: list = []
    told = []
    loop = _run(config, files, finished, lambda written, url: told.append((sorted(written), url, len(finished))))
    here = len(range(0, pages, 2)) if pages > page_writers.MIN_PAGES else pages  # the pages this process finished
    assert told == [(sorted(loop.written), "https://example.org/", here)]
    assert len(loop.written) == pages


def test_few_pages_are_written_here_in_order() -> None:
    config, files = _engine(3)
    finished: list = []
    assert _run(config, files, finished).written == ["p0/index.html", "p1/index.html", "p2/index.html"]
    assert [name for name, _ in finished] == ["p0/index.html", "p1/index.html", "p2/index.html"]


def test_an_unknown_plugin_acting_while_pages_render_keeps_them_here() -> None:
    def on_page_context(context, **_: object) -> object:  # noqa: ANN001 - might keep state a fork would lose
        return context

    config, files = _engine(page_writers.MIN_PAGES + 2, {"page_context": [on_page_context]})
    assert not page_writers.can_share(config)
    finished: list = []
    _run(config, files, finished)
    assert [name for name, _ in finished] == [f"p{n}/index.html" for n in range(len(files))]


def test_the_generated_configs_render_handlers_are_all_known(tmp_path: Path) -> None:
    from mkdocs.config import load_config

    root = _project(tmp_path)
    assert main(["--project", str(root), "build"]) == 0
    config = load_config(config_file=str(root / ".layermap" / "mkdocs.yml"))
    config = config.plugins.on_config(config)
    assert config.plugins.events["page_context"]  # the theme's search and the page cache
    assert not config.plugins.events["post_page"]  # the head script is layermap's finishing step now, not a hook
    assert page_writers.can_share(config)


# --- a real build: the same site either way ---------------------------------------------------------


def _project(folder: Path) -> Path:
    shutil.copytree(MINI / "content", folder / "content")
    shutil.copy(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
    return folder


def _site_files(site: Path) -> dict[str, bytes]:
    files = {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    with zipfile.ZipFile(site / OFFLINE_COPY) as archive:  # the zip's entries carry file times: compare contents
        files[OFFLINE_COPY] = b"".join(name.encode() + archive.read(name) for name in archive.namelist())
    return files


def test_a_site_written_on_two_cores_is_the_site_written_on_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_writers, "MIN_PAGES", 1)
    shared = _project(tmp_path / "shared")
    assert main(["--project", str(shared), "build"]) == 0
    monkeypatch.setattr(page_writers, "MIN_PAGES", 10**9)
    alone = _project(tmp_path / "alone")
    assert main(["--project", str(alone), "build"]) == 0
    assert _site_files(shared / "site") == _site_files(alone / "site")


def test_a_template_error_in_the_forked_share_fails_the_build_and_keeps_the_previous_site(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(page_writers, "MIN_PAGES", 1)
    root = _project(tmp_path)
    assert main(["--project", str(root), "build"]) == 0
    before = {p.relative_to(root / "site"): p.read_bytes() for p in (root / "site").rglob("*") if p.is_file()}
    from mkdocs.commands import build

    write_page = build._build_page

    def fails_in_the_forked_process(page, *args, **named) -> None:  # noqa: ANN001
        if multiprocessing.parent_process() is not None:
            raise RuntimeError("template failed")
        write_page(page, *args, **named)

    monkeypatch.setattr(build, "_build_page", fails_in_the_forked_process)
    assert main(["--project", str(root), "build", "--clean"]) != 0
    assert "template failed" in capsys.readouterr().err
    assert {p.relative_to(root / "site"): p.read_bytes() for p in (root / "site").rglob("*") if p.is_file()} == before


def test_the_pages_the_cache_lacks_converted_alongside_make_the_same_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked process converts a share of the pages the cache lacks while this one converts the
    other share: the site is the one the engine makes converting every page itself, in its order."""
    from generator.emit.engine import page_workers

    monkeypatch.setattr(page_workers, "MIN_PAGES", 1)
    started = []
    start = page_workers.ReadAlongside._start
    monkeypatch.setattr(page_workers.ReadAlongside, "_start", lambda self, *a: started.append(start(self, *a)) or started[-1])
    alongside = _project(tmp_path / "alongside")
    assert main(["--project", str(alongside), "build"]) == 0
    assert started and started[0], "a share of the pages went to the other process"
    monkeypatch.setattr(page_workers, "fork_context", lambda: None)
    alone = _project(tmp_path / "alone")
    assert main(["--project", str(alone), "build"]) == 0
    assert started[1] == set()
    assert _site_files(alongside / "site") == _site_files(alone / "site")


def test_the_pages_the_cache_lacks_are_split_in_two_shares_of_about_the_same_markdown() -> None:
    from generator.emit.engine.page_workers import _shares

    assert _shares([(10, "a"), (10, "b"), (10, "c"), (10, "d")]) == (["a", "c"], ["b", "d"])
    # a big map: the Sources page alone against the home page and the layers, each share in the engine's order
    pages = [(28, "index.md"), (167, "sources.md"), *((8, f"layer-{n}/index.md") for n in range(1, 11))]
    assert _shares(pages) == (["sources.md"], ["index.md", *(f"layer-{n}/index.md" for n in range(1, 11))])
    assert _shares([(5, "x.md"), (90, "big.md"), (5, "y.md")]) == (["big.md"], ["x.md", "y.md"])
    assert _shares([(7, "only.md")]) == (["only.md"], [])
