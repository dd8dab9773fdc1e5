"""The drawn map as inline SVG: pure functions from a laid-out map to HTML strings.

The SVG is readable and clickable without JavaScript: every node is an ``<a>`` to its
page, every edge a coloured arrow with its verb phrase, and a text list of the same
map follows it.  ``map.js`` adds highlighting, zoom and the summaries from the map
index.  The HTML goes into a Markdown page as one raw block, so it has no blank
lines, and its links are written as the built site's directory URLs (MkDocs does not
rewrite links inside raw HTML).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from generator.content.schema import EdgeKind, Layer, Topic
from generator.model.graph import KnowledgeMap
from generator.render.map_layout import (
    HEADER_FONT,
    LABEL_FONT,
    LINE_H,
    MARGIN,
    NODE_FONT,
    MapGraph,
    MapLayout,
    PlacedEdge,
    PlacedNode,
    layer_map,
    layout,
    local_map,
    overview_map,
    whole_map,
)
from generator.render.paths import HOME, relative_url
from generator.render.text import attr, inline

INDEX_FILE = "assets/layermap/map-index.json"
FULL_MAP_LIMIT = 120  # above this many topics the home page draws the layer overview
OVERVIEW_EDGES_PER_LAYER = 2  # the overview draws this many times as many links as there are layers
LAYER_MAP_LIMIT = 150  # above this many edges a layer page draws only the edges inside the layer
LIGHT_BG = "#ffffff"
DARK_BG = "#1e2129"  # Material's slate background, hsl(225 15% 14%)
MIN_CONTRAST = 3.0  # WCAG 1.4.11, graphical objects


# --- colours ------------------------------------------------------------------------------


def _luminance(hex_colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable(colour: str, background: str, ratio: float = MIN_CONTRAST) -> str:
    """``colour``, mixed towards black or white just enough to reach ``ratio`` on ``background``."""
    target = 0 if _luminance(background) > 0.5 else 255
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = colour.lower()
    for step in range(21):
        t = step / 20
        mixed = "#" + "".join(f"{round(c + (target - c) * t):02x}" for c in rgb)
        if contrast(mixed, background) >= ratio:
            break
    return mixed


MAP_STYLES_FILE = "assets/layermap/map-styles.css"
MIN_WIDTH_CLASS = "lm-map-min-"  # + the map's minimum width in px
# Below Material's tablet breakpoint (45em) a drawn map fits the screen's width, its text list shows
# and a hint says so (map.css); at and above it, a map keeps its minimum width and its frame scrolls.
WIDE_SCREEN = "screen and (min-width: 45em)"
_MIN_WIDTH_CLASSES = re.compile(rf"\b{MIN_WIDTH_CLASS}(\d+)\b")


def map_stylesheet(kinds: Iterable[EdgeKind], pages: Iterable[str]) -> str:
    """One stylesheet for the whole site: each kind's colours and each drawn map's minimum width.

    A file, not a <style> in each page: the Content-Security-Policy allows no inline styles it
    has no hash for, and instant navigation keeps the first page's policy for every later page.
    """
    widths = sorted({int(width) for page in pages for width in _MIN_WIDTH_CLASSES.findall(page)})
    rules = "".join(f".lm-map-svg.{MIN_WIDTH_CLASS}{width}{{min-width:{width}px}}" for width in widths)
    return "\n".join([kind_styles(kinds), f"@media {WIDE_SCREEN}{{{rules}}}" if rules else ""]) + "\n"


def kind_styles(kinds: Iterable[EdgeKind]) -> str:
    """Each kind's colour for the light and the dark (slate) scheme, as CSS."""
    rules = []
    for kind in kinds:
        rules.append(f".lm-map .lm-k-{kind.id}{{--lm-k:{readable(kind.colour, LIGHT_BG)}}}")
        rules.append(f"[data-md-color-scheme=slate] .lm-map .lm-k-{kind.id}{{--lm-k:{readable(kind.colour, DARK_BG)}}}")
    return "".join(rules)


# --- SVG pieces ---------------------------------------------------------------------------


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


def _node(placed: PlacedNode, page: str, name: str) -> str:
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
        f'<a class="{classes}" xlink:href="{attr(relative_url(page, node.page))}" data-id="{node.id}" data-band="{node.band}" '
        f'aria-label="{attr(name)}"{current}>{tooltip}'
        f'<rect x="{_n(box.x)}" y="{_n(box.y)}" width="{_n(box.w)}" height="{_n(box.h)}" rx="6"/>'
        f'<text text-anchor="middle">{spans}</text></a>'
    )


def _accessible_name(placed: PlacedNode, graph: MapGraph, degree: dict[str, int]) -> str:
    count = degree.get(placed.node.id, 0)
    band = graph.bands[placed.node.band].label
    return f"{placed.node.label} ({band}; {count} connection{'s' if count != 1 else ''})"


def render_svg(graph: MapGraph, placed: MapLayout, kinds: list[EdgeKind], *, page: str, map_id: str,
               title: str, description: str) -> str:
    """One ``<svg>`` element: bands, arrows, labels and linked nodes (keyboard order = node order)."""
    used = sorted({e.kind for e in graph.edges}, key=lambda k: (k is None, k or ""))
    degree: dict[str, int] = {}
    for e in graph.edges:
        degree[e.source] = degree.get(e.source, 0) + 1
        if e.target != e.source:
            degree[e.target] = degree.get(e.target, 0) + 1

    bands = "".join(
        f'<rect class="lm-band{" lm-band-alt" if i % 2 else ""}" x="0" y="{_n(b.y)}" width="{_n(placed.width)}" height="{_n(b.h)}"/>'
        for i, b in enumerate(placed.bands)
    )
    band_labels = "".join(  # drawn over the edges, with a halo, so a passing arrow never hides them
        f'<text class="lm-band-label" x="{_n(MARGIN)}" y="{_n(b.y + HEADER_FONT + 4)}">{inline(b.band.label)}</text>'
        for b in placed.bands
    )
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
    nodes = "".join(_node(n, page, _accessible_name(n, graph, degree)) for n in placed.nodes)
    min_width = f"{MIN_WIDTH_CLASS}{_n(min(placed.width, placed.width * 0.7))}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" class="lm-map-svg {min_width}" id="{map_id}" viewBox="0 0 {_n(placed.width)} {_n(placed.height)}" '
        f'width="{_n(placed.width)}" height="{_n(placed.height)}" '
        f'role="group" aria-labelledby="{map_id}-title" aria-describedby="{map_id}-desc">'
        f'<title id="{map_id}-title">{inline(title)}</title><desc id="{map_id}-desc">{inline(description)}</desc>'
        + f"<defs>{_markers(map_id, used)}</defs>"
        f'<g class="lm-bands" aria-hidden="true">{bands}</g>'
        f'<g class="lm-edges" aria-hidden="true">{"".join(lines)}</g>'
        f'<g class="lm-band-labels" aria-hidden="true">{band_labels}</g>'
        f'<g class="lm-edge-labels" aria-hidden="true">{"".join(texts)}</g>'
        f'<g class="lm-nodes">{nodes}</g></svg>'
    )


def legend(graph: MapGraph, kinds: list[EdgeKind]) -> str:
    used = {e.kind for e in graph.edges}
    items = [f'<li class="lm-k-{k.id}"><span class="lm-swatch" aria-hidden="true"></span>{inline(k.label)}</li>'
             for k in kinds if k.id in used]
    if not items:
        return ""
    return f'<ul class="lm-map-legend" aria-label="Edge kinds">{"".join(items)}</ul>'


def text_list(graph: MapGraph, page: str, list_id: str) -> str:
    """The same map as nested lists: band → node → its outgoing edges."""
    labels = {n.id: n for n in graph.nodes}
    out: dict[str, list[str]] = {n.id: [] for n in graph.nodes}
    for e in graph.edges:
        target = labels[e.target]
        out[e.source].append(f'<li>{inline(e.label)} <a href="{attr(relative_url(page, target.page))}">'
                             f"{inline(target.label)}</a></li>")
    bands = []
    for i, band in enumerate(graph.bands):
        items = "".join(
            f'<li><a href="{attr(relative_url(page, n.page))}">{inline(n.label)}</a>'
            + (f"<ul>{''.join(out[n.id])}</ul>" if out[n.id] else "") + "</li>"
            for n in graph.nodes if n.band == i
        )
        if items:
            bands.append(f"<li><strong>{inline(band.label)}</strong><ul>{items}</ul></li>")
    return (f'<details class="lm-map-text" id="{list_id}"><summary>The map as text</summary>'
            f'<ul>{"".join(bands)}</ul></details>')


def narrow_screen_hint(list_id: str | None) -> str:
    """What a phone reader is told above the drawing, scaled down to fit (shown by map.css on narrow screens)."""
    text = "The drawing is scaled to fit this screen: zoom in to read it"
    if list_id is None:
        return f'<p class="lm-map-hint">{text}.</p>'
    return f'<p class="lm-map-hint">{text}, or read <a href="#{list_id}">the same map as text</a> below it.</p>'


def map_figure(graph: MapGraph, kinds: list[EdgeKind], *, page: str, map_id: str, title: str,
               description: str, with_text: bool = True, listed: MapGraph | None = None) -> str:
    """The whole raw-HTML block: frame with the SVG, legend, text list of ``listed`` (default: the
    drawn graph), no blank lines."""
    svg = render_svg(graph, layout(graph), kinds, page=page, map_id=map_id, title=title, description=description)
    list_id = f"{map_id}-list"
    parts = [
        f'<figure class="lm-map" data-index="{attr(relative_url(page, INDEX_FILE))}">',
        f'<a class="lm-map-skip" href="#{map_id}-end">Skip the map</a>',
        narrow_screen_hint(list_id if with_text else None),
        f'<div class="lm-map-frame">{svg}</div>',
        f'<span id="{map_id}-end" tabindex="-1"></span>',
        legend(graph, kinds),
        '<p class="lm-map-info" hidden></p>',
        text_list(listed or graph, page, list_id) if with_text else "",
        "</figure>",
    ]
    return "\n".join(p for p in parts if p)


# --- the three places a map is drawn ----------------------------------------------------------


def _describe(graph: MapGraph, what: str, after: str) -> str:
    bands = graph.bands
    span = (f"{len(bands)} layers as horizontal bands, {bands[0].label} at the bottom and {bands[-1].label} at the top"
            if len(bands) > 1 else f"one layer, {bands[0].label}")
    return (f"{what}: {span}; {len(graph.nodes)} boxes, each a link; {len(graph.edges)} arrows, "
            f"each labelled with what one {after}. ")


def home_map_html(kmap: KnowledgeMap) -> str:
    """The whole map on the home page; above FULL_MAP_LIMIT topics, the overview of the layers."""
    if not kmap.topics:
        return ""
    kinds = list(kmap.config.edge_kinds)
    listed = None
    if len(kmap.topics) <= FULL_MAP_LIMIT:
        graph = whole_map(kmap)
        description = _describe(graph, "The whole map", "topic does to another") + "The same map is listed as text below it."
        title = f"Map of {kmap.config.title}"
    else:
        listed = overview_map(kmap)
        graph = overview_map(kmap, strongest=OVERVIEW_EDGES_PER_LAYER * len(kmap.layers))
        description = (f"Overview of the map: {len(graph.bands)} layers as horizontal bands, one box each, a link to "
                       f"the layer's page; the {len(graph.edges)} strongest of {len(listed.edges)} links between layers "
                       "drawn as arrows labelled with their number of edges. Every link is listed as text below it; "
                       "each layer's page draws its own topics.")
        title = f"Overview of {kmap.config.title}"
    figure = map_figure(graph, kinds, page=HOME, map_id="lm-map-home", title=title, description=description,
                        listed=listed)
    return f"## The map {{ #map }}\n\n{figure}"


def topic_map_html(kmap: KnowledgeMap, topic: Topic, page: str) -> str:
    """A topic's neighbourhood: itself, every neighbour either way, the edges labelled."""
    graph = local_map(kmap, topic)
    if not graph.edges:
        return ""
    description = (_describe(graph, f"Local map of {topic.title}", "topic does to another")
                   + "The same connections are listed below it.")
    return map_figure(graph, list(kmap.config.edge_kinds), page=page, map_id="lm-map-local",
                      title=f"{topic.title} and its neighbours", description=description, with_text=False)


def layer_map_html(kmap: KnowledgeMap, layer: Layer, page: str) -> str:
    """A layer's topics, their neighbours in other layers, and the edges touching the layer."""
    graph = layer_map(kmap, layer)
    if not graph.nodes:
        return ""
    whole = len(graph.edges) <= LAYER_MAP_LIMIT
    if whole:
        description = (_describe(graph, f"Map of layer {layer.number}", "topic does to another")
                       + "The same map is listed as text below it.")
    else:
        graph = layer_map(kmap, layer, neighbours=False)
        description = (_describe(graph, f"Map of layer {layer.number}, edges inside the layer only",
                                 "topic does to another")
                       + "Each topic's page draws its edges to other layers.")
    figure = map_figure(graph, list(kmap.config.edge_kinds), page=page, map_id="lm-map-layer",
                        title=f"Map of layer {layer.number}, {layer.name}", description=description, with_text=whole)
    return f"## Map of this layer {{ #map }}\n\n{figure}"
