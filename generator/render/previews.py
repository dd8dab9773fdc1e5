"""Hover previews: the data a page's links show on hover or focus, written into the page itself.

A link to another topic previews that topic's title and one-line summary; a citation previews
its entry in the page's own Sources list (already in the page). ``previews.js`` reads both from
the page: no request is made, so previews work offline and in the downloadable copy. The data is
one hidden block (left out of search), raw HTML with built URLs, the same in both topic renderers.
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.content.schema import Topic
from generator.render.paths import site_link, topic_page
from generator.render.text import attr, inline


def previews_html(topics: Iterable[Topic]) -> str:
    """The preview of each topic in ``topics`` (once each, in the order given)."""
    seen: dict[str, Topic] = {}
    for topic in topics:
        seen.setdefault(topic.id, topic)
    if not seen:
        return ""
    items = "".join(f'<p data-preview-for="{attr(site_link(topic_page(t)))}"><strong>{inline(t.title)}</strong> '
                    f"{inline(t.summary)}</p>" for t in seen.values())
    return f'<div class="lm-previews" data-search-exclude hidden>{items}</div>'
