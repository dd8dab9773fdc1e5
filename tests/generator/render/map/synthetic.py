"""A generated knowledge map of any size: ``topics`` topics spread over ``layers`` layers, one edge each."""

from __future__ import annotations

from generator.content.loading import Content, TopicFile
from generator.content.schema import Depth, Depths, Edge, EdgeKind, Layer, MapConfig, Topic
from generator.model.graph import KnowledgeMap, build_map


def synthetic_map(topics: int, layers: int = 4) -> KnowledgeMap:
    config = MapConfig(
        title="Synthetic", introduction="x", depths=[{"key": "D1", "name": "Story", "audience": "All"}],
        layers=[Layer(number=i, name=f"L{i}", description="d") for i in range(1, layers + 1)],
        edge_kinds=[EdgeKind(id="feeds", label="feeds", colour="#2f9e44")],
    )
    files = []
    for i in range(topics):
        edges = [Edge(subject=f"t{i}", verb="feeds", object=f"t{(i * 7 + 3) % topics}", kind="feeds")] \
            if (i * 7 + 3) % topics != i else []
        topic = Topic(id=f"t{i}", title=f"Topic {i}", layer=i % layers + 1, summary="s",
                      depths=Depths(D1=Depth(body="b")), edges=edges)
        files.append(TopicFile(topic, f"content/t{i}.yaml", None))  # type: ignore[arg-type]
    return build_map(Content(config, "content/map.yaml", files))


