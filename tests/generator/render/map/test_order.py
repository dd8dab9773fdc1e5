"""The order inside each band: fewer crossings, counted through the dummies of long edges."""

from __future__ import annotations

import pytest

from generator.render.map.order import (
    by_barycentre, count_crossings, edge_chains, inversions, naive_order, neighbours, order_bands, segments,
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


