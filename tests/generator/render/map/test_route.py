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


# --- the named steps ------------------------------------------------------------------------


def test_label_wish_sits_between_an_edges_first_two_slots() -> None:
    chained = edge_chains(graph(3, {"a": 0, "b": 0, "c": 2}, [("a", "b"), ("a", "c"), ("c", "a")]))
    x = {"a": 0.0, "b": 100.0, "c": 50.0, "~1:1": 30.0, "~2:1": 70.0}
    same, up, down = chained.chains
    assert label_wish(same, x) == (0, 50.0)  # above its band, midway
    assert label_wish(up, x) == (0, 15.0)
    assert label_wish(down, x) == (1, 60.0)


def test_pack_labels_opens_a_track_only_for_a_label_that_overlaps() -> None:
    assert pack_labels([(0, 50.0, 40.0), (1, 60.0, 40.0)]) == {0: (0, 50.0), 1: (1, 60.0)}
    apart = pack_labels([(0, 0.0, 20.0), (1, 20.0 + LABEL_GAP, 20.0)])
    assert apart == {0: (0, 0.0), 1: (0, 20.0 + LABEL_GAP)}


def test_waypoints_run_through_the_label_and_the_dummy_corridor() -> None:
    chained = edge_chains(graph(3, {"a": 0, "b": 0, "c": 2}, [("a", "c"), ("c", "a"), ("a", "b")]))
    plan = Rows({1: 50.0}, {1: 30.0}, {}, 0.0)
    label = Box(0.0, 100.0, 20.0, 10.0)
    x = {"~0:1": 7.0, "~1:1": 9.0}
    up, down, same = chained.chains
    assert waypoints(up, 0, label, plan, x) == [(10.0, 105.0), (7.0, 80.0), (7.0, 50.0)]
    assert waypoints(down, 0, label, plan, x) == [(9.0, 50.0), (9.0, 80.0), (10.0, 105.0)]
    assert waypoints(same, 0, label, plan, x) == [(10.0, 105.0)]


def test_ports_leave_from_the_side_facing_the_edge_spread_by_where_they_go() -> None:
    chained = edge_chains(graph(2, {"a": 0, "b": 0, "x": 1}, [("a", "x"), ("a", "b")]))
    ends = port_ends(chained, {0: [(30.0, 1.0)], 1: [(10.0, 2.0)]})
    assert ends == {("a", "top"): [(30.0, 0, "source"), (10.0, 1, "source")],
                    ("x", "bottom"): [(30.0, 0, "target")], ("b", "top"): [(10.0, 1, "target")]}
    boxes = {"a": Box(0.0, 100.0, 100.0, 20.0), "b": Box(200.0, 100.0, 60.0, 20.0), "x": Box(0.0, 0.0, 60.0, 20.0)}
    found = ports(ends, boxes)
    assert found[(1, "source")][0] < found[(0, "source")][0]  # the edge heading left leaves further left
    assert found[(1, "source")][1] == found[(0, "source")][1] == 100.0  # both from a's top
    assert found[(0, "target")] == (30.0, 20.0)  # the middle of x's bottom
