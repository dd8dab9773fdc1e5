"""A topic page rendered by the generator is what the engine makes of the page's Markdown: for every
topic of the real map, of a synthetic one and of pages written to be awkward, the content (white
space between elements aside, which the built page collapses), the table of contents, the ids on
the page and the links to anchors are the engine's own conversion's. A page only the engine can
judge is left to it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mini_project import MiniProject

from generator.content.sanitise import on_page_content
from generator.emit.engine import collapse_whitespace, page_cache
from generator.emit.engine.prerendered import PrerenderedPages, engine_markdown, engine_stamp
from generator.emit.finishing import finished_page
from generator.emit.page_store import prerendered_places
from generator.emit.site_links import resolved_links
from generator.model.calculators import CalculatorBridge
from generator.pipeline import generate, load_map
from generator.project import Project
from generator.render.bibliography import map_labels, map_sources
from generator.render.escape import md_text
from generator.render.map import topic_map_html
from generator.render.pages import page_renderers
from generator.render.paths import built_url, topic_page
from generator.render.prose_converter import LeftToEngine, ProseConverter, plain_text
from generator.render.topic_html import render_topic_html
from tests.benchmarks.test_build_scale_content import build_scale
from tests.conftest import ROOT, copy_project


class EngineConversion:
    """The engine converting a generated tree's pages itself (MkDocs' ``Page.render`` and the
    sanitiser hook), and the generator rendering the same topics."""

    def __init__(self, root: Path) -> None:
        from mkdocs.config import load_config
        from mkdocs.structure.files import get_files

        self.project = Project(root)
        self.config_file, _ = generate(self.project, root / "generated")
        self.config = load_config(config_file=str(self.config_file))
        self.files = get_files(self.config)
        _, self.kmap = load_map(self.project)
        self.calculators = CalculatorBridge()
        self.labels = map_labels(map_sources(self.kmap, self.calculators))
        pages = page_renderers(self.kmap, self.calculators, labels=self.labels)
        extensions, configs = engine_markdown(self.project.base_config)
        self.prose = ProseConverter(extensions, configs, list(pages))

    def engine(self, src_uri: str) -> dict:
        from mkdocs.structure.pages import Page

        page = Page(None, self.files.get_file_from_path(src_uri), self.config)
        page.read_source(self.config)
        page.render(self.config, self.files)
        return page_cache.stored_page(page, on_page_content(page.content), [])

    def generator(self, topic_id: str) -> dict:
        topic = self.kmap.topics[topic_id]
        map_html = topic_map_html(self.kmap, topic, topic_page(topic))
        return render_topic_html(self.kmap, topic, self.prose, self.calculators, map_html, self.labels).entry()


def assert_same(engine: dict, generator: dict, page: str) -> None:
    """The same once each is finished as the finishing step finishes it (emit/finishing.py): each
    sanitised, its marks checked against it and dropped, layermap's site links resolved for the
    built page ``page``. (Each one's marks hold the digest of its own white space.)"""
    built = f"{built_url(page)}index.html"
    assert collapse_whitespace(finished_page(generator["content"], built)) == collapse_whitespace(finished_page(engine["content"], built))
    assert generator["content"].startswith("<!--layermap-sanitised:") and engine["content"].startswith("<!--layermap-sanitised:")
    assert generator["toc"] == engine["toc"]
    assert generator["anchors"] == engine["anchors"]
    assert generator["links"] == engine["links"]
    assert engine["title"] is None and generator["title"] is None and generator["messages"] == []


@pytest.fixture(scope="module")
def real_map(tmp_path_factory: pytest.TempPathFactory) -> EngineConversion:
    return EngineConversion(copy_project(tmp_path_factory.mktemp("real")))


@pytest.fixture(scope="module")
def synthetic_map(tmp_path_factory: pytest.TempPathFactory) -> EngineConversion:
    root = tmp_path_factory.mktemp("synthetic")
    build_scale().write_project(root, topics=60, seed=3)
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    return EngineConversion(root)


def test_every_topic_of_the_real_map_is_the_engines_page(real_map: EngineConversion) -> None:
    assert len(real_map.kmap.topics) >= 19
    for topic in real_map.kmap.topics.values():
        assert_same(real_map.engine(topic_page(topic)), real_map.generator(topic.id), topic_page(topic))


def test_every_topic_of_a_synthetic_map_is_the_engines_page(synthetic_map: EngineConversion) -> None:
    for topic in synthetic_map.kmap.topics.values():
        assert_same(synthetic_map.engine(topic_page(topic)), synthetic_map.generator(topic.id), topic_page(topic))


def test_a_link_in_prose_to_another_page_is_the_engines_link(real_map: EngineConversion) -> None:
    """A topic whose prose links another topic's page (``power-cooling.md``): its site link (its
    built URL once resolved) and no anchor."""
    page = real_map.generator("electricity-supply")
    assert 'href="layermap:layer-1/power-cooling/"' in page["content"]
    assert 'href="../power-cooling/"' in resolved_links(page["content"], "layer-1/electricity-supply/index.html")
    assert [target for target, _ in page["links"]] == ["layer-1/electricity-supply.md"]


def test_the_stamp_the_generator_writes_is_the_one_the_engine_expects(real_map: EngineConversion) -> None:
    """Were they to differ, every prerendered page would be ignored and the engine would convert it."""
    extensions, configs = engine_markdown(real_map.project.base_config)
    assert (extensions, configs) == (real_map.config["markdown_extensions"], real_map.config["mdx_configs"])
    assert engine_stamp(extensions, configs) == page_cache.prerender_stamp_of(real_map.config)
    assert PrerenderedPages(real_map.config_file.parent, real_map.project.base_config).stamp == engine_stamp(extensions, configs)


@pytest.mark.parametrize("value", [
    "Chips & Hardware", "a < b > c", "1. not a list", "2) nor this", "**not bold** _nor this_", "`code`",
    "[not](a-link.md)", "<em>not HTML</em>", "back\\slash", "x | y", "{ #not-an-id }", "# not a heading",
    "&amp; already", "line\nbreak   and  spaces", "a -- b --- c", "!important", "+1", "~tilde~", "^hat^",
    "100 %", "\"quoted\" 'single'", "trailing  ", "    indented", "* star", "- dash", "> quote", "α · β — γ",
])
def test_plain_text_is_what_the_engine_makes_of_it(real_map: EngineConversion, value: str) -> None:
    assert plain_text(value) == real_map.prose.span(md_text(value))


# --- pages left to the engine ------------------------------------------------------------------------


BODY = "    body: Chips do arithmetic very fast.\n"
AWKWARD = {
    "a heading in a field": "    body: |\n      Chips do arithmetic.\n\n      ### A heading of the editor's\n",
    "a table of contents marker": "    body: |\n      Chips do arithmetic.\n\n      [TOC]\n",
}


def with_chips_body(mini: MiniProject, body: str) -> None:
    """The mini project's chips topic with ``body`` in place of its D2 body."""
    path = mini.content / "layer-2" / "chips.yaml"
    text = path.read_text(encoding="utf-8")
    assert BODY in text
    path.write_text(text.replace(BODY, body, 1), encoding="utf-8")


@pytest.mark.parametrize("edit", list(AWKWARD), ids=list(AWKWARD))
def test_a_page_only_the_engine_can_judge_is_left_to_it(edit: str, mini: MiniProject) -> None:
    with_chips_body(mini, AWKWARD[edit])
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    conversion = EngineConversion(mini.root)
    with pytest.raises(LeftToEngine):
        conversion.generator("chips")
    kept = prerendered_places(conversion.config_file.parent / "prerendered")
    assert "layer-2/chips.md" not in kept and "layer-2/boards.md" in kept


# Links to no page of the map never reach the renderer: the content check refuses them (checks/page_links.py).
UNRESOLVABLE = {
    "a link to a page that is not there": "    body: Chips do arithmetic, see [the guide](../guide/index.md).\n",
    "an absolute link": "    body: Chips do arithmetic, see [the root](/index.md).\n",
}


@pytest.mark.parametrize("edit", list(UNRESOLVABLE), ids=list(UNRESOLVABLE))
def test_a_link_to_no_page_of_the_map_is_refused_before_rendering(edit: str, mini: MiniProject) -> None:
    with_chips_body(mini, UNRESOLVABLE[edit])
    assert "names no page of the map" in mini.report()


def test_a_field_the_engine_reads_as_a_run_of_text_must_be_one_paragraph(real_map: EngineConversion) -> None:
    assert real_map.prose.span("One *paragraph* [@x].") == "One <em>paragraph</em> [@x]."
    with pytest.raises(LeftToEngine):
        real_map.prose.span("One paragraph.\n\nAnd another.")
    with pytest.raises(LeftToEngine):
        real_map.prose.span("- a list\n- of two")
