"""Positions: order and spacing kept, bands stacked from the top, boxes in their rows."""

from __future__ import annotations

from generator.render.map.order import edge_chains, neighbours
from generator.render.map.place import (
    Box, band_height, desired_x, gap_between, gap_height, node_box, packed_and_centred, place_in_order, rows,
    x_positions,
)
from generator.render.map.settings import (
    BAND_PAD, DUMMY_GAP, DUMMY_W, EMPTY_GAP, GAP_PAD, HEADER_H, LINE_H, MARGIN, MIN_GAP, NODE_GAP, NODE_PAD_Y, TRACK_H,
)
from tests.generator.render.map.graphs import graph


def test_place_in_order_keeps_order_and_gaps_and_stays_close() -> None:
    assert place_in_order([0, 0, 0], [10, 10]) == [-10, 0, 10]
    assert place_in_order([0, 50, 100], [10, 10]) == [0, 50, 100]
    placed = place_in_order([5, 0, 30, 29], [4, 4, 4])
    assert all(b - a >= 4 - 1e-9 for a, b in zip(placed, placed[1:]))


