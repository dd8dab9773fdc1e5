"""Where each page lives in the generated docs tree, and links between them."""

from __future__ import annotations

import posixpath

from generator.content.schema import Layer, Topic

HOME = "index.md"
SOURCES_PAGE = "sources.md"
OFFLINE_COPY = "downloads/layermap-offline.zip"  # the downloadable copy, built by generator/portable.py


def layer_page(number: int) -> str:
    return f"layer-{number}/index.md"


def topic_page(topic: Topic) -> str:
    return f"layer-{topic.layer}/{topic.id}.md"


def link(from_page: str, to_page: str) -> str:
    """Relative link between two docs-tree pages (the engine turns .md into URLs)."""
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")


def layer_label(layer: Layer) -> str:
    return f"Layer {layer.number} · {layer.name}"


# --- URLs of the built site (for raw HTML, which the engine does not rewrite) ---------------


def built_url(page: str) -> str:
    """Where a docs-tree file ends up: ``layer-3/x.md`` → ``layer-3/x/``, ``index.md`` → ``""``."""
    if not page.endswith(".md"):
        return page
    stem = page[:-3]
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")]
        return stem
    return stem + "/"


def relative_url(from_page: str, to: str) -> str:
    """Link from the built URL of ``from_page`` to ``to`` (a page or a file of the docs tree)."""
    base = built_url(from_page) or "."
    target = built_url(to)
    rel = posixpath.relpath(target or ".", base)
    if to.endswith(".md"):
        return "./" if rel == "." else rel + "/"
    return rel
