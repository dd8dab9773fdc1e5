"""`layermap serve`'s regeneration reuses what an edit did not touch, and still writes exactly the
tree a cold generation writes: after every kind of edit, file by file."""

from __future__ import annotations

import gc
import os
import pickle
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mini_project import MiniProject

from generator import incremental
from generator.content.schema import Topic
from generator.diagnostics import ContentError
from generator.errors import LayermapError
from generator.incremental import Regenerator, build
from generator.pipeline import generate
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]


def tree_files(out_dir: Path) -> dict[str, bytes]:
    """Every file of the tree by its path; the prerendered pages by page, each its record (their packs
    are named at random, and hold the pages in the order they were rendered)."""
    from tests.generator.emit.engine.test_prerendered import kept_records

    prerendered = out_dir / "prerendered"
    files = {p.relative_to(out_dir).as_posix(): p.read_bytes() for p in sorted(out_dir.rglob("*"))
             if p.is_file() and prerendered not in p.parents}
    return files | {f"prerendered/{page}": record for page, record in kept_records(prerendered).items()}


def cold_tree(project: Project, out_dir: Path) -> dict[str, bytes]:
    generate(project, out_dir, serving=True)
    return tree_files(out_dir)


def replace_in(mini: MiniProject, name: str, old: str, new: str) -> None:
    path = mini.content / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


EDITS: dict[str, Callable[[MiniProject], None]] = {
    "a depth's prose": lambda m: replace_in(m, "layer-2/chips.yaml", "very fast.", "very fast, billions of times a second."),
    "a title": lambda m: replace_in(m, "layer-2/chips.yaml", "title: Chips", "title: Silicon chips"),
    "a summary": lambda m: replace_in(m, "layer-2/boards.yaml", "Where chips are mounted.", "Where chips sit."),
    "an edge": lambda m: replace_in(m, "layer-1/power.yaml", "verb: powers", "verb: feeds"),
    "a new citation": lambda m: replace_in(m, "layer-2/chips.yaml", "very fast.", "very fast [@smith2020]."),
    "a source's record": lambda m: replace_in(m, "sources.yaml", "All about power", "All about electric power"),
    "the map's settings": lambda m: replace_in(m, "map.yaml", "title:", "title: Renamed ·"),
    "a new topic": lambda m: m.write("layer-2/sockets.yaml", (m.content / "layer-2" / "boards.yaml").read_text(
        encoding="utf-8").replace("id: boards", "id: sockets").replace("title: Boards", "title: Sockets")),
    "a removed topic": lambda m: m.remove("layer-2/boards.yaml"),
}


@pytest.fixture(autouse=True)
def page_keys_read_again_after() -> Iterator[None]:
    """Some tests here move the cache folder (XDG_CACHE_HOME), and the generator's page keys keep
    the machine key they first read: read it again after each test, or a later test in this
    process keys its prerendered pages with a key the engine's hook does not use (and the engine
    converts them itself: seen in test_prerendered, test_page_cache and test_live under xdist)."""
    yield
    from generator.emit import page_keys

    page_keys.machine_key.cache_clear()


@pytest.fixture
def project(mini: MiniProject) -> Project:
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    return Project(mini.root)


@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_a_regenerated_tree_equals_a_cold_one_after(edit: str, project: Project, mini: MiniProject, tmp_path: Path) -> None:
    regenerator = Regenerator(project, out_dir=tmp_path / "served")
    regenerator.regenerate()
    EDITS[edit](mini)
    done = regenerator.regenerate()
    served = tree_files(tmp_path / "served")
    cold = cold_tree(project, tmp_path / "cold")
    assert served.keys() == cold.keys()
    assert [name for name in served if served[name] != cold[name]] == []
    assert done.changed, "an edit that changes pages reports what it changed"


def test_a_prose_edit_renders_only_that_topic_page(project: Project, mini: MiniProject, tmp_path: Path) -> None:
    regenerator = Regenerator(project, out_dir=tmp_path / "served")
    first = regenerator.regenerate()
    EDITS["a depth's prose"](mini)
    done = regenerator.regenerate()
    assert first.pages_rendered > 3
    assert done.pages_rendered == 1
    assert done.changed == {"layer-2/chips.md"}


def test_a_title_edit_renders_every_page_and_changes_the_engine_config(project: Project, mini: MiniProject,
                                                                      tmp_path: Path) -> None:
    regenerator = Regenerator(project, out_dir=tmp_path / "served")
    first = regenerator.regenerate()
    EDITS["a title"](mini)
    done = regenerator.regenerate()
    assert done.pages_rendered == first.pages_rendered
    assert "mkdocs.yml" in done.changed  # the navigation names the page


def test_nothing_changed_writes_nothing(project: Project, tmp_path: Path) -> None:
    regenerator = Regenerator(project, out_dir=tmp_path / "served")
    regenerator.regenerate()
    again = regenerator.regenerate()
    assert again.changed == set()


def test_a_bad_edit_raises_and_the_next_good_one_recovers(project: Project, mini: MiniProject, tmp_path: Path) -> None:
    regenerator = Regenerator(project, out_dir=tmp_path / "served")
    regenerator.regenerate()
    replace_in(mini, "layer-2/chips.yaml", "layer: 2", "layer: 99")
    with pytest.raises(ContentError, match="layer"):
        regenerator.regenerate()
    replace_in(mini, "layer-2/chips.yaml", "layer: 99", "layer: 2")
    EDITS["a depth's prose"](mini)
    regenerator.regenerate()
    assert tree_files(tmp_path / "served") == cold_tree(project, tmp_path / "cold")


# --- `layermap build` reuses the last build's work ------------------------------------------------

def test_a_build_with_nothing_changed_keeps_the_site_and_any_change_builds_again(
        project: Project, mini: MiniProject, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("LAYERMAP_SITE_URL", "")
    assert build(project).engine_ran
    assert not build(project).engine_ran
    EDITS["a depth's prose"](mini)
    assert build(project).engine_ran
    assert b"billions of times a second" in (project.site_dir / "layer-2/chips/index.html").read_bytes()
    assert not build(project).engine_ran
    (project.site_dir / "index.html").write_text("changed by hand", encoding="utf-8")
    assert build(project).engine_ran
    assert "changed by hand" not in (project.site_dir / "index.html").read_text(encoding="utf-8")
    monkeypatch.setenv("LAYERMAP_SITE_URL", "https://example.org/map/")
    assert build(project).engine_ran
    assert build(project, clean=True).engine_ran


def test_a_warm_build_writes_the_same_tree_as_a_cold_one(project: Project, mini: MiniProject,
                                                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    first = Regenerator(project, serving=False, out_dir=tmp_path / "warm")
    first.regenerate()
    first.keep()
    EDITS["a new citation"](mini)
    warm = Regenerator(project, serving=False, out_dir=tmp_path / "warm").restore()
    done = warm.regenerate()
    assert done.pages_rendered < first.pages.texts.__len__()  # the kept pages were reused
    generate(project, tmp_path / "cold")
    cold = tree_files(tmp_path / "cold")
    assert {k: v for k, v in tree_files(tmp_path / "warm").items() if not k.startswith("cache/")} == cold


class _EngineWouldStart(Exception):
    pass


@pytest.mark.parametrize("fork", [True, False], ids=["docs tree written apart", "no fork"])
def test_the_engine_starts_with_the_map_freed(fork: bool, project: Project, monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    """The engine's processes fork from the build's: no topic of the map may be alive then (the
    docs tree is written by a process of its own or, with no fork, the memories that pages and
    checks keep are emptied once it is written)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if not fork:
        monkeypatch.setattr(incremental, "fork_context", lambda: None)
    alive: list[int] = []

    def topics() -> list[Topic]:
        gc.collect()
        return [thing for thing in gc.get_objects() if isinstance(thing, Topic)]

    earlier = topics()  # other tests' (held here, so that no new topic can take one's identity)
    known = {id(topic) for topic in earlier}

    def count_topics(*_: object) -> None:
        alive.append(sum(1 for topic in topics() if id(topic) not in known))
        raise _EngineWouldStart

    Regenerator(project, serving=False).regenerate()  # the map is read, and remembered, at least once
    with pytest.raises(_EngineWouldStart):
        build(project, before_engine=count_topics)
    assert alive == [0]


def test_the_docs_tree_is_written_by_a_process_forked_for_it(project: Project, monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    writers = tmp_path / "writers.txt"
    regenerate = Regenerator.regenerate

    def noting_the_process(self: Regenerator) -> object:
        with writers.open("a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        return regenerate(self)

    def stop(*_: object) -> None:
        raise _EngineWouldStart

    monkeypatch.setattr(Regenerator, "regenerate", noting_the_process)
    with pytest.raises(_EngineWouldStart):
        build(project, before_engine=stop)
    pids = writers.read_text(encoding="utf-8").split()
    assert len(pids) == 1 and int(pids[0]) != os.getpid()
    assert (project.root / ".layermap" / "mkdocs.yml").is_file()  # what it wrote is there for the engine


def test_bad_content_in_the_forked_generation_arrives_with_every_diagnostic(project: Project, mini: MiniProject,
                                                                            monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    replace_in(mini, "layer-2/chips.yaml", "layer: 2", "layer: 99")
    with pytest.raises(ContentError) as caught:
        build(project)
    errors = [d for d in caught.value.log.items if d.severity == "error"]
    assert errors and all(d.file.endswith("layer-2/chips.yaml") for d in errors)
    assert "layer" in caught.value.log.report() and not project.site_dir.exists()


def test_an_error_with_a_fix_crosses_from_a_forked_process_whole() -> None:
    error = pickle.loads(pickle.dumps(LayermapError("the engine failed", "fix the theme")))
    assert (type(error), error.message, error.hint) == (LayermapError, "the engine failed", "fix the theme")


@pytest.mark.parametrize("address", ["https://example.org/map", ""])
def test_the_site_url_read_ahead_while_the_tree_is_written_is_the_engine_configs(
        address: str, project: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """While the forked process writes the docs tree, this one reads the site URL from the project's
    own config (importing the engine meanwhile): the same URL the engine config gives."""
    from generator.emit import engine

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("LAYERMAP_SITE_URL", address)
    ahead, seen = [], []
    read_ahead = engine.site_url_ahead
    monkeypatch.setattr(incremental, "site_url_ahead", lambda *a: ahead.append((os.getpid(), read_ahead(*a))) or ahead[-1][1])

    def stop(_: object, site_url: str) -> None:
        seen.append(site_url)
        raise _EngineWouldStart

    with pytest.raises(_EngineWouldStart):
        build(project, before_engine=stop)
    assert ahead == [(os.getpid(), "https://example.org/map/" if address else "")]
    assert seen == [engine.configured_site_url(project.work_dir / "mkdocs.yml")] == [ahead[0][1]]


def test_a_project_config_that_cannot_be_read_ahead_is_reported_from_the_engine_config(
        project: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from generator.emit import engine

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    config = project.base_config
    config.write_text(config.read_text(encoding="utf-8").replace("  name: material\n", "  name: no-such-theme\n", 1), encoding="utf-8")
    assert engine.site_url_ahead(config, project.content_dir) is None
    with pytest.raises(LayermapError) as caught:
        build(project)
    assert "site engine (MkDocs) failed" in caught.value.message and "no-such-theme" in caught.value.message


# --- `layermap serve`: the page under edit first, the rest after (issue 32 item 5) -------------------

@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_the_page_under_edit_first_then_the_rest_stopped_after_each_batch_equals_a_cold_tree(
        edit: str, project: Project, mini: MiniProject, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(incremental, "MARKDOWN_BATCH", 2)
    regenerator = Regenerator(project, out_dir=tmp_path / "served")
    regenerator.regenerate()
    EDITS[edit](mini)
    first = regenerator.regenerate(first=True)
    shares = []
    while not shares or shares[-1].pending:
        shares.append(regenerator.regenerate_rest(stopping=lambda: True))  # stopped as soon as it can
        assert shares[-1].pages_rendered <= 2
    assert regenerator.regenerate_rest().changed == set()
    served = tree_files(tmp_path / "served")
    cold = cold_tree(project, tmp_path / "cold")
    assert served.keys() == cold.keys()
    assert [name for name in served if served[name] != cold[name]] == []
    assert first.changed | {name for share in shares for name in share.changed}


@pytest.mark.parametrize(("edit", "page"), [("a title", "layer-2/chips.md"), ("a summary", "layer-2/boards.md")])
def test_a_first_step_writes_the_page_under_edit_and_leaves_the_pages_that_list_it(
        edit: str, page: str, project: Project, mini: MiniProject, tmp_path: Path) -> None:
    regenerator = Regenerator(project, out_dir=tmp_path / "served")
    everything = regenerator.regenerate().pages_rendered
    EDITS[edit](mini)
    first = regenerator.regenerate(first=True)
    assert first.pages_rendered == 1 and page in first.changed
    assert first.pending == everything - 1  # the topic's face changed: every other page may show it
    rest = regenerator.regenerate_rest()
    assert rest.pending == 0 and rest.pages_rendered == everything - 1
    assert "layer-2/index.md" in rest.changed and "layer-2/index.md" not in first.changed  # the layer lists it
    assert ("mkdocs.yml" in first.changed) == (edit == "a title")  # the navigation is written at once


def test_a_first_step_with_no_topic_changed_or_a_page_gone_renders_everything(project: Project, mini: MiniProject,
                                                                               tmp_path: Path) -> None:
    regenerator = Regenerator(project, out_dir=tmp_path / "served")
    everything = regenerator.regenerate().pages_rendered
    EDITS["the map's settings"](mini)
    assert regenerator.regenerate(first=True).pending == 0
    EDITS["a removed topic"](mini)  # with a title edit in the same burst
    EDITS["a title"](mini)
    done = regenerator.regenerate(first=True)
    assert done.pending == 0 and done.pages_rendered == everything - 1


@pytest.mark.parametrize("edit", ["a source's record", "a new topic"])
def test_after_a_change_to_the_frame_only_pages_whose_markdown_changed_are_converted_again(
        edit: str, project: Project, mini: MiniProject, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A new source title (or a new topic) is in the map's frame, so every page is rendered again as
    Markdown; only the topic pages whose Markdown changed (those citing it; the new one and those
    that show it) are rendered as the engine would convert them: the others keep what was kept."""
    from generator.render import pages
    from generator.render.paths import topic_page

    regenerator = Regenerator(project, out_dir=tmp_path / "served")
    regenerator.regenerate()
    converted: list[str] = []
    convert = pages.render_topic_html
    monkeypatch.setattr(pages, "render_topic_html", lambda kmap, topic, *rest: (
        converted.append(topic_page(topic)), convert(kmap, topic, *rest))[1])
    EDITS[edit](mini)
    done = regenerator.regenerate()
    assert done.pages_rendered == len(regenerator.pages.texts)  # every page, as Markdown
    topics = {topic_page(topic) for topic in regenerator.pages.topics.values()}
    assert sorted(converted) == sorted(done.changed & topics)
    assert 0 < len(converted) < len(topics)
    assert tree_files(tmp_path / "served") == cold_tree(project, tmp_path / "cold")
