"""Where each page lives in the generated docs tree, and links between them."""

from __future__ import annotations

import posixpath

from generator.schema import Layer, Topic

HOME = "index.md"


def layer_page(number: int) -> str:
    return f"layer-{number}/index.md"


def topic_page(topic: Topic) -> str:
    return f"layer-{topic.layer}/{topic.id}.md"


def link(from_page: str, to_page: str) -> str:
    """Relative link between two docs-tree pages (the engine turns .md into URLs)."""
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")


def layer_label(layer: Layer) -> str:
    return f"Layer {layer.number} · {layer.name}"
