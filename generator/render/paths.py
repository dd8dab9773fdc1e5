"""Where each page lives in the generated docs tree, and links between them."""

from __future__ import annotations

import posixpath

from generator.checks.page_links import PAGE_LINK
from generator.content.sanitise import SITE_LINK_SCHEME
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
    return relative_path(to_page, posixpath.dirname(from_page) or ".")


def relative_path(target: str, start: str) -> str:
    """``posixpath.relpath(target, start)`` without its detour through absolute paths, for the
    docs tree's own paths (relative, no ``..``; others go to ``relpath``): a 1,000-topic build
    asks about 55,000 times, and ``relpath`` was 5 % of rendering the topic pages."""
    to = [part for part in target.split("/") if part and part != "."]
    base = [part for part in start.split("/") if part and part != "."]
    if not target or not start or target[0] == "/" or start[0] == "/" or ".." in to or ".." in base:
        return posixpath.relpath(target, start)
    common = 0
    for ours, theirs in zip(to, base):
        if ours != theirs:
            break
        common += 1
    return "/".join([".."] * (len(base) - common) + to[common:]) or "."


def layer_label(layer: Layer) -> str:
    return f"Layer {layer.number} · {layer.name}"


# --- links in raw HTML (which an engine may rewrite if relative) ------------------------------


def built_url(page: str) -> str:
    """Where a docs-tree file ends up: ``layer-3/x.md`` → ``layer-3/x/``, ``index.md`` → ``""``."""
    if not page.endswith(".md"):
        return page
    stem = page[:-3]
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")]
        return stem
    return stem + "/"


def site_link(to: str) -> str:
    """A link from raw HTML layermap renders to ``to`` (a page or a file of the docs tree):
    ``layermap:`` and its built address from the site root (``layermap:layer-3/x/``), a form every
    engine leaves alone, made relative to each built page after the engine (``emit/site_links.py``).
    A query or fragment goes after it as in any link."""
    return f"{SITE_LINK_SCHEME}:{built_url(to)}"


def rebased_links(markdown: str, written_for: str, shown_on: str) -> str:
    """Markdown written for the page ``written_for``, its relative links to pages of the map
    (``[…](power-cooling.md)``, ``[…](../layer-3/gpu-clusters.md#…)``) made to work on ``shown_on``
    (a learning plan shows topics' text on a page of its own, in another folder)."""
    if posixpath.dirname(written_for) == posixpath.dirname(shown_on):
        return markdown
    folder = posixpath.dirname(written_for)
    return PAGE_LINK.sub(lambda m: "](" + link(shown_on, posixpath.normpath(posixpath.join(folder, m.group(1)))), markdown)

