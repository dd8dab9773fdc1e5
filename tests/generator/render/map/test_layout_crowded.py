"""The drawn map at the size it is growing to (20 topics, 43 edges): no text over other text."""

from __future__ import annotations

from itertools import combinations

import pytest

from generator.model.graph import KnowledgeMap
from generator.render.map.layout import MapLayout, layout
from generator.render.map.place import Box
from generator.render.map.select import layer_map, local_map, whole_map
from generator.render.map.settings import HEADER_FONT, MARGIN
from generator.render.map.text_metrics import text_width
from tests.generator.crowded_map import EDGES, TOPICS, crowded_project


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeMap:
    kmap = crowded_project(tmp_path_factory.mktemp("crowded")).kmap()
    assert len(kmap.topics) == len(TOPICS) == 20 and len(kmap.edges) == len(EDGES)
    return kmap


def text_boxes(placed: MapLayout) -> list[tuple[str, Box]]:
    """Every piece of text the SVG draws, as svg.py places it: boxes, edge labels, band labels."""
    boxes = [(f"box {n.node.id}", n.box) for n in placed.nodes]
    boxes += [(f"label {e.edge.label!r}", e.label) for e in placed.edges]
    boxes += [(f"band {b.band.label!r}", Box(MARGIN, b.y + 4, text_width(b.band.label, HEADER_FONT), HEADER_FONT * 1.2))
              for b in placed.bands]
    return boxes


def overlaps(placed: MapLayout) -> list[str]:
    return [f"{a} / {b}" for (a, box_a), (b, box_b) in combinations(text_boxes(placed), 2) if box_a.overlaps(box_b)]


def test_the_whole_crowded_map_draws_no_text_over_other_text(crowded: KnowledgeMap) -> None:
    placed = layout(whole_map(crowded))
    assert overlaps(placed) == []
    for name, box in text_boxes(placed):
        assert 0 <= box.x and box.x + box.w <= placed.width, name
        assert 0 <= box.y and box.y + box.h <= placed.height, name


def test_every_layer_and_every_neighbourhood_of_the_crowded_map_draws_no_text_over_other_text(crowded: KnowledgeMap) -> None:
    graphs = [layer_map(crowded, layer) for layer in crowded.layers]
    graphs += [local_map(crowded, topic) for topic in crowded.topics.values()]
    found = {graph.nodes[0].id: overlaps(layout(graph)) for graph in graphs if graph.nodes}
    assert {key: value for key, value in found.items() if value} == {}


def test_every_band_of_the_crowded_map_holds_its_boxes_and_is_named(crowded: KnowledgeMap) -> None:
    placed = layout(whole_map(crowded))
    assert [b.band.label for b in placed.bands] == [f"Layer {layer.number} · {layer.name}" for layer in crowded.layers]
    for node in placed.nodes:
        band = placed.bands[node.node.band]
        assert band.y + 4 + HEADER_FONT * 1.2 <= node.box.y  # below its band's name
        assert node.box.y + node.box.h <= band.y + band.h
    assert len({n.node.band for n in placed.nodes}) == 6  # every layer has boxes


def test_the_crowded_map_keeps_a_width_a_desktop_frame_scrolls_comfortably(crowded: KnowledgeMap) -> None:
    """A map is drawn 1:1 (its smallest text is 11 px on screen): at 20 topics it stays within about
    one and a half of a desktop's content columns, so its frame scrolls a little, not a lot."""
    assert layout(whole_map(crowded)).width <= 1050

