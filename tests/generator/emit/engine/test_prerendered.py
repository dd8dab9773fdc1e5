"""Topic pages the generator converted, taken up by the engine: the same site as the engine's own
conversion, byte for byte; never used for a page or a build they were not made for."""

from __future__ import annotations

import shutil
from functools import partial
from pathlib import Path

import pytest
from mini_project import MiniProject

from generator.cli import main
from generator.emit import page_store
from generator.emit.engine import build_site, prerendered
from generator.emit.engine.prerendered import PrerenderedPages, render_topic_pages
from generator.model.calculators import CalculatorBridge
from generator.pipeline import generate, load_map
from generator.project import Project
from generator.render.bibliography import map_labels, map_sources
from generator.render.pages import page_renderers, render_topic_page, topic_pages
from generator.settings import BuildSettings
from tests.conftest import ROOT
from tests.generator.emit.engine.test_page_writers import _site_files

TOPIC_PAGES = {"layer-1/power.md", "layer-2/boards.md", "layer-2/chips.md"}


@pytest.fixture
def project(mini: MiniProject) -> Project:
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    return Project(mini.root)


def kept_pages(folder: Path) -> set[str]:
    """The pages the index points at, each at a record that holds a page."""
    places = page_store.prerendered_places(folder)
    assert all(page_store.read_page_content(pack, offset, skip=1) for pack, offset in places.values())
    assert {entry.name for entry in folder.iterdir()} == {"index.json"} | {pack.name for pack, _ in places.values()}
    return set(places)


def kept_records(folder: Path) -> dict[str, bytes]:
    """Each kept page's record (its three lines), by page."""
    records = {}
    for path, (pack, offset) in page_store.prerendered_places(folder).items():
        with pack.open("rb") as stored:
            stored.seek(offset)
            records[path] = b"".join(stored.readline() for _ in range(3))
    return records


def converted_by_engine(generated: Path) -> int:
    return len(list((generated / "cache" / "pages").glob("*.json")))


def test_a_build_takes_up_every_topic_page_and_makes_the_engines_site(project: Project) -> None:
    assert main(["--project", str(project.root), "build"]) == 0
    generated = project.work_dir
    assert kept_pages(generated / "prerendered") == TOPIC_PAGES
    pages = len(list((generated / "docs").rglob("*.md")))
    assert converted_by_engine(generated) == pages - len(TOPIC_PAGES)  # home, layers, sources
    with_prerendered = _site_files(project.site_dir)
    shutil.rmtree(generated / "prerendered")
    shutil.rmtree(generated / "cache")
    build_site(generated / "mkdocs.yml", project.site_dir)
    assert converted_by_engine(generated) == pages
    assert _site_files(project.site_dir) == with_prerendered


@pytest.mark.parametrize(("setting", "supported"), [
    ("  - tables\n", True), ("  - footnotes\n", False), ("      toc_depth: 3\n", True), ("      toc_depth: 2\n", False),
    ("      toc_depth: 4\n", True), ("      toc_depth: \"1-3\"\n", False), ("      title: Contents\n", False)])
def test_the_renderer_takes_only_the_settings_it_knows(project: Project, setting: str, supported: bool) -> None:
    config = project.root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    anchor = "  - tables\n" if setting.startswith("  - ") else "      toc_depth: 3\n"
    assert anchor in text
    config.write_text(text.replace(anchor, setting, 1), encoding="utf-8")
    assert PrerenderedPages(project.work_dir, config).supported is supported


def test_a_changed_markdown_setting_makes_the_engine_convert_again(project: Project) -> None:
    assert main(["--project", str(project.root), "build"]) == 0
    config = project.root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("permalink: true", 'permalink: "#"'), encoding="utf-8")
    assert not PrerenderedPages(project.work_dir, config).supported
    shutil.rmtree(project.work_dir / "cache")  # to count what this build converts
    assert main(["--project", str(project.root), "build"]) == 0
    assert kept_pages(project.work_dir / "prerendered") == set()
    assert converted_by_engine(project.work_dir) == len(list((project.work_dir / "docs").rglob("*.md")))
    built = (project.site_dir / "layer-2" / "chips" / "index.html").read_text(encoding="utf-8")
    assert 'title="Permanent link">#</a>' in built and "&para;" not in built and "¶" not in built


def test_a_page_changed_after_it_was_prerendered_is_converted_by_the_engine(project: Project) -> None:
    generated, _ = generate(project)
    page = generated.parent / "docs" / "layer-2" / "chips.md"
    page.write_text(page.read_text(encoding="utf-8").replace("very fast", "faster than you can blink"), encoding="utf-8")
    build_site(generated, project.site_dir)
    built = (project.site_dir / "layer-2" / "chips" / "index.html").read_text(encoding="utf-8")
    assert "faster than you can blink" in built
    assert converted_by_engine(generated.parent) == len(list((generated.parent / "docs").rglob("*.md"))) - 2


def test_a_removed_topic_leaves_nothing_kept(project: Project, mini: MiniProject) -> None:
    assert main(["--project", str(project.root), "build"]) == 0
    mini.remove("layer-2/boards.yaml")
    assert main(["--project", str(project.root), "build"]) == 0
    assert kept_pages(project.work_dir / "prerendered") == TOPIC_PAGES - {"layer-2/boards.md"}


def test_topic_pages_rendered_on_two_cores_are_those_rendered_on_one(project: Project, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prerendered, "MIN_PAGES", 1)
    _, kmap = load_map(project)
    calculators = CalculatorBridge()
    labels = map_labels(map_sources(kmap, calculators))
    pages = list(page_renderers(kmap, calculators, labels=labels))
    topics = topic_pages(kmap)
    jobs = {path: partial(render_topic_page, kmap, topic, calculators, labels, BuildSettings()) for path, topic in topics.items()}
    results = {}
    for workers in (1, 2):
        kept = PrerenderedPages(tmp_path / str(workers), project.base_config)
        texts = render_topic_pages(jobs, kept, pages, workers=workers)
        results[workers] = (list(texts.items()), kept_records(kept.folder))
        packs = sorted(entry.suffix for entry in kept.folder.iterdir())
        assert packs == [".json", *[".pack"] * workers]  # the index; a pack per share (or part of one)
    assert results[1] == results[2]
    assert [path for path, _ in results[1][0]] == list(topics)
    assert len(results[1][1]) == len(topics)


def test_the_missing_pages_are_known_from_a_prerendered_pages_file_alone(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    """Working out the missing pages reads the front matter (MkDocs' ``read_source``) only of the pages whose docs
    file is not the one the generator prerendered; an edited topic page is among those, and missing."""
    from mkdocs.structure.pages import Page

    from generator.emit.engine import page_workers
    from tests.generator.emit.engine.test_page_cache import engine_state

    generated, _ = generate(project)
    page = generated.parent / "docs" / "layer-2" / "chips.md"
    page.write_text(page.read_text(encoding="utf-8").replace("very fast", "faster than you can blink"), encoding="utf-8")
    read = []
    read_source = Page.read_source
    monkeypatch.setattr(Page, "read_source", lambda self, config: (read.append(self.file.src_uri), read_source(self, config))[1])
    config, files, _ = engine_state(generated)
    missing = {src_uri for _, src_uri in page_workers.missing_pages(config, files, partial(page_workers._page_of, config, files))}
    pages = {p.relative_to(generated.parent / "docs").as_posix() for p in (generated.parent / "docs").rglob("*.md")}
    assert set(read) == pages - (TOPIC_PAGES - {"layer-2/chips.md"})
    assert missing == set(read)  # home, layers, Sources (no cache yet) and the edited page


@pytest.mark.parametrize(("config", "said"), [
    ("site_name: x\ntheme:\n  name: [material\n", 'line 3'),  # YAML that does not parse: where
    ("- just a list\n", "holds no settings"),
    ("site_name: x\nmarkdown_extensions:\n  - no_such_extension_here\n", "no_such_extension_here"),
])
def test_a_project_config_the_renderer_cannot_read_is_an_error_naming_the_file(
        project: Project, capsys: pytest.CaptureFixture[str], config: str, said: str) -> None:
    project.base_config.write_text(config, encoding="utf-8")
    assert main(["--project", str(project.root), "build"]) == 1
    err = capsys.readouterr().err
    assert "error: mkdocs.yml cannot be read:" in err and said in err
    assert "fix: correct mkdocs.yml where the message points" in err and "Traceback" not in err and "internal error" not in err
