"""The map as a figure in a page, and the three places one is drawn: home, layer and topic pages.

The figure holds the SVG, a legend and a text list of the same map.  It goes into a Markdown
page as one raw block, so it has no blank lines, and its links are layermap's site links
(``paths.site_link``: an engine may rewrite a relative link in raw HTML), made relative to the page
after the engine.
"""

from __future__ import annotations

from generator.content.schema import EdgeKind, Layer, Topic
from generator.model.graph import KnowledgeMap
from generator.render.map.layout import layout
from generator.render.map.select import MapGraph, layer_map, local_map, overview_map, whole_map
from generator.render.map.settings import LAYER_MAP_LIMIT, OVERVIEW_EDGES_PER_LAYER
from generator.render.map.svg import render_svg
from generator.render.paths import site_link
from generator.render.text import attr, inline
from generator.settings import BuildSettings

INDEX_FILE = "assets/layermap/map-index.json"


def legend(graph: MapGraph, kinds: list[EdgeKind]) -> str:
    used = {e.kind for e in graph.edges}
    items = [f'<li class="lm-k-{k.id}"><span class="lm-swatch" aria-hidden="true"></span>{inline(k.label)}</li>'
             for k in kinds if k.id in used]
    if not items:
        return ""
    return f'<ul class="lm-map-legend" aria-label="Edge kinds" data-search-exclude="">{"".join(items)}</ul>'


def text_list(graph: MapGraph, list_id: str) -> str:
    """The same map as nested lists: band → node → its outgoing edges."""
    labels = {n.id: n for n in graph.nodes}
    out: dict[str, list[str]] = {n.id: [] for n in graph.nodes}
    for e in graph.edges:
        target = labels[e.target]
        out[e.source].append(f'<li>{inline(e.label)} <a href="{attr(site_link(target.page))}">'
                             f"{inline(target.label)}</a></li>")
    bands = []
    for i, band in enumerate(graph.bands):
        items = "".join(
            f'<li><a href="{attr(site_link(n.page))}">{inline(n.label)}</a>'
            + (f"<ul>{''.join(out[n.id])}</ul>" if out[n.id] else "") + "</li>"
            for n in graph.nodes if n.band == i
        )
        if items:
            bands.append(f"<li><strong>{inline(band.label)}</strong><ul>{items}</ul></li>")
    return (f'<details class="lm-map-text" id="{list_id}"><summary>The map as text</summary>'
            f'<ul>{"".join(bands)}</ul></details>')


def narrow_screen_hint(list_id: str | None) -> str:
    """What a phone reader is told above the drawing, a region of it in a frame (shown by map.css on narrow screens)."""
    text = "The drawing is larger than this screen: scroll it in its frame"
    if list_id is None:
        return f'<p class="lm-map-hint" data-search-exclude="">{text}.</p>'
    return f'<p class="lm-map-hint" data-search-exclude="">{text}, or read <a href="#{list_id}">the same map as text</a> below it.</p>'


def map_figure(graph: MapGraph, kinds: list[EdgeKind], *, map_id: str, title: str,
               description: str, with_text: bool = True, listed: MapGraph | None = None) -> str:
    """The whole raw-HTML block: frame with the SVG, legend, text list of ``listed`` (default: the
    drawn graph), no blank lines."""
    svg = render_svg(graph, layout(graph), kinds, map_id=map_id, title=title, description=description)
    list_id = f"{map_id}-list"
    parts = [
        f'<figure class="lm-map" data-index="{attr(site_link(INDEX_FILE))}">',
        f'<a class="lm-map-skip" href="#{map_id}-end" data-search-exclude="">Skip the map</a>',  # nor on the map's controls
        narrow_screen_hint(list_id if with_text else None),
        f'<div class="lm-map-frame" data-search-exclude="">{svg}</div>',  # search lands on the text, not the drawing
        f'<span id="{map_id}-end" tabindex="-1"></span>',
        legend(graph, kinds),
        '<p class="lm-map-info" hidden></p>',
        text_list(listed or graph, list_id) if with_text else "",
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


def drawn_kinds(kmap: KnowledgeMap) -> list:
    """The edge kinds a drawing's legend names (prerequisites are not drawn: ``select.drawn``)."""
    return [kind for kind in kmap.config.edge_kinds if not kind.prerequisite]


def home_map_html(kmap: KnowledgeMap, full_map_limit: int = BuildSettings.full_map_limit) -> str:
    """The whole map on the home page; above ``full_map_limit`` topics (BuildSettings), the overview of the layers."""
    if not kmap.topics:
        return ""
    kinds = drawn_kinds(kmap)
    listed = None
    if len(kmap.topics) <= full_map_limit:
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
    figure = map_figure(graph, kinds, map_id="lm-map-home", title=title, description=description,
                        listed=listed)
    return f"## The map {{ #map }}\n\n{figure}"


def topic_map_html(kmap: KnowledgeMap, topic: Topic, page: str) -> str:
    """A topic's neighbourhood: itself, every neighbour either way, the edges labelled."""
    graph = local_map(kmap, topic)
    if not graph.edges:
        return ""
    description = (_describe(graph, f"Local map of {topic.title}", "topic does to another")
                   + "The same connections are listed below it.")
    return map_figure(graph, drawn_kinds(kmap), map_id="lm-map-local",
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
    figure = map_figure(graph, drawn_kinds(kmap), map_id="lm-map-layer",
                        title=f"Map of layer {layer.number}, {layer.name}", description=description, with_text=whole)
    return f"## Map of this layer {{ #map }}\n\n{figure}"
