"""Markdown fields to HTML as the engine would convert them, one field at a time: the converter
``render/topic_html.py`` writes topic pages with, and what it hands the engine (:class:`RenderedPage`).

The engine's own extensions and settings, but for the two whose work the topic renderer does itself
(:data:`WRITTEN_HERE`); the engine's link step for the links a field may hold; and
:class:`LeftToEngine` for what only the engine can judge (a heading inside a field, a link this
converter cannot resolve, a field of several blocks where the engine reads one run of text).
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as etree
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit, urlunsplit

import markdown
from markdown.treeprocessors import Treeprocessor

from generator.render.escape import one_line
from generator.render.paths import site_link
from generator.render.text import inline

# The engine's own extensions of a page that this module writes itself rather than converts.
WRITTEN_HERE = ("md_in_html", "toc")
# The extensions that only act on a fenced block: a field without a fence is converted without them.
FENCES = ("fenced_code", "pymdownx.superfences")
FENCE_MARKS = re.compile(r"```|~~~")
FRAMED_KEPT = 256
_HEADING = re.compile(r"<h[1-6][\s>]")


class LeftToEngine(Exception):  # noqa: N818 - not an error: the engine converts the page as before
    """The page holds something only the engine can judge; it converts the page itself."""


@dataclass(frozen=True)
class RenderedPage:
    """What the engine learns of a page when it converts it (``page_cache.stored_page``'s fields)."""

    content: str
    toc: list[dict]
    anchors: list[str]
    links: list[list]  # [[docs path of the page linked to, {anchor: link as written}]], in reading order

    def entry(self) -> dict:
        return {"content": self.content, "toc": self.toc, "title": None, "anchors": self.anchors,
                "links": self.links, "messages": []}


@dataclass
class Links:
    """The links to anchors a page holds, by the page they go to, in reading order (MkDocs' ``links_to_anchors``)."""

    by_page: dict[str, dict[str, str]] = field(default_factory=dict)

    def add(self, page: str, anchor: str, written: str) -> None:
        self.by_page.setdefault(page, {}).setdefault(anchor, written)


class _PageLinks(Treeprocessor):
    """The engine's link step (``mkdocs.structure.pages._RelativePathTreeprocessor``) for the links
    a Markdown field may hold: a ``.md`` link to a page of the map becomes its site link
    (``paths.site_link``, made relative to the page after the engine, where it becomes the engine's
    built URL); anything else relative, or absolute, is left to the engine (it would warn, or guess)."""

    def __init__(self, md: markdown.Markdown, pages: frozenset[str]) -> None:
        super().__init__(md)
        self.pages = pages
        self.page = ""
        self.links = Links()

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            key = {"a": "href", "img": "src"}.get(element.tag)
            if key is not None:
                element.set(key, self.built(element.get(key, "")))

    def built(self, url: str) -> str:
        scheme, netloc, path, query, anchor = urlsplit(url)
        if scheme or netloc or markdown.util.AMP_SUBSTITUTE in url:
            return url
        if url.startswith(("/", "\\")):
            raise LeftToEngine(f"an absolute link {url!r}")
        if not path:
            if anchor:
                self.links.add(self.page, anchor, url)
            return url
        target = posixpath.normpath(posixpath.join(posixpath.dirname(self.page), unquote(path)).lstrip("/"))
        if target not in self.pages:
            raise LeftToEngine(f"a link {url!r} this renderer cannot resolve")
        if anchor:
            self.links.add(target, anchor, url)
        return urlunsplit(("", "", site_link(target), query, anchor))


class ProseConverter:
    """Markdown fields to HTML, one field at a time, with the engine's extensions and settings
    (all but those whose work this module does itself, :data:`WRITTEN_HERE`)."""

    def __init__(self, extensions: list[str], configs: dict[str, dict], pages: Iterable[str]) -> None:
        kept = [name for name in extensions if name not in WRITTEN_HERE]
        unfenced = [name for name in kept if name not in FENCES]
        self.md = markdown.Markdown(extensions=kept, extension_configs={k: v for k, v in configs.items() if k in kept})
        self.unfenced = markdown.Markdown(extensions=unfenced, extension_configs={k: v for k, v in configs.items() if k in unfenced})
        self.framing = markdown.Markdown(extensions=["md_in_html"])
        self.framed: dict[str, str] = {}
        self.linker = _PageLinks(self.md, frozenset(pages))
        for md in (self.md, self.unfenced):
            md.treeprocessors.register(self.linker, "layermap_links", 0)  # last, as the engine's is

    def start(self, page: str) -> Links:
        self.linker.page, self.linker.links = page, Links()
        return self.linker.links

    def block(self, text: str) -> str:
        """A field read as blocks (paragraphs, lists, code), as inside a ``<section markdown>``."""
        if "[TOC]" in text:
            raise LeftToEngine("a [TOC] marker")
        md = self.md if FENCE_MARKS.search(text) else self.unfenced  # fences' search of every field is a fifth of it
        md.reset()
        out = md.convert(text)
        if _HEADING.search(out):
            raise LeftToEngine("a heading inside a Markdown field")
        return out

    def raw(self, written: str) -> str:
        """Raw HTML blocks inside a ``markdown`` element, as md_in_html writes them back (their
        block-level elements parsed and written again, attributes by name): by md_in_html itself,
        in a wrapper, which costs little for these few small blocks."""
        if written not in self.framed:  # the same few switchers and notices on page after page
            if len(self.framed) > FRAMED_KEPT:
                self.framed.clear()
            self.framing.reset()
            out = self.framing.convert(f'<div markdown="1">\n\n{written}\n\n</div>')
            self.framed[written] = out.removeprefix("<div>\n").removesuffix("\n</div>")
        return self.framed[written]

    def span(self, text: str) -> str:
        """A field read as a run of text, as inside ``<p markdown>`` or ``<li markdown>``: the same
        as a paragraph's inside, for a field that is one paragraph (the engine's only case here)."""
        out = self.block(text)
        if not out:
            return ""
        if not (out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1 and "<p " not in out):
            raise LeftToEngine("a Markdown field of several blocks where the engine reads one run of text")
        return out[3:-4]


def plain_text(value: str) -> str:
    """Plain text as the engine renders ``md_text(value)``: ``md_text`` escapes every character
    Markdown gives a meaning to and Python-Markdown drops the backslashes, so what is left is the
    text on one line, HTML-escaped (``tests/generator/render/test_topic_html.py`` holds the two equal)."""
    return inline(one_line(value))
