"""Where boxes go: x positions inside the bands, the bands' heights from the top, node boxes.

x positions: each slot wants to sit at the mean x of its neighbours; the closest positions
that keep the order and the spacing are found by isotonic regression (pool-adjacent-violators),
sweeping down and up a few times.  Band 0 (the first layer) is drawn at the bottom.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.render.map.order import EdgeChains, Neighbours, Order
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
    X_PASSES,
)

Sizes = dict[str, tuple[float, float]]  # node id → (width, height) of its box; dummies have none


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    def overlaps(self, other: Box) -> bool:
        return (self.x < other.x + other.w and other.x < self.x + self.w
                and self.y < other.y + other.h and other.y < self.y + self.h)


@dataclass(frozen=True)
class Rows:
    """The vertical plan: gap g lies between band g (below) and band g + 1; y grows downwards."""

    band_y: dict[int, float]  # top of each band
    band_h: dict[int, float]
    gap_y: dict[int, float]  # top of the first label track in each gap
    height: float  # of the whole drawing, margins included


def place_in_order(desired: Sequence[float], gaps: Sequence[float]) -> list[float]:
    """Positions closest (least squares) to ``desired`` with x[i+1] - x[i] >= gaps[i]."""
    offsets = [0.0]
    for gap in gaps:
        offsets.append(offsets[-1] + gap)
    targets = [d - o for d, o in zip(desired, offsets)]
    blocks: list[list[float]] = []  # [mean, weight]
    for value in targets:
        blocks.append([value, 1.0])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, weight = blocks.pop()
            blocks[-1][0] = (blocks[-1][0] * blocks[-1][1] + mean * weight) / (blocks[-1][1] + weight)
            blocks[-1][1] += weight
    fitted = [mean for mean, weight in blocks for _ in range(int(weight))]
    return [y + o for y, o in zip(fitted, offsets)]


def slot_width(key: str, sizes: Sizes) -> float:
    return sizes[key][0] if key in sizes else DUMMY_W


def gap_between(a: str, b: str, sizes: Sizes) -> float:
    """Least distance between the centres of two slots side by side."""
    space = NODE_GAP if a in sizes and b in sizes else DUMMY_GAP
    return (slot_width(a, sizes) + slot_width(b, sizes)) / 2 + space


def packed_and_centred(order: Order, sizes: Sizes) -> dict[str, float]:
    """Each band packed tight from the left, then centred under the widest band."""
    x: dict[str, float] = {}
    for band in order:
        pos = 0.0
        for i, key in enumerate(band):
            if i:
                pos += gap_between(band[i - 1], key, sizes)
            x[key] = pos
    width = max((x[b[-1]] for b in order if b), default=0.0)
    for band in order:
        if band:
            shift = (width - x[band[-1]]) / 2
            for key in band:
                x[key] += shift
    return x


def desired_x(key: str, x: dict[str, float], near: Neighbours, upward: bool, both_sides: bool) -> float:
    """Mean x of a slot's neighbours on the side already placed (or both sides), then its own band."""
    pulls = [x[k] for k in (near.below if upward else near.above).get(key, ())]
    if both_sides:
        pulls += [x[k] for k in (near.above if upward else near.below).get(key, ())]
    pulls += [x[k] for k in near.same.get(key, ())] if pulls else []
    return sum(pulls) / len(pulls) if pulls else x[key]


def pull_pass(order: Order, x: dict[str, float], sizes: Sizes, near: Neighbours, pass_number: int) -> None:
    """Move every band's slots towards their neighbours, keeping order and spacing (updates ``x``)."""
    upward = pass_number % 2 == 0
    both_sides = pass_number >= X_PASSES - 2  # last passes: both sides and own band
    for b in range(len(order)) if upward else range(len(order) - 1, -1, -1):
        band = order[b]
        if not band:
            continue
        desired = [desired_x(key, x, near, upward, both_sides) for key in band]
        gaps = [gap_between(a, c, sizes) for a, c in zip(band, band[1:])]
        for key, value in zip(band, place_in_order(desired, gaps)):
            x[key] = value


def x_positions(order: Order, sizes: Sizes, near: Neighbours) -> dict[str, float]:
    """Centre x of every slot, nodes and dummies."""
    x = packed_and_centred(order, sizes)
    for pass_number in range(X_PASSES):
        pull_pass(order, x, sizes, near, pass_number)
    return x


def crossed_gaps(chained: EdgeChains) -> set[int]:
    """The gaps some edge piece crosses."""
    return {min(p.band, q.band) for chain in chained.chains for p, q in zip(chain, chain[1:]) if p.band != q.band}


def gap_height(gap: int, tracks: int, crossed: bool, top_gap: int) -> float:
    if tracks or crossed:
        return max(MIN_GAP, 2 * GAP_PAD + tracks * TRACK_H)
    return 0.0 if gap == top_gap else EMPTY_GAP


def band_height(band: list[str], sizes: Sizes) -> float:
    """A header and a row as tall as the band's tallest box (a short header alone if it is empty)."""
    if not band:
        return HEADER_H + BAND_PAD
    row = max((sizes[k][1] for k in band if k in sizes), default=LINE_H + 2 * NODE_PAD_Y)
    return HEADER_H + row + 2 * BAND_PAD


def stack_bands(order: Order, sizes: Sizes, chained: EdgeChains, tracks_in_gap: dict[int, int]) -> Rows:
    """From the top: gap above band n-1, band n-1, gap n-2, band n-2, …, band 0."""
    n = len(order)
    band_y: dict[int, float] = {}
    band_h: dict[int, float] = {}
    gap_y: dict[int, float] = {}
    crossed = crossed_gaps(chained)
    y = MARGIN
    for band in range(n - 1, -1, -1):
        tracks = tracks_in_gap.get(band, 0)
        gap_h = gap_height(band, tracks, band in crossed, n - 1)
        gap_y[band] = y + (gap_h - tracks * TRACK_H) / 2
        y += gap_h
        band_h[band] = band_height(order[band], sizes)
        band_y[band] = y
        y += band_h[band]
    return Rows(band_y, band_h, gap_y, y + MARGIN)


def node_box(key: str, band: int, x: dict[str, float], sizes: Sizes, rows: Rows) -> Box:
    """A node's box, centred on its x and in its band's row."""
    w, h = sizes[key]
    row_top = rows.band_y[band] + HEADER_H + BAND_PAD
    row_h = rows.band_h[band] - HEADER_H - 2 * BAND_PAD
    return Box(x[key] - w / 2, row_top + (row_h - h) / 2, w, h)
