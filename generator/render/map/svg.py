"""The drawn map as one inline ``<svg>``: bands, arrows, labels and linked nodes.

The SVG is readable and clickable without JavaScript: every node is an ``<a>`` to its page,
every edge a coloured arrow with its verb phrase.  ``map.js`` adds highlighting, zoom and
the summaries from the map index.
"""

from __future__ import annotations

from generator.content.schema import EdgeKind
from generator.render.map.layout import MapLayout, PlacedEdge, PlacedNode
from generator.render.map.select import MapGraph
from generator.render.map.settings import HEADER_FONT, LABEL_FONT, LINE_H, MARGIN, NODE_FONT
from generator.render.map.styles import MIN_WIDTH_CLASS
from generator.render.paths import site_link
from generator.render.text import attr, inline


def _n(value: float) -> str:
    """Coordinates to whole units: a pixel is finer than anything the map draws, and pages stay small."""
    return str(round(value))


def edge_path(edge: PlacedEdge) -> str:
    """Path data through the edge's points: an arch for same-band edges, else smooth S-bends."""
    p = edge.points
    if edge.arc:
        (sx, sy), (lx, ly), (ex, ey) = p[0], p[1], p[-1]
        return (f"M{_n(sx)} {_n(sy)}Q{_n(sx)} {_n(ly)} {_n(lx)} {_n(ly)}"
                f"Q{_n(ex)} {_n(ly)} {_n(ex)} {_n(ey)}")
    parts = [f"M{_n(p[0][0])} {_n(p[0][1])}"]
    for (x1, y1), (x2, y2) in zip(p, p[1:]):
        if x1 == x2:
            parts.append(f"L{_n(x2)} {_n(y2)}")
        else:
            mid = (y1 + y2) / 2
            parts.append(f"C{_n(x1)} {_n(mid)} {_n(x2)} {_n(mid)} {_n(x2)} {_n(y2)}")
    return "".join(parts)


def _kind_class(kind: str | None) -> str:
    return f"lm-k-{kind}" if kind else "lm-k-none"


def _markers(map_id: str, kinds: list[str | None]) -> str:
    return "".join(
        f'<marker id="{map_id}-arrow-{kind or "none"}" class="{_kind_class(kind)}" viewBox="0 0 10 10" refX="9" refY="5" '
        f'markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto">'
        f'<path class="lm-arrowhead" d="M0 1L10 5L0 9z"/></marker>'
        for kind in kinds
    )


def _node(placed: PlacedNode, name: str) -> str:
    box, node = placed.box, placed.node
    first_y = box.y + box.h / 2 - (len(placed.lines) - 1) * LINE_H / 2 + NODE_FONT * 0.35
    spans = "".join(
        f'<tspan x="{_n(box.cx)}" y="{_n(first_y + i * LINE_H)}">{inline(line)}</tspan>'
        for i, line in enumerate(placed.lines)
    )
    current = ' aria-current="page"' if node.current else ""
    tooltip = f"<title>{inline(node.label)}</title>" if placed.lines[-1].endswith("…") else ""  # cut short
    classes = "lm-node lm-current" if node.current else "lm-node"
    return (
        # xlink:href, not href: mkdocs-material's instant navigation rewrites every [href] by
        # assigning el.href, which throws on SVG links and breaks navigation for the whole page.
        f'<a class="{classes}" xlink:href="{attr(site_link(node.page))}" data-id="{node.id}" data-band="{node.band}" '
        f'aria-label="{attr(name)}"{current}>{tooltip}'
        f'<rect x="{_n(box.x)}" y="{_n(box.y)}" width="{_n(box.w)}" height="{_n(box.h)}" rx="6"/>'
        f'<text text-anchor="middle">{spans}</text></a>'
    )


def edge_degrees(graph: MapGraph) -> dict[str, int]:
    """How many edges touch each node (an edge from a node to itself counts once)."""
    degree: dict[str, int] = {}
    for e in graph.edges:
        degree[e.source] = degree.get(e.source, 0) + 1
        if e.target != e.source:
            degree[e.target] = degree.get(e.target, 0) + 1
    return degree


def _accessible_name(placed: PlacedNode, graph: MapGraph, degree: dict[str, int]) -> str:
    count = degree.get(placed.node.id, 0)
    band = graph.bands[placed.node.band].label
    return f"{placed.node.label} ({band}; {count} connection{'s' if count != 1 else ''})"


def _bands(placed: MapLayout) -> tuple[str, str]:
    """The bands' rectangles, and their names (drawn over the edges, with a halo, so a passing
    arrow never hides them)."""
    rects = "".join(
        f'<rect class="lm-band{" lm-band-alt" if i % 2 else ""}" x="0" y="{_n(b.y)}" width="{_n(placed.width)}" height="{_n(b.h)}"/>'
        for i, b in enumerate(placed.bands)
    )
    names = "".join(
        f'<text class="lm-band-label" x="{_n(MARGIN)}" y="{_n(b.y + HEADER_FONT + 4)}">{inline(b.band.label)}</text>'
        for b in placed.bands
    )
    return rects, names


def _edges(placed: MapLayout, map_id: str) -> tuple[str, str]:
    """The edges' arrows, and their labels."""
    lines, texts = [], []
    for i, e in enumerate(placed.edges):
        spec = e.edge
        data = f'data-e="{i}" data-s="{spec.source}" data-o="{spec.target}"'
        lines.append(
            f'<path class="lm-edge {_kind_class(spec.kind)}" {data} d="{edge_path(e)}" '
            f'marker-end="url(#{map_id}-arrow-{spec.kind or "none"})"/>'
        )
        texts.append(
            f'<text class="lm-edge-label" {data} x="{_n(e.label.cx)}" y="{_n(e.label.y + e.label.h / 2 + LABEL_FONT * 0.35)}" '
            f'text-anchor="middle">{inline(spec.label)}</text>'
        )
    return "".join(lines), "".join(texts)


def render_svg(graph: MapGraph, placed: MapLayout, kinds: list[EdgeKind], *, map_id: str,
               title: str, description: str) -> str:
    """One ``<svg>`` element: bands, arrows, labels and linked nodes (keyboard order = node order)."""
    used = sorted({e.kind for e in graph.edges}, key=lambda k: (k is None, k or ""))
    degree = edge_degrees(graph)
    bands, band_labels = _bands(placed)
    lines, texts = _edges(placed, map_id)
    nodes = "".join(_node(n, _accessible_name(n, graph, degree)) for n in placed.nodes)
    min_width = f"{MIN_WIDTH_CLASS}{_n(placed.width)}"  # never scaled down: its smallest text stays 11 px (LABEL_FONT)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" class="lm-map-svg {min_width}" id="{map_id}" viewBox="0 0 {_n(placed.width)} {_n(placed.height)}" '
        f'width="{_n(placed.width)}" height="{_n(placed.height)}" '
        f'role="group" aria-labelledby="{map_id}-title" aria-describedby="{map_id}-desc">'
        f'<title id="{map_id}-title">{inline(title)}</title><desc id="{map_id}-desc">{inline(description)}</desc>'
        + f"<defs>{_markers(map_id, used)}</defs>"
        f'<g class="lm-bands" aria-hidden="true">{bands}</g>'
        f'<g class="lm-edges" aria-hidden="true">{lines}</g>'
        f'<g class="lm-band-labels" aria-hidden="true">{band_labels}</g>'
        f'<g class="lm-edge-labels" aria-hidden="true">{texts}</g>'
        f'<g class="lm-nodes">{nodes}</g></svg>'
    )
