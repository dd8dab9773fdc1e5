"""Positions: order and spacing kept, bands stacked from the top, boxes in their rows."""

from __future__ import annotations

from generator.render.map.order import edge_chains, neighbours
from generator.render.map.place import (
    Box,
    band_height,
    desired_x,
    gap_between,
    gap_height,
    node_box,
    packed_and_centred,
    place_in_order,
    stack_bands,
    x_positions,
)
from generator.render.map.settings import (
    BAND_PAD,
    DUMMY_GAP,
    DUMMY_W,
    EMPTY_GAP,
    GAP_PAD,
    HEADER_H,
    LINE_H,
    MARGIN,
    MIN_GAP,
    NODE_GAP,
    NODE_PAD_Y,
    TRACK_H,
)
from tests.generator.render.map.graphs import graph


def test_place_in_order_keeps_order_and_gaps_and_stays_close() -> None:
    assert place_in_order([0, 0, 0], [10, 10]) == [-10, 0, 10]
    assert place_in_order([0, 50, 100], [10, 10]) == [0, 50, 100]
    placed = place_in_order([5, 0, 30, 29], [4, 4, 4])
    assert all(b - a >= 4 - 1e-9 for a, b in zip(placed, placed[1:]))


# --- the named steps ------------------------------------------------------------------------

SIZES = {"a": (40.0, 20.0), "b": (60.0, 20.0), "c": (50.0, 20.0)}


def test_gap_between_is_half_of_each_width_and_the_spacing() -> None:
    assert gap_between("a", "b", SIZES) == (40 + 60) / 2 + NODE_GAP
    assert gap_between("a", "~0:1", SIZES) == (40 + DUMMY_W) / 2 + DUMMY_GAP


def test_packed_and_centred_centres_each_band_under_the_widest() -> None:
    x = packed_and_centred([["a", "b"], ["c"]], SIZES)
    assert x == {"a": 0.0, "b": 50 + NODE_GAP, "c": (50 + NODE_GAP) / 2}


def test_desired_x_is_the_mean_of_the_neighbours_on_the_placed_side() -> None:
    near = neighbours(edge_chains(graph(2, {"a": 0, "b": 0, "c": 1}, [("a", "c"), ("b", "c"), ("a", "b")])).chains)
    x = {"a": 0.0, "b": 72.0, "c": 10.0}
    assert desired_x("c", x, near, upward=True, both_sides=False) == 36.0
    assert desired_x("c", x, near, upward=False, both_sides=False) == 10.0  # nothing above: stays
    assert desired_x("a", x, near, upward=False, both_sides=False) == (10.0 + 72.0) / 2  # above, then beside
    assert desired_x("a", x, near, upward=True, both_sides=False) == 0.0  # nothing below: the band alone does not pull
    assert desired_x("a", x, near, upward=True, both_sides=True) == (10.0 + 72.0) / 2


def test_x_positions_keep_the_order_and_the_spacing() -> None:
    g = graph(2, {"a": 0, "b": 0, "c": 1}, [("a", "c"), ("b", "c")])
    near = neighbours(edge_chains(g).chains)
    x = x_positions([["a", "b"], ["c"]], SIZES, near)
    assert x["b"] - x["a"] >= gap_between("a", "b", SIZES) - 1e-9
    assert x["c"] == (x["a"] + x["b"]) / 2  # pulled between its two neighbours


def test_gap_height_grows_with_tracks_and_is_none_at_the_top_when_empty() -> None:
    assert gap_height(0, 3, True, 2) == max(MIN_GAP, 2 * GAP_PAD + 3 * TRACK_H)
    assert gap_height(0, 0, True, 2) == MIN_GAP
    assert gap_height(2, 0, False, 2) == 0.0
    assert gap_height(1, 0, False, 2) == EMPTY_GAP


def test_band_height_fits_the_tallest_box_under_the_header() -> None:
    assert band_height([], SIZES) == HEADER_H + BAND_PAD
    assert band_height(["a", "~0:1"], {"a": (40.0, 41.0)}) == HEADER_H + 41 + 2 * BAND_PAD
    assert band_height(["~0:1"], {}) == HEADER_H + LINE_H + 2 * NODE_PAD_Y + 2 * BAND_PAD


def test_stack_bands_stacks_from_the_top_with_the_first_layer_at_the_bottom() -> None:
    g = graph(2, {"a": 0, "b": 1}, [("a", "b")])
    sizes = {"a": (64.0, 26.5), "b": (64.0, 26.5)}
    plan = stack_bands([["a"], ["b"]], sizes, edge_chains(g), {0: 1})
    band = HEADER_H + 26.5 + 2 * BAND_PAD
    gap = max(MIN_GAP, 2 * GAP_PAD + TRACK_H)
    assert plan.band_y == {1: MARGIN, 0: MARGIN + band + gap}
    assert plan.band_h == {0: band, 1: band}
    assert plan.gap_y[0] == MARGIN + band + (gap - TRACK_H) / 2
    assert plan.height == MARGIN + 2 * band + gap + MARGIN


def test_node_box_is_centred_on_its_x_in_its_band_row() -> None:
    g = graph(1, {"a": 0}, [])
    sizes = {"a": (64.0, 26.5)}
    plan = stack_bands([["a"]], sizes, edge_chains(g), {})
    box = node_box("a", 0, {"a": 100.0}, sizes, plan)
    assert box == Box(100 - 32, plan.band_y[0] + HEADER_H + BAND_PAD, 64.0, 26.5)
    assert box.cx == 100.0
