"""Which topics and edges each map shows: whole, local, layer and overview maps."""

from __future__ import annotations

from generator.render.map.select import (
    drawn,
    drawn_neighbours,
    layer_map,
    layer_pair_counts,
    local_map,
    overview_map,
    topic_graph,
    whole_map,
)
from tests.conftest import real_map

KMAP = real_map()
DRAWN = drawn(KMAP, KMAP.edges)  # every edge but the prerequisites


def test_whole_map_has_every_topic_edge_and_layer() -> None:
    g = whole_map(KMAP)
    assert {n.id for n in g.nodes} == set(KMAP.topics)
    assert len(g.edges) == len(DRAWN) < len(KMAP.edges)
    assert [b.key for b in g.bands] == [f"layer-{layer.number}" for layer in KMAP.layers]


def test_local_map_is_the_topic_and_its_neighbours_both_ways() -> None:
    topic = KMAP.topics["gpu-clusters"]
    g = local_map(KMAP, topic)
    assert {n.id for n in g.nodes} == {"gpu-clusters", *(t.id for t in drawn_neighbours(KMAP, topic))}
    assert [n.id for n in g.nodes if n.current] == ["gpu-clusters"]
    assert len(g.edges) == len(drawn(KMAP, KMAP.edges_by_topic["gpu-clusters"]))
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
    assert sum(counts.values()) == len(DRAWN)
    assert counts[("layer-1", "layer-3")] == sum(1 for e in DRAWN if (e.subject.layer, e.object.layer) == (1, 3))
    strongest = overview_map(KMAP, strongest=2)
    kept = [int(e.label.split()[0]) for e in strongest.edges]
    assert sorted(kept) == sorted(counts.values())[-2:]


# --- the named steps ------------------------------------------------------------------------


def test_topic_graph_keeps_bands_of_chosen_layers_and_edges_between_chosen_topics() -> None:
    low, high = KMAP.topics_by_layer[1][0], KMAP.topics_by_layer[3][0]
    g = topic_graph(KMAP, [high, low], KMAP.edges, current=high.id)
    assert [b.key for b in g.bands] == ["layer-1", "layer-3"]
    assert [(n.id, n.band, n.current) for n in g.nodes] == [(low.id, 0, False), (high.id, 1, True)]
    assert all({e.source, e.target} <= {low.id, high.id} for e in g.edges)
    every = topic_graph(KMAP, [high], [], every_layer=True)
    assert len(every.bands) == len(KMAP.layers) and every.nodes[0].band == 2


def test_topic_graph_orders_nodes_band_by_band_then_by_title() -> None:
    g = topic_graph(KMAP, list(KMAP.topics.values())[::-1], [])
    keys = [(n.band, n.label.casefold()) for n in g.nodes]
    assert keys == sorted(keys)


def test_layer_pair_counts_count_every_edge_once() -> None:
    counts = layer_pair_counts(KMAP)
    assert sum(counts.values()) == len(DRAWN)
    assert all(n > 0 for n in counts.values())
