"""The map computed once: layers, topics, edges both ways, siblings.

Every page reads this object; nothing below it looks at YAML again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.content.loading import Content
from generator.content.prerequisites import Prerequisite, prerequisite_table
from generator.content.schema import Edge, Layer, MapConfig, Source, Topic
from generator.model.plans import LearningPlan, learning_plan


@dataclass(frozen=True)
class MapEdge:
    """An edge with both ends resolved to topics."""

    subject: Topic
    verb: str
    object: Topic
    kind: str | None

    def touches(self, topic_id: str) -> bool:
        return topic_id in (self.subject.id, self.object.id)


@dataclass(frozen=True)
class KnowledgeMap:
    config: MapConfig
    layers: tuple[Layer, ...]
    topics: dict[str, Topic]
    topics_by_layer: dict[int, tuple[Topic, ...]]
    edges: tuple[MapEdge, ...]
    edges_by_topic: dict[str, tuple[MapEdge, ...]]
    source_file: dict[str, str]
    sources: dict[str, Source]  # the bibliography: every record citations may name, by key
    prerequisites: dict[str, tuple[Prerequisite, ...]] = field(default_factory=dict)  # by the topic that needs them

    def layer_of(self, topic: Topic) -> Layer:
        return next(layer for layer in self.layers if layer.number == topic.layer)

    def siblings(self, topic: Topic) -> tuple[Topic, ...]:
        return tuple(t for t in self.topics_by_layer[topic.layer] if t.id != topic.id)

    def learning_plan(self, topic: Topic, depth: str) -> LearningPlan:
        """What to read first, in order and at what depth, to understand ``topic`` at ``depth`` (plans.py)."""
        return learning_plan(topic, depth, self.prerequisites, self.topics)

    def neighbours(self, topic: Topic) -> tuple[Topic, ...]:
        seen: dict[str, Topic] = {}
        for edge in self.edges_by_topic[topic.id]:
            other = edge.object if edge.subject.id == topic.id else edge.subject
            seen.setdefault(other.id, other)
        return tuple(seen.values())


def _resolve(edge: Edge, topics: dict[str, Topic]) -> MapEdge:
    return MapEdge(topics[edge.subject], edge.verb, topics[edge.object], edge.kind)


def build_map(content: Content) -> KnowledgeMap:
    """Derive the whole map from validated content (edges already checked to resolve)."""
    topics = {tf.topic.id: tf.topic for tf in content.topics}
    layers = tuple(sorted(content.map.layers, key=lambda layer: layer.number))
    by_layer = {
        layer.number: tuple(sorted((t for t in topics.values() if t.layer == layer.number),
                                   key=lambda t: t.title.casefold()))
        for layer in layers
    }
    edges = tuple(_resolve(edge, topics) for tf in content.topics for edge in tf.topic.edges)
    touching: dict[str, list[MapEdge]] = {tid: [] for tid in topics}
    for edge in edges:
        touching[edge.subject.id].append(edge)
        if edge.object.id != edge.subject.id:
            touching[edge.object.id].append(edge)
    by_topic = {tid: tuple(found) for tid, found in touching.items()}
    return KnowledgeMap(content.map, layers, topics, by_layer, edges, by_topic,
                        {tf.topic.id: tf.file for tf in content.topics}, content.bibliography,
                        prerequisite_table(prerequisite_edges(content)))


def prerequisite_edges(content: Content) -> list[tuple[str, str, str | None]]:
    """(needer, needed, depth) of every edge whose kind map.yaml marks as a prerequisite."""
    kinds = {kind.id for kind in content.map.edge_kinds if kind.prerequisite}
    return [(edge.subject, edge.object, edge.depth) for tf in content.topics for edge in tf.topic.edges
            if edge.kind in kinds]
