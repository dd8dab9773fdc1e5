"""Links from a topic's text to other pages of the map.

A topic links to another page by its file, relative to its own page: ``[…](power-cooling.md)``
beside it in the same layer, ``[…](../layer-3/gpu-clusters.md#depth-d4)`` in another. The engine
meets a wrong one only when it builds (and then fails the whole build); here it is an error at
its field when the content is checked, with the page it most likely meant.
"""

from __future__ import annotations

import posixpath
import re

from generator.checks.where import at_topic, closest
from generator.content.loading import Content, TopicFile
from generator.content.yaml_source import text_fields
from generator.diagnostics import Diagnostic

PAGE_LINK = re.compile(r"\]\(([^()\s#:]+\.md)(?=[#)\s])")  # an inline link to a .md file, relative


def map_pages(content: Content) -> set[str]:
    """Every page of the docs tree a topic may link to: home, sources, layers and topics."""
    pages = {"index.md", "sources.md"}
    for tf in content.topics:
        pages |= {f"layer-{tf.topic.layer}/index.md", f"layer-{tf.topic.layer}/{tf.topic.id}.md"}
    return pages


def _link_problems(tf: TopicFile, pages: set[str]) -> list[Diagnostic]:
    own_page = f"layer-{tf.topic.layer}/{tf.topic.id}.md"
    found = []
    for path, text in text_fields(tf.doc.data):
        for target in PAGE_LINK.findall(text):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(own_page), target))
            if resolved in pages:
                continue
            meant = closest(resolved, sorted(pages))
            fix = (f"write `{posixpath.relpath(meant, posixpath.dirname(own_page))}`" if meant else
                   "link to a topic by its file, relative to this page: `other-topic.md` in this layer, "
                   "`../layer-N/other-topic.md` in another")
            found.append(at_topic(tf, path, "error", f"the link `{target}` names no page of the map (from this "
                                  f"topic's page it is `{resolved}`)", fix, value=True))
    return found


def check_page_links(content: Content) -> list[Diagnostic]:
    pages = map_pages(content)
    return [problem for tf in content.topics for problem in _link_problems(tf, pages)]
