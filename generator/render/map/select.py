"""Which topics and edges a map shows: a :class:`MapGraph` cut from the knowledge map.

A drawing is a :class:`MapGraph` — bands (layers, in order), nodes in bands and edges
between nodes — cut from the :class:`~generator.model.graph.KnowledgeMap` by :func:`whole_map`,
:func:`local_map`, :func:`layer_map` or :func:`overview_map`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from generator.content.schema import Layer, Topic
from generator.model.graph import KnowledgeMap, MapEdge
from generator.render.paths import layer_label, layer_page, topic_page


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


def layer_band(layer: Layer) -> Band:
    return Band(f"layer-{layer.number}", layer_label(layer))


def drawn(kmap: KnowledgeMap, edges: Iterable[MapEdge]) -> list[MapEdge]:
    """The edges a drawing shows: all but prerequisites (``needs``), which the learning plans and the
    topic pages' connections list; drawn too, they would double the arrows and crowd the labels."""
    hidden = {kind.id for kind in kmap.config.edge_kinds if kind.prerequisite}
    return [edge for edge in edges if edge.kind not in hidden]


def drawn_neighbours(kmap: KnowledgeMap, topic: Topic) -> list[Topic]:
    """A topic's neighbours by a drawn edge, each once."""
    seen: dict[str, Topic] = {}
    for edge in drawn(kmap, kmap.edges_by_topic[topic.id]):
        other = edge.object if edge.subject.id == topic.id else edge.subject
        seen.setdefault(other.id, other)
    return list(seen.values())


def topic_graph(kmap: KnowledgeMap, topics: Iterable[Topic], edges: Iterable[MapEdge], current: str | None = None,
                every_layer: bool = False) -> MapGraph:
    """Bands for the layers that have a chosen topic (or all), in map order; nodes; edges."""
    chosen = {t.id: t for t in topics}
    present = {t.layer for t in chosen.values()}
    layers = [layer for layer in kmap.layers if every_layer or layer.number in present]
    band_of = {layer.number: band for band, layer in enumerate(layers)}
    ordered = sorted(chosen.values(), key=lambda t: (band_of[t.layer], t.title.casefold()))  # as in the map
    nodes = tuple(NodeSpec(t.id, t.title, band_of[t.layer], topic_page(t), t.id == current) for t in ordered)
    specs = tuple(EdgeSpec(e.subject.id, e.object.id, e.verb, e.kind) for e in drawn(kmap, edges)
                  if e.subject.id in chosen and e.object.id in chosen)
    return MapGraph(tuple(layer_band(layer) for layer in layers), nodes, specs)


def whole_map(kmap: KnowledgeMap) -> MapGraph:
    """Every topic and every edge; every layer gets its band, even an empty one."""
    return topic_graph(kmap, kmap.topics.values(), kmap.edges, every_layer=True)


def local_map(kmap: KnowledgeMap, topic: Topic) -> MapGraph:
    """A topic, every neighbour by an edge either way, and those edges."""
    return topic_graph(kmap, (topic, *drawn_neighbours(kmap, topic)), kmap.edges_by_topic[topic.id], current=topic.id)


def layer_map(kmap: KnowledgeMap, layer: Layer, neighbours: bool = True) -> MapGraph:
    """A layer's topics, their neighbours in other layers and the edges touching the layer;
    without ``neighbours``, only the layer's own topics and the edges among them."""
    own = kmap.topics_by_layer[layer.number]
    if not neighbours:
        inside = [e for e in kmap.edges if e.subject.layer == layer.number == e.object.layer]
        return topic_graph(kmap, own, inside)
    edges = [e for e in kmap.edges if layer.number in (e.subject.layer, e.object.layer)]
    return topic_graph(kmap, (*own, *(n for t in own for n in drawn_neighbours(kmap, t))), edges)


def layer_pair_counts(kmap: KnowledgeMap) -> dict[tuple[int, int], int]:
    """How many edges run from each layer to each other (or the same) layer."""
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for edge in drawn(kmap, kmap.edges):
        counts[(edge.subject.layer, edge.object.layer)] += 1
    return counts


def overview_map(kmap: KnowledgeMap, strongest: int | None = None) -> MapGraph:
    """One node per layer (linking to its page), one edge per pair of layers with its count;
    with ``strongest``, only that many of the pairs with the most edges."""
    bands = tuple(layer_band(layer) for layer in kmap.layers)
    nodes = tuple(
        NodeSpec(f"layer-{layer.number}", f"{layer.name} ({len(kmap.topics_by_layer[layer.number])} topics)",
                 i, layer_page(layer.number))
        for i, layer in enumerate(kmap.layers)
    )
    counts = layer_pair_counts(kmap)
    kept = sorted(counts, key=lambda pair: (-counts[pair], pair))[:strongest]
    edges = tuple(
        EdgeSpec(f"layer-{a}", f"layer-{b}", f"{counts[(a, b)]} edge{'s' if counts[(a, b)] != 1 else ''}")
        for a, b in sorted(kept)
    )
    return MapGraph(bands, nodes, edges)
