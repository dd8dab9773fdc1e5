"""The drawn map as SVG: a linked node per topic, a labelled arrow per edge, reading order, tooltips."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from generator.render.map.layout import PlacedEdge, layout
from generator.render.map.place import Box
from generator.render.map.select import Band, EdgeSpec, MapGraph, NodeSpec
from generator.render.map.select import drawn as drawn_edges
from generator.render.map.svg import edge_degrees, edge_path, render_svg
from generator.render.paths import HOME
from tests.generator.render.map.drawn import KMAP, PAGES, SVG, node_links, svg_of


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
    assert sorted(drawn) == sorted((e.subject.id, e.verb, e.object.id, e.kind) for e in drawn_edges(KMAP, KMAP.edges))


def test_nodes_come_in_reading_order_layer_by_layer() -> None:
    ids = list(node_links(svg_of(PAGES[HOME])))
    layers = [KMAP.topics[i].layer for i in ids]
    assert layers == sorted(layers)


def test_a_cut_short_title_keeps_its_full_text_as_a_tooltip() -> None:

    long = "A very long topic title that goes on and on well past three lines of a box"
    graph = MapGraph((Band("layer-1", "Layer 1"),),
                     (NodeSpec("long", long, 0, "layer-1/long.md"), NodeSpec("short", "Short", 0, "layer-1/short.md")),
                     (EdgeSpec("long", "short", "feeds"),))
    svg = ET.fromstring(render_svg(graph, layout(graph), [], map_id="m", title="t", description="d"))
    titles = {a.get("data-id"): a.find(f"{SVG}title") for a in svg.iter(f"{SVG}a")}
    assert titles["long"] is not None and titles["long"].text == long
    assert titles["short"] is None
    shown = "".join(next(a for a in svg.iter(f"{SVG}a") if a.get("data-id") == "long").find(f"{SVG}text").itertext())
    assert shown.endswith("…") and len(shown) < len(long)


# --- the named steps ------------------------------------------------------------------------


def placed_edge(points: tuple[tuple[float, float], ...], arc: bool) -> PlacedEdge:
    return PlacedEdge(EdgeSpec("a", "b", "feeds"), points, Box(0, 0, 1, 1), arc)


def test_edge_path_draws_arches_straight_runs_and_s_bends() -> None:
    assert edge_path(placed_edge(((0, 10), (5, 2), (10, 10)), arc=True)) == "M0 10Q0 2 5 2Q10 2 10 10"
    assert edge_path(placed_edge(((3, 0), (3, 10)), arc=False)) == "M3 0L3 10"
    assert edge_path(placed_edge(((0, 0), (10, 20)), arc=False)) == "M0 0C0 10 10 10 10 20"
    assert edge_path(placed_edge(((0.4, 0.6), (0.4, 9.5)), arc=False)) == "M0 1L0 10"  # whole units


def test_edge_degrees_count_an_edge_to_itself_once() -> None:
    g = MapGraph((Band("b", "B"),), tuple(NodeSpec(n, n, 0, f"{n}.md") for n in "abc"),
                 (EdgeSpec("a", "b", "x"), EdgeSpec("b", "b", "y"), EdgeSpec("a", "c", "z")))
    assert edge_degrees(g) == {"a": 2, "b": 2, "c": 1}
