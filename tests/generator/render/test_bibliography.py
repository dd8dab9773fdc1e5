"""The map's sources page: each source once, with the topics that list it."""

from __future__ import annotations

import re

from mini_project import BOARDS, MiniProject

from generator.emit.site_links import resolved_links
from generator.model.calculators import CalculatorBridge
from generator.render.bibliography import map_sources, render_bibliography
from generator.render.pages import navigation, render_pages


def with_shared_source(mini: MiniProject) -> None:
    """Boards cites the source power cites, and one of its own."""
    mini.add_source("adams", title="Boards and how to build them", authors=["Adams, Zoe"], date="2019")
    mini.write("layer-2/boards.yaml", BOARDS.replace("Boards hold chips.", "Boards hold chips [@smith2020; @adams]."))


def test_a_work_cited_by_two_topics_is_one_entry_naming_both(mini: MiniProject) -> None:
    with_shared_source(mini)
    entries = map_sources(mini.kmap())
    by_url = [e for e in entries if e.source.url == "https://example.org/power"]
    assert len(by_url) == 1
    assert [t.id for t in by_url[0].topics] == ["power", "boards"]  # in map order: layer 1 first


def test_entries_are_sorted_by_author_and_year(mini: MiniProject) -> None:
    with_shared_source(mini)
    assert [e.source.id for e in map_sources(mini.kmap())] == ["adams", "smith2020"]


def test_each_entry_is_anchored_by_its_key_and_says_its_kind(mini: MiniProject) -> None:
    with_shared_source(mini)
    text = render_bibliography(mini.kmap())
    entry = next(item for item in re.findall(r"<li id=\"source-adams\">.*?</li>", text))
    assert "Paper." in entry and "Boards and how to build them" in entry


def test_calculator_datasheets_are_listed_once_for_every_topic_using_the_calculator(mini: MiniProject) -> None:
    calculator = "  D4:\n    body: Arithmetic.\n    calculator: {name: parallelism}\n"
    mini.write("layer-2/boards.yaml", BOARDS + calculator)
    chips = (mini.content / "layer-2" / "chips.yaml").read_text()
    mini.write("layer-2/chips.yaml", chips + calculator)
    entries = map_sources(mini.kmap(), CalculatorBridge())
    h100 = [e for e in entries if e.source.id == "nvidia-h100-datasheet"]
    assert len(h100) == 1 and {t.id for t in h100[0].topics} == {"boards", "chips"}


def test_the_page_links_each_entry_to_the_sources_of_the_topics_that_list_it(mini: MiniProject) -> None:
    with_shared_source(mini)
    text = resolved_links(render_bibliography(mini.kmap()), "sources/index.html")
    assert text.startswith('---\ntitle: "Sources"\n')
    entry = next(item for item in re.findall(r"<li id=.*?</li>", text) if "example.org/power" in item)
    assert re.findall(r'href="([^"]+#sources)">([^<]+)</a>', entry) == [
        ("../layer-1/power/#sources", "Power"), ("../layer-2/boards/#sources", "Boards")]
    assert "Every source the map's 3 topics cite" in text


def test_the_sources_page_is_built_and_last_in_the_navigation(mini: MiniProject) -> None:
    kmap = mini.kmap()
    assert "sources.md" in [page.path for page in render_pages(kmap)]
    assert navigation(kmap)[-1] == {"Sources": "sources.md"}


def test_a_map_without_sources_says_so(mini: MiniProject) -> None:
    power = (mini.content / "layer-1" / "power.yaml").read_text()
    mini.write("layer-1/power.yaml", power.replace(" [@smith2020]", ""))
    mini.remove("sources.yaml")
    assert "*No sources yet.*" in render_bibliography(mini.kmap())
