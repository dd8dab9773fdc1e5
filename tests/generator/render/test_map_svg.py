"""The drawn map as SVG in the pages: a linked node per topic, a labelled arrow per edge, valid links."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from generator.content.loading import Content, TopicFile
from generator.content.schema import Depth, Depths, Edge, EdgeKind, Layer, MapConfig, Topic
from generator.model.calculators import CalculatorBridge
from generator.model.graph import KnowledgeMap, build_map
from generator.pipeline import load_content
from generator.render.map_index import map_index, map_index_json
from generator.render.map_svg import (
    DARK_BG,
    FULL_MAP_LIMIT,
    INDEX_FILE,
    LAYER_MAP_LIMIT,
    LIGHT_BG,
    contrast,
    home_map_html,
    kind_styles,
    layer_map_html,
    map_stylesheet,
    readable,
    topic_map_html,
)
from generator.render.pages import render_pages
from generator.render.paths import HOME, built_url, layer_page, relative_url, topic_page
from tests.conftest import ROOT, BuiltSite

KMAP = build_map(load_content(ROOT / "content", ROOT))
SVG = "{http://www.w3.org/2000/svg}"
PAGES = {p.path: p.text for p in render_pages(KMAP, CalculatorBridge())}


XLINK_HREF = "{http://www.w3.org/1999/xlink}href"  # see map_svg: plain href breaks instant navigation


def svg_of(markdown: str) -> ET.Element:
    match = re.search(r"<svg [^>]*class=\"lm-map-svg[ \"].*?</svg>", markdown, flags=re.DOTALL)
    assert match, "no SVG in the page"
    return ET.fromstring(match.group(0))


def node_links(svg: ET.Element) -> dict[str, str]:
    return {a.get("data-id"): a.get(XLINK_HREF) for a in svg.iter(f"{SVG}a") if "lm-node" in a.get("class", "")}


def synthetic_map(topics: int, layers: int = 4) -> KnowledgeMap:
    config = MapConfig(
        title="Synthetic", introduction="x", depths=[{"key": "D1", "name": "Story", "audience": "All"}],
        layers=[Layer(number=i, name=f"L{i}", description="d") for i in range(1, layers + 1)],
        edge_kinds=[EdgeKind(id="feeds", label="feeds", colour="#2f9e44")],
    )
    files = []
    for i in range(topics):
        edges = [Edge(subject=f"t{i}", verb="feeds", object=f"t{(i * 7 + 3) % topics}", kind="feeds")] \
            if (i * 7 + 3) % topics != i else []
        topic = Topic(id=f"t{i}", title=f"Topic {i}", layer=i % layers + 1, summary="s",
                      depths=Depths(D1=Depth(body="b")), edges=edges)
        files.append(TopicFile(topic, f"content/t{i}.yaml", None))  # type: ignore[arg-type]
    return build_map(Content(config, "content/map.yaml", files))


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
def test_relative_urls_point_at_built_directory_urls(page: str, target: str, expected: str) -> None:
    assert relative_url(page, target) == expected


def test_built_urls() -> None:
    assert built_url("index.md") == ""
    assert built_url("layer-2/index.md") == "layer-2/"
    assert built_url("layer-2/gpu.md") == "layer-2/gpu/"


# --- home -----------------------------------------------------------------------------------


def test_home_svg_links_a_node_to_every_topic() -> None:
    links = node_links(svg_of(PAGES[HOME]))
    assert links == {t.id: built_url(topic_page(t)) for t in KMAP.topics.values()}


def test_home_svg_has_an_arrow_with_its_label_for_every_edge() -> None:
    svg = svg_of(PAGES[HOME])
    paths = [p for p in svg.iter(f"{SVG}path") if "lm-edge" in p.get("class", "").split()]
    labels = {t.get("data-e"): t for t in svg.iter(f"{SVG}text") if t.get("class") == "lm-edge-label"}
    markers = {m.get("id") for m in svg.iter(f"{SVG}marker")}
    drawn = []
    for path in paths:
        assert path.get("marker-end")[5:-1] in markers  # url(#…)
        label = labels[path.get("data-e")]
        assert (label.get("data-s"), label.get("data-o")) == (path.get("data-s"), path.get("data-o"))
        kind = next(c[5:] for c in path.get("class").split() if c.startswith("lm-k-"))
        drawn.append((path.get("data-s"), label.text, path.get("data-o"), None if kind == "none" else kind))
    assert sorted(drawn) == sorted((e.subject.id, e.verb, e.object.id, e.kind) for e in KMAP.edges)


def test_home_svg_has_title_description_and_sits_in_one_raw_block() -> None:
    svg = svg_of(PAGES[HOME])
    assert svg.get("role") == "group"
    title = svg.find(f"{SVG}title")
    desc = svg.find(f"{SVG}desc")
    assert svg.get("aria-labelledby") == title.get("id") and svg.get("aria-describedby") == desc.get("id")
    assert f"{len(KMAP.topics)} boxes" in desc.text and f"{len(KMAP.edges)} arrows" in desc.text
    block = re.search(r'<figure class="lm-map".*?</figure>', PAGES[HOME], flags=re.DOTALL).group(0)
    assert "\n\n" not in block


def test_home_text_list_names_every_topic_and_every_edge() -> None:
    block = re.search(r'<details class="lm-map-text"[^>]*>.*?</details>', PAGES[HOME], flags=re.DOTALL).group(0)
    tree = ET.fromstring(block)
    hrefs = {a.get("href") for a in tree.iter("a")}
    assert hrefs == {built_url(topic_page(t)) for t in KMAP.topics.values()}
    items = ["".join(li.itertext()) for li in tree.iter("li") if li.find("ul") is None and li.text]
    for edge in KMAP.edges:
        assert f"{edge.verb} {edge.object.title}" in items


def test_nodes_come_in_reading_order_layer_by_layer() -> None:
    ids = list(node_links(svg_of(PAGES[HOME])))
    layers = [KMAP.topics[i].layer for i in ids]
    assert layers == sorted(layers)


def test_big_maps_get_the_layer_overview_on_home() -> None:
    small, big = synthetic_map(FULL_MAP_LIMIT), synthetic_map(FULL_MAP_LIMIT + 1)
    assert len(node_links(svg_of(home_map_html(small)))) == FULL_MAP_LIMIT
    html = home_map_html(big)
    links = node_links(svg_of(html))
    assert links == {f"layer-{n}": f"layer-{n}/" for n in range(1, 5)}
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
    expected = {topic.id, *(t.id for t in KMAP.neighbours(topic))}
    assert set(links) == expected
    assert links["power-cooling"] == "../../layer-1/power-cooling/"
    assert links["gpu-clusters"] == "./"
    labels = [t.text for t in svg_of(PAGES[page]).iter(f"{SVG}text") if t.get("class") == "lm-edge-label"]
    assert sorted(labels) == sorted(e.verb for e in KMAP.edges_by_topic[topic.id])
    assert 'data-index="../../assets/layermap/map-index.json"' in PAGES[page]


def test_topic_without_edges_gets_no_map() -> None:
    kmap = synthetic_map(3)
    lonely = Topic(id="lonely", title="Lonely", layer=1, summary="s", depths=Depths(D1=Depth(body="b")))
    content = Content(kmap.config, "m", [TopicFile(lonely, "f", None)])  # type: ignore[arg-type]
    alone = build_map(content)
    assert topic_map_html(alone, lonely, topic_page(lonely)) == ""


def test_topic_map_stays_small() -> None:
    drawn = [t for t in KMAP.topics.values() if KMAP.edges_by_topic[t.id]]
    assert drawn
    for topic in drawn:
        local = topic_map_html(KMAP, topic, topic_page(topic))
        assert len(local.encode()) < 20_000
        assert len(node_links(svg_of(local))) == 1 + len(KMAP.neighbours(topic))


def test_layer_page_draws_its_topics() -> None:
    svg = svg_of(PAGES[layer_page(3)])
    assert {t.id for t in KMAP.topics_by_layer[3]} <= set(node_links(svg))


# --- colours --------------------------------------------------------------------------------


def test_maps_carry_no_inline_style_and_the_stylesheet_sizes_each_one() -> None:
    """The CSP allows no style attribute and no unhashed <style>: a map's minimum width is a class."""
    css = map_stylesheet(KMAP.config.edge_kinds, PAGES.values())
    for path in (HOME, layer_page(3), topic_page(KMAP.topics_by_layer[3][0])):
        svg = svg_of(PAGES[path])
        assert all(el.get("style") is None for el in svg.iter()) and not list(svg.iter(f"{SVG}style"))
        width = float(svg.get("width"))
        [minimum] = [c for c in svg.get("class").split() if c.startswith("lm-map-min-")]
        pixels = int(minimum.removeprefix("lm-map-min-"))
        assert abs(pixels - width * 0.7) <= 1 and f".lm-map-svg.{minimum}{{min-width:{pixels}px}}" in css
    assert kind_styles(KMAP.config.edge_kinds) in css
    wide_only = re.search(r"@media screen and \(min-width: 45em\)\{(.*?)\}\n", css).group(1)
    assert css.count("min-width:") - 1 == wide_only.count("min-width:") > 0  # a phone fits every map to its width


def test_a_phone_reader_is_told_the_drawing_is_scaled_and_led_to_the_same_map_as_text() -> None:
    figure = re.search(r'<figure class="lm-map".*?</figure>', PAGES[HOME], flags=re.DOTALL).group(0)
    hint = re.search(r'<p class="lm-map-hint">(.*?)</p>', figure).group(1)
    listed = re.search(r'<details class="lm-map-text" id="([^"]+)"', figure).group(1)
    assert "scaled to fit" in hint and f'href="#{listed}"' in hint
    assert figure.index("lm-map-hint") < figure.index("<svg")  # read before the drawing
    local = PAGES[topic_page(KMAP.topics["gpu-clusters"])]
    local_hint = re.search(r'<p class="lm-map-hint">(.*?)</p>', local).group(1)
    assert "scaled to fit" in local_hint and "href" not in local_hint  # no text list there to point to


def test_every_kind_colour_is_readable_on_light_and_dark() -> None:
    css = kind_styles(KMAP.config.edge_kinds)
    for kind in KMAP.config.edge_kinds:
        light = re.search(rf"\.lm-map \.lm-k-{kind.id}\{{--lm-k:(#\w+)\}}", css).group(1)
        dark = re.search(rf"slate\] \.lm-map \.lm-k-{kind.id}\{{--lm-k:(#\w+)\}}", css).group(1)
        assert contrast(light, LIGHT_BG) >= 3 and contrast(dark, DARK_BG) >= 3


def test_readable_changes_only_what_it_must() -> None:
    assert readable("#1a1a1a", LIGHT_BG) == "#1a1a1a"
    yellow = readable("#ffee00", LIGHT_BG)
    assert yellow != "#ffee00" and contrast(yellow, LIGHT_BG) >= 3
    navy = readable("#101060", DARK_BG)
    assert navy != "#101060" and contrast(navy, DARK_BG) >= 3


# --- the map index --------------------------------------------------------------------------


def test_map_index_lists_topics_layers_edges_and_summaries() -> None:
    index = json.loads(map_index_json(KMAP))
    assert index == map_index(KMAP)
    topics = {t["id"]: t for t in index["topics"]}
    assert set(topics) == set(KMAP.topics)
    assert topics["gpu-clusters"]["url"] == "layer-3/gpu-clusters/"
    assert topics["gpu-clusters"]["summary"] == KMAP.topics["gpu-clusters"].summary
    assert [layer["number"] for layer in index["layers"]] == [layer.number for layer in KMAP.layers]
    assert len(index["edges"]) == len(KMAP.edges)
    assert {k["id"] for k in index["edge_kinds"]} == {k.id for k in KMAP.config.edge_kinds}


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


def test_a_cut_short_title_keeps_its_full_text_as_a_tooltip() -> None:
    from generator.render.map_layout import Band, EdgeSpec, MapGraph, NodeSpec, layout
    from generator.render.map_svg import render_svg

    long = "A very long topic title that goes on and on well past three lines of a box"
    graph = MapGraph((Band("layer-1", "Layer 1"),),
                     (NodeSpec("long", long, 0, "layer-1/long.md"), NodeSpec("short", "Short", 0, "layer-1/short.md")),
                     (EdgeSpec("long", "short", "feeds"),))
    svg = ET.fromstring(render_svg(graph, layout(graph), [], page=HOME, map_id="m", title="t", description="d"))
    titles = {a.get("data-id"): a.find(f"{SVG}title") for a in svg.iter(f"{SVG}a")}
    assert titles["long"] is not None and titles["long"].text == long
    assert titles["short"] is None
    shown = "".join(next(a for a in svg.iter(f"{SVG}a") if a.get("data-id") == "long").find(f"{SVG}text").itertext())
    assert shown.endswith("…") and len(shown) < len(long)
