"""The map as a figure in the pages: home, layer and topic maps, their links, text lists and hints."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from generator.content.loading import Content, TopicFile
from generator.content.schema import Depth, Depths, EdgeKind, Topic
from generator.emit.site_links import resolved_links
from generator.model.graph import build_map
from generator.render.map.figure import (
    INDEX_FILE,
    home_map_html,
    layer_map_html,
    legend,
    narrow_screen_hint,
    text_list,
    topic_map_html,
)
from generator.render.map.select import Band, EdgeSpec, MapGraph, NodeSpec, drawn, drawn_neighbours
from generator.render.map.settings import LAYER_MAP_LIMIT
from generator.render.paths import HOME, built_url, layer_page, site_link, topic_page
from generator.settings import BuildSettings
from tests.conftest import BuiltSite
from tests.generator.render.map.drawn import KMAP, PAGES, SVG, node_links, svg_of
from tests.generator.render.map.synthetic import synthetic_map

# --- URLs -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("page", "target", "expected"), [
    ("index.md", "layer-3/gpu-clusters.md", "layer-3/gpu-clusters/"),
    ("layer-3/gpu-clusters.md", "layer-1/power-cooling.md", "../../layer-1/power-cooling/"),
    ("layer-3/gpu-clusters.md", "layer-3/gpu-clouds.md", "../gpu-clouds/"),
    ("layer-3/gpu-clusters.md", "layer-3/gpu-clusters.md", "./"),
    ("layer-3/index.md", "layer-3/gpu-clusters.md", "gpu-clusters/"),
    ("layer-3/index.md", "index.md", "../"),
    ("layer-3/gpu-clusters.md", INDEX_FILE, "../../assets/layermap/map-index.json"),
    ("index.md", INDEX_FILE, "assets/layermap/map-index.json"),
])
def test_site_links_become_relative_urls_to_built_directory_urls(page: str, target: str, expected: str) -> None:
    link = f'<a href="{site_link(target)}">'
    assert resolved_links(link, f"{built_url(page)}index.html") == f'<a href="{expected}">'


def test_built_urls() -> None:
    assert built_url("index.md") == ""
    assert built_url("layer-2/index.md") == "layer-2/"
    assert built_url("layer-2/gpu.md") == "layer-2/gpu/"


# --- home -----------------------------------------------------------------------------------


def test_home_svg_links_a_node_to_every_topic() -> None:
    links = node_links(svg_of(PAGES[HOME]))
    assert links == {t.id: built_url(topic_page(t)) for t in KMAP.topics.values()}


def test_home_svg_has_title_description_and_sits_in_one_raw_block() -> None:
    svg = svg_of(PAGES[HOME])
    assert svg.get("role") == "group"
    title = svg.find(f"{SVG}title")
    desc = svg.find(f"{SVG}desc")
    assert svg.get("aria-labelledby") == title.get("id") and svg.get("aria-describedby") == desc.get("id")
    assert f"{len(KMAP.topics)} boxes" in desc.text and f"{len(drawn(KMAP, KMAP.edges))} arrows" in desc.text
    block = re.search(r'<figure class="lm-map".*?</figure>', PAGES[HOME], flags=re.DOTALL).group(0)
    assert "\n\n" not in block


def test_home_text_list_names_every_topic_and_every_edge() -> None:
    block = re.search(r'<details class="lm-map-text"[^>]*>.*?</details>', PAGES[HOME], flags=re.DOTALL).group(0)
    tree = ET.fromstring(block)
    hrefs = {a.get("href") for a in tree.iter("a")}
    assert hrefs == {built_url(topic_page(t)) for t in KMAP.topics.values()}
    items = ["".join(li.itertext()) for li in tree.iter("li") if li.find("ul") is None and li.text]
    for edge in drawn(KMAP, KMAP.edges):
        assert f"{edge.verb} {edge.object.title}" in items


def test_big_maps_get_the_layer_overview_on_home() -> None:
    FULL_MAP_LIMIT = BuildSettings().full_map_limit
    small, big = synthetic_map(FULL_MAP_LIMIT), synthetic_map(FULL_MAP_LIMIT + 1)
    assert len(node_links(svg_of(home_map_html(small)))) == FULL_MAP_LIMIT
    html = home_map_html(big)
    links = node_links(svg_of(html))
    assert links == {f"layer-{n}": f"layermap:layer-{n}/" for n in range(1, 5)}  # as rendered, before the finishing step
    drawn = [t for t in svg_of(html).iter(f"{SVG}path") if "lm-edge" in t.get("class", "")]
    assert 0 < len(drawn) <= 2 * len(big.layers)
    listed = re.search(r'<details class="lm-map-text"[^>]*>.*?</details>', html, flags=re.DOTALL).group(0)
    pairs = {(e.subject.layer, e.object.layer) for e in big.edges}
    assert listed.count(" edge") == len(pairs)  # every link between layers is in the text list


def test_big_layers_draw_only_the_edges_inside_them() -> None:
    kmap = synthetic_map(3 * LAYER_MAP_LIMIT)
    layer = kmap.layers[0]
    svg = svg_of(layer_map_html(kmap, layer, layer_page(layer.number)))
    assert set(node_links(svg)) == {t.id for t in kmap.topics_by_layer[layer.number]}


# --- topic and layer pages ------------------------------------------------------------------


def test_topic_page_draws_its_neighbourhood_with_relative_links() -> None:
    topic = KMAP.topics["gpu-clusters"]
    page = topic_page(topic)
    links = node_links(svg_of(PAGES[page]))
    expected = {topic.id, *(t.id for t in drawn_neighbours(KMAP, topic))}
    assert set(links) == expected
    assert links["power-cooling"] == "../../layer-1/power-cooling/"
    assert links["gpu-clusters"] == "./"
    labels = [t.text for t in svg_of(PAGES[page]).iter(f"{SVG}text") if t.get("class") == "lm-edge-label"]
    assert sorted(labels) == sorted(e.verb for e in drawn(KMAP, KMAP.edges_by_topic[topic.id]))
    assert 'data-index="../../assets/layermap/map-index.json"' in PAGES[page]


def test_topic_without_edges_gets_no_map() -> None:
    kmap = synthetic_map(3)
    lonely = Topic(id="lonely", title="Lonely", layer=1, summary="s", depths=Depths(D1=Depth(body="b")))
    content = Content(kmap.config, "m", [TopicFile(lonely, "f", None)])  # type: ignore[arg-type]
    alone = build_map(content)
    assert topic_map_html(alone, lonely, topic_page(lonely)) == ""


def test_topic_map_stays_small() -> None:
    with_map = [t for t in KMAP.topics.values() if drawn(KMAP, KMAP.edges_by_topic[t.id])]
    assert with_map
    for topic in with_map:
        local = topic_map_html(KMAP, topic, topic_page(topic))
        assert len(local.encode()) < 20_000
        assert len(node_links(svg_of(local))) == 1 + len(drawn_neighbours(KMAP, topic))


def test_layer_page_draws_its_topics() -> None:
    svg = svg_of(PAGES[layer_page(3)])
    assert {t.id for t in KMAP.topics_by_layer[3]} <= set(node_links(svg))


def test_a_phone_reader_is_told_the_drawing_scrolls_in_its_frame_and_led_to_the_same_map_as_text() -> None:
    figure = re.search(r'<figure class="lm-map".*?</figure>', PAGES[HOME], flags=re.DOTALL).group(0)
    hint = re.search(r'<p class="lm-map-hint"[^>]*>(.*?)</p>', figure).group(1)
    listed = re.search(r'<details class="lm-map-text" id="([^"]+)"', figure).group(1)
    assert "scroll it in its frame" in hint and f'href="#{listed}"' in hint
    assert figure.index("lm-map-hint") < figure.index("<svg")  # read before the drawing
    local = PAGES[topic_page(KMAP.topics["gpu-clusters"])]
    local_hint = re.search(r'<p class="lm-map-hint"[^>]*>(.*?)</p>', local).group(1)
    assert "scroll it in its frame" in local_hint and "href" not in local_hint  # no text list there to point to


# --- the built site -------------------------------------------------------------------------


def test_every_map_link_resolves_to_a_built_page(built_site: BuiltSite) -> None:
    index = json.loads((built_site.site / INDEX_FILE).read_text(encoding="utf-8"))
    assert len(index["topics"]) == len(KMAP.topics)
    checked = 0
    for html_file in built_site.site.rglob("index.html"):
        html = html_file.read_text(encoding="utf-8")
        figure = re.search(r'<figure class="lm-map".*?</figure>', html, flags=re.DOTALL)
        if not figure:
            continue
        for href in re.findall(r'href="([^"#]+)"', figure.group(0)):
            target = (html_file.parent / href).resolve()
            assert (target / "index.html").is_file(), f"{html_file}: {href}"
            checked += 1
        data_index = re.search(r'data-index="([^"]+)"', figure.group(0)).group(1)
        assert (html_file.parent / data_index).resolve().is_file()
    assert checked >= len(KMAP.topics) + len(KMAP.edges)
    assert Path(built_site.site / "assets/layermap/map.js").is_file()


# --- the named steps ------------------------------------------------------------------------

TWO_BANDS = MapGraph(
    (Band("layer-1", "Layer 1"), Band("layer-2", "Layer 2")),
    (NodeSpec("a", "Alpha", 0, "layer-1/a.md"), NodeSpec("b", "Beta", 0, "layer-1/b.md")),
    (EdgeSpec("a", "b", "feeds", "feeds"),),
)
KINDS = [EdgeKind(id="feeds", label="feeds", colour="#2f9e44"), EdgeKind(id="powers", label="powers", colour="#000000")]


def test_legend_names_only_the_kinds_drawn() -> None:
    items = ET.fromstring(legend(TWO_BANDS, KINDS)).findall("li")
    assert [li.get("class") for li in items] == ["lm-k-feeds"]
    assert legend(MapGraph(TWO_BANDS.bands, TWO_BANDS.nodes, ()), KINDS) == ""


def test_text_list_skips_empty_bands_and_lists_each_nodes_edges() -> None:
    tree = ET.fromstring(text_list(TWO_BANDS, "l"))
    assert tree.get("id") == "l"
    assert ["".join(s.itertext()) for s in tree.iter("strong")] == ["Layer 1"]
    assert "feeds Beta" in ["".join(li.itertext()) for li in tree.iter("li")]


def test_narrow_screen_hint_links_the_text_list_only_when_there_is_one() -> None:
    assert 'href="#l"' in narrow_screen_hint("l")
    assert "href" not in narrow_screen_hint(None)


def test_the_full_map_limit_is_a_build_setting() -> None:
    from generator.render.pages import render_pages

    kmap = synthetic_map(12)
    assert len(node_links(svg_of(home_map_html(kmap, full_map_limit=12)))) == 12
    home = render_pages(kmap, None, BuildSettings(full_map_limit=11))[0].text
    assert set(node_links(svg_of(home))) == {f"layer-{n}" for n in range(1, 5)}  # the overview instead


def test_prerequisites_are_listed_not_drawn() -> None:
    """The `needs` edges (learning plans) would double the arrows: the drawings and their legend leave them out."""
    needs = [e for e in KMAP.edges if e.kind == "needs"]
    assert needs and len(drawn(KMAP, KMAP.edges)) == len(KMAP.edges) - len(needs)
    legend = re.search(r'<ul class="lm-map-legend".*?</ul>', PAGES[HOME], flags=re.DOTALL)
    assert legend is None or "needs first" not in legend.group(0)
    moe = KMAP.topics["mixture-of-experts"]
    assert "needs" in PAGES[topic_page(moe)] and "transformers" in PAGES[topic_page(moe)]  # in its connections
