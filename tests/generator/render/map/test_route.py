"""Edge routes: labels packed in tracks, edges through their labels and between the nodes they pass."""

from __future__ import annotations

from generator.render.map.layout import layout
from generator.render.map.order import edge_chains
from generator.render.map.place import Box, Rows
from generator.render.map.route import label_wish, pack_labels, port_ends, ports, waypoints
from generator.render.map.settings import LABEL_GAP
from tests.generator.render.map.graphs import boxes_overlap, graph, random_graph


def test_crowded_gap_stacks_labels_in_tracks_without_overlap() -> None:
    hub = {"hub": 1, **{f"s{i}": 0 for i in range(10)}}
    g = graph(2, hub, [(f"s{i}", "hub") for i in range(10)], label="is one long verb phrase for")
    placed = layout(g)
    assert boxes_overlap(placed) == []
    assert len({e.label.y for e in placed.edges}) > 1  # more than one track was needed


def test_edges_run_from_source_to_target_through_their_label() -> None:
    placed = layout(random_graph(3))
    boxes = {n.node.id: n.box for n in placed.nodes}
    for e in placed.edges:
        (sx, sy), (tx, ty) = e.points[0], e.points[-1]
        src, dst = boxes[e.edge.source], boxes[e.edge.target]
        assert src.x <= sx <= src.x + src.w and sy in (src.y, round(src.y + src.h, 1))
        assert dst.x <= tx <= dst.x + dst.w and ty in (dst.y, round(dst.y + dst.h, 1))
        centre = (e.label.cx, e.label.y + e.label.h / 2)
        assert any(abs(x - centre[0]) < 0.11 and abs(y - centre[1]) < 0.11 for x, y in e.points[1:-1])


def test_a_long_edge_passes_between_the_nodes_of_the_bands_it_crosses() -> None:
    nodes = {"low": 0, **{f"m{i}": 1 for i in range(5)}, "high": 2}
    g = graph(3, nodes, [("low", "high")] + [("low", f"m{i}") for i in range(5)])
    placed = layout(g)
    middle = placed.bands[1]
    inside = [p for p in placed.edges[0].points if middle.y <= p[1] <= middle.y + middle.h]
    assert inside, "the long edge should have waypoints in the middle band"
    for x, _ in inside:
        for n in placed.nodes:
            if n.node.band == 1:
                assert not (n.box.x <= x <= n.box.x + n.box.w), f"passes through {n.node.id}"


