"""Where edges run: labels packed into tracks in the gaps between bands, waypoints, ports.

Edge labels sit in the gap between two bands, packed into horizontal tracks so that no two
overlap; the edge is drawn through its label, and along its dummy slots' corridors through
the bands it crosses.  Each node spreads its edges' ends along its top and bottom sides.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from generator.render.map.order import EdgeChains, Slot
from generator.render.map.place import Box, Rows, place_in_order
from generator.render.map.select import MapGraph
from generator.render.map.settings import LABEL_FONT, LABEL_GAP, LABEL_H, LABEL_PAD, MAX_TRACKS, TRACK_H
from generator.render.map.text_metrics import text_width

Point = tuple[float, float]
WantedLabel = tuple[int, float, float]  # (edge index, desired centre x, width)


@dataclass(frozen=True)
class LabelPlan:
    """Where each edge's label goes: gap g lies between band g (below) and band g + 1."""

    gap: dict[int, int]  # edge index → the gap holding its label
    placed: dict[int, tuple[int, float]]  # edge index → (track in its gap, centre x)
    width: dict[int, float]  # edge index → label width
    tracks_in_gap: dict[int, int]  # gap → how many tracks it needs


def label_wish(chain: list[Slot], x: dict[str, float]) -> tuple[int, float]:
    """The gap for an edge's label and the x it would like there: between its first two slots
    (or above its band, midway between both ends, for an edge inside one band)."""
    a, b = chain[0], chain[-1]
    if a.band == b.band:
        return a.band, (x[a.key] + x[b.key]) / 2
    nxt = chain[1]
    return min(a.band, nxt.band), (x[a.key] + x[nxt.key]) / 2


def pack_labels(wanted: list[WantedLabel]) -> dict[int, tuple[int, float]]:
    """Labels (edge index, desired centre, width) of one gap → (track, centre), no overlaps."""
    tracks: list[list[WantedLabel]] = []
    ends: list[float] = []
    for item in sorted(wanted, key=lambda w: (w[1], w[0])):
        _, centre, width = item
        left = centre - width / 2
        fits = [t for t, end in enumerate(ends) if end + LABEL_GAP <= left]
        if fits:
            track = fits[0]
        elif len(tracks) < MAX_TRACKS:
            tracks.append([])
            ends.append(float("-inf"))
            track = len(tracks) - 1
        else:
            track = min(range(len(ends)), key=lambda t: (ends[t], t))
        tracks[track].append(item)
        ends[track] = max(ends[track] + LABEL_GAP + width, centre + width / 2)
    placed: dict[int, tuple[int, float]] = {}
    for t, items in enumerate(tracks):
        gaps = [(a[2] + b[2]) / 2 + LABEL_GAP for a, b in zip(items, items[1:])]
        for item, centre in zip(items, place_in_order([i[1] for i in items], gaps)):
            placed[item[0]] = (t, centre)
    return placed


def plan_labels(graph: MapGraph, chained: EdgeChains, x: dict[str, float]) -> LabelPlan:
    """Each edge's label given a gap, a track and a centre, no two overlapping."""
    width = {i: text_width(e.label, LABEL_FONT) + 2 * LABEL_PAD for i, e in enumerate(graph.edges)}
    label_gap: dict[int, int] = {}
    wanted: dict[int, list[WantedLabel]] = defaultdict(list)
    for i, chain in enumerate(chained.chains):
        gap, centre = label_wish(chain, x)
        label_gap[i] = gap
        wanted[gap].append((i, centre, width[i]))
    placed: dict[int, tuple[int, float]] = {}
    tracks_in_gap: dict[int, int] = defaultdict(int)
    for gap, items in wanted.items():
        for i, (track, centre) in pack_labels(items).items():
            placed[i] = (track, centre)
            tracks_in_gap[gap] = max(tracks_in_gap[gap], track + 1)
    return LabelPlan(label_gap, placed, width, tracks_in_gap)


def label_boxes(labels: LabelPlan, rows: Rows) -> dict[int, Box]:
    """Each label's box, centred in its track."""
    boxes: dict[int, Box] = {}
    for i, (track, centre) in labels.placed.items():
        top = rows.gap_y[labels.gap[i]] + track * TRACK_H + (TRACK_H - LABEL_H) / 2
        boxes[i] = Box(centre - labels.width[i] / 2, top, labels.width[i], LABEL_H)
    return boxes


def waypoints(chain: list[Slot], label_gap: int, label: Box, rows: Rows, x: dict[str, float]) -> list[Point]:
    """The points an edge passes between its two ports: its label's centre and, through each band
    it skips, the top and bottom of its dummy's corridor."""
    a, b = chain[0], chain[-1]
    label_point = (label.cx, label.y + label.h / 2)
    if a.band == b.band:
        return [label_point]
    points: list[Point] = []
    for prev, slot in zip(chain, chain[1:]):
        if min(prev.band, slot.band) == label_gap:
            points.append(label_point)
        if slot.node is None:
            top, bottom = rows.band_y[slot.band], rows.band_y[slot.band] + rows.band_h[slot.band]
            points += [(x[slot.key], bottom), (x[slot.key], top)] if b.band > a.band else \
                      [(x[slot.key], top), (x[slot.key], bottom)]
    return points


PortEnds = dict[tuple[str, str], list[tuple[float, int, str]]]  # (node, side) → [(toward x, edge, end)]


def port_ends(chained: EdgeChains, inner: dict[int, list[Point]]) -> PortEnds:
    """Which side of which node each edge end leaves from, and the x it heads for."""
    ends: PortEnds = defaultdict(list)
    for i, chain in enumerate(chained.chains):
        a, b = chain[0], chain[-1]
        first, last = inner[i][0], inner[i][-1]
        if a.band == b.band:
            ends[(a.key, "top")].append((first[0], i, "source"))
            ends[(b.key, "top")].append((last[0], i, "target"))
        else:
            up = b.band > a.band
            ends[(a.key, "top" if up else "bottom")].append((first[0], i, "source"))
            ends[(b.key, "bottom" if up else "top")].append((last[0], i, "target"))
    return ends


def ports(ends: PortEnds, boxes: dict[str, Box]) -> dict[tuple[int, str], Point]:
    """Each edge end's point, spread along its node's side in the order of where the edges go."""
    found: dict[tuple[int, str], Point] = {}
    for (key, side), items in ends.items():
        box = boxes[key]
        items.sort()
        usable = box.w * 0.7
        for j, (_, i, end) in enumerate(items):
            px = box.cx + (((j + 1) / (len(items) + 1)) - 0.5) * usable
            found[(i, end)] = (px, box.y if side == "top" else box.y + box.h)
    return found
