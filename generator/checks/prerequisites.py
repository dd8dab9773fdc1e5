"""Prerequisites (edges of a kind map.yaml marks ``prerequisite: true``): no cycle, no depth the
needed topic lacks, and a warning for a topic above the lowest layer that needs nothing.

Only a map that declares a prerequisite kind is checked: one without learning plans is not
asked to write prerequisites.
"""

from __future__ import annotations

from collections.abc import Iterator

from generator.checks.where import at_topic
from generator.content.loading import TopicFile
from generator.content.prerequisites import find_cycle, prerequisite_table
from generator.content.schema import MapConfig
from generator.diagnostics import Diagnostic


def _prerequisite_edges(topics: list[TopicFile], kinds: set[str]) -> Iterator[tuple[TopicFile, int]]:
    for tf in topics:
        for index, edge in enumerate(tf.topic.edges):
            if edge.kind in kinds:
                yield tf, index


def check_prerequisites(topics: list[TopicFile], map_config: MapConfig) -> list[Diagnostic]:
    kinds = {kind.id for kind in map_config.edge_kinds if kind.prerequisite}
    if not kinds:
        return []
    by_id = {tf.topic.id: tf for tf in topics}
    edges = [(tf, index) for tf, index in _prerequisite_edges(topics, kinds)
             if {tf.topic.edges[index].subject, tf.topic.edges[index].object} <= set(by_id)]  # else: reported already
    return [*_missing_depths(edges, by_id), *_cycle(edges), *_needing_nothing(topics, edges, map_config)]


def _missing_depths(edges: list[tuple[TopicFile, int]], by_id: dict[str, TopicFile]) -> Iterator[Diagnostic]:
    for tf, index in edges:
        edge = tf.topic.edges[index]
        needed = by_id[edge.object].topic
        present = [key for key, _ in needed.depths.present()]
        if edge.depth is not None and edge.depth not in present:
            yield at_topic(tf, ("edges", index, "depth"), "error",
                           f"`{edge.object}` has no {edge.depth}, so `{edge.subject}` cannot need it at {edge.depth}",
                           f"use one of its depths ({', '.join(present)}), or write its {edge.depth} first", value=True)


def _cycle(edges: list[tuple[TopicFile, int]]) -> Iterator[Diagnostic]:
    table = prerequisite_table((tf.topic.edges[i].subject, tf.topic.edges[i].object, tf.topic.edges[i].depth)
                               for tf, i in edges)
    cycle = find_cycle(table)
    if cycle is None:
        return
    first, second = cycle[0], cycle[1]
    tf, index = next((tf, i) for tf, i in edges
                     if (tf.topic.edges[i].subject, tf.topic.edges[i].object) == (first, second))
    yield at_topic(tf, ("edges", index), "error", f"prerequisites go round in a circle: {' → needs → '.join(cycle)}",
                   "a topic cannot be needed before itself: remove or reverse one of these edges")


def _needing_nothing(topics: list[TopicFile], edges: list[tuple[TopicFile, int]],
                     map_config: MapConfig) -> Iterator[Diagnostic]:
    lowest = min(layer.number for layer in map_config.layers)
    needers = {tf.topic.edges[index].subject for tf, index in edges}
    kinds = ", ".join(f"`{kind.id}`" for kind in map_config.edge_kinds if kind.prerequisite)
    for tf in topics:
        if tf.topic.layer > lowest and tf.topic.id not in needers:
            yield at_topic(tf, ("id",), "warning", f"`{tf.topic.id}` needs no other topic, so its learning plan is itself alone",
                           f"add an edge of kind {kinds} to what a reader should read first "
                           f"(e.g. `{{subject: {tf.topic.id}, verb: needs, object: …, kind: …}}`)", value=True)
