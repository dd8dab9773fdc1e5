"""The map index: every topic, layer, edge and kind, with the summaries map.js shows."""

from __future__ import annotations

import json

from generator.render.map_index import map_index, map_index_json
from tests.generator.render.map.drawn import KMAP


def test_map_index_lists_topics_layers_edges_and_summaries() -> None:
    index = json.loads(map_index_json(KMAP))
    assert index == map_index(KMAP)
    topics = {t["id"]: t for t in index["topics"]}
    assert set(topics) == set(KMAP.topics)
    assert topics["gpu-clusters"]["url"] == "layer-3/gpu-clusters/"
    assert topics["gpu-clusters"]["summary"] == KMAP.topics["gpu-clusters"].summary
    assert [layer["number"] for layer in index["layers"]] == [layer.number for layer in KMAP.layers]
    assert len(index["edges"]) == len(KMAP.edges)
    assert {k["id"] for k in index["edge_kinds"]} == {k.id for k in KMAP.config.edge_kinds}


