"""The drawn map's layout: fewer crossings, nothing overlapping, long edges between nodes, deterministic."""

from __future__ import annotations

import random
import subprocess
import sys
from itertools import combinations

import pytest

from generator.model.graph import build_map
from generator.pipeline import load_content
from generator.render.map_layout import (
    Band,
    EdgeSpec,
    MapGraph,
    MapLayout,
    NodeSpec,
    count_crossings,
    layer_map,
    layout,
    local_map,
    naive_order,
    order_bands,
    overview_map,
    place_in_order,
    whole_map,
    wrap_label,
)
from tests.conftest import ROOT

KMAP = build_map(load_content(ROOT / "content", ROOT))


def graph(bands: int, nodes: dict[str, int], edges: list[tuple[str, str]], label: str = "feeds into") -> MapGraph:
    return MapGraph(
        tuple(Band(f"b{i}", f"Band {i}") for i in range(bands)),
        tuple(NodeSpec(n, f"Topic {n}", b, f"layer-{b + 1}/{n}.md") for n, b in nodes.items()),
        tuple(EdgeSpec(s, t, label) for s, t in edges),
    )


def random_graph(seed: int, bands: int = 4, per_band: int = 6, edges: int = 18) -> MapGraph:
    rng = random.Random(seed)
    nodes = {f"n{b}-{i}": b for b in range(bands) for i in range(rng.randint(1, per_band))}
    ids = sorted(nodes)
    verbs = ["powers", "is built into", "rents capacity from", "feeds", "runs on", "hands off to"]
    specs = []
    for _ in range(edges):
        s, t = rng.sample(ids, 2)
        specs.append(EdgeSpec(s, t, rng.choice(verbs), rng.choice(["powers", "feeds", None])))
    return MapGraph(tuple(Band(f"b{i}", f"Layer {i + 1} · Band") for i in range(bands)),
                    tuple(NodeSpec(n, f"Topic {n} with a longer title", b, f"layer-{b + 1}/{n}.md")
                          for n, b in nodes.items()),
                    tuple(specs))


# --- ordering -------------------------------------------------------------------------------


def test_crossings_are_reduced_against_the_naive_order() -> None:
    # Naive order a b c / x y z with a→z, b→y, c→x: every pair crosses (3); reversing one band removes all.
    crafted = graph(2, {"a": 0, "b": 0, "c": 0, "x": 1, "y": 1, "z": 1}, [("a", "z"), ("b", "y"), ("c", "x")])
    assert count_crossings(crafted, naive_order(crafted)) == 3
    assert count_crossings(crafted, order_bands(crafted)) == 0


def test_crossings_counted_through_dummies_of_long_edges() -> None:
    # a (band 0) → y (band 2) passes band 1 beside m; b → x; naive order makes them cross.
    crafted = graph(3, {"a": 0, "b": 0, "m": 1, "x": 2, "y": 2}, [("a", "y"), ("b", "x"), ("b", "m"), ("m", "x")])
    naive = count_crossings(crafted, naive_order(crafted))
    best = count_crossings(crafted, order_bands(crafted))
    assert naive > 0
    assert best < naive


@pytest.mark.parametrize("seed", range(6))
def test_ordering_never_makes_things_worse(seed: int) -> None:
    g = random_graph(seed, bands=5, per_band=8, edges=30)
    assert count_crossings(g, order_bands(g)) <= count_crossings(g, naive_order(g))


def test_ordering_reduces_crossings_on_random_maps_overall() -> None:
    graphs = [random_graph(seed, bands=5, per_band=8, edges=30) for seed in range(10)]
    naive = sum(count_crossings(g, naive_order(g)) for g in graphs)
    ordered = sum(count_crossings(g, order_bands(g)) for g in graphs)
    assert ordered < 0.8 * naive


# --- geometry -------------------------------------------------------------------------------


def boxes_overlap(placed: MapLayout) -> list[str]:
    found = []
    nodes = [(n.node.id, n.box) for n in placed.nodes]
    labels = [(f"label {i}", e.label) for i, e in enumerate(placed.edges)]
    for (a, box_a), (b, box_b) in combinations(nodes + labels, 2):
        if box_a.overlaps(box_b):
            found.append(f"{a} / {b}")
    return found


@pytest.mark.parametrize("seed", range(8))
def test_no_label_overlaps_another_label_or_a_node(seed: int) -> None:
    placed = layout(random_graph(seed))
    assert boxes_overlap(placed) == []


def test_crowded_gap_stacks_labels_in_tracks_without_overlap() -> None:
    hub = {"hub": 1, **{f"s{i}": 0 for i in range(10)}}
    g = graph(2, hub, [(f"s{i}", "hub") for i in range(10)], label="is one long verb phrase for")
    placed = layout(g)
    assert boxes_overlap(placed) == []
    assert len({e.label.y for e in placed.edges}) > 1  # more than one track was needed


def test_real_map_has_no_overlaps_and_everything_inside_the_canvas() -> None:
    for g in (whole_map(KMAP), *(local_map(KMAP, t) for t in KMAP.topics.values())):
        placed = layout(g)
        assert boxes_overlap(placed) == []
        for box in [n.box for n in placed.nodes] + [e.label for e in placed.edges]:
            assert 0 <= box.x and box.x + box.w <= placed.width
            assert 0 <= box.y and box.y + box.h <= placed.height


def test_nodes_sit_in_their_bands_first_layer_at_the_bottom() -> None:
    placed = layout(whole_map(KMAP))
    ys = [b.y for b in placed.bands]
    assert ys == sorted(ys, reverse=True)  # band 0 lowest on the page
    for node in placed.nodes:
        band = placed.bands[node.node.band]
        assert band.y <= node.box.y and node.box.y + node.box.h <= band.y + band.h


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


def test_layout_is_deterministic_across_runs_and_hash_seeds() -> None:
    g = whole_map(KMAP)
    assert layout(g) == layout(g)
    code = ("from generator.model.graph import build_map; from generator.pipeline import load_content;"
            "from generator.render.map_layout import layout, whole_map; from pathlib import Path;"
            f"k = build_map(load_content(Path({str(ROOT / 'content')!r}), Path({str(ROOT)!r})));"
            "print(repr(layout(whole_map(k))))")
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                       env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1
    assert repr(layout(g)) + "\n" in outputs


# --- pieces ---------------------------------------------------------------------------------


def test_place_in_order_keeps_order_and_gaps_and_stays_close() -> None:
    assert place_in_order([0, 0, 0], [10, 10]) == [-10, 0, 10]
    assert place_in_order([0, 50, 100], [10, 10]) == [0, 50, 100]
    placed = place_in_order([5, 0, 30, 29], [4, 4, 4])
    assert all(b - a >= 4 - 1e-9 for a, b in zip(placed, placed[1:]))


def test_wrap_label_keeps_lines_and_ellipsises_what_does_not_fit() -> None:
    assert wrap_label("GPU clusters & orchestration") == ("GPU clusters &", "orchestration")
    long = wrap_label(" ".join(["interconnect"] * 10))
    assert len(long) == 3 and long[-1].endswith("…")


# --- what each map shows --------------------------------------------------------------------


def test_whole_map_has_every_topic_edge_and_layer() -> None:
    g = whole_map(KMAP)
    assert {n.id for n in g.nodes} == set(KMAP.topics)
    assert len(g.edges) == len(KMAP.edges)
    assert [b.key for b in g.bands] == [f"layer-{layer.number}" for layer in KMAP.layers]


def test_local_map_is_the_topic_and_its_neighbours_both_ways() -> None:
    topic = KMAP.topics["gpu-clusters"]
    g = local_map(KMAP, topic)
    assert {n.id for n in g.nodes} == {"gpu-clusters", *(t.id for t in KMAP.neighbours(topic))}
    assert [n.id for n in g.nodes if n.current] == ["gpu-clusters"]
    assert len(g.edges) == len(KMAP.edges_by_topic["gpu-clusters"])
    assert all("gpu-clusters" in (e.source, e.target) for e in g.edges)


def test_layer_map_with_and_without_neighbours() -> None:
    layer = next(layer for layer in KMAP.layers if layer.number == 3)
    full = layer_map(KMAP, layer)
    inside = layer_map(KMAP, layer, neighbours=False)
    own = {t.id for t in KMAP.topics_by_layer[3]}
    assert own < {n.id for n in full.nodes}
    assert {n.id for n in inside.nodes} == own
    assert all(e.source in own and e.target in own for e in inside.edges)
    assert len(inside.edges) < len(full.edges)


def test_overview_has_a_node_per_layer_and_counted_edges() -> None:
    g = overview_map(KMAP)
    assert [n.id for n in g.nodes] == [f"layer-{layer.number}" for layer in KMAP.layers]
    counts = {(e.source, e.target): int(e.label.split()[0]) for e in g.edges}
    assert sum(counts.values()) == len(KMAP.edges)
    assert counts[("layer-1", "layer-3")] == sum(1 for e in KMAP.edges if (e.subject.layer, e.object.layer) == (1, 3))
    strongest = overview_map(KMAP, strongest=2)
    kept = [int(e.label.split()[0]) for e in strongest.edges]
    assert sorted(kept) == sorted(counts.values())[-2:]
