"""A map laid out: :func:`layout` runs the steps, from a :class:`MapGraph` to coordinates.

The layered drawing (the Sugiyama scheme with the layers given), one module per step:
the order inside each band (:mod:`.order`), x positions and the bands' rows (:mod:`.place`),
box sizes from the wrapped titles (:mod:`.text_metrics`), labels, waypoints and ports
(:mod:`.route`).  Band 0 (the first layer) is drawn at the bottom.  Everything is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.render.map.order import Order, edge_chains, neighbours, order_bands
from generator.render.map.place import Box, Rows, node_box, stack_bands, x_positions
from generator.render.map.route import Point, label_boxes, plan_labels, port_ends, ports, waypoints
from generator.render.map.select import Band, EdgeSpec, MapGraph, NodeSpec
from generator.render.map.settings import HEADER_FONT, MARGIN
from generator.render.map.text_metrics import box_size, text_width, wrap_label


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
    points: tuple[Point, ...]  # source port, waypoints, target port
    label: Box  # the label's box; its centre lies on the path
    arc: bool  # both ends in one band: drawn as an arch above it


@dataclass(frozen=True)
class MapLayout:
    width: float
    height: float
    bands: tuple[PlacedBand, ...]  # first layer first (drawn at the bottom)
    nodes: tuple[PlacedNode, ...]  # reading order: band by band from the first layer, left to right
    edges: tuple[PlacedEdge, ...]  # in the graph's edge order


@dataclass(frozen=True)
class Geometry:
    """Everything placed, before the shift that keeps it inside the left margin and the rounding."""

    order: Order
    lines: dict[str, tuple[str, ...]]  # node id → its title's wrapped lines
    boxes: dict[str, Box]  # node id → its box
    labels: dict[int, Box]  # edge index → its label's box
    paths: dict[int, list[Point]]  # edge index → source port, waypoints, target port
    rows: Rows


def geometry(graph: MapGraph) -> Geometry:
    """Order the bands, size the boxes, place them, pack the labels, route the edges."""
    chained = edge_chains(graph)
    order = order_bands(graph)
    lines = {n.id: wrap_label(n.label) for n in graph.nodes}
    sizes = {n.id: box_size(lines[n.id]) for n in graph.nodes}
    x = x_positions(order, sizes, neighbours(chained.chains))
    label_plan = plan_labels(graph, chained, x)
    rows = stack_bands(order, sizes, chained, label_plan.tracks_in_gap)
    boxes = {n.id: node_box(n.id, n.band, x, sizes, rows) for n in graph.nodes}
    labels = label_boxes(label_plan, rows)
    inner = {i: waypoints(chain, label_plan.gap[i], labels[i], rows, x) for i, chain in enumerate(chained.chains)}
    end_points = ports(port_ends(chained, inner), boxes)
    paths = {i: [end_points[(i, "source")], *inner[i], end_points[(i, "target")]] for i in inner}
    return Geometry(order, lines, boxes, labels, paths, rows)


def shift_and_width(graph: MapGraph, placed: Geometry) -> tuple[float, float]:
    """How far to move everything right so that nothing sticks out on the left, and the width then
    needed for every box, label and band name."""
    boxes = [*placed.boxes.values(), *placed.labels.values()]
    dx = MARGIN - min([b.x for b in boxes] + [0.0])
    right = max([b.x + b.w for b in boxes]
                + [MARGIN + 8 + text_width(band.label, HEADER_FONT) - dx for band in graph.bands])
    return dx, right + dx + MARGIN


def layout(graph: MapGraph) -> MapLayout:
    """Place bands, nodes, edges and labels; see the module docstring for the steps."""
    placed = geometry(graph)
    dx, width = shift_and_width(graph, placed)

    def shift(box: Box) -> Box:
        return Box(round(box.x + dx, 1), round(box.y, 1), round(box.w, 1), round(box.h, 1))

    def point(p: Point) -> Point:
        return (round(p[0] + dx, 1), round(p[1], 1))

    by_id = {n.id: n for n in graph.nodes}
    reading_order = [key for band in placed.order for key in band if key in by_id]
    nodes = tuple(PlacedNode(by_id[k], shift(placed.boxes[k]), placed.lines[k]) for k in reading_order)
    edges = tuple(
        PlacedEdge(edge, tuple(point(p) for p in placed.paths[i]), shift(placed.labels[i]),
                   by_id[edge.source].band == by_id[edge.target].band)
        for i, edge in enumerate(graph.edges)
    )
    bands = tuple(PlacedBand(graph.bands[b], round(placed.rows.band_y[b], 1), round(placed.rows.band_h[b], 1))
                  for b in range(len(graph.bands)))
    return MapLayout(round(width, 1), round(placed.rows.height, 1), bands, nodes, edges)
