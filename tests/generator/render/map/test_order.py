"""The order inside each band: fewer crossings, counted through the dummies of long edges."""

from __future__ import annotations

import pytest

from generator.render.map.order import (
    by_barycentre,
    count_crossings,
    edge_chains,
    inversions,
    naive_order,
    neighbours,
    order_bands,
    segments,
)
from tests.generator.render.map.graphs import graph, random_graph


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


# --- the named steps ------------------------------------------------------------------------


def test_edge_chains_put_a_dummy_in_every_band_an_edge_skips_either_way() -> None:
    chained = edge_chains(graph(3, {"a": 0, "b": 1, "c": 2}, [("a", "c"), ("c", "a"), ("a", "b")]))
    assert [[s.key for s in chain] for chain in chained.chains] == [["a", "~0:1", "c"], ["c", "~1:1", "a"], ["a", "b"]]
    dummy = chained.slots["~0:1"]
    assert (dummy.band, dummy.node) == (1, None)
    assert chained.slots["b"].node is not None and chained.slots["b"].band == 1


def test_naive_order_puts_dummies_after_the_nodes_of_their_band() -> None:
    assert naive_order(graph(3, {"a": 0, "b": 1, "c": 2}, [("a", "c")])) == [["a"], ["b", "~0:1"], ["c"]]


def test_segments_are_adjacent_band_pieces_lower_band_first() -> None:
    chained = edge_chains(graph(3, {"a": 0, "b": 0, "c": 2}, [("c", "a"), ("a", "b")]))
    assert segments(chained.chains) == [("~0:1", "c"), ("a", "~0:1")]  # the same-band edge has no piece


def test_inversions_count_pairs_out_of_order_and_sort() -> None:
    values = [3, 1, 2]
    assert inversions(values) == 2 and values == [1, 2, 3]
    assert inversions([1, 2, 3]) == 0 and inversions([]) == 0
    assert inversions([4, 3, 2, 1]) == 6


def test_neighbours_below_above_and_beside() -> None:
    near = neighbours(edge_chains(graph(2, {"a": 0, "b": 0, "x": 1}, [("a", "x"), ("a", "b")])).chains)
    assert (near.above["a"], near.below["x"]) == (["x"], ["a"])
    assert (near.same["a"], near.same["b"]) == (["b"], ["a"])
    assert "x" not in near.above and "a" not in near.below


def test_by_barycentre_moves_slots_towards_their_fixed_neighbours() -> None:
    assert by_barycentre(["p", "q"], ["f0", "f1"], {"p": ["f1"], "q": ["f0"]}, {}) == ["q", "p"]
    # r has no neighbour and keeps its place (2); q is pulled to 1, p to 2 and stays before r on the tie.
    assert by_barycentre(["p", "q", "r"], ["f0", "f1", "f2"], {"p": ["f2"], "q": ["f1"]}, {}) == ["q", "p", "r"]
