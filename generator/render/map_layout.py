"""Where everything on a drawn map goes: pure functions from the map to coordinates.

A drawing is a :class:`MapGraph` — bands (layers, in order), nodes in bands and
edges between nodes — cut from the :class:`~generator.graph.KnowledgeMap` by
:func:`whole_map`, :func:`local_map`, :func:`layer_map` or :func:`overview_map`.
:func:`layout` places it as a layered drawing (the Sugiyama scheme with the
layers given):

1. an edge that skips bands gets a thin *dummy* slot in every band it crosses, so it
   passes between nodes instead of through them;
2. the order inside each band is chosen by barycentre sweeps (each slot moves
   towards the mean position of its neighbours in the band just placed), keeping
   the order with the fewest crossings seen;
3. x positions: each slot wants to sit at the mean x of its neighbours; the closest
   positions that keep the order and the spacing are found by isotonic regression
   (pool-adjacent-violators), sweeping down and up a few times;
4. edge labels sit in the gap between two bands, packed into horizontal tracks so
   that no two overlap; the edge is drawn through its label.

Band 0 (the first layer) is drawn at the bottom.  Everything is deterministic.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from generator.content.schema import Layer, Topic
from generator.model.graph import KnowledgeMap, MapEdge
from generator.render.paths import layer_label, layer_page, topic_page

# --- sizes (SVG user units, about CSS pixels) -----------------------------------------

NODE_FONT = 12.0
LABEL_FONT = 10.5
HEADER_FONT = 11.0
LINE_H = 14.5
NODE_PAD_X, NODE_PAD_Y = 9.0, 6.0
NODE_TEXT_MAX = 132.0
NODE_MIN_W = 64.0
NODE_MAX_LINES = 3
NODE_GAP = 22.0  # between two nodes in a band
DUMMY_W = 6.0
DUMMY_GAP = 8.0  # between a dummy slot and its neighbour
HEADER_H = 20.0
BAND_PAD = 8.0
TRACK_H = 16.0
LABEL_H = 13.0
LABEL_PAD = 3.0
LABEL_GAP = 10.0  # between two labels in a track
MAX_TRACKS = 16
GAP_PAD = 12.0
MIN_GAP = 40.0  # a gap that edges cross
EMPTY_GAP = 10.0  # a gap that nothing crosses
MARGIN = 12.0
SWEEPS = 12
X_PASSES = 6


# --- the graph to draw ------------------------------------------------------------------


@dataclass(frozen=True)
class Band:
    key: str  # "layer-3"
    label: str  # "Layer 3 · Cloud & Infrastructure"


@dataclass(frozen=True)
class NodeSpec:
    id: str
    label: str
    band: int  # index into MapGraph.bands
    page: str  # docs-tree page the node links to
    current: bool = False  # the page's own topic


@dataclass(frozen=True)
class EdgeSpec:
    source: str
    target: str
    label: str
    kind: str | None = None


@dataclass(frozen=True)
class MapGraph:
    bands: tuple[Band, ...]
    nodes: tuple[NodeSpec, ...]  # in their initial ("naive") order, band by band
    edges: tuple[EdgeSpec, ...]


def _layer_band(layer: Layer) -> Band:
    return Band(f"layer-{layer.number}", layer_label(layer))


def _graph(kmap: KnowledgeMap, topics: Iterable[Topic], edges: Iterable[MapEdge], current: str | None = None,
           every_layer: bool = False) -> MapGraph:
    """Bands for the layers that have a chosen topic (or all), in map order; nodes; edges."""
    chosen = {t.id: t for t in topics}
    present = {t.layer for t in chosen.values()}
    layers = [layer for layer in kmap.layers if every_layer or layer.number in present]
    band_of = {layer.number: band for band, layer in enumerate(layers)}
    ordered = sorted(chosen.values(), key=lambda t: (band_of[t.layer], t.title.casefold()))  # as in the map
    nodes = tuple(NodeSpec(t.id, t.title, band_of[t.layer], topic_page(t), t.id == current) for t in ordered)
    specs = tuple(EdgeSpec(e.subject.id, e.object.id, e.verb, e.kind) for e in edges
                  if e.subject.id in chosen and e.object.id in chosen)
    return MapGraph(tuple(_layer_band(layer) for layer in layers), nodes, specs)


def whole_map(kmap: KnowledgeMap) -> MapGraph:
    """Every topic and every edge; every layer gets its band, even an empty one."""
    return _graph(kmap, kmap.topics.values(), kmap.edges, every_layer=True)


def local_map(kmap: KnowledgeMap, topic: Topic) -> MapGraph:
    """A topic, every neighbour by an edge either way, and those edges."""
    return _graph(kmap, (topic, *kmap.neighbours(topic)), kmap.edges_by_topic[topic.id], current=topic.id)


def layer_map(kmap: KnowledgeMap, layer: Layer, neighbours: bool = True) -> MapGraph:
    """A layer's topics, their neighbours in other layers and the edges touching the layer;
    without ``neighbours``, only the layer's own topics and the edges among them."""
    own = kmap.topics_by_layer[layer.number]
    if not neighbours:
        inside = [e for e in kmap.edges if e.subject.layer == layer.number == e.object.layer]
        return _graph(kmap, own, inside)
    edges = [e for e in kmap.edges if layer.number in (e.subject.layer, e.object.layer)]
    return _graph(kmap, (*own, *(n for t in own for n in kmap.neighbours(t))), edges)


def overview_map(kmap: KnowledgeMap, strongest: int | None = None) -> MapGraph:
    """One node per layer (linking to its page), one edge per pair of layers with its count;
    with ``strongest``, only that many of the pairs with the most edges."""
    bands = tuple(_layer_band(layer) for layer in kmap.layers)
    nodes = tuple(
        NodeSpec(f"layer-{layer.number}", f"{layer.name} ({len(kmap.topics_by_layer[layer.number])} topics)",
                 i, layer_page(layer.number))
        for i, layer in enumerate(kmap.layers)
    )
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for edge in kmap.edges:
        counts[(edge.subject.layer, edge.object.layer)] += 1
    kept = sorted(counts, key=lambda pair: (-counts[pair], pair))[:strongest]
    edges = tuple(
        EdgeSpec(f"layer-{a}", f"layer-{b}", f"{counts[(a, b)]} edge{'s' if counts[(a, b)] != 1 else ''}")
        for a, b in sorted(kept)
    )
    return MapGraph(bands, nodes, edges)


# --- text size (no font engine at build time: an Arial/DejaVu-like estimate) -------------

_NARROW = set("fijlrtI.,:;'!|()[] ")
_WIDE = set("mwMW@%&")


def text_width(text: str, size: float) -> float:
    """Rough advance width of ``text`` at font ``size``, erring wide."""
    units = 0.0
    for ch in text:
        if ch in _NARROW:
            units += 0.34
        elif ch in _WIDE:
            units += 0.9
        elif ch.isupper() or ch.isdigit():
            units += 0.68
        else:
            units += 0.58
    return units * size


def wrap_label(text: str, max_width: float = NODE_TEXT_MAX, size: float = NODE_FONT,
               max_lines: int = NODE_MAX_LINES) -> tuple[str, ...]:
    """Greedy word wrap into at most ``max_lines`` lines, the last one ellipsised if cut."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= max_width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > max_lines:
        last = " ".join(lines[max_lines - 1:])
        while last and text_width(last + "…", size) > max_width:
            last = last[:-1].rstrip()
        lines = [*lines[: max_lines - 1], last + "…"]
    return tuple(lines) or ("",)


# --- ordering -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Slot:
    key: str  # node id, or "~<edge>:<band>" for a dummy
    band: int
    node: NodeSpec | None


def _chains(graph: MapGraph) -> tuple[list[list[_Slot]], dict[str, _Slot]]:
    """For each edge, the slots it passes from source to target (dummies between)."""
    slots = {n.id: _Slot(n.id, n.band, n) for n in graph.nodes}
    chains: list[list[_Slot]] = []
    for i, edge in enumerate(graph.edges):
        a, b = slots[edge.source], slots[edge.target]
        step = 1 if b.band > a.band else -1
        chain = [a]
        for band in range(a.band + step, b.band, step) if a.band != b.band else ():
            dummy = _Slot(f"~{i}:{band}", band, None)
            slots[dummy.key] = dummy
            chain.append(dummy)
        chain.append(b)
        chains.append(chain)
    return chains, slots


Order = list[list[str]]  # slot keys per band, left to right


def naive_order(graph: MapGraph) -> Order:
    """The order the nodes come in (dummies after the nodes of their band)."""
    chains, slots = _chains(graph)
    order: Order = [[] for _ in graph.bands]
    for node in graph.nodes:
        order[node.band].append(node.id)
    for chain in chains:
        for slot in chain[1:-1]:
            order[slot.band].append(slot.key)
    return order


def _segments(chains: list[list[_Slot]]) -> list[tuple[str, str]]:
    """Adjacent-band pieces of every edge, lower band first."""
    pieces = []
    for chain in chains:
        for a, b in zip(chain, chain[1:]):
            if a.band != b.band:
                pieces.append((a.key, b.key) if a.band < b.band else (b.key, a.key))
    return pieces


def _inversions(values: list[int]) -> int:
    """Number of pairs i < j with values[i] > values[j] (merge sort)."""
    if len(values) < 2:
        return 0
    mid = len(values) // 2
    left, right = values[:mid], values[mid:]
    count = _inversions(left) + _inversions(right)
    merged, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            count += len(left) - i
            j += 1
    values[:] = merged + left[i:] + right[j:]
    return count


def count_crossings(graph: MapGraph, order: Order) -> int:
    """Crossings between edge pieces in adjacent bands for a given order."""
    chains, slots = _chains(graph)
    return _crossings(chains, slots, order)


def _crossings(chains: list[list[_Slot]], slots: dict[str, _Slot], order: Order) -> int:
    pos = {key: i for band in order for i, key in enumerate(band)}
    by_gap: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for low, high in _segments(chains):
        by_gap[slots[low].band].append((pos[low], pos[high]))
    total = 0
    for pairs in by_gap.values():
        pairs.sort()
        total += _inversions([b for _, b in pairs])
    return total


def _neighbours(graph: MapGraph, chains: list[list[_Slot]]) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, list[str]]]:
    """Each slot's neighbours in the band below, the band above and its own band."""
    below: dict[str, list[str]] = defaultdict(list)
    above: dict[str, list[str]] = defaultdict(list)
    same: dict[str, list[str]] = defaultdict(list)
    for low, high in _segments(chains):
        above[low].append(high)
        below[high].append(low)
    for chain in chains:
        a, b = chain[0], chain[-1]
        if a.key != b.key and a.band == b.band:
            same[a.key].append(b.key)
            same[b.key].append(a.key)
    return below, above, same


def order_bands(graph: MapGraph) -> Order:
    """Barycentre sweeps up and down; returns the order with the fewest crossings seen."""
    chains, slots = _chains(graph)
    below, above, same = _neighbours(graph, chains)
    order = naive_order(graph)
    best, best_crossings = [list(b) for b in order], _crossings(chains, slots, order)
    for sweep in range(SWEEPS):
        if best_crossings == 0:
            break
        upward = sweep % 2 == 0
        bands = range(1, len(order)) if upward else range(len(order) - 2, -1, -1)
        fixed_of = below if upward else above
        for band in bands:
            fixed = {key: i for i, key in enumerate(order[band - 1 if upward else band + 1])}
            current = {key: i for i, key in enumerate(order[band])}
            scale = max(len(fixed), 1) / max(len(current), 1)

            def bary(key: str) -> float:
                values = [float(fixed[k]) for k in fixed_of.get(key, ())]
                values += [current[k] * scale for k in same.get(key, ())]
                return sum(values) / len(values) if values else current[key] * scale

            order[band] = sorted(order[band], key=lambda k: (bary(k), current[k]))
        crossings = _crossings(chains, slots, order)
        if crossings < best_crossings:
            best, best_crossings = [list(b) for b in order], crossings
    return best


# --- coordinates --------------------------------------------------------------------------


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
class PlacedNode:
    node: NodeSpec
    box: Box
    lines: tuple[str, ...]


@dataclass(frozen=True)
class PlacedBand:
    band: Band
    y: float
    h: float


@dataclass(frozen=True)
class PlacedEdge:
    edge: EdgeSpec
    points: tuple[tuple[float, float], ...]  # source port, waypoints, target port
    label: Box  # the label's box; its centre lies on the path
    arc: bool  # both ends in one band: drawn as an arch above it


@dataclass(frozen=True)
class MapLayout:
    width: float
    height: float
    bands: tuple[PlacedBand, ...]  # first layer first (drawn at the bottom)
    nodes: tuple[PlacedNode, ...]  # reading order: band by band from the first layer, left to right
    edges: tuple[PlacedEdge, ...]  # in the graph's edge order


def _slot_width(key: str, sizes: dict[str, tuple[float, float]]) -> float:
    return sizes[key][0] if key in sizes else DUMMY_W


def _gap_between(a: str, b: str, sizes: dict[str, tuple[float, float]]) -> float:
    space = NODE_GAP if a in sizes and b in sizes else DUMMY_GAP
    return (_slot_width(a, sizes) + _slot_width(b, sizes)) / 2 + space


def _x_positions(order: Order, sizes: dict[str, tuple[float, float]], below: dict[str, list[str]],
                 above: dict[str, list[str]], same: dict[str, list[str]]) -> dict[str, float]:
    x: dict[str, float] = {}
    for band in order:
        pos = 0.0
        for i, key in enumerate(band):
            if i:
                pos += _gap_between(band[i - 1], key, sizes)
            x[key] = pos
    width = max((x[b[-1]] for b in order if b), default=0.0)
    for band in order:  # centre each band under the widest
        if band:
            shift = (width - x[band[-1]]) / 2
            for key in band:
                x[key] += shift
    for sweep in range(X_PASSES):
        upward = sweep % 2 == 0
        bands = range(len(order)) if upward else range(len(order) - 1, -1, -1)
        for b in bands:
            band = order[b]
            if not band:
                continue
            desired = []
            for key in band:
                pulls = [x[k] for k in (below if upward else above).get(key, ())]
                if sweep >= X_PASSES - 2:  # last passes: both sides and own band
                    pulls += [x[k] for k in (above if upward else below).get(key, ())]
                pulls += [x[k] for k in same.get(key, ())] if pulls else []
                desired.append(sum(pulls) / len(pulls) if pulls else x[key])
            gaps = [_gap_between(a, c, sizes) for a, c in zip(band, band[1:])]
            for key, value in zip(band, place_in_order(desired, gaps)):
                x[key] = value
    return x


def _pack_labels(wanted: list[tuple[int, float, float]]) -> dict[int, tuple[int, float]]:
    """Labels (edge index, desired centre, width) of one gap → (track, centre), no overlaps."""
    tracks: list[list[tuple[int, float, float]]] = []
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


def layout(graph: MapGraph) -> MapLayout:
    """Place bands, nodes, edges and labels; see the module docstring for the steps."""
    chains, slots = _chains(graph)
    below, above, same = _neighbours(graph, chains)
    order = order_bands(graph)
    lines = {n.id: wrap_label(n.label) for n in graph.nodes}
    sizes = {
        n.id: (max(NODE_MIN_W, max(text_width(line, NODE_FONT) for line in lines[n.id]) + 2 * NODE_PAD_X),
               len(lines[n.id]) * LINE_H + 2 * NODE_PAD_Y)
        for n in graph.nodes
    }
    x = _x_positions(order, sizes, below, above, same)

    # Which gap holds each edge's label: gap g lies between band g (below) and band g + 1.
    label_gap: dict[int, int] = {}
    wanted: dict[int, list[tuple[int, float, float]]] = defaultdict(list)
    label_w = {i: text_width(e.label, LABEL_FONT) + 2 * LABEL_PAD for i, e in enumerate(graph.edges)}
    for i, chain in enumerate(chains):
        a, b = chain[0], chain[-1]
        if a.band == b.band:
            gap, centre = a.band, (x[a.key] + x[b.key]) / 2
        else:
            nxt = chain[1]
            gap = min(a.band, nxt.band)
            centre = (x[a.key] + x[nxt.key]) / 2
        label_gap[i] = gap
        wanted[gap].append((i, centre, label_w[i]))
    packed: dict[int, tuple[int, float]] = {}
    tracks_in_gap: dict[int, int] = defaultdict(int)
    for gap, items in wanted.items():
        for i, (track, centre) in _pack_labels(items).items():
            packed[i] = (track, centre)
            tracks_in_gap[gap] = max(tracks_in_gap[gap], track + 1)

    # Vertical: from the top, gap above band n-1, band n-1, gap n-2, band n-2, …, band 0.
    n = len(graph.bands)
    band_y: dict[int, float] = {}
    band_h: dict[int, float] = {}
    gap_y: dict[int, float] = {}
    y = MARGIN
    crossed = {min(p.band, q.band) for chain in chains for p, q in zip(chain, chain[1:]) if p.band != q.band}
    for band in range(n - 1, -1, -1):
        tracks = tracks_in_gap.get(band, 0)
        if tracks or band in crossed:
            gap_h = max(MIN_GAP, 2 * GAP_PAD + tracks * TRACK_H)
        else:
            gap_h = 0.0 if band == n - 1 else EMPTY_GAP
        gap_y[band] = y + (gap_h - tracks * TRACK_H) / 2  # top of the first track
        y += gap_h
        if order[band]:
            row = max((sizes[k][1] for k in order[band] if k in sizes), default=LINE_H + 2 * NODE_PAD_Y)
            band_h[band] = HEADER_H + row + 2 * BAND_PAD
        else:
            band_h[band] = HEADER_H + BAND_PAD
        band_y[band] = y
        y += band_h[band]
    height = y + MARGIN

    def node_box(key: str) -> Box:
        w, h = sizes[key]
        row_top = band_y[slots[key].band] + HEADER_H + BAND_PAD
        row_h = band_h[slots[key].band] - HEADER_H - 2 * BAND_PAD
        return Box(x[key] - w / 2, row_top + (row_h - h) / 2, w, h)

    boxes = {key: node_box(key) for key in sizes}
    labels: dict[int, Box] = {}
    for i, (track, centre) in packed.items():
        top = gap_y[label_gap[i]] + track * TRACK_H + (TRACK_H - LABEL_H) / 2
        labels[i] = Box(centre - label_w[i] / 2, top, label_w[i], LABEL_H)

    # Waypoints between the two ports: label centre, dummy corridors.
    inner: dict[int, list[tuple[float, float]]] = {}
    for i, chain in enumerate(chains):
        a, b = chain[0], chain[-1]
        label = labels[i]
        label_point = (label.cx, label.y + label.h / 2)
        if a.band == b.band:
            inner[i] = [label_point]
            continue
        points: list[tuple[float, float]] = []
        for prev, slot in zip(chain, chain[1:]):
            if min(prev.band, slot.band) == label_gap[i]:
                points.append(label_point)
            if slot.node is None:
                top, bottom = band_y[slot.band], band_y[slot.band] + band_h[slot.band]
                points += [(x[slot.key], bottom), (x[slot.key], top)] if b.band > a.band else \
                          [(x[slot.key], top), (x[slot.key], bottom)]
        inner[i] = points

    # Ports: spread each node's edges along its top and bottom sides, ordered by where they go.
    ends: dict[tuple[str, str], list[tuple[float, int, str]]] = defaultdict(list)  # (node, side) → [(toward x, edge, end)]
    for i, chain in enumerate(chains):
        a, b = chain[0], chain[-1]
        first, last = inner[i][0], inner[i][-1]
        if a.band == b.band:
            ends[(a.key, "top")].append((first[0], i, "source"))
            ends[(b.key, "top")].append((last[0], i, "target"))
        else:
            up = b.band > a.band
            ends[(a.key, "top" if up else "bottom")].append((first[0], i, "source"))
            ends[(b.key, "bottom" if up else "top")].append((last[0], i, "target"))
    ports: dict[tuple[int, str], tuple[float, float]] = {}
    for (key, side), items in ends.items():
        box = boxes[key]
        items.sort()
        usable = box.w * 0.7
        for j, (_, i, end) in enumerate(items):
            px = box.cx + (((j + 1) / (len(items) + 1)) - 0.5) * usable
            ports[(i, end)] = (px, box.y if side == "top" else box.y + box.h)

    # Reading order and the final shift so that nothing sticks out on the left.
    placed_order = [key for band in order for key in band if key in sizes]
    left = min([b.x for b in boxes.values()] + [b.x for b in labels.values()] + [0.0])
    dx = MARGIN - left
    right = max([b.x + b.w for b in boxes.values()] + [b.x + b.w for b in labels.values()]
                + [MARGIN + 8 + text_width(band.label, HEADER_FONT) - dx for band in graph.bands])
    width = right + dx + MARGIN

    def shift(box: Box) -> Box:
        return Box(round(box.x + dx, 1), round(box.y, 1), round(box.w, 1), round(box.h, 1))

    def pt(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0] + dx, 1), round(p[1], 1))

    nodes = tuple(PlacedNode(slots[k].node, shift(boxes[k]), lines[k]) for k in placed_order)  # type: ignore[arg-type]
    edges = tuple(
        PlacedEdge(edge, tuple(pt(p) for p in (ports[(i, "source")], *inner[i], ports[(i, "target")])),
                   shift(labels[i]), chains[i][0].band == chains[i][-1].band)
        for i, edge in enumerate(graph.edges)
    )
    bands = tuple(PlacedBand(graph.bands[b], round(band_y[b], 1), round(band_h[b], 1)) for b in range(n))
    return MapLayout(round(width, 1), round(height, 1), bands, nodes, edges)
