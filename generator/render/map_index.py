"""The map index: topics, layers, edges and summaries as one JSON document.

Written at build time to ``assets/layermap/map-index.json``; ``map.js`` reads it for
the summaries it shows beside the drawn map, and the tests read it to check the site.
URLs are the built site's directory URLs, relative to the site root.
"""

from __future__ import annotations

import json
from typing import Any

from generator.model.graph import KnowledgeMap
from generator.render.map import INDEX_FILE
from generator.render.paths import built_url, layer_label, layer_page, topic_page

INDEX_VERSION = 1
__all__ = ["INDEX_FILE", "map_index", "map_index_json"]


def map_index(kmap: KnowledgeMap) -> dict[str, Any]:
    return {
        "version": INDEX_VERSION,
        "title": kmap.config.title,
        "layers": [
            {"number": layer.number, "name": layer.name, "label": layer_label(layer),
             "description": layer.description, "url": built_url(layer_page(layer.number)),
             "topics": [t.id for t in kmap.topics_by_layer[layer.number]]}
            for layer in kmap.layers
        ],
        "topics": [
            {"id": t.id, "title": t.title, "layer": t.layer, "summary": t.summary, "url": built_url(topic_page(t))}
            for layer in kmap.layers for t in kmap.topics_by_layer[layer.number]
        ],
        "edges": [{"subject": e.subject.id, "verb": e.verb, "object": e.object.id, "kind": e.kind} for e in kmap.edges],
        "edge_kinds": [{"id": k.id, "label": k.label, "colour": k.colour} for k in kmap.config.edge_kinds],
    }


def map_index_json(kmap: KnowledgeMap) -> str:
    return json.dumps(map_index(kmap), ensure_ascii=False, separators=(",", ":"))
