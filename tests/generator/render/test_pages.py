"""The page set: home, one page per layer and per topic, and navigation sectioned by layer."""

from __future__ import annotations

import re

import pytest
from mini_project import MINI, MiniProject

from generator.model.graph import KnowledgeMap
from generator.render.pages import navigation, render_pages


@pytest.fixture
def kmap(mini: MiniProject) -> KnowledgeMap:
    mini.write("map.yaml", (MINI / "map.yaml").read_text().replace(
        "edge_kinds:", "  - {number: 3, name: Top, description: What sits on top.}\nedge_kinds:"))
    return mini.kmap()


def pages(kmap: KnowledgeMap) -> dict[str, str]:
    return {page.path: page.text for page in render_pages(kmap)}


def test_one_page_per_layer_and_topic(kmap: KnowledgeMap) -> None:
    assert list(pages(kmap)) == [
        "index.md",
        "layer-1/index.md", "layer-1/power.md",
        "layer-2/index.md", "layer-2/boards.md", "layer-2/chips.md",
        "layer-3/index.md",
        "sources.md",
    ]


def test_home_lists_every_layer_and_topic_with_its_summary(kmap: KnowledgeMap) -> None:
    home = pages(kmap)["index.md"]
    assert home.startswith('---\ntitle: "Mini map"\n---')
    assert "# Mini map" in home and "A tiny map used by the tests." in home
    for number, name, description in [(1, "Ground", "What everything stands on."),
                                       (2, "Middle", "What is built on the ground."),
                                       (3, "Top", "What sits on top.")]:
        assert f"### [Layer {number} · {name}](layer-{number}/index.md) {{ #layer-{number} }}\n\n{description}" in home
    for path, title, summary in [("layer-1/power.md", "Power", "Electricity for everything above."),
                                 ("layer-2/boards.md", "Boards", "Where chips are mounted."),
                                 ("layer-2/chips.md", "Chips", "Tiny calculators made of silicon.")]:
        assert f"- [{title}]({path})  \n  {summary}" in home
    listing = home.split("## Layers", 1)[1]
    assert listing.index("Layer 1 · Ground") < listing.index("[Power]") < listing.index("Layer 2 · Middle") \
        < listing.index("[Boards]") < listing.index("[Chips]") < listing.index("Layer 3 · Top")


def test_home_points_to_the_sources_page(kmap: KnowledgeMap) -> None:
    assert "[Sources](sources.md)" in pages(kmap)["index.md"]


def test_home_lists_the_depth_levels(kmap: KnowledgeMap) -> None:
    home = pages(kmap)["index.md"]
    assert "- **D1 · Story**: for young children and total beginners" in home
    assert re.findall(r"\*\*(D\d) · ", home) == ["D1", "D2", "D3", "D4", "D5"]


def test_layer_page_lists_its_topics_with_summaries(kmap: KnowledgeMap) -> None:
    layer = pages(kmap)["layer-2/index.md"]
    assert "# Layer 2 · Middle" in layer
    assert "[Mini map](../index.md)" in layer
    assert "## Topics (2)" in layer
    assert "- [Boards](boards.md)  \n  Where chips are mounted." in layer
    assert "- [Chips](chips.md)  \n  Tiny calculators made of silicon." in layer
    assert "[Power]" not in layer.split("## Topics", 1)[1].split("<figure", 1)[0]


def test_an_empty_layer_says_so(kmap: KnowledgeMap) -> None:
    layer = pages(kmap)["layer-3/index.md"]
    assert "## Topics (0)" in layer and "*No topics yet.*" in layer


def test_navigation_has_a_section_per_layer(kmap: KnowledgeMap) -> None:
    assert navigation(kmap) == [
        {"Home": "index.md"},
        {"Layer 1 · Ground": ["layer-1/index.md", {"Power": "layer-1/power.md"}]},
        {"Layer 2 · Middle": ["layer-2/index.md", {"Boards": "layer-2/boards.md"}, {"Chips": "layer-2/chips.md"}]},
        {"Layer 3 · Top": ["layer-3/index.md"]},
        {"Sources": "sources.md"},
    ]


def test_every_relative_link_of_every_page_points_at_a_page(kmap: KnowledgeMap) -> None:
    import posixpath

    texts = pages(kmap)
    for path, text in texts.items():
        for target in re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", text):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
            assert resolved in texts, f"{path} links to {target}"


def test_home_and_layer_front_matter_survive_quotes(mini: MiniProject) -> None:
    import yaml

    mini.write("map.yaml", (MINI / "map.yaml").read_text().replace("title: Mini map", "title: 'The \"mini\" map'")
               .replace("name: Middle", "name: 'Middle \"tier\"'"))
    texts = pages(mini.kmap())
    for path in ("index.md", "layer-2/index.md"):
        front = texts[path].split("---\n", 2)[1]
        assert '"' in yaml.safe_load(front)["title"]
